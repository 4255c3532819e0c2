package io.tetradb.mongo.bson;

import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.OutputBuffer;

import java.io.OutputStream;
import java.util.List;

/**
 * The size of a document in BSON, which is what MongoDB's 16 MiB limit counts. The bson library's own writer
 * encodes it into a sink that only counts, so a 16 MiB document costs no 16 MiB buffer; a document that came
 * off the wire as raw bytes is not encoded at all.
 */
public final class BsonSize {
    private static final BsonDocumentCodec CODEC = new BsonDocumentCodec();

    private BsonSize() {
    }

    public static int of(BsonDocument doc) {
        if (doc instanceof RawBsonDocument raw) {
            return raw.getByteBuffer().remaining();
        }
        Counter counter = new Counter();
        try (BsonBinaryWriter writer = new BsonBinaryWriter(counter)) {
            CODEC.encode(writer, doc, EncoderContext.builder().build());
        }
        return counter.size;
    }

    /** An output that keeps no bytes: the writer's back-patched lengths land at positions it already counted. */
    private static final class Counter extends OutputBuffer {
        private int size;

        @Override
        public void writeBytes(byte[] bytes, int offset, int length) {
            size += length;
        }

        @Override
        public void writeByte(int value) {
            size++;
        }

        @Override
        protected void write(int absolutePosition, int value) {
        }

        @Override
        public int getPosition() {
            return size;
        }

        @Override
        public int getSize() {
            return size;
        }

        @Override
        public void truncateToPosition(int newPosition) {
            size = newPosition;
        }

        @Override
        public int pipe(OutputStream out) {
            throw new UnsupportedOperationException("a counter holds no bytes");
        }

        @Override
        public List<ByteBuf> getByteBuffers() {
            throw new UnsupportedOperationException("a counter holds no bytes");
        }
    }
}
