package io.tetradb.bench.core;

import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosDatabase;
import org.rocksdb.RocksDBException;

import java.nio.file.Path;

/**
 * What the core's CPU probes ({@link BatchCpuProbe}, {@link PointWriteCpuProbe}, {@link CreateOnlyPrunerProbe})
 * measure on: the core on a directory with the core benchmark's container {@code bench/items} (indexing off) and its
 * {@link Items}, and, when asked, raw RocksDB beside it with the same block cache (the other side of an A/B).
 */
final class ProbeStores implements AutoCloseable {
    final CosmosClient client;
    final CosmosContainer container;
    final Items items;
    /** Raw RocksDB in {@code raw/} beside the core, or null when not asked for. */
    final RawRocks raw;
    private final Path deleteAtClose;
    private final Path coreDir;

    private ProbeStores(Path coreDir, Path rawDir, Durability durability, Path deleteAtClose)
            throws RocksDBException {
        this.deleteAtClose = deleteAtClose;
        this.coreDir = coreDir;
        client = new CosmosClientBuilder().dataDirectory(coreDir).durability(durability).buildClient();
        RawRocks opened = null;
        try {
            opened = rawDir == null ? null : new RawRocks(rawDir, durability, CoreBenchmark.BLOCK_CACHE_BYTES);
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase database = client.getDatabase("bench");
            database.createContainerIfNotExists(CoreBenchmark.itemsContainer());
            container = database.getContainer("items");
            items = new Items(client.coreStore().container("bench", "items").definition().collId(),
                    CoreBenchmark.DEVICES);
        } catch (RuntimeException | RocksDBException e) {
            if (opened != null) {
                opened.close();
            }
            client.close();
            throw e;
        }
        raw = opened;
    }

    /** The core in {@code core/} and raw RocksDB in {@code raw/} of a fresh bench directory, deleted at close. */
    static ProbeStores freshWithRaw(String name, Durability durability) throws RocksDBException {
        Path dir = BenchData.fresh(name);
        return new ProbeStores(dir.resolve("core"), dir.resolve("raw"), durability, dir);
    }

    /** The core alone on {@code dir}, which is kept. */
    static ProbeStores coreAt(Path dir, Durability durability) throws RocksDBException {
        return new ProbeStores(dir, null, durability, null);
    }

    /** The directory holding the core's (and raw's) directories. */
    Path directory() {
        return coreDir.getParent();
    }

    @Override
    public void close() {
        try (CosmosClient c = client) {
            if (raw != null) {
                raw.close();
            }
        } finally {
            if (deleteAtClose != null) {
                BenchData.delete(deleteAtClose);
            }
        }
    }
}
