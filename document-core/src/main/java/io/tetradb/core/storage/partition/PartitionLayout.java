package io.tetradb.core.storage.partition;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The embedded engine's keys of what the contract names (the same bytes as the core's {@code store.Keys} and
 * {@code feed.FeedKeys}; document-core/README.md "Keys"): a {@link PartitionWrite} is a write set in this layout.
 */
public final class PartitionLayout {
    /** META: {@code 04 · collId · EPK · pk} → {@link PartitionStats}. */
    static final byte STATS = 0x04;
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
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** The first key after every key starting with {@code prefix} (null: none, the prefix is all 0xFF). */
    static byte[] prefixEnd(byte[] prefix) {
        byte[] out = Arrays.copyOf(prefix, prefix.length);
        for (int i = out.length - 1; i >= 0; i--) {
            if (out[i] != (byte) 0xFF) {
                out[i]++;
                return Arrays.copyOf(out, i + 1);
            }
        }
        return null;
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    static int getInt(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }

    static void putLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
