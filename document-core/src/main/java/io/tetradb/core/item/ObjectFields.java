package io.tetradb.core.item;

import static io.tetradb.core.item.BinaryItemFormat.OBJECT;
import static io.tetradb.core.item.BinaryItemFormat.OBJECT_WIDE;

/**
 * Visits the fields of a TB1 object in the order they were written, giving each field's name bytes and where its
 * value starts, without decoding anything: for a reader that wants a few fields it cannot name in advance (the graph
 * adjacency's edge properties: every field but the layout's own).
 */
public final class ObjectFields {
    /** One field: its name is {@code b[nameFrom, nameFrom + nameLength)} (UTF-8), its value starts at {@code valueAt}. */
    @FunctionalInterface
    public interface Visitor {
        void field(byte[] b, int nameFrom, int nameLength, int valueAt);
    }

    private ObjectFields() {
    }

    /** Visits the fields of the object whose tag is at {@code off}; nothing when the value there is not an object. */
    public static void forEach(byte[] b, int off, Visitor visitor) {
        int tag = b[off];
        if (tag != OBJECT && tag != OBJECT_WIDE) {
            return;
        }
        int width = tag == OBJECT ? 2 : 4;
        long cv = BinaryItemReader.varintAt(b, off + 5);
        int count = (int) cv;
        int at = (int) (cv >>> 32) + width * count; // entries follow the field table, in writing order
        for (int i = 0; i < count; i++) {
            long kv = BinaryItemReader.varintAt(b, at);
            int nameFrom = (int) (kv >>> 32);
            int nameLength = (int) kv;
            int valueAt = nameFrom + nameLength;
            visitor.field(b, nameFrom, nameLength, valueAt);
            at = BinaryItemReader.skip(b, valueAt);
        }
    }

    /**
     * The string whose tag is at {@code at} as where its UTF-8 bytes start (high 32 bits) and their length (low 32
     * bits); -1 when {@code at} is negative or the value there is not a string.
     */
    public static long string(byte[] b, int at) {
        if (at < 0 || b[at] != BinaryItemFormat.STRING) {
            return -1;
        }
        return BinaryItemReader.varintAt(b, at + 1);
    }

    /** Whether the value at {@code at} is {@code true}. */
    public static boolean isTrue(byte[] b, int at) {
        return at >= 0 && b[at] == BinaryItemFormat.TRUE;
    }

    /** A field name given by {@link Visitor#field} as a String. */
    public static String name(byte[] b, int nameFrom, int nameLength) {
        return Utf8.decode(b, nameFrom, nameLength);
    }
}
