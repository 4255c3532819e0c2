package io.tetradb.cassandra.store;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A logical partition: the container's numeric id and the partition's key bytes (the core's {@code EPK · pk}, so that
 * its hash places it and its bytes identify it).
 */
public record LogicalPartition(int container, byte[] key) {
    public LogicalPartition {
        if (key == null || key.length == 0) {
            throw new IllegalArgumentException("a logical partition needs its key bytes");
        }
        key = key.clone();
    }

    @Override
    public byte[] key() {
        return key.clone();
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
