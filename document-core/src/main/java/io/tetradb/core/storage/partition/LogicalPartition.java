package io.tetradb.core.storage.partition;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A logical partition, Cosmos DB's unit of atomicity: the container's numeric id and the partition's key bytes (the
 * core's {@code EPK · pk}, so that its hash places it and its bytes identify it).
 */
public record LogicalPartition(int container, byte[] key) {
    public LogicalPartition {
        if (key == null || key.length == 0) {
            throw new IllegalArgumentException("a logical partition needs its key bytes");
        }
        key = key.clone();
    }

    /** From the core's {@code collId(4) · EPK · pk} prefix. */
    public static LogicalPartition ofPrefix(byte[] prefix) {
        int container = ((prefix[0] & 0xFF) << 24) | ((prefix[1] & 0xFF) << 16) | ((prefix[2] & 0xFF) << 8)
                | (prefix[3] & 0xFF);
        return new LogicalPartition(container, Arrays.copyOfRange(prefix, 4, prefix.length));
    }

    @Override
    public byte[] key() {
        return key.clone();
    }

    /** {@code collId(4) · key}: the prefix of the partition's item keys in the embedded layout. */
    public byte[] prefix() {
        byte[] out = new byte[4 + key.length];
        PartitionLayout.putInt(out, 0, container);
        System.arraycopy(key, 0, out, 4, key.length);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogicalPartition p && p.container == container && Arrays.equals(p.key, key);
    }

    @Override
    public int hashCode() {
        return 31 * container + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return container + "/" + HexFormat.of().formatHex(key);
    }
}
