package io.tetradb.bench.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.ProcTasks;
import io.tetradb.bench.Samples;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.ThroughputProperties;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A focused measurement of the query benchmark's write ratio (about 30 s for the default 120k items): loads the query
 * benchmark's items in 100-item {@code CosmosBatch}es into an indexed (default policy) and an unindexed container in
 * alternating rounds of 10,000, like {@code bench/run query}, and prints per side the median and the best round's
 * items/s, the measuring thread's CPU time per item inside {@code executeCosmosBatch} (far less noisy than
 * throughput on a shared machine), every round, the whole process's CPU time per item (flushes and compactions
 * included), that of RocksDB's own threads (both stores' flushes and compactions) and the ratio of the medians.
 * After {@code bench/run --list} (which builds the module), run
 * <pre>
 * java -Dbench.dataDir=bench/target/bench-data -cp "bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" \
 *     io.tetradb.bench.query.WriteCostHarness [items]
 * </pre>
 * ({@code -Dbench.keep=true} keeps the data directories, e.g. to read RocksDB's LOG). Session 23 (index-write):
 * {@code -Dbench.side=indexed} or {@code none} loads one side alone (to profile it apart from the other); after the
 * load the indexed store's {@code index} family is read back and its entries and key bytes per item printed; with
 * {@code -Dtetradb.rocks.statistics=true} each side's WAL bytes per item too (RocksDB's {@code rocksdb.wal.bytes}).
 */
public final class WriteCostHarness {
    /** SYNC as in the query benchmark; {@code -Dbench.durability=ASYNC} leaves the fsync wait out (query-idx). */
    static final Durability DURABILITY = Durability.valueOf(System.getProperty("bench.durability", "SYNC"));

    /** The longest wait for both stores' flushes and compactions after the load (index-lsm). */
    static final long SETTLE_MILLIS = 120_000;

    private WriteCostHarness() {
    }

    public static void main(String[] args) throws Exception {
        long items = args.length > 0 ? Long.parseLong(args[0]) : 120_000;
        String side = System.getProperty("bench.side", "both");
        boolean loadIndexed = !side.equals("none");
        boolean loadNone = !side.equals("indexed");
        if (!side.equals("both") && loadIndexed == loadNone) {
            throw new IllegalArgumentException("-Dbench.side must be both, indexed or none, not " + side);
        }
        int round = 10_000;
        Path dir = BenchData.fresh("write-cost");
        Samples indexed = new Samples();
        Samples none = new Samples();
        // query-idx: each recorded round's writer CPU per item, so that the rounds into empty partitions (the first
        // 100k items: the create check reads nothing) and those into partitions holding items can be told apart
        StringBuilder indexedCpu = new StringBuilder();
        StringBuilder noneCpu = new StringBuilder();
        // query-write: per side {items, wall ns, writer CPU ns, bytes the writer allocated} over the recorded rounds,
        // so that the wall time splits into the writer's CPU and its wait (the group fsync), and allocation shows
        // index-rocks: and the writer thread's minor page faults (fresh heap and memtable arena pages)
        long[] indexedTotals = new long[5];
        long[] noneTotals = new long[5];
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long processCpu = os.getProcessCpuTime();
        long rocksCpu = rocksThreadsCpu();
        long settleCpu = 0;
        try (CosmosClient a = new CosmosClientBuilder().dataDirectory(dir.resolve("indexed"))
                .durability(DURABILITY).buildClient();
             CosmosClient b = new CosmosClientBuilder().dataDirectory(dir.resolve("none"))
                     .durability(DURABILITY).buildClient()) {
            CosmosContainer ci = container(a, QueryBenchmark.indexed("items"));
            CosmosContainer cn = container(b, QueryBenchmark.unindexed("items"));
            org.rocksdb.Statistics statsIndexed = WalBytes.statistics(a);
            org.rocksdb.Statistics statsNone = WalBytes.statistics(b);
            int r = 0;
            for (long loaded = 0; loaded < items; loaded += round, r++) {
                boolean record = r > 0;
                long first = loaded / QueryBenchmark.BATCH;
                int batches = round / QueryBenchmark.BATCH;
                for (int k = 0; k < 2; k++) {
                    if ((k == 0) == (r % 2 == 0)) { // the indexed side first in even rounds
                        if (loadIndexed) {
                            load(ci, first, batches, record ? indexed : new Samples(), cpu,
                                    record ? indexedCpu : null, record ? indexedTotals : null);
                        }
                    } else if (loadNone) {
                        load(cn, first, batches, record ? none : new Samples(), cpu, record ? noneCpu : null,
                                record ? noneTotals : null);
                    }
                }
            }
            // index-lsm: the CPU of flushes and compactions left pending at the end of the load is counted too, so
            // that options which only defer compaction (higher L0 triggers) are not flattered
            long settle0 = rocksThreadsCpu();
            long settledMs = a.coreStore().awaitBackgroundWork(SETTLE_MILLIS)
                    + b.coreStore().awaitBackgroundWork(SETTLE_MILLIS);
            settleCpu = rocksThreadsCpu() - settle0;
            System.out.printf(Locale.ROOT, "settled_ms=%d rocksdb threads while settling cpu_us_per_item=%.1f%n",
                    settledMs, settleCpu / 1e3 / items);
            WalBytes.print("indexed", statsIndexed, loadIndexed ? items : 0);
            WalBytes.print("none   ", statsNone, loadNone ? items : 0);
        }
        try {
            if (loadIndexed) {
                IndexFamilyKeys.print(dir.resolve("indexed"), items);
            }
        } finally {
            if (!Boolean.getBoolean("bench.keep")) {
                BenchData.delete(dir);
            }
        }
        System.out.printf(Locale.ROOT, "indexed items_per_s=%.0f best=%.0f cpu_us_per_item=%.2f rounds=%s%n",
                indexed.medianRate(), best(indexed), indexed.cpuMicrosPerUnit(), fmt(indexed));
        System.out.printf(Locale.ROOT, "none    items_per_s=%.0f best=%.0f cpu_us_per_item=%.2f rounds=%s%n",
                none.medianRate(), best(none), none.cpuMicrosPerUnit(), fmt(none));
        totals("indexed", indexedTotals);
        totals("none   ", noneTotals);
        System.out.println("indexed cpu_us_per_item by round: " + indexedCpu.toString().trim());
        System.out.println("none    cpu_us_per_item by round: " + noneCpu.toString().trim());
        // every thread of the process (both stores' flushes and compactions, item generation, JIT) per item loaded
        System.out.printf(Locale.ROOT, "process cpu_us_per_item=%.1f%n",
                (os.getProcessCpuTime() - processCpu) / 1e3 / items);
        // index-keys: RocksDB's own threads (flushes and compactions of both stores: one thread pool per process)
        System.out.printf(Locale.ROOT, "rocksdb threads cpu_us_per_item=%.1f%n",
                (rocksThreadsCpu() - rocksCpu - settleCpu) / 1e3 / items);
        System.out.printf(Locale.ROOT, "rocksdb threads with settling cpu_us_per_item=%.1f%n",
                (rocksThreadsCpu() - rocksCpu) / 1e3 / items);
        System.out.printf(Locale.ROOT, "RATIO write indexed/none %.3f%n", indexed.medianRate() / none.medianRate());
    }

