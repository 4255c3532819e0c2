package io.tetradb.mongo;

import io.tetradb.mongo.wire.ReplyEncoder;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Builds wire frames byte by byte (so they can carry what no driver would send) and reads replies. */
public final class WireFrames {
    static final int OP_MSG = 2013;
    static final int OP_QUERY = 2004;

    private WireFrames() {
    }

    static byte[] opMsg(int requestId, BsonDocument body) {
        return opMsg(requestId, ReplyEncoder.bson(body));
    }

    /** An OP_MSG with one kind-0 section holding these raw document bytes. */
    static byte[] opMsg(int requestId, byte[] bodyBson) {
        ByteBuffer b = ByteBuffer.allocate(16 + 4 + 1 + bodyBson.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(b.capacity()).putInt(requestId).putInt(0).putInt(OP_MSG).putInt(0).put((byte) 0).put(bodyBson);
        return b.array();
    }

    static byte[] opQuery(int requestId, String namespace, BsonDocument query) {
        byte[] ns = (namespace + "\0").getBytes(StandardCharsets.UTF_8);
        byte[] q = ReplyEncoder.bson(query);
        ByteBuffer b = ByteBuffer.allocate(16 + 4 + ns.length + 8 + q.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(b.capacity()).putInt(requestId).putInt(0).putInt(OP_QUERY).putInt(0).put(ns).putInt(0).putInt(-1)
                .put(q);
        return b.array();
    }

    /** A BSON document made of these raw elements (type byte, name, value). */
    public static byte[] document(byte[]... elements) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int size = 5;
        for (byte[] e : elements) {
            size += e.length;
        }
        out.writeBytes(int32(size));
        for (byte[] e : elements) {
            out.writeBytes(e);
        }
        out.write(0);
        return out.toByteArray();
    }

    public static byte[] element(int type, String name, byte[] value) {
        byte[] n = (name + "\0").getBytes(StandardCharsets.UTF_8);
        byte[] e = new byte[1 + n.length + value.length];
        e[0] = (byte) type;
        System.arraycopy(n, 0, e, 1, n.length);
        System.arraycopy(value, 0, e, 1 + n.length, value.length);
        return e;
    }

    public static byte[] string(String s) {
        byte[] b = (s + "\0").getBytes(StandardCharsets.UTF_8);
        ByteBuffer buf = ByteBuffer.allocate(4 + b.length).order(ByteOrder.LITTLE_ENDIAN);
        return buf.putInt(b.length).put(b).array();
    }

    public static byte[] int32(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    /** {@code {a: {a: ... {}}}} nested {@code levels} deep (the outer document is level 1), built without recursion. */
    static byte[] nested(int levels) {
        int size = 5 + 8 * (levels - 1);
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (int level = 0; level < levels - 1; level++) {
            b.putInt(size - 8 * level).put((byte) 3).put((byte) 'a').put((byte) 0);
        }
        b.putInt(5).put((byte) 0);
        for (int level = 0; level < levels - 1; level++) {
            b.put((byte) 0);
        }
        return b.array();
    }

    /** One reply: {@code [responseTo, document]}. */
    static Object[] readReply(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[16];
        data.readFully(header);
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int length = h.getInt();
        h.getInt();
        int responseTo = h.getInt();
        int opCode = h.getInt();
        byte[] body = new byte[length - 16];
        data.readFully(body);
        int docStart = opCode == 1 ? 20 : 5;
        return new Object[] {responseTo, new RawBsonDocument(Arrays.copyOfRange(body, docStart, body.length))};
    }

    /** Writes {@code frame}, reads its reply, and checks that it answers request {@code requestId}. */
    static RawBsonDocument exchange(java.net.Socket s, byte[] frame, int requestId) throws IOException {
        s.getOutputStream().write(frame);
        s.getOutputStream().flush();
        Object[] reply = readReply(s.getInputStream());
        org.junit.jupiter.api.Assertions.assertEquals(requestId, reply[0]);
        return (RawBsonDocument) reply[1];
    }
}
