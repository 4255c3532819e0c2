package io.tetradb.bench.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.ProcTasks;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksSettings;
import io.tetradb.core.storage.Space;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.ThroughputProperties;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A diagnostic (issue 17, index-cost): what one index entry costs RocksDB, in parts, per key length and per
 * {@code index} column family setting. The query benchmark's items are written into a core store (default policy
 * plus the benchmark's composite) in 100-item batches; the store's own {@code index} keys are read back and grouped
 * into the batches that wrote them (the id's sequence number), then replayed into fresh RocksDBs with the store's
 * {@link RocksSettings} ({@code index} family as the store has it, or changed by a setting below), each batch one
 * {@code WriteBatch} handed over as one array, as the store does. Per entry it prints:
 * <ul>
 *   <li>{@code encode_ns}: building the batch's array in Java (the store's {@code WriteBatchEncoder} layout); with
 *       the setting {@code putbyput}, building a {@code WriteBatch} with one {@code put} (one JNI call and copy) per
 *       key instead, as the engine did before it handed RocksDB one array;</li>
 *   <li>{@code write_ns}: the writer thread's CPU in {@code RocksDB.write} (WAL append and memtable insert);</li>
 *   <li>{@code nowal_write_ns}: the same with {@code disableWAL} (so WAL = write - nowal_write);</li>
 *   <li>{@code bg_ns}: CPU of RocksDB's own threads ({@code rocksdb:*}: flushes and compactions) until every
 *       flush and compaction has finished, which the benchmark's throughput pays on 2 cores;</li>
 *   <li>{@code key_b}, {@code wal_b} (bytes the WAL got per entry), {@code sst_b} (on disk after the writes
 *       settled), {@code compact_write_b} (bytes flushes and compactions wrote, per entry: write amplification).</li>
 * </ul>
 * The load into the core store prints its own CPU per item first ({@code PROBE store-load}: the writing thread,
 * RocksDB's threads and the whole process, until the store's background work settled); {@code keys=none} stops
 * there. Key forms ({@code keys=}): {@code full} (as stored: {@code collId · pathId · enc(value) · EPK · pk · id}),
 * {@code noepk} (without the 16-byte EPK), {@code num8} (the {@code EPK · pk · id} suffix replaced by an 8-byte item
 * number), {@code term} (no suffix: the cost of the term alone). Settings ({@code cf=}): {@code store},
 * {@code nocomp}, {@code nocomp01} (none on L0/L1, LZ4 below), {@code mem32}, {@code mem64} (64 MiB memtable),
 * {@code mem64l0x8}, {@code l0x8} (L0 compaction trigger 8), {@code universal}, {@code putbyput} (the store's,
 * the batch built put by put), {@code direct} (index-rocks: as the store builds batches now, a kept batch and one
 * direct-buffer put per key, {@code encode_ns} then being the puts), {@code bytes} (the same with {@code byte[]}
 * puts), {@code lookahead} ({@code direct} with the skip list's lookahead 16), {@code nohint} ({@code direct}
 * without the per-path memtable insert hint),
 * {@code base256} (256 MiB level base), {@code block16k}, {@code restart4}, {@code restart64} (the block's restart
 * interval), {@code target8m}, {@code target256m} (the target file size).
 * <pre>
 * java -cp "bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" io.tetradb.bench.query.IndexEntryCostProbe \
 *     [items] [keys,...] [cf,...] [repeats]
 * </pre>
 */
