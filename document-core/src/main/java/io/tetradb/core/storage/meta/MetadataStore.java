package io.tetradb.core.storage.meta;

import java.util.List;

/**
 * The core's metadata storage: databases, containers, partition maps, counters, path dictionaries, scripts,
 * throughput settings and index-rebuild progress — everything the core writes outside item transactions. Keys are
 * the core's META keys (big-endian, order-preserving); the embedded implementation keeps them in RocksDB's META space
 * exactly as before ({@link EmbeddedMetadataStore}), cassandra-engine's {@code CassandraMetadataStore} in a table of
 * its own with lightweight transactions. {@code MetadataStoreContract} in the test-jar is the suite both pass.
 *
 * <p>Concurrency between TetraDB servers sharing one store is decided here, by the conditions of {@link #apply}
 * (create if absent, compare-and-set on the version read), never by a lock inside one process.
 */
public interface MetadataStore extends AutoCloseable {

    /** The entry, or null. */
    MetaEntry get(byte[] key);

    /** The entries with {@code from <= key < to} ({@code to} null: to the end) in unsigned byte order. */
    List<MetaEntry> list(byte[] from, byte[] to);

    /** The entries whose key starts with {@code prefix}, in key order. */
    default List<MetaEntry> list(byte[] prefix) {
        return list(prefix, prefixEnd(prefix));
    }

    /**
     * Applies every operation of {@code write} atomically if every condition holds (true); otherwise writes nothing
     * (false): the caller re-reads and decides again.
     */
    boolean apply(MetaWrite write);

    /**
     * A value that changes with every applied {@link MetaWrite#catalogChange() catalog change} by any server sharing
     * the store: a cache of container definitions and partition maps is current while it is unchanged.
     */
    long catalogStamp();

    /** True when {@link #apply} applies {@link MetaWrite#local()} in the same atomic write (the embedded store). */
    default boolean appliesLocalWrites() {
        return false;
    }

    /** True when other servers may share this store (then the core re-checks its caches, see CatalogWatch). */
    default boolean isShared() {
        return false;
    }

    @Override
    void close();

    /** The smallest key greater than every key starting with {@code prefix} (null: none). */
    static byte[] prefixEnd(byte[] prefix) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return java.util.Arrays.copyOf(end, i + 1);
            }
        }
        return null;
    }
}
