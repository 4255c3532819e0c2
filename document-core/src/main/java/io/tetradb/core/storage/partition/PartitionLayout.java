package io.tetradb.core.storage.partition;

import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.KeyBytes;

import java.nio.charset.StandardCharsets;

/**
 * The embedded engine's keys of what the contract names (the same bytes as the core's {@code store.Keys} and
 * {@code feed.FeedKeys}; document-core/README.md "Keys"): a {@link PartitionWrite} is a write set in this layout.
 */
public final class PartitionLayout {
    /** META: {@code 04 · collId · EPK · pk} → {@link PartitionStats}. */
    static final byte STATS = 0x04;
    /** META: {@code 20 · collId · expiresAt(8) · EPK · pk · id} → nothing: the core's TTL expiry entries. */
    static final byte EXPIRY = 0x20;
    /** FEED: {@code collId · 'S' · seq(8)} → change record. */
    static final byte FEED_RECORD = 'S';

    private PartitionLayout() {
    }

    /** DOCS: {@code collId · EPK · pk · id}. */
    public static byte[] itemKey(LogicalPartition p, String id) {
        return concat(p.prefix(), utf8(id));
    }

    /** INDEX: {@code collId · term · EPK · pk · id}. */
    public static byte[] indexKey(LogicalPartition p, byte[] term, String id) {
        return concat(container(p.container()), term, p.key(), utf8(id));
    }

    public static byte[] statsKey(LogicalPartition p) {
        return concat(new byte[]{STATS}, p.prefix());
    }

    public static byte[] feedKey(int container, long seq) {
        byte[] out = new byte[13];
        putInt(out, 0, container);
        out[4] = FEED_RECORD;
        putLong(out, 5, seq);
        return out;
    }

    static byte[] container(int container) {
        byte[] out = new byte[4];
        putInt(out, 0, container);
        return out;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[]... parts) {
        return KeyBytes.concat(parts);
    }

    /** The first key after every key starting with {@code prefix} (null: none, the prefix is all 0xFF). */
    static byte[] prefixEnd(byte[] prefix) {
        return IndexKeyEncoding.prefixEnd(prefix);
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return KeyBytes.startsWith(key, prefix);
    }

    static void putInt(byte[] b, int at, int v) {
        KeyBytes.putInt(b, at, v);
    }

    static int getInt(byte[] b, int at) {
        return KeyBytes.getInt(b, at);
    }

    static void putLong(byte[] b, int at, long v) {
        KeyBytes.putLong(b, at, v);
    }

    static long getLong(byte[] b, int at) {
        return KeyBytes.getLong(b, at);
    }
}