public final class IndexEntryCostProbe {
    private IndexEntryCostProbe() {
    }

    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        String[] keyForms = (args.length > 1 ? args[1] : "full,noepk,num8,term").split(",");
        String[] settings = (args.length > 2 ? args[2] : "store").split(",");
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        Path dir = BenchData.fresh("index-entry-cost");
        try {
            List<List<byte[]>> batches = storeKeys(dir.resolve("core"), items);
            long entries = batches.stream().mapToLong(List::size).sum();
            System.out.printf(Locale.ROOT, "# %d items, %d index entries (%.1f per item), load average %s%n",
                    items, entries, entries / (double) items, loadAverage());
            for (int rep = 0; rep < repeats && !keyForms[0].equals("none"); rep++) {
                for (String form : keyForms) {
                    List<List<byte[]>> keys = reshape(batches, form);
                    for (String cf : settings) {
                        replay(dir.resolve("r"), keys, form, cf, false);
                        if (!Boolean.getBoolean("probe.walOnly")) {
                            replay(dir.resolve("r"), keys, form, cf, true);
                        }
                    }
                }
            }
        } finally {
            BenchData.delete(dir);
        }
    }

    /** The store's index keys of {@code items} query-benchmark items, grouped by the 100-item batch that wrote them. */
    private static List<List<byte[]>> storeKeys(Path dir, int items) throws Exception {
        int batchCount = items / QueryBenchmark.BATCH;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC)
                .buildClient()) {
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase db = client.getDatabase("bench");
            db.createContainerIfNotExists(QueryBenchmark.indexed("items"),
                    ThroughputProperties.createManualThroughput(QueryBenchmark.THROUGHPUT));
            CosmosContainer c = db.getContainer("items");
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long process0 = os.getProcessCpuTime();
            long writer0 = cpu.getCurrentThreadCpuTime();
            Map<String, Long> bg0 = rocksThreadTicks();
            long wall0 = System.nanoTime();
            for (long b = 0; b < batchCount; b++) {
                CosmosBatch batch = CosmosBatch.createCosmosBatch(
                        new PartitionKey(QueryBenchmark.deviceId(QueryBenchmark.device(b * QueryBenchmark.BATCH))));
                for (int i = 0; i < QueryBenchmark.BATCH; i++) {
                    ObjectNode n = QueryBenchmark.item(b * QueryBenchmark.BATCH + i);
                    batch.createItemOperation(n);
                }
                if (!c.executeCosmosBatch(batch).isSuccessStatusCode()) {
                    throw new IllegalStateException("batch " + b + " failed");
                }
            }
            long writer = cpu.getCurrentThreadCpuTime() - writer0;
            long wall = System.nanoTime() - wall0;
            client.coreStore().awaitBackgroundWork(120_000);
            long process = os.getProcessCpuTime() - process0;
            long bg = 0;
            for (Map.Entry<String, Long> e : rocksThreadTicks().entrySet()) {
                bg += e.getValue() - bg0.getOrDefault(e.getKey(), 0L);
            }
            // the whole load's CPU per item, RocksDB's own threads included (what the query benchmark pays)
            System.out.printf(Locale.ROOT, "PROBE store-load items=%d indexCompaction=%s writer_us=%.1f "
                            + "rocksdb_threads_us=%.1f process_us=%.1f wall_us=%.1f (per item, ASYNC)%n", items,
                    System.getProperty("tetradb.rocks.indexCompaction", "level"), writer / 1e3 / items,
                    bg * 1e7 / 1e3 / items, process / 1e3 / items, wall / 1e3 / items);
        }
        List<List<byte[]>> batches = new ArrayList<>();
        for (int b = 0; b < batchCount; b++) {
            batches.add(new ArrayList<>());
        }
        try (RocksSettings s = new RocksSettings(256L << 20);
             DBOptions dbo = s.dbOptions();
             ColumnFamilyOptions def = s.defaultColumnFamilyOptions()) {
            List<ColumnFamilyDescriptor> d = new ArrayList<>();
            List<ColumnFamilyOptions> opts = new ArrayList<>();
            d.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, def));
            for (Space sp : Space.values()) {
                ColumnFamilyOptions o = s.columnFamilyOptions(sp);
                opts.add(o);
                d.add(new ColumnFamilyDescriptor(sp.familyName().getBytes(StandardCharsets.UTF_8), o));
            }
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB rocks = RocksDB.open(dbo, dir.toString(), d, handles);
                 RocksIterator it = rocks.newIterator(handles.get(Space.INDEX.ordinal() + 1))) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    byte[] k = it.key();
                    batches.get((int) (seqOf(k) / QueryBenchmark.BATCH)).add(k);
                }
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
                opts.forEach(ColumnFamilyOptions::close);
            }
        }
        return batches;
    }

    /** The item's sequence number: the last 9 digits of its id, the end of every entry key. */
    private static long seqOf(byte[] key) {
        long seq = 0;
        for (int i = key.length - 9; i < key.length; i++) {
            seq = seq * 10 + (key[i] - '0');
        }
        return seq;
    }

    /** Suffix length {@code EPK(16) · pk · id}: the pk is the string {@code deviceId} (tag, length, UTF-8). */
    private static int suffixLength(byte[] key) {
        long seq = seqOf(key);
        String device = QueryBenchmark.deviceId(QueryBenchmark.device(seq));
        String id = device + "-" + String.format(Locale.ROOT, "%09d", seq);
        return 16 + 2 + device.length() + id.length();
    }

    private static List<List<byte[]>> reshape(List<List<byte[]>> batches, String form) {
        if (form.equals("full")) {
            return batches;
        }
        List<List<byte[]>> out = new ArrayList<>();
        for (List<byte[]> batch : batches) {
            List<byte[]> keys = new ArrayList<>(batch.size());
            for (byte[] k : batch) {
                int suffix = suffixLength(k);
                int term = k.length - suffix;
                byte[] r;
                switch (form) {
                    case "noepk" -> {
                        r = new byte[k.length - 16];
                        System.arraycopy(k, 0, r, 0, term);
                        System.arraycopy(k, term + 16, r, term, suffix - 16);
                    }
                    case "num8" -> {
                        r = Arrays.copyOf(k, term + 8);
                        long seq = seqOf(k);
                        for (int i = 0; i < 8; i++) {
                            r[term + i] = (byte) (seq >>> (56 - 8 * i));
                        }
                    }
                    case "term" -> r = Arrays.copyOf(k, term);
                    default -> throw new IllegalArgumentException("key form " + form);
                }
                keys.add(r);
            }
            keys.sort(Arrays::compareUnsigned);
            out.add(keys);
        }
        return out;
    }

    private static void replay(Path dir, List<List<byte[]>> batches, String form, String cf, boolean noWal)
            throws Exception {
        BenchData.delete(dir);
        Files.createDirectories(dir);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        // index-rocks: "nohint" is "direct" without the index family's per-path insert hint (set for this open only)
        String hint = "tetradb.rocks.indexOptions";
        String hintBefore = System.getProperty(hint);
        if (cf.equals("nohint")) {
            System.setProperty(hint, "memtable_insert_with_hint_prefix_extractor=nullptr");
        }
        try (RocksSettings s = new RocksSettings(256L << 20);
             DBOptions dbo = s.dbOptions().setRecycleLogFileNum(noWal ? 0 : 4);
             ColumnFamilyOptions def = s.defaultColumnFamilyOptions();
             ColumnFamilyOptions index = change(restoring(hint, hintBefore, s.columnFamilyOptions(Space.INDEX)), cf);
             WriteOptions wo = new WriteOptions().setDisableWAL(noWal);
             FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            List<ColumnFamilyDescriptor> d = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, def),
                    new ColumnFamilyDescriptor("index".getBytes(StandardCharsets.UTF_8), index));
            try (RocksDB rocks = RocksDB.open(dbo, dir.toString(), d, handles)) {
                ColumnFamilyHandle h = handles.get(1);
                int cfId = h.getID();
                long entries = 0;
                long keyBytes = 0;
                long encodeNs = 0;
                long writeNs = 0;
                long walBytes = 0;
                Map<String, Long> bg0 = rocksThreadTicks();
                WriteBatch kept = new WriteBatch();
                java.nio.ByteBuffer staging = java.nio.ByteBuffer.allocateDirect(64 * 1024);
                for (List<byte[]> batch : batches) {
                    long c0 = cpu.getCurrentThreadCpuTime();
                    long c1;
                    long c2;
                    if (cf.equals("direct") || cf.equals("bytes") || cf.equals("lookahead") || cf.equals("nohint")) {
                        // index-rocks: as the store builds its batches now (a kept batch, cleared; one direct-buffer
                        // put per key from a staging buffer, DirectWriteBatches), or with byte[] puts ("bytes")
                        kept.clear();
                        for (byte[] k : batch) {
                            if (cf.equals("bytes")) {
                                kept.put(h, k, EMPTY);
                            } else {
                                staging.clear();
                                staging.put(k).flip();
                                kept.put(h, staging, EMPTY_DIRECT);
                            }
                        }
                        c1 = cpu.getCurrentThreadCpuTime();
                        rocks.write(wo, kept);
                        c2 = cpu.getCurrentThreadCpuTime();
                    } else if (cf.equals("putbyput")) { // query-idx: one JNI call and copy per key, as before fd7f698
                        try (WriteBatch wb = new WriteBatch()) {
                            for (byte[] k : batch) {
                                wb.put(h, k, EMPTY);
                            }
                            c1 = cpu.getCurrentThreadCpuTime();
                            rocks.write(wo, wb);
                            c2 = cpu.getCurrentThreadCpuTime();
                        }
                    } else {
                        byte[] rep = encode(batch, cfId);
                        c1 = cpu.getCurrentThreadCpuTime();
                        try (WriteBatch wb = new WriteBatch(rep)) {
                            rocks.write(wo, wb);
                        }
                        c2 = cpu.getCurrentThreadCpuTime();
                    }
                    encodeNs += c1 - c0;
                    writeNs += c2 - c1;
                    entries += batch.size();
                    walBytes += noWal ? 0 : encodedSize(batch);
                    for (byte[] k : batch) {
                        keyBytes += k.length;
                    }
                }
                kept.close();
                rocks.flush(flush, h);
                waitForCompactions(rocks, h);
                Map<String, Long> bg1 = rocksThreadTicks();
                long bgTicks = 0;
                for (Map.Entry<String, Long> e : bg1.entrySet()) {
                    bgTicks += e.getValue() - bg0.getOrDefault(e.getKey(), 0L);
                }
                double bgNs = bgTicks * 1e9 / 100; // clock ticks (USER_HZ = 100)
                long sst = rocks.getLongProperty(h, "rocksdb.total-sst-files-size");
                long compacted = compactionWriteBytes(rocks, h);
                System.out.printf(Locale.ROOT, "PROBE index-entry keys=%s cf=%s wal=%s key_b=%.1f encode_ns=%.0f "
                                + "write_ns=%.0f bg_ns=%.0f sum_ns=%.0f wal_b=%.1f sst_b=%.1f compact_write_b=%.1f%n",
                        form, cf, noWal ? "off" : "on", keyBytes / (double) entries, encodeNs / (double) entries,
                        writeNs / (double) entries, bgNs / entries, (encodeNs + writeNs + bgNs) / entries,
                        walBytes / (double) entries, sst / (double) entries, compacted / (double) entries);
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
        BenchData.delete(dir);
    }

    /** {@code options}, after putting the system property {@code name} back to {@code before}. */
    private static ColumnFamilyOptions restoring(String name, String before, ColumnFamilyOptions options) {
        if (before == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, before);
        }
        return options;
    }

    /** The store's {@code index} options, changed by one named setting. */
    private static ColumnFamilyOptions change(ColumnFamilyOptions o, String cf) {
        switch (cf) {
            case "store", "putbyput", "direct", "bytes", "nohint" -> { }
            // index-rocks: the skip list's lookahead (RocksJava's setter; RocksDB uses it in the memtable's iterator)
            case "lookahead" -> o.setMemTableConfig(new org.rocksdb.SkipListMemTableConfig().setLookahead(16));
            case "nocomp" -> o.setCompressionType(CompressionType.NO_COMPRESSION);
            case "mem64" -> o.setWriteBufferSize(64L << 20);
            case "l0x8" -> o.setLevel0FileNumCompactionTrigger(8);
            case "universal" -> o.setCompactionStyle(CompactionStyle.UNIVERSAL);
            case "base256" -> o.setMaxBytesForLevelBase(256L << 20);
            case "block16k" -> o.setTableFormatConfig(new org.rocksdb.BlockBasedTableConfig().setBlockSize(16 << 10));
            // index-write (session 18): the block's restart interval (keys between full keys; RocksDB's default 16)
            // and the target file size (RocksDB's default 64 MiB), with the store's 4 KiB blocks
            case "restart4" -> o.setTableFormatConfig(new org.rocksdb.BlockBasedTableConfig().setBlockSize(4 << 10)
                    .setBlockRestartInterval(4));
            case "restart64" -> o.setTableFormatConfig(new org.rocksdb.BlockBasedTableConfig().setBlockSize(4 << 10)
                    .setBlockRestartInterval(64));
            case "target8m" -> o.setTargetFileSizeBase(8L << 20);
            case "target256m" -> o.setTargetFileSizeBase(256L << 20);
            case "nocomp01" -> o.setCompressionPerLevel(List.of(CompressionType.NO_COMPRESSION,
                    CompressionType.NO_COMPRESSION, CompressionType.LZ4_COMPRESSION, CompressionType.LZ4_COMPRESSION,
                    CompressionType.LZ4_COMPRESSION, CompressionType.LZ4_COMPRESSION, CompressionType.LZ4_COMPRESSION));
            case "mem32" -> o.setWriteBufferSize(32L << 20);
            case "l0x16" -> o.setLevel0FileNumCompactionTrigger(16).setLevel0SlowdownWritesTrigger(32)
                    .setLevel0StopWritesTrigger(48);
            case "base64" -> o.setMaxBytesForLevelBase(64L << 20);
            case "base32" -> o.setMaxBytesForLevelBase(32L << 20);
            case "mem64l0x8" -> o.setWriteBufferSize(64L << 20).setLevel0FileNumCompactionTrigger(8);
            // small mutable memtables (inserts stay in the core's L2) merged into one flush of 16 MiB
            case "mem8m2" -> o.setWriteBufferSize(8L << 20).setMinWriteBufferNumberToMerge(2).setMaxWriteBufferNumber(4);
            case "mem4m4" -> o.setWriteBufferSize(4L << 20).setMinWriteBufferNumberToMerge(4).setMaxWriteBufferNumber(7);
            case "mem2m8" -> o.setWriteBufferSize(2L << 20).setMinWriteBufferNumberToMerge(8).setMaxWriteBufferNumber(12);
            case "mem1m16" -> o.setWriteBufferSize(1L << 20).setMinWriteBufferNumberToMerge(16)
                    .setMaxWriteBufferNumber(22);
            default -> throw new IllegalArgumentException("setting " + cf);
        }
        return o;
    }

    private static void waitForCompactions(RocksDB rocks, ColumnFamilyHandle h) throws Exception {
        for (int i = 0; i < 6000; i++) {
            if (rocks.getLongProperty(h, "rocksdb.compaction-pending") == 0
                    && rocks.getLongProperty(h, "rocksdb.num-running-compactions") == 0
                    && rocks.getLongProperty(h, "rocksdb.num-running-flushes") == 0) {
                return;
            }
            Thread.sleep(10);
        }
    }

    /** Bytes written by flushes and compactions of the family (its {@code cfstats} "W-Amp" table's Write(GB)). */
    private static long compactionWriteBytes(RocksDB rocks, ColumnFamilyHandle h) throws Exception {
        Map<String, String> stats = rocks.getMapProperty(h, "rocksdb.cfstats");
        String w = stats.get("compaction.Sum.WriteGB");
        return w == null ? -1 : (long) (Double.parseDouble(w) * (1L << 30));
    }

    /** utime + stime of this process's RocksDB threads ({@code rocksdb:*}), by thread id. */
    private static Map<String, Long> rocksThreadTicks() {
        Map<String, Long> ticks = new HashMap<>();
        for (ProcTasks.TaskStat t : ProcTasks.threads()) {
            if (t.name().startsWith("rocksdb:")) {
                ticks.put(t.tid(), t.cpuTicks());
            }
        }
        return ticks;
    }

    /** A batch of puts with empty values in RocksDB's {@code WriteBatch} representation, as the store builds it. */
    private static final byte[] EMPTY = new byte[0];
    /** An empty direct value for the direct-buffer puts (index-rocks). */
    private static final java.nio.ByteBuffer EMPTY_DIRECT = java.nio.ByteBuffer.allocateDirect(0);

    /** The bytes {@link #encode} gives {@code keys} (what the WAL gets per batch), without building them. */
    private static long encodedSize(List<byte[]> keys) {
        long size = 12;
        for (byte[] k : keys) {
            size += 1 + 1 + varintSize(k.length) + k.length + 1;
        }
        return size;
    }

    private static byte[] encode(List<byte[]> keys, int cfId) {
        int size = 12;
        for (byte[] k : keys) {
            size += 1 + 1 + varintSize(k.length) + k.length + 1;
        }
        byte[] out = new byte[size];
        int n = keys.size();
        out[8] = (byte) n;
        out[9] = (byte) (n >>> 8);
        out[10] = (byte) (n >>> 16);
        out[11] = (byte) (n >>> 24);
        int at = 12;
        for (byte[] k : keys) {
            out[at++] = 0x5;
            out[at++] = (byte) cfId;
            at = varint(out, at, k.length);
            System.arraycopy(k, 0, out, at, k.length);
            at += k.length;
            out[at++] = 0;
        }
        return out;
    }

    private static int varintSize(int v) {
        return v < 128 ? 1 : v < 16384 ? 2 : 3;
    }

    private static int varint(byte[] out, int at, int v) {
        while ((v & ~0x7F) != 0) {
            out[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }
}
