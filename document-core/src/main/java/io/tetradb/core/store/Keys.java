package io.tetradb.core.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Key layout. Every key is big-endian and order-preserving.
 * <pre>
 * DOCS  collId(4) · EPK · pk · id                 → item
 * FEED  collId(4) · EPK · pk · lsn(8)             → change record
 * META  01 · database                             → database definition
 *       02 · database · 00 · container            → container definition
 *       03 · collId(4) · partitionId(4)           → physical partition (range, parent, epoch)
 *       04 · collId(4) · EPK · pk                 → logical partition statistics (bytes, items, lsn)
 *       05 · name                                 → counter
 *       06 · collId(4) · path                     → path id (4), see PathDictionary
 *       07 · collId(4)                            → unfinished index rebuild (RebuildRecord)
 *       08 · collId(4) · kind(1) · id             → server-side script (ScriptDefinitions)
 *       20 · collId(4) · expiresAt(8) · EPK · pk · id  → expiry index entry (ExpiryIndex)
 *       21 · collId(4) · name                     → date-field expiry (ExpiryIndex)
 *       22 · collId(4) · EPK · pk · keyNo · values → unique-key owner id (UniqueKeyIndex)
 * INDEX collId(4) · pathId(4) · enc(value) · EPK · pk · id → nothing
 * </pre>
 * {@code collId · EPK · pk} is the logical partition prefix; because the partition key encoding is self-delimiting,
 * a logical partition is exactly the keys that start with it.
 */
final class Keys {
    static final byte DATABASE = 0x01;
    static final byte CONTAINER = 0x02;
    static final byte PHYSICAL_PARTITION = 0x03;
    static final byte LOGICAL_PARTITION_STATS = 0x04;
    static final byte COUNTER = 0x05;
    static final byte PATH = 0x06;
    static final byte INDEX_REBUILD = 0x07;
    static final byte SCRIPT = 0x08;

    private Keys() {
    }

    static byte[] collId(int collId) {
        return new byte[]{(byte) (collId >>> 24), (byte) (collId >>> 16), (byte) (collId >>> 8), (byte) collId};
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

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * pw-lean: {@code concat(prefix, utf8(s))} in one array: an ASCII string (every id the benchmarks and most faces
     * write) is copied char by char after the prefix; any other goes through {@link #utf8} as before.
     */
    static byte[] concatUtf8(byte[] prefix, String s) {
        int n = s.length();
        byte[] out = new byte[prefix.length + n];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return concat(prefix, utf8(s));
            }
            out[prefix.length + i] = (byte) c;
        }
        return out;
    }

    static byte[] withByte(byte b, byte[] rest) {
        byte[] out = new byte[rest.length + 1];
        out[0] = b;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    static byte[] withLong(byte[] prefix, long v) {
        byte[] out = Arrays.copyOf(prefix, prefix.length + 8);
        for (int i = 0; i < 8; i++) {
            out[prefix.length + i] = (byte) (v >>> (56 - 8 * i));
        }
        return out;
    }

    static long readLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    /** The smallest key greater than every key starting with {@code prefix}. */
    static byte[] prefixEnd(byte[] prefix) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        return null; // all 0xFF: no upper bound
    }

    static byte[] database(String db) {
        return withByte(DATABASE, utf8(db));
    }

    static byte[] containerPrefix(String db) {
        return concat(new byte[]{CONTAINER}, utf8(db), new byte[]{0});
    }

    static byte[] container(String db, String container) {
        return concat(containerPrefix(db), utf8(container));
    }

    static byte[] physicalPartitionPrefix(int collId) {
        return withByte(PHYSICAL_PARTITION, collId(collId));
    }

    static byte[] physicalPartition(int collId, int partitionId) {
        return concat(physicalPartitionPrefix(collId), collId(partitionId));
    }

    static byte[] statsPrefix(int collId) {
        return withByte(LOGICAL_PARTITION_STATS, collId(collId));
    }

    static byte[] pathPrefix(int collId) {
        return withByte(PATH, collId(collId));
    }

    /** The record of a container's unfinished index rebuild, see {@link RebuildRecord}. */
    static byte[] indexRebuild(int collId) {
        return withByte(INDEX_REBUILD, collId(collId));
    }

    /** A container's server-side scripts: stored procedures, triggers and UDFs, see {@link ScriptDefinitions}. */
    static byte[] scriptPrefix(int collId) {
        return withByte(SCRIPT, collId(collId));
    }

    static long readInt(byte[] b, int at) {
        return ((b[at] & 0xFFL) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }

    static byte[] counter(String name) {
        return withByte(COUNTER, utf8(name));
    }
}
