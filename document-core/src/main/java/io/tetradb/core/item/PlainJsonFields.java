package io.tetradb.core.item;

import java.nio.charset.StandardCharsets;

/**
 * Some fields of a TB1 object as the JSON text Jackson's ObjectMapper writes for the same fields as a tree, written
 * straight from the bytes (graph-load3, issue 18): a graph edge's carried properties in its two adjacency entries,
 * without a tree, a map and a JSON generator per edge. Plain values only — Int32, Int64 outside Int32's range (an
 * Int64 inside it would read back from JSON as an Int32), booleans, strings — and names and strings of printable
 * ASCII other than {@code "} and {@code \}, which JSON writes as they are; anything else gives null and the caller
 * takes the tree's path, so the bytes are always the tree's.
 */
public final class PlainJsonFields {
    /** Which fields to write: the name is {@code b[from, from + length)} (UTF-8). */
    @FunctionalInterface
    public interface NameFilter {
        boolean keep(byte[] b, int from, int length);
    }

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private PlainJsonFields() {
    }

    /**
     * The JSON object of the fields of the TB1 object at {@code off} that {@code keep} accepts, in the object's
     * field order; an empty array when none is kept; null when a kept field is not plain (see the class comment) or
     * the text would be longer than {@code maxBytes}.
     */
    public static byte[] of(byte[] b, int off, NameFilter keep, int maxBytes) {
        Pass sizing = new Pass(b, keep, null);
        ObjectFields.forEach(b, off, sizing);
        if (!sizing.plain) {
            return null;
        }
        if (sizing.count == 0) {
            return new byte[0];
        }
        int length = sizing.at + 2 + (sizing.count - 1); // braces, commas
        if (length > maxBytes) {
            return null;
        }
        byte[] out = new byte[length];
        out[0] = '{';
        Pass writing = new Pass(b, keep, out);
        writing.at = 1;
        ObjectFields.forEach(b, off, writing);
        out[length - 1] = '}';
        return out;
    }

    /** One pass over the fields: without {@code out} it checks and measures (at = bytes), with it it writes. */
    private static final class Pass implements ObjectFields.Visitor {
        private final byte[] b;
        private final NameFilter keep;
        private final byte[] out;
        private boolean plain = true;
        private int count;
        private int at;

        Pass(byte[] b, NameFilter keep, byte[] out) {
            this.b = b;
            this.keep = keep;
            this.out = out;
        }

        @Override
        public void field(byte[] bytes, int nameFrom, int nameLength, int valueAt) {
            if (!plain || !keep.keep(bytes, nameFrom, nameLength)) {
                return;
            }
            if (out != null && count > 0) {
                out[at++] = ',';
            }
            count++;
            if (!printable(b, nameFrom, nameLength)) {
                plain = false;
                return;
            }
            quoted(nameFrom, nameLength);
            if (out != null) {
                out[at] = ':';
            }
            at++;
            value(valueAt);
        }

        private void value(int valueAt) {
            switch (b[valueAt]) {
                case BinaryItemFormat.INT32 -> decimal(Bytes.i32(b, valueAt + 1));
                case BinaryItemFormat.INT64 -> {
                    long v = Bytes.i64(b, valueAt + 1);
                    if (v == (int) v) {
                        plain = false; // JSON would give it back as an Int32: the tree's path writes TB1
                        return;
                    }
                    decimal(v);
                }
                case BinaryItemFormat.TRUE -> raw(TRUE);
                case BinaryItemFormat.FALSE -> raw(FALSE);
                case BinaryItemFormat.STRING -> {
                    long s = BinaryItemReader.varintAt(b, valueAt + 1);
                    int from = (int) (s >>> 32);
                    int length = (int) s;
                    if (!printable(b, from, length)) {
                        plain = false;
                        return;
                    }
                    quoted(from, length);
                }
                default -> plain = false;
            }
        }

        private void quoted(int from, int length) {
            if (out != null) {
                out[at] = '"';
                System.arraycopy(b, from, out, at + 1, length);
                out[at + 1 + length] = '"';
            }
            at += length + 2;
        }

        private void raw(byte[] text) {
            if (out != null) {
                System.arraycopy(text, 0, out, at, text.length);
            }
            at += text.length;
        }

        private void decimal(long v) {
            if (v == Long.MIN_VALUE) {
                raw(LONG_MIN);
                return;
            }
            int digits = 1;
            for (long x = Math.abs(v); x >= 10; x /= 10) {
                digits++;
            }
            int length = digits + (v < 0 ? 1 : 0);
            if (out != null) {
                long x = Math.abs(v);
                for (int i = at + length - 1; i >= at + length - digits; i--) {
                    out[i] = (byte) ('0' + x % 10);
                    x /= 10;
                }
                if (v < 0) {
                    out[at] = '-';
                }
            }
            at += length;
        }
    }

    /** Printable ASCII that JSON writes unescaped: 0x20–0x7E but {@code "} and {@code \}. */
    private static boolean printable(byte[] b, int from, int length) {
        for (int i = from; i < from + length; i++) {
            byte c = b[i];
            if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }
}
