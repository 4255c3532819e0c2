package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;

/** Writes replies: OP_MSG with one kind-0 section, or OP_REPLY with one document (answer to an OP_QUERY). */
public final class ReplyEncoder {
    private static final BsonDocumentCodec CODEC = new BsonDocumentCodec();

    private ReplyEncoder() {
    }

    public static byte[] bson(BsonDocument doc) {
        BasicOutputBuffer out = new BasicOutputBuffer();
        try (BsonBinaryWriter writer = new BsonBinaryWriter(out)) {
            CODEC.encode(writer, doc, EncoderContext.builder().build());
        }
        return out.toByteArray();
    }

    public static ByteBuf opMsg(ByteBufAllocator alloc, int requestId, int responseTo, BsonDocument doc) {
        byte[] body = bson(doc);
        ByteBuf buf = alloc.buffer(16 + 5 + body.length);
        buf.writeIntLE(16 + 5 + body.length).writeIntLE(requestId).writeIntLE(responseTo).writeIntLE(OpCode.OP_MSG);
        buf.writeIntLE(0).writeByte(0).writeBytes(body);
        return buf;
    }

    public static ByteBuf opReply(ByteBufAllocator alloc, int requestId, int responseTo, BsonDocument doc,
                                  boolean queryFailure) {
        byte[] body = bson(doc);
        int length = 16 + 20 + body.length;
        ByteBuf buf = alloc.buffer(length);
        buf.writeIntLE(length).writeIntLE(requestId).writeIntLE(responseTo).writeIntLE(OpCode.OP_REPLY);
        buf.writeIntLE(queryFailure ? 2 : 0).writeLongLE(0).writeIntLE(0).writeIntLE(1).writeBytes(body);
        return buf;
    }
}
