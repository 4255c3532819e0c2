package io.tetradb.testing;

import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.storage.partition.StoredItem;

import java.nio.file.Path;
import java.util.List;

/**
 * One embedded directory presented as the shared engine of several servers (what a Cassandra keyspace is to them),
 * so the shared-engine suites run without a cluster: the metadata through {@link SharedMetadataView}, the items
 * through {@link #partitions()}. Close it after the servers.
 */
public final class SharedEmbeddedStore implements AutoCloseable {
    private final RocksEngine engine;
    private final MetadataStore metadata;
    private final PartitionStore partitions;

    public SharedEmbeddedStore(Path dir) {
        this.engine = RocksEngine.open(dir, Durability.SYNC, 8 << 20);
        this.metadata = SharedMetadataView.of(new EmbeddedMetadataStore(engine));
        this.partitions = partitionsOf(engine);
    }

    public MetadataStore metadata() {
        return metadata;
    }

    public PartitionStore partitions() {
        return partitions;
    }

    @Override
    public void close() {
        engine.close();
    }

    /**
     * The embedded engine's partitions, with each partition's change records kept by lsn beside it, as the contract
     * reads them and as Cassandra keeps them: the embedded FEED layout numbers records by one process's sequence,
     * and two processes sharing it would overwrite each other's numbers (an embedded directory is never shared).
     */
    public static PartitionStore partitionsOf(RocksEngine engine) {
        EmbeddedPartitionStore inner = new EmbeddedPartitionStore(engine);
        java.util.Map<LogicalPartition, java.util.NavigableMap<Long, ChangeRecord>> changes =
                new java.util.concurrent.ConcurrentHashMap<>();
        return new PartitionStore() {
            public PartitionStats stats(LogicalPartition p) {
                return inner.stats(p);
            }

            public ApplyResult apply(PartitionWrite write) {
                synchronized (changes) { // the version check and the records as one step
                    ApplyResult r = inner.apply(write);
                    if (r.applied()) {
                        for (ChangeRecord c : write.changes()) {
                            changes.computeIfAbsent(write.partition(), k -> new java.util.TreeMap<>()).put(c.lsn(), c);
                        }
                    }
                    return r;
                }
            }

            public void awaitDurable(long ticket) {
                inner.awaitDurable(ticket);
            }

            public byte[] read(LogicalPartition p, String id) {
                return inner.read(p, id);
            }

            public byte[] readDerived(LogicalPartition p, io.tetradb.core.storage.Space space, byte[] key) {
                return inner.readDerived(p, space, key);
            }

            public List<io.tetradb.core.storage.KeyValue> scanDerived(LogicalPartition p, io.tetradb.core.storage.Space space,
                                                                      byte[] from, byte[] to, int limit) {
                return inner.scanDerived(p, space, from, to, limit);
            }

            public List<io.tetradb.core.storage.KeyValue> seekDerived(int container, io.tetradb.core.storage.Space space,
                                                                      byte[] from, byte[] to, int limit) {
                return inner.seekDerived(container, space, from, to, limit);
            }

            public List<StoredItem> scan(LogicalPartition p, String from, String to, int limit) {
                return inner.scan(p, from, to, limit);
            }

            public List<byte[]> seek(int container, byte[] fromTerm, byte[] toTerm, int limit) {
                return inner.seek(container, fromTerm, toTerm, limit);
            }

            public List<ChangeRecord> changes(LogicalPartition p, long afterLsn, int limit) {
                synchronized (changes) {
                    java.util.NavigableMap<Long, ChangeRecord> m = changes.getOrDefault(p, new java.util.TreeMap<>());
                    return m.tailMap(afterLsn, false).values().stream().limit(limit).toList();
                }
            }

            public void deleteChanges(LogicalPartition p, List<Long> lsns) {
                synchronized (changes) {
                    java.util.NavigableMap<Long, ChangeRecord> m = changes.get(p);
                    if (m != null) {
                        lsns.forEach(m::remove);
                    }
                }
            }

            public void dropContainer(int container) {
                inner.dropContainer(container);
                synchronized (changes) {
                    changes.keySet().removeIf(p -> p.container() == container);
                }
            }

            public List<PartitionVersion> partitions(int container, byte[] fromKey, byte[] toKey) {
                return inner.partitions(container, fromKey, toKey);
            }

            public void close() {
            }
        };
    }
}
