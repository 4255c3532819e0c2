package io.tetradb.core.store;

import java.nio.charset.StandardCharsets;

/** A change-feed record: the kind of change and the item id (the item itself is read from DOCS). */
final class ChangeRecord {
    static final byte CREATE = 'C';
    static final byte REPLACE = 'R';
    static final byte DELETE = 'D';

    private ChangeRecord() {
    }

    static byte[] encode(byte kind, String id) {
        byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[utf8.length + 1];
        out[0] = kind;
        System.arraycopy(utf8, 0, out, 1, utf8.length);
        return out;
    }
}
