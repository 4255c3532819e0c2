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

    /**
     * A bound the BSON size of a value other than a document or an array never exceeds (a UTF-16 unit is at most 3
     * bytes of UTF-8, a fixed-size value at most 16): {@link DocumentMapper}'s walk adds these up for the types it
     * does not map itself, so that only documents near the 16 MiB limit are encoded to learn their exact size.
     */
    static long valueBound(org.bson.BsonValue v) {
        return switch (v.getBsonType()) {
            case DOCUMENT -> documentBound(v.asDocument());
            case ARRAY -> {
                long n = 5;
                for (org.bson.BsonValue x : v.asArray()) {
                    n += 12 + valueBound(x);
                }
                yield n;
            }
            case STRING -> 5 + 3L * v.asString().getValue().length();
            case SYMBOL -> 5 + 3L * v.asSymbol().getSymbol().length();
            case JAVASCRIPT -> 5 + 3L * v.asJavaScript().getCode().length();
            case BINARY -> 9 + v.asBinary().getData().length;
            case REGULAR_EXPRESSION -> 2 + 3L * (v.asRegularExpression().getPattern().length()
                    + v.asRegularExpression().getOptions().length());
            case DB_POINTER -> 17 + 3L * v.asDBPointer().getNamespace().length();
            case JAVASCRIPT_WITH_SCOPE -> 14 + 3L * v.asJavaScriptWithScope().getCode().length()
                    + documentBound(v.asJavaScriptWithScope().getScope());
            default -> 16;
        };
    }

    /** For a code-with-scope value's scope (the walk maps every other document itself). */
    private static long documentBound(BsonDocument doc) {
        long n = 5;
        for (java.util.Map.Entry<String, org.bson.BsonValue> e : doc.entrySet()) {
            n += 2 + 3L * e.getKey().length() + valueBound(e.getValue());
        }
        return n;
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
