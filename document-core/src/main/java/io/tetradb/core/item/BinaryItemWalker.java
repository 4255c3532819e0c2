package io.tetradb.core.item;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * Decodes a {@link BinaryItemFormat} value straight into a face's own value model (BSON, Edm, ...) through a
 * {@link Builder}, without building the Jackson tree first: a face that answers in its own types skips one whole
 * tree of nodes and maps per read. Thread-safe; malformed bytes raise {@link IllegalArgumentException} (or an index
 * exception), as {@link BinaryItemReader} does.
 */
public final class BinaryItemWalker {
    private BinaryItemWalker() {
    }

    /** Builds a face's values; objects and arrays are built in place (the container object is the builder's own). */
    public interface Builder<V> {
        V nullValue();

        V bool(boolean v);

        V int32(int v);

        V int64(long v);

        V float64(double v);

        V float32(float v);

        V bigInteger(BigInteger v);

        V bigDecimal(BigDecimal v);

        V decimal128(BigDecimal v);

        /** Decimal128 NaN (0), +Infinity (1) or -Infinity (2). */
        V decimal128Special(int kind);

        V string(String v);

        /** 100 ns ticks since 1970 UTC; {@code offsetMinutes} is {@code DateTimeNode.NO_OFFSET} when there is none. */
        V dateTime(long ticks, int offsetMinutes);

        V binary(int subtype, byte[] bytes);

        V objectId(byte[] twelve);

        /** A UUID as its two big-endian halves. */
        V uuid(long mostSignificant, long leastSignificant);

        V timestamp(long value);

        V regex(String pattern, String options);

        V minKey();

        V maxKey();

        /** A new object of {@code count} fields, at nesting {@code depth} (the item itself is depth 1). */
        Object startObject(int count, int depth);

        void field(Object object, String name, V value, int depth);

        V endObject(Object object, int depth);

        /**
         * core-read: a value standing for the object whose tag is at {@code at} (nesting {@code depth}), left
         * undecoded, or null to decode it now (the default); the walk then goes on after the object.
         */
        default V deferredObject(byte[] b, int at, int depth) {
            return null;
        }

        Object startArray(int count, int depth);

        void element(Object array, V value);

        V endArray(Object array);
    }

    /** The value at {@code off} as {@code builder} builds it. */
    public static <V> V read(byte[] b, int off, Builder<V> builder) {
        return new Walk<>(b, off, builder).value(0);
    }

    private static final class Walk<V> extends ItemCursor {
        final Builder<V> builder;

        Walk(byte[] b, int pos, Builder<V> builder) {
            super(b, pos);
            this.builder = builder;
        }

        long bigEndian(int at) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (b[at + i] & 0xFF);
            }
            return v;
        }

        V value(int depth) {
            int tag = b[pos++];
            switch (tag) {
                case NULL:
                    return builder.nullValue();
                case FALSE:
                    return builder.bool(false);
                case TRUE:
                    return builder.bool(true);
                case INT32: {
                    int v = Bytes.i32(b, pos);
                    pos += 4;
                    return builder.int32(v);
                }
                case INT64:
                    return builder.int64(i64());
                case DOUBLE:
                    return builder.float64(Double.longBitsToDouble(i64()));
                case FLOAT: {
                    float f = Float.intBitsToFloat(Bytes.i32(b, pos));
                    pos += 4;
                    return builder.float32(f);
                }
                case BIG_INTEGER:
                    return builder.bigInteger(new BigInteger(bytes()));
                case BIG_DECIMAL:
                    return builder.bigDecimal(decimal());
                case DECIMAL128:
                    return builder.decimal128(decimal());
                case DECIMAL128_SPECIAL:
                    return builder.decimal128Special(b[pos++]);
                case STRING:
                    return builder.string(string());
                case OBJECT:
                case OBJECT_WIDE: {
                    int end = pos + 4 + Bytes.i32(b, pos);
                    V deferred = builder.deferredObject(b, pos - 1, depth + 1);
                    if (deferred != null) {
                        pos = end;
                        return deferred;
                    }
                    pos += 4;
                    int count = varint();
                    pos += (tag == OBJECT ? 2 : 4) * count;
                    Object o = builder.startObject(count, depth + 1);
                    for (int i = 0; i < count; i++) {
                        int n = varint();
                        String key = FieldNames.name(b, pos, n); // field names decoded once per process
                        pos += n;
                        builder.field(o, key, value(depth + 1), depth + 1);
                    }
                    if (pos != end) {
                        throw new IllegalArgumentException("object size does not match its fields at " + pos);
                    }
                    return builder.endObject(o, depth + 1);
                }
                case ARRAY: {
                    pos += 4;
                    int count = varint();
                    Object a = builder.startArray(count, depth + 1);
                    for (int i = 0; i < count; i++) {
                        builder.element(a, value(depth + 1));
                    }
                    return builder.endArray(a);
                }
                case DATE_TIME:
                    return builder.dateTime(i64(), io.tetradb.core.value.DateTimeNode.NO_OFFSET);
                case DATE_TIME_OFFSET: {
                    long ticks = i64();
                    int offset = Bytes.i16(b, pos);
                    pos += 2;
                    return builder.dateTime(ticks, offset);
                }
                case BINARY: {
                    int subtype = b[pos++] & 0xFF;
                    return builder.binary(subtype, bytes());
                }
                case OBJECT_ID: {
                    byte[] id = Arrays.copyOfRange(b, pos, pos + 12);
                    pos += 12;
                    return builder.objectId(id);
                }
                case UUID: {
                    long hi = bigEndian(pos);
                    long lo = bigEndian(pos + 8);
                    pos += 16;
                    return builder.uuid(hi, lo);
                }
                case TIMESTAMP:
                    return builder.timestamp(i64());
                case REGEX: {
                    String pattern = string();
                    return builder.regex(pattern, string());
                }
                case MIN_KEY:
                    return builder.minKey();
                case MAX_KEY:
                    return builder.maxKey();
                default:
                    throw new IllegalArgumentException("unknown tag 0x" + Integer.toHexString(tag & 0xFF)
                            + " at " + (pos - 1));
            }
        }
    }
}
