package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;

/** Writes replies: OP_MSG with one kind-0 section, or OP_REPLY with one document (answer to an OP_QUERY). */
public final class ReplyEncoder {
    private static final BsonDocumentCodec CODEC = new BsonDocumentCodec();
    private static final EncoderContext CONTEXT = EncoderContext.builder().build();
    /** Each thread encodes into its own buffer, kept between replies unless a large one grew it. */
    private static final ThreadLocal<BasicOutputBuffer> BUFFERS = ThreadLocal.withInitial(ReplyEncoder::newBuffer);
    private static final int KEPT_BUFFER_BYTES = 1 << 20;

    private ReplyEncoder() {
    }

    private static BasicOutputBuffer newBuffer() {
        return new BasicOutputBuffer(4096);
    }

    public static byte[] bson(BsonDocument doc) {
        BasicOutputBuffer out = new BasicOutputBuffer();
        try (BsonBinaryWriter writer = new BsonBinaryWriter(out)) {
            CODEC.encode(writer, doc, CONTEXT);
        }
        return out.toByteArray();
    }

    public static ByteBuf opMsg(ByteBufAllocator alloc, int requestId, int responseTo, BsonDocument doc) {
        return frame(alloc, doc, 16 + 5, buf -> buf.writeIntLE(requestId).writeIntLE(responseTo)
                .writeIntLE(OpCode.OP_MSG).writeIntLE(0).writeByte(0));
    }

    public static ByteBuf opReply(ByteBufAllocator alloc, int requestId, int responseTo, BsonDocument doc,
                                  boolean queryFailure) {
        return frame(alloc, doc, 16 + 20, buf -> buf.writeIntLE(requestId).writeIntLE(responseTo)
                .writeIntLE(OpCode.OP_REPLY).writeIntLE(queryFailure ? 2 : 0).writeLongLE(0).writeIntLE(0)
                .writeIntLE(1));
    }

    /** The message: its length, the header after the length ({@code headerBytes} in all), then the document. */
    private static ByteBuf frame(ByteBufAllocator alloc, BsonDocument doc, int headerBytes,
                                 java.util.function.Consumer<ByteBuf> header) {
        if (doc instanceof RawBsonDocument raw) { // a reply written as bytes already (Replies.singleBatch)
            java.nio.ByteBuffer bytes = raw.getByteBuffer().asNIO();
            int length = headerBytes + bytes.remaining();
            ByteBuf buf = alloc.buffer(length);
            buf.writeIntLE(length);
            header.accept(buf);
            buf.writeBytes(bytes);
            return buf;
        }
        BasicOutputBuffer out = BUFFERS.get();
        out.truncateToPosition(0);
        try {
            try (BsonBinaryWriter writer = new BsonBinaryWriter(out)) {
                CODEC.encode(writer, doc, CONTEXT);
            }
            int length = headerBytes + out.getPosition();
            ByteBuf buf = alloc.buffer(length);
            buf.writeIntLE(length);
            header.accept(buf);
            buf.writeBytes(out.getInternalBuffer(), 0, out.getPosition());
            return buf;
        } finally {
            if (out.getInternalBuffer().length > KEPT_BUFFER_BYTES) {
                BUFFERS.set(newBuffer());
            }
        }
    }
}
