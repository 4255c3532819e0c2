package io.tetradb.core.item;

import java.math.BigDecimal;
import java.math.BigInteger;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * Streams a {@link BinaryItemFormat} value to a {@link Sink} in document order, handing out field names and strings
 * as the UTF-8 byte ranges the item stores them in: a face whose wire format is UTF-8 too (BSON) copies them without
 * decoding a Java string or building any value object. {@link BinaryItemWalker} stays the decoder of whole values.
 * Malformed bytes raise {@link IllegalArgumentException} (or an index exception), as {@link BinaryItemReader} does.
 */
public final class BinaryItemEvents {
    private BinaryItemEvents() {
    }

    /** Receives one value's events; a container's children come between its start and its end. */
    public interface Sink {
        void nullValue();

        void bool(boolean v);

        void int32(int v);

        void int64(long v);

        void float64(double v);

        void float32(float v);

        void bigInteger(BigInteger v);

        void bigDecimal(BigDecimal v);

        void decimal128(BigDecimal v);

        /** Decimal128 NaN (0), +Infinity (1) or -Infinity (2). */
        void decimal128Special(int kind);

        /** A string as {@code length} bytes of UTF-8 at {@code off} of {@code b} (valid until the sink returns). */
        void string(byte[] b, int off, int length);

        /** 100 ns ticks since 1970 UTC; {@code offsetMinutes} is {@code DateTimeNode.NO_OFFSET} when there is none. */
        void dateTime(long ticks, int offsetMinutes);

        void binary(int subtype, byte[] b, int off, int length);

        /** The 12 bytes of an ObjectId at {@code off} of {@code b}. */
        void objectId(byte[] b, int off);

        /** A UUID as its 16 big-endian bytes at {@code off} of {@code b}. */
        void uuid(byte[] b, int off);

        void timestamp(long value);

        void regex(String pattern, String options);

        void minKey();

        void maxKey();

        /** An object of {@code count} fields at nesting {@code depth} (the item itself is depth 1). */
        void startObject(int count, int depth);

        /**
         * The name of the next field of the current object ({@code length} UTF-8 bytes at {@code off}); false skips
         * the field's value (no events for it).
         */
        boolean field(byte[] b, int off, int length, int depth);

        void endObject(int depth);

        void startArray(int count, int depth);

        void endArray(int depth);
    }

    /** Streams the value at {@code off} to {@code sink}; returns the offset just past it. */
    public static int stream(byte[] b, int off, Sink sink) {
        Cursor c = new Cursor(b, off, sink);
        c.value(0);
        return c.pos;
    }

    private static final class Cursor extends ItemCursor {
        private final Sink sink;

        Cursor(byte[] b, int pos, Sink sink) {
            super(b, pos);
            this.sink = sink;
        }

        void value(int depth) {
            int tag = b[pos++];
            switch (tag) {
                case NULL -> sink.nullValue();
                case FALSE -> sink.bool(false);
                case TRUE -> sink.bool(true);
                case INT32 -> {
                    sink.int32(Bytes.i32(b, pos));
                    pos += 4;
                }
                case INT64 -> sink.int64(i64());
                case DOUBLE -> sink.float64(Double.longBitsToDouble(i64()));
                case FLOAT -> {
                    sink.float32(Float.intBitsToFloat(Bytes.i32(b, pos)));
                    pos += 4;
                }
                case BIG_INTEGER -> sink.bigInteger(new BigInteger(bytes()));
                case BIG_DECIMAL -> sink.bigDecimal(decimal());
                case DECIMAL128 -> sink.decimal128(decimal());
                case DECIMAL128_SPECIAL -> sink.decimal128Special(b[pos++]);
                case STRING -> {
                    int n = varint();
                    sink.string(b, pos, n);
                    pos += n;
                }
                case OBJECT, OBJECT_WIDE -> {
                    int end = pos + 4 + Bytes.i32(b, pos);
                    pos += 4;
                    int count = varint();
                    pos += (tag == OBJECT ? 2 : 4) * count;
                    sink.startObject(count, depth + 1);
                    for (int i = 0; i < count; i++) {
                        int n = varint();
                        int key = pos;
                        pos += n;
                        if (sink.field(b, key, n, depth + 1)) {
                            value(depth + 1);
                        } else {
                            pos = BinaryItemReader.skip(b, pos);
                        }
                    }
                    if (pos != end) {
                        throw new IllegalArgumentException("object size does not match its fields at " + pos);
                    }
                    sink.endObject(depth + 1);
                }
                case ARRAY -> {
                    pos += 4;
                    int count = varint();
                    sink.startArray(count, depth + 1);
                    for (int i = 0; i < count; i++) {
                        value(depth + 1);
                    }
                    sink.endArray(depth + 1);
                }
                case DATE_TIME -> sink.dateTime(i64(), io.tetradb.core.value.DateTimeNode.NO_OFFSET);
                case DATE_TIME_OFFSET -> {
                    long ticks = i64();
                    int offset = Bytes.i16(b, pos);
                    pos += 2;
                    sink.dateTime(ticks, offset);
                }
                case BINARY -> {
                    int subtype = b[pos++] & 0xFF;
                    int n = varint();
                    sink.binary(subtype, b, pos, n);
                    pos += n;
                }
                case OBJECT_ID -> {
                    sink.objectId(b, pos);
                    pos += 12;
                }
                case UUID -> {
                    sink.uuid(b, pos);
                    pos += 16;
                }
                case TIMESTAMP -> sink.timestamp(i64());
                case REGEX -> {
                    String pattern = string();
                    sink.regex(pattern, string());
                }
                case MIN_KEY -> sink.minKey();
                case MAX_KEY -> sink.maxKey();
                default -> throw new IllegalArgumentException("unknown tag 0x" + Integer.toHexString(tag & 0xFF)
                        + " at " + (pos - 1));
            }
        }
    }
}
