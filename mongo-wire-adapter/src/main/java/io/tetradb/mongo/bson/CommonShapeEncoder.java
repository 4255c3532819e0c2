package io.tetradb.mongo.bson;

import io.tetradb.core.item.BinaryItemStreamWriter;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.mongo.command.Limits;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * bson-encode (issue 17): an inserted document of the common shape written from its BSON bytes into the core's
 * binary item format in one walk over the array, with no {@code BsonBinaryReader} (whose state machine, contexts and
 * per-element checks were ≈ 40 % of the encoding) and no String per name or value. The common shape: {@code _id}
 * first, an Int32, Int64, ObjectId or plain string (1–255 bytes of well-formed UTF-8 without {@code ~ / \ ? #}),
 * names of well-formed UTF-8 without a leading {@code $} and no second top-level {@code _id}, values of the types
 * drivers send most (documents, arrays, strings of well-formed UTF-8, Int32, Int64, Double, Boolean, null, dates
 * the typed model holds, ObjectIds), nesting within {@link Limits#MAX_NESTING_DEPTH}, and every length consistent
 * with its container (the checks {@code BsonBinaryReader} makes, or stricter). Anything else answers false with
 * nothing decided, and {@link RawBsonItems} reads the document with the library's reader, as before: the library
 * decodes every value this walk would have to interpret (non-UTF-8 bytes, the rarer types), and raises its errors.
 * The bytes written are those of {@link DocumentMapper#toItem} and the core's tree writer (DocumentMapperTest).
 * One per command thread (scratch arrays); not thread-safe.
 */
final class CommonShapeEncoder {
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final byte[] ID = {'i', 'd'};
    private static final byte[] MONGO_ID = {'_', 'i', 'd'};
    /** The dates a {@code DateTimeNode} holds (100 ns ticks in a long), as {@link BsonToTyped} bounds them. */
    private static final long MAX_MS = Long.MAX_VALUE / 10_000L;
    private static final long MIN_MS = Long.MIN_VALUE / 10_000L;

    private final byte[] idText = new byte[IdCodec.MAX_TYPED_ID_BYTES];
    private final byte[] objectId = new byte[12];
    private byte[] a;

    /**
     * Writes the item of the document {@code a[start, start+length)} into {@code w} (reset first); false when the
     * document is not of the common shape (then {@code w} holds nothing usable).
     */
    boolean encode(byte[] a, int start, int length, BinaryItemStreamWriter w) {
        this.a = a;
        try {
            return document(start, length, w);
        } catch (IllegalArgumentException e) { // a repeated name (the tree keeps the last): the reader's path decides
            return false;
        } finally {
            this.a = null;
        }
    }

    private boolean document(int start, int length, BinaryItemStreamWriter w) {
        // size · ( type · _id NUL · value ) · elements · NUL: the shortest is an Int32 _id, 14 bytes
        if (length < 14 || start < 0 || start + length > a.length || int32(start) != length) {
            return false;
        }
        int end = start + length;
        if (a[end - 1] != 0 || a[start + 5] != '_' || a[start + 6] != 'i' || a[start + 7] != 'd'
                || a[start + 8] != 0) {
            return false;
        }
        int last = end - 1; // the terminating NUL: every element ends at or before it
        int p = start + 9;
        w.reset();
        w.startObject();
        switch (a[start + 4]) {
            case 0x10, 0x12 -> { // Int32, Int64
                boolean small = a[start + 4] == 0x10;
                int width = small ? 4 : 8;
                if (p + width > last) {
                    return false;
                }
                long v = small ? int32(p) : int64(p);
                idText(w, IdCodec.integerId(v, idText));
                w.name(MONGO_ID, 0, 3);
                if (small) {
                    w.int32((int) v);
                } else {
                    w.int64(v);
                }
                p += width;
            }
            case 0x07 -> {
                if (p + 12 > last) {
                    return false;
                }
                idText(w, IdCodec.objectIdId(a, p, idText));
                System.arraycopy(a, p, objectId, 0, 12);
                w.name(MONGO_ID, 0, 3);
                w.objectId(objectId);
                p += 12;
            }
            case 0x02 -> {
                int to = string(p, last);
                int n = to - p - 5;
                // an empty string, an escaped character or over 255 characters: IdCodec's String path
                if (to < 0 || n == 0 || n > IdCodec.MAX_ID_CHARS || IdCodec.escapes(a, p + 4, n)) {
                    return false;
                }
                w.name(ID, 0, 2);
                w.string(a, p + 4, n); // a string's id is itself
                w.name(MONGO_ID, 0, 3);
                w.string(a, p + 4, n);
                p = to;
            }
            default -> {
                return false;
            }
        }
        while (true) {
            int type = a[p];
            if (type == 0) {
                if (p != last) {
                    return false;
                }
                w.endObject();
                return true;
            }
            int from = p + 1;
            int nul = nameEnd(from, last);
            if (nul < 0) {
                return false;
            }
            int n = nul - from;
            if (n == 3 && a[from] == '_' && a[from + 1] == 'i' && a[from + 2] == 'd') {
                return false; // a second _id
            }
            if (DocumentMapper.storedNameEscapes(a, from, n)) {
                // well-formed UTF-8: the String is exactly the name the library would decode
                w.name(DocumentMapper.storedName(new String(a, from, n, StandardCharsets.UTF_8)));
            } else {
                w.name(a, from, n);
            }
            p = value(type, nul + 1, last, w, 1);
            if (p < 0) {
                return false;
            }
        }
    }

    private void idText(BinaryItemStreamWriter w, int n) {
        w.name(ID, 0, 2);
        w.string(idText, 0, n);
    }

    /**
     * Writes the value of BSON type {@code type} at {@code p}, which must end at or before {@code last}; where it
     * ends, or -1 when it is not of the common shape.
     */
    private int value(int type, int p, int last, BinaryItemStreamWriter w, int depth) {
        switch (type) {
            case 0x01 -> {
                if (p + 8 > last) {
                    return -1;
                }
                w.float64(Double.longBitsToDouble(int64(p)));
                return p + 8;
            }
            case 0x02 -> {
                int to = string(p, last);
                if (to < 0) {
                    return -1;
                }
                w.string(a, p + 4, to - p - 5);
                return to;
            }
            case 0x03, 0x04 -> {
                return container(type == 0x04, p, last, w, depth);
            }
            case 0x07 -> {
                if (p + 12 > last) {
                    return -1;
                }
                System.arraycopy(a, p, objectId, 0, 12);
                w.objectId(objectId);
                return p + 12;
            }
            case 0x08 -> {
                if (p + 1 > last || (a[p] & ~1) != 0) { // the library refuses any other byte
                    return -1;
                }
                w.bool(a[p] == 1);
                return p + 1;
            }
            case 0x09 -> {
                if (p + 8 > last) {
                    return -1;
                }
                long ms = int64(p);
                if (ms < MIN_MS || ms > MAX_MS) {
                    return -1; // beyond the typed model's dates: tagged Extended JSON on the general path
                }
                w.dateTime(ms * 10_000L, DateTimeNode.NO_OFFSET);
                return p + 8;
            }
            case 0x0A -> {
                w.nullValue();
                return p;
            }
            case 0x10 -> {
                if (p + 4 > last) {
                    return -1;
                }
                w.int32(int32(p));
                return p + 4;
            }
            case 0x12 -> {
                if (p + 8 > last) {
                    return -1;
                }
                w.int64(int64(p));
                return p + 8;
            }
            default -> {
                return -1; // the rarer types: the library's reader maps them
            }
        }
    }

    /** An embedded document or array at {@code p}; where it ends, or -1. */
    private int container(boolean array, int p, int last, BinaryItemStreamWriter w, int depth) {
        if (depth + 1 > Limits.MAX_NESTING_DEPTH || p + 5 > last) {
            return -1;
        }
        int size = int32(p);
        if (size < 5 || size > last - p) {
            return -1;
        }
        int inner = p + size - 1; // its terminating NUL
        if (a[inner] != 0) {
            return -1;
        }
        if (array) {
            w.startArray();
        } else {
            w.startObject();
        }
        int q = p + 4;
        while (true) {
            int type = a[q];
            if (type == 0) {
                if (q != inner) {
                    return -1;
                }
                break;
            }
            int from = q + 1;
            int nul = nameEnd(from, inner);
            if (nul < 0) {
                return -1;
            }
            if (!array) { // an array element's name (its index) is skipped, as the library's reader skips it
                int n = nul - from;
                w.name(a, from, n);
            }
            q = value(type, nul + 1, inner, w, depth + 1);
            if (q < 0) {
                return -1;
            }
        }
        if (array) {
            w.endArray();
        } else {
            w.endObject();
        }
        return inner + 1;
    }

    /**
     * The NUL ending the name at {@code from}, which must come before {@code last} (a value follows it); -1 when it
     * does not, when the name starts with {@code $} (MongoDB's checks: the general path) or is not well-formed UTF-8.
     */
    private int nameEnd(int from, int last) {
        byte[] b = a;
        if (from < last && b[from] == '$') {
            return -1;
        }
        int i = from;
        long highs = 0;
        for (; i + 8 <= last; i += 8) {
            long word = (long) LONGS.get(b, i);
            long zeros = (word - 0x0101010101010101L) & ~word & 0x8080808080808080L;
            if (zeros != 0) { // the lowest flagged byte is the first zero byte
                int k = Long.numberOfTrailingZeros(zeros) >>> 3;
                highs |= word & ((1L << (k << 3)) - 1);
                return (highs & 0x8080808080808080L) == 0 || RawBsonItems.wellFormedUtf8(b, from, i + k - from)
                        ? i + k : -1;
            }
            highs |= word;
        }
        for (; i < last; i++) {
            if (b[i] == 0) {
                return (highs & 0x8080808080808080L) == 0 || RawBsonItems.wellFormedUtf8(b, from, i - from) ? i : -1;
            }
            highs |= b[i] & 0x80;
        }
        return -1;
    }

    /**
     * The end of the BSON string at {@code p} (int32 length with its NUL · UTF-8 · NUL) ending at or before
     * {@code last}, or -1 when its length or terminator is wrong or its bytes are not well-formed UTF-8 (the library
     * decodes those with U+FFFD).
     */
    private int string(int p, int last) {
        if (p + 4 > last) {
            return -1;
        }
        int size = int32(p);
        if (size < 1 || size > last - p - 4) {
            return -1;
        }
        int n = size - 1;
        int from = p + 4;
        if (a[from + n] != 0 || !RawBsonItems.wellFormedUtf8(a, from, n)) {
            return -1;
        }
        return from + size;
    }

    private int int32(int at) {
        return (int) INTS.get(a, at);
    }

    private long int64(int at) {
        return (long) LONGS.get(a, at);
    }
}