    /** CPU nanoseconds so far of this process's {@code rocksdb:*} threads (0 without {@code /proc}). */
    private static long rocksThreadsCpu() {
        return ProcTasks.sumByGroup(new java.util.HashMap<>(), name -> name.startsWith("rocksdb:") ? "rocksdb" : "other",
                ProcTasks.TaskStat::cpuNanos).getOrDefault("rocksdb", 0L);
    }

    /** Wall time per item = the writer's CPU + what it waited for (mostly the group fsync); bytes it allocated. */
    private static void totals(String side, long[] t) {
        double items = t[0];
        System.out.printf(Locale.ROOT, "%s wall_us_per_item=%.2f cpu_us_per_item=%.2f wait_us_per_item=%.2f "
                        + "alloc_bytes_per_item=%.0f minor_faults_per_item=%.4f%n", side, t[1] / 1e3 / items,
                t[2] / 1e3 / items, (t[1] - t[2]) / 1e3 / items, t[3] / items, t[4] / items);
    }

    private static double best(Samples s) {
        return s.rates().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static String fmt(Samples s) {
        StringBuilder sb = new StringBuilder();
        for (double d : s.rates()) {
            sb.append(String.format(Locale.ROOT, "%.0f ", d));
        }
        return sb.toString().trim();
    }

    private static CosmosContainer container(CosmosClient client, CosmosContainerProperties props) {
        client.createDatabaseIfNotExists("bench");
        client.getDatabase("bench").createContainerIfNotExists(props,
                ThroughputProperties.createManualThroughput(QueryBenchmark.THROUGHPUT));
        return client.getDatabase("bench").getContainer(props.getId());
    }

    private static void load(CosmosContainer c, long firstBatch, int batches, Samples s, ThreadMXBean cpu,
                             StringBuilder cpuByRound, long[] totals) {
        long total = 0;
        long cpuTotal = 0;
        long allocTotal = 0;
        long faultsTotal = 0;
        com.sun.management.ThreadMXBean alloc = (com.sun.management.ThreadMXBean) cpu;
        for (long b = firstBatch; b < firstBatch + batches; b++) {
            ObjectNode[] nodes = new ObjectNode[QueryBenchmark.BATCH];
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = QueryBenchmark.item(b * QueryBenchmark.BATCH + i);
            }
            String deviceId = QueryBenchmark.deviceId(QueryBenchmark.device(b * QueryBenchmark.BATCH));
            // the thread's minor faults: each fresh 4 KiB page costs the writer 12-19 us on this VM (last sessions); read
            // before the allocation counter, so its own garbage is not counted
            long f0 = ProcTasks.currentThread().minorFaults();
            long a0 = alloc.getCurrentThreadAllocatedBytes();
            long c0 = cpu.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(deviceId));
            for (ObjectNode node : nodes) {
                batch.createItemOperation(node);
            }
            if (!c.executeCosmosBatch(batch).isSuccessStatusCode()) {
                throw new IllegalStateException("batch " + b + " failed");
            }
            total += System.nanoTime() - t0;
            cpuTotal += cpu.getCurrentThreadCpuTime() - c0;
            allocTotal += alloc.getCurrentThreadAllocatedBytes() - a0;
            faultsTotal += ProcTasks.currentThread().minorFaults() - f0;
        }
        if (totals != null) {
            totals[0] += (long) batches * QueryBenchmark.BATCH;
            totals[1] += total;
            totals[2] += cpuTotal;
            totals[3] += allocTotal;
            totals[4] += faultsTotal;
        }
        s.round((long) batches * QueryBenchmark.BATCH, total, cpuTotal);
        if (cpuByRound != null) {
            cpuByRound.append(String.format(Locale.ROOT, "%.1f ", cpuTotal / 1e3 / batches / QueryBenchmark.BATCH));
        }
    }
}
