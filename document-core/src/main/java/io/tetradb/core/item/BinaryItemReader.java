package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Arrays;
import java.util.UUID;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * Reads the {@link BinaryItemFormat}: a whole value into a Jackson tree, or one field / path found through the
 * objects' sorted field tables without decoding anything else. All methods are static and thread-safe; offsets
 * point at a value's tag. Malformed bytes raise {@link IllegalArgumentException} (or an index exception).
 */
public final class BinaryItemReader {
    private BinaryItemReader() {
    }

    /** The whole value that starts at {@code off}, as a Jackson tree (typed values as the core's typed nodes). */
    public static JsonNode read(byte[] b, int off) {
        return BinaryItemWalker.read(b, off, TreeBuilder.INSTANCE);
    }

    public static ObjectNode readObject(byte[] b, int off) {
        JsonNode v = read(b, off);
        if (!(v instanceof ObjectNode o)) {
            throw new IllegalArgumentException("not an object at " + off);
        }
        return o;
    }

    /** The offset of the value of field {@code name} of the object at {@code off}, or -1 (absent or not an object). */
    public static int find(byte[] b, int off, String name) {
        return find(b, off, key(name));
    }

    /** A field name as the bytes the format stores it in (for {@link #find(byte[], int, byte[])}). */
    public static byte[] key(String name) {
        return Utf8.encode(name);
    }

    /** As {@link #find(byte[], int, String)} with the name's UTF-8 bytes (precomputed by hot callers). */
    public static int find(byte[] b, int off, byte[] name) {
        int tag = b[off];
        if (tag != OBJECT && tag != OBJECT_WIDE) {
            return -1;
        }
        int width = tag == OBJECT ? 2 : 4;
        long cv = varintAt(b, off + 5);
        int count = (int) cv;
        int tableAt = (int) (cv >>> 32);
        int entriesAt = tableAt + width * count;
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int keyAt = entriesAt + (width == 2 ? Bytes.u16(b, tableAt + 2 * mid) : Bytes.i32(b, tableAt + 4 * mid));
            long kv = varintAt(b, keyAt);
            int klen = (int) kv;
            int kstart = (int) (kv >>> 32);
            int c = Arrays.compareUnsigned(b, kstart, kstart + klen, name, 0, name.length);
            if (c == 0) {
                return kstart + klen;
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }

    /** The offset of element {@code index} of the array at {@code off}, or -1 (out of range or not an array). */
    public static int element(byte[] b, int off, int index) {
        if (b[off] != ARRAY || index < 0) {
            return -1;
        }
        long cv = varintAt(b, off + 5);
        int count = (int) cv;
        if (index >= count) {
            return -1;
        }
        int at = (int) (cv >>> 32);
        for (int i = 0; i < index; i++) {
            at = skip(b, at);
        }
        return at;
    }

    /**
     * The value at a path of field names (a {@code String}) and array indexes (an {@code Integer}) from the value at
     * {@code off}, decoded; MissingNode when the path does not lead to a value.
     */
    public static JsonNode path(byte[] b, int off, Object... path) {
        int at = off;
        for (Object step : path) {
            at = step instanceof Integer i ? element(b, at, i) : find(b, at, (String) step);
            if (at < 0) {
                return MissingNode.getInstance();
            }
        }
        return read(b, at);
    }

    /** The offset just past the value at {@code off}. */
    public static int skip(byte[] b, int off) {
        int tag = b[off];
        int p = off + 1;
        switch (tag) {
            case NULL, FALSE, TRUE, MIN_KEY, MAX_KEY:
                return p;
            case INT32, FLOAT:
                return p + 4;
            case INT64, DOUBLE, DATE_TIME, TIMESTAMP:
                return p + 8;
            case DATE_TIME_OFFSET:
                return p + 10;
            case DECIMAL128_SPECIAL:
                return p + 1;
            case OBJECT_ID:
                return p + 12;
            case UUID:
                return p + 16;
            case BIG_INTEGER, STRING:
                return skipBytes(b, p);
            case BIG_DECIMAL, DECIMAL128:
                return skipBytes(b, (int) (varintAt(b, p) >>> 32));
            case BINARY:
                return skipBytes(b, p + 1);
            case REGEX:
                return skipBytes(b, skipBytes(b, p));
            case OBJECT, OBJECT_WIDE, ARRAY:
                return p + 4 + Bytes.i32(b, p);
            default:
                throw new IllegalArgumentException("unknown tag 0x" + Integer.toHexString(tag & 0xFF) + " at " + off);
        }
    }

    private static int skipBytes(byte[] b, int at) {
        long v = varintAt(b, at);
        return (int) (v >>> 32) + (int) v;
    }

    /** The varint at {@code at}: its value in the low 32 bits, the offset after it in the high 32. */
    static long varintAt(byte[] b, int at) {
        int v = b[at++];
        if (v >= 0) {
            return ((long) at << 32) | v;
        }
        v &= 0x7F;
        int shift = 7;
        while (true) {
            int x = b[at++];
            v |= (x & 0x7F) << shift;
            if (x >= 0) {
                break;
            }
            shift += 7;
            if (shift > 28) {
                throw new IllegalArgumentException("varint too long at " + at);
            }
        }
        return ((long) at << 32) | (v & 0xFFFFFFFFL);
    }
}
