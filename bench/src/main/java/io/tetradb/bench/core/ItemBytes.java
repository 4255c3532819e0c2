package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Report;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.storage.Space;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.PartitionStatistics;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosDatabase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Bytes per stored item and per index entry in each stored item format ({@code -Dtetradb.itemFormat=json} JSON text
 * vs the default binary TB1): the same core-benchmark items written into a store of each format, in a container
 * without indexing and one with the default policy. Logical bytes are what the store counts (key + value of every
 * item, key of every index entry: the statistics and request charges use them); on disk is the data directory after
 * a close (RocksDB's blocks, compressed, plus its logs and metadata), for a rough comparison only.
 * <p>
 * Alone (query-write, issue 17: bytes on disk before and after a change, one build against another), after
 * {@code bench/run --list}:
 * <pre>
 * java -Dbench.dataDir=bench/target/bench-data -cp "bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" \
 *     io.tetradb.bench.core.ItemBytes [items]
 * </pre>
 * (5,000 items by default, as {@code bench/run core --quick}; the class compiles against an older build's jars too,
 * so the same measurement runs on the old code).
 */
final class ItemBytes {
    private ItemBytes() {
    }

    public static void main(String[] args) {
        measure(new Report(System.out, System.err), args.length > 0 ? Integer.parseInt(args[0]) : 5_000);
    }

    static void measure(Report out, int count) {
        String before = System.getProperty("tetradb.itemFormat");
        try {
            for (String format : new String[]{"json", "binary"}) {
                Path dir = BenchData.fresh("core-bytes-" + format);
                try {
                    System.setProperty("tetradb.itemFormat", format); // read when the store is built
                    measure(out, format, dir, count);
                } finally {
                    BenchData.delete(dir);
                }
            }
        } finally {
            if (before == null) {
                System.clearProperty("tetradb.itemFormat");
            } else {
                System.setProperty("tetradb.itemFormat", before);
            }
        }
    }

    private static void measure(Report out, String format, Path dir, int count) {
        long values;
        long plainBytes;
        long indexedBytes;
        long entries;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("bytes");
            CosmosDatabase db = client.getDatabase("bytes");
            db.createContainerIfNotExists(CoreBenchmark.itemsContainer());
            db.createContainerIfNotExists(new CosmosContainerProperties("indexed", "/deviceId"));
            ContainerStore plain = client.coreStore().container("bytes", "items");
            ContainerStore indexed = client.coreStore().container("bytes", "indexed");
            Items items = new Items(plain.definition().collId(), CoreBenchmark.DEVICES);
            for (int i = 0; i < count; i++) {
                ObjectNode item = items.item(Items.id("b", i), i % CoreBenchmark.DEVICES, i);
                db.getContainer("items").createItem(item);
                db.getContainer("indexed").createItem(item);
            }
            long[] sum = {0};
            plain.scan(EpkRange.FULL, v -> {
                sum[0] += v.length;
                return true;
            });
            values = sum[0];
            plainBytes = bytes(plain.statistics());
            indexedBytes = bytes(indexed.statistics());
            entries = indexed.checkIndexes().stored();
        }
        long disk = directoryBytes(dir);
        long[] sst = compactedFamilyBytes(dir);
        out.result(String.format(Locale.ROOT, "BENCH core.bytes.%s items=%d value_bytes_per_item=%.1f "
                        + "item_bytes_per_item=%.1f index_entries_per_item=%.1f bytes_per_index_entry=%.1f "
                        + "disk_bytes_per_item=%.1f sst_bytes_per_item=%.1f sst_bytes_per_index_entry=%.1f "
                        + "sst_feed_bytes_per_item=%.1f", format, count, values / (double) count,
                plainBytes / (double) count, entries / (double) count,
                (indexedBytes - plainBytes) / (double) entries, disk / (double) (2L * count),
                sst[Space.DOCS.ordinal()] / (double) (2L * count), sst[Space.INDEX.ordinal()] / (double) entries,
                sst[Space.FEED.ordinal()] / (double) (2L * count)));
    }

    /**
     * Bytes on disk per column family once settled: the closed store reopened with its own settings, every family
     * compacted, then RocksDB's {@code rocksdb.total-sst-files-size} (compressed blocks, filters and indexes; no WAL).
     * Both containers' items are in {@code docs} and their change records in {@code feed}; {@code index} holds the
     * indexed container's entries.
     */
    private static long[] compactedFamilyBytes(Path dir) {
        long[] bytes = new long[Space.values().length];
        try (WriteProbe.Db db = new WriteProbe.Db(dir)) {
            for (Space space : Space.values()) {
                var cf = db.families.get(space);
                db.db.compactRange(cf);
                bytes[space.ordinal()] = db.db.getLongProperty(cf, "rocksdb.total-sst-files-size");
            }
        } catch (Exception e) {
            throw new IllegalStateException("measuring the data directory's families failed", e);
        }
        return bytes;
    }

    private static long bytes(PartitionStatistics s) {
        return s.physicalPartitions().stream().mapToLong(PartitionStatistics.Physical::bytes).sum();
    }

    private static long directoryBytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
