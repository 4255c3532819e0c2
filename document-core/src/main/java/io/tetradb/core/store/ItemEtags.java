package io.tetradb.core.store;

import java.nio.charset.StandardCharsets;

/**
 * An item's etag, {@code cccccccc-0000-0000-0000-llllllllllll} (the container's id and the lsn of the item's last
 * write in lower-case hex), built per point read: written as Latin-1 bytes, the String's own form, so nothing is
 * converted from chars.
 */
final class ItemEtags {
    private static final byte[] TEMPLATE = "00000000-0000-0000-0000-000000000000".getBytes(StandardCharsets.US_ASCII);
    /** Every etag's length (item-copies: a stored item's trailer is sized before its lsn is known). */
    static final int LENGTH = TEMPLATE.length;
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private ItemEtags() {
    }

    static String of(int collId, long lsn) {
        byte[] b = TEMPLATE.clone();
        hex(b, 0, 8, collId);
        hex(b, 24, 12, lsn);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static void hex(byte[] out, int at, int digits, long v) {
        for (int i = at + digits - 1; i >= at; i--) {
            out[i] = DIGITS[(int) (v & 0xF)];
            v >>>= 4;
        }
    }
}
