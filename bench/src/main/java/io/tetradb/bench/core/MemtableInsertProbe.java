package io.tetradb.bench.core;

import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.HashSkipListMemTableConfig;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A diagnostic (issue 17, write-cost): raw RocksDB, the writer's thread CPU per item for 100-item batches of
 * index-shaped keys (19 paths per item: 8 with a value shared by the batch, 4 rising, one 240-byte random string, 6
 * random; each key {@code collId · pathId · value · 00 01 · EPK · id}, the batch sorted as the store sorts it) into an
 * {@code index}-like column family (16 MiB memtables, WAL on, no sync), under memtable settings given as arguments:
 * {@code skiplist} (the store's), {@code skiplist-noconc} ({@code allow_concurrent_memtable_write=false}),
 * {@code hashskiplist} (a hash of skip lists on the 8-byte {@code collId · pathId} prefix; needs the former),
 * {@code skiplist-hint} (the store's, with an insert hint per 8-byte prefix, index-cost).
 * <pre>
 * java -cp "bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" io.tetradb.bench.core.MemtableInsertProbe
 * </pre>
 */
public final class MemtableInsertProbe {
    private MemtableInsertProbe() {
    }

    public static void main(String[] args) throws Exception {
        RocksDB.loadLibrary();
        String[] configs = args.length > 0 ? args
                : new String[] {"skiplist", "hashskiplist", "skiplist-noconc", "skiplist", "hashskiplist", "skiplist-noconc"};
        for (String config : configs) {
            run(config);
        }
    }

    private static void run(String config) throws Exception {
        Path dir = Files.createTempDirectory("memtable-probe");
        ColumnFamilyOptions cf = (config.startsWith("skiplist-hint") ? hinted() : new ColumnFamilyOptions())
                .setWriteBufferSize(16L << 20).setMaxWriteBufferNumber(3)
                .setCompressionType(CompressionType.LZ4_COMPRESSION).setLevelCompactionDynamicLevelBytes(true);
        DBOptions db = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2).setRecycleLogFileNum(4);
        if (config.startsWith("hashskiplist")) {
            cf.useFixedLengthPrefixExtractor(8);
            cf.setMemTableConfig(new HashSkipListMemTableConfig());
        }
        if (config.endsWith("noconc") || config.startsWith("hashskiplist")) {
            db.setAllowConcurrentMemtableWrite(false);
        }
        List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cf),
                new ColumnFamilyDescriptor("index".getBytes(StandardCharsets.UTF_8), cf));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        SplittableRandom r = new SplittableRandom(7);
        try (RocksDB rocks = RocksDB.open(db, dir.toString(), families, handles);
             WriteOptions wo = new WriteOptions()) {
            ColumnFamilyHandle index = handles.get(1);
            long seq = 0;
            List<Double> rounds = new ArrayList<>();
            for (int round = 0; round < 8; round++) {
                long used = 0;
                for (int b = 0; b < 100; b++) {
                    byte[] epk = new byte[16];
                    r.nextBytes(epk);
                    List<byte[]> keys = new ArrayList<>();
                    for (int it = 0; it < 100; it++, seq++) {
                        byte[] id = String.format(Locale.ROOT, "dev-%d-%09d", b % 97, seq).getBytes(StandardCharsets.UTF_8);
                        for (int p = 0; p < 19; p++) {
                            keys.add(key(r, p, seq, epk, id));
                        }
                    }
                    keys.sort(Arrays::compareUnsigned);
                    long c0 = cpu.getCurrentThreadCpuTime();
                    try (WriteBatch wb = new WriteBatch()) {
                        for (byte[] k : keys) {
                            wb.put(index, k, new byte[0]);
                        }
                        rocks.write(wo, wb);
                    }
                    used += cpu.getCurrentThreadCpuTime() - c0;
                }
                if (round >= 2) {
                    rounds.add(used / 1e3 / 10_000);
                }
            }
            Collections.sort(rounds);
            System.out.printf(Locale.ROOT, "PROBE memtable %s cpu_us_per_item=%.2f min=%.2f max=%.2f%n", config,
                    rounds.get(rounds.size() / 2), rounds.get(0), rounds.get(rounds.size() - 1));
            for (ColumnFamilyHandle h : handles) {
                h.close();
            }
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /**
     * index-cost: a column family whose memtable inserts with a hint per 8-byte {@code collId · pathId} prefix
     * ({@code memtable_insert_with_hint_prefix_extractor}; RocksJava has no setter): RocksDB then keeps a splice per
     * path and repairs it from the bottom level up ({@code InlineSkipList::InsertWithHint}), where a plain insert
     * whose key is not right after the previous one descends from the top again.
     */
    private static ColumnFamilyOptions hinted() {
        java.util.Properties props = new java.util.Properties();
        props.setProperty("memtable_insert_with_hint_prefix_extractor", "rocksdb.FixedPrefix.8");
        ColumnFamilyOptions options = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(props);
        if (options == null) {
            throw new IllegalStateException("RocksDB refused memtable_insert_with_hint_prefix_extractor");
        }
        return options;
    }

    private static byte[] key(SplittableRandom r, int path, long seq, byte[] epk, byte[] id) {
        byte[] value;
        if (path < 8) {
            value = ("same-value-" + path + "-" + (seq / 100) % 1000).getBytes(StandardCharsets.UTF_8);
        } else if (path < 12) {
            value = String.format(Locale.ROOT, "%012d", seq).getBytes(StandardCharsets.UTF_8);
        } else if (path == 12) {
            value = new byte[240];
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) (48 + r.nextInt(60));
            }
        } else {
            value = new byte[9];
            r.nextBytes(value);
        }
        byte[] k = new byte[8 + value.length + 2 + 16 + id.length];
        k[3] = 5;
        k[7] = (byte) (path * 7 + 3);
        System.arraycopy(value, 0, k, 8, value.length);
        int o = 8 + value.length;
        k[o++] = 0;
        k[o++] = 1;
        System.arraycopy(epk, 0, k, o, 16);
        System.arraycopy(id, 0, k, o + 16, id.length);
        return k;
    }
}
