package io.tetradb.server.fuzz;

import io.tetradb.mongo.wire.ReplyEncoder;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Mongo wire inputs the fuzz mutates (the same kinds as mongo-wire-adapter's {@code MongoWireFuzzTest}): CRUD,
 * aggregation, SCRAM garbage, legacy OP_QUERY, 10,000 levels of nesting, a binary declaring 600 MB; built byte by
 * byte so they can carry what no driver sends.
 */
final class MongoFuzzInputs {
    static final int OP_MSG = 2013;
    static final int OP_QUERY = 2004;
    static final int PING_ID = 0x70696e67;

    private MongoFuzzInputs() {
    }

    static byte[] ping() {
        return opMsg(PING_ID, ReplyEncoder.bson(new BsonDocument("ping", new BsonInt32(1))
                .append("$db", new BsonString("admin"))));
    }

    /** The frame's declared length is what was sent (else the server waits for the rest). */
    static boolean whole(byte[] input) {
        return input.length >= 16 && ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == input.length;
    }

    static List<byte[]> seeds() {
        List<byte[]> seeds = new ArrayList<>();
        int id = 1;
        seeds.add(msg(id++, new BsonDocument("hello", new BsonInt32(1)).append("$db", new BsonString("admin"))));
        seeds.add(opQuery(id++, "admin.$cmd", new BsonDocument("isMaster", new BsonInt32(1))));
        seeds.add(msg(id++, cmd("find", "c").append("filter",
                BsonDocument.parse("{x: {$gte: 1}, y: {$in: [1, 'a', null]}}"))));
        seeds.add(msg(id++, cmd("insert", "c").append("documents", new BsonArray(List.of(
                BsonDocument.parse("{x: 2, s: 'héllo', b: {$binary: {base64: 'AAEC', subType: '00'}}}"))))));
        seeds.add(msg(id++, cmd("update", "c").append("updates", new BsonArray(List.of(
                BsonDocument.parse("{q: {x: 2}, u: {$inc: {x: 1}, $push: {a: 1}}, upsert: true}"))))));
        seeds.add(msg(id++, cmd("aggregate", "c").append("pipeline", BsonArray.parse(
                "[{$match: {x: {$gt: 0}}}, {$group: {_id: '$x', n: {$sum: 1}}}, {$sort: {n: -1}}]"))
                .append("cursor", new BsonDocument())));
        seeds.add(msg(id++, cmd("delete", "c").append("deletes", new BsonArray(List.of(
                BsonDocument.parse("{q: {x: {$gt: 100}}, limit: 0}"))))));
        seeds.add(msg(id++, new BsonDocument("saslStart", new BsonInt32(1))
                .append("mechanism", new BsonString("SCRAM-SHA-256"))
                .append("payload", new BsonBinary("n,,n=\u00ff\u0000,r=%%%".getBytes(StandardCharsets.ISO_8859_1)))
                .append("$db", new BsonString("admin"))));
        seeds.add(msg(id++, new BsonDocument("saslContinue", new BsonInt32(1))
                .append("conversationId", new BsonInt32(42)).append("payload", new BsonBinary(new byte[] {1, 2, 3}))
                .append("$db", new BsonString("admin"))));
        seeds.add(msg(id++, new BsonDocument("authenticate", new BsonInt32(1))
                .append("mechanism", new BsonString("MONGODB-X509")).append("$db", new BsonString("$external"))));
        seeds.add(opMsg(id++, document(element(2, "find", string("c")), element(3, "filter", nested(10_000)),
                element(2, "$db", string("fuzz")))));
        seeds.add(opMsg(id++, document(element(2, "find", string("c")), element(3, "filter", document(element(5, "b",
                        ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN).putInt(600_000_000).put((byte) 0)
                                .put((byte) 1).array()))),
                element(2, "$db", string("fuzz")))));
        return seeds;
    }

    private static BsonDocument cmd(String name, String value) {
        return new BsonDocument(name, new BsonString(value)).append("$db", new BsonString("fuzz"));
    }

    static byte[] msg(int requestId, BsonDocument body) {
        return opMsg(requestId, ReplyEncoder.bson(body));
    }

    /** An OP_MSG with one kind-0 section holding these raw document bytes. */
    static byte[] opMsg(int requestId, byte[] bodyBson) {
        ByteBuffer b = ByteBuffer.allocate(16 + 4 + 1 + bodyBson.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(b.capacity()).putInt(requestId).putInt(0).putInt(OP_MSG).putInt(0).put((byte) 0).put(bodyBson);
        return b.array();
    }

    private static byte[] opQuery(int requestId, String namespace, BsonDocument query) {
        byte[] ns = (namespace + "\0").getBytes(StandardCharsets.UTF_8);
        byte[] q = ReplyEncoder.bson(query);
        ByteBuffer b = ByteBuffer.allocate(16 + 4 + ns.length + 8 + q.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(b.capacity()).putInt(requestId).putInt(0).putInt(OP_QUERY).putInt(0).put(ns).putInt(0).putInt(-1)
                .put(q);
        return b.array();
    }

    private static byte[] document(byte[]... elements) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int size = 5;
        for (byte[] e : elements) {
            size += e.length;
        }
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(size).array());
        for (byte[] e : elements) {
            out.writeBytes(e);
        }
        out.write(0);
        return out.toByteArray();
    }

    private static byte[] element(int type, String name, byte[] value) {
        byte[] n = (name + "\0").getBytes(StandardCharsets.UTF_8);
        byte[] e = new byte[1 + n.length + value.length];
        e[0] = (byte) type;
        System.arraycopy(n, 0, e, 1, n.length);
        System.arraycopy(value, 0, e, 1 + n.length, value.length);
        return e;
    }

    private static byte[] string(String s) {
        byte[] b = (s + "\0").getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + b.length).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length).put(b).array();
    }

    /** {@code {a: {a: ... {}}}} nested {@code levels} deep, built without recursion. */
    private static byte[] nested(int levels) {
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
}
