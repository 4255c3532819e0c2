package io.tetradb.core.store;

import java.nio.charset.StandardCharsets;

/** A change-feed record: the kind of change and the item id (the item itself is read from DOCS). */
final class ChangeRecord {
    static final byte CREATE = 'C';
    static final byte REPLACE = 'R';
    static final byte DELETE = 'D';
    /** A delete by the TTL purger (Cosmos DB's {@code timeToLiveExpired}). */
    static final byte TTL_DELETE = 'E';

    private ChangeRecord() {
    }

    /** As {@link #encode(byte, String)}; a delete by the TTL purger is kind {@link #TTL_DELETE}. */
    static byte[] encode(byte kind, String id, boolean ttlExpired) {
        return encode(kind == DELETE && ttlExpired ? TTL_DELETE : kind, id);
    }

    /** True for a delete, by a client or by the TTL purger. */
    static boolean isDelete(byte[] record) {
        return record[0] == DELETE || record[0] == TTL_DELETE;
    }

    /** True when the TTL purger made this change. */
    static boolean ttlExpired(byte[] record) {
        return record[0] == TTL_DELETE;
    }

    static byte[] encode(byte kind, String id) {
        byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[utf8.length + 1];
        out[0] = kind;
        System.arraycopy(utf8, 0, out, 1, utf8.length);
        return out;
    }
}
