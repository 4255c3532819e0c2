package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.bench.ProcTasks;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * For measuring (not a benchmark of record): a fresh JVM's first bulk load, as a user's first load into a freshly
 * started server. One air-routes load into a fresh SYNC store, nothing loaded or compiled before it. Prints the
 * load's elements/s, the process CPU per element and, on Linux, each thread group's CPU during the load (JIT
 * compiler threads, GC, RocksDB's native threads, the rest) from /proc/self/task, plus the JIT's compile time.
 * Run once per JVM; compare JVM options in alternating fresh JVMs:
 * <pre>
 * java $OPENS [JVM options] -cp "bench/target/bench-*.jar:bench/target/lib/*" io.tetradb.bench.graph.FirstLoadProbe
 * </pre>
 */
public final class FirstLoadProbe {
    private FirstLoadProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = BenchData.fresh("graph-first-load");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient()) {
            TetraGraph graph = GraphBenchmark.openGraph(client, "air");
            client.coreStore().awaitBackgroundWork(GraphBenchmark.SETTLE_MILLIS);
            Map<String, Long> before = threadGroupCpuTicks();
            long jit0 = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
            long c0 = GraphBenchmark.processCpuNanos();
            long t0 = System.nanoTime();
            BulkLoader.Loaded loaded;
            try (InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
                loaded = BulkLoader.into(graph).partitionKey(GraphBenchmark::partitionKey)
                        .read(GryoReader.build().create(), in);
            }
            long nanos = System.nanoTime() - t0;
            long cpu = GraphBenchmark.processCpuNanos() - c0;
            long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit0;
            Map<String, Long> after = threadGroupCpuTicks();
            long elements = loaded.elements();
            StringBuilder groups = new StringBuilder();
            after.forEach((group, ticks) -> groups.append(String.format(Locale.ROOT, " %s=%.1f",
                    group, (ticks - before.getOrDefault(group, 0L)) * (ProcTasks.NANOS_PER_TICK / 1e3) / elements)));
            System.out.printf(Locale.ROOT, "FIRSTLOAD elements=%d elements_per_s=%.0f cpu_us_per_element=%.2f "
                            + "jit_ms=%d threads_us_per_element:%s%n", elements, elements / (nanos / 1e9),
                    cpu / 1e3 / elements, jit, groups);
            graph.close();
        }
    }

    /** CPU ticks (utime + stime, 10 ms each) per thread group, from /proc/self/task; empty where there is none. */
    static Map<String, Long> threadGroupCpuTicks() {
        return ProcTasks.sumByGroup(new TreeMap<>(), FirstLoadProbe::group, ProcTasks.TaskStat::cpuTicks);
    }

    static String group(String threadName) {
        if (threadName.startsWith("C1 Compiler")) {
            return "c1";
        }
        if (threadName.startsWith("C2 Compiler")) {
            return "c2";
        }
        if (threadName.startsWith("GC ") || threadName.startsWith("G1 ") || threadName.startsWith("VM Thread")) {
            return "gc+vm";
        }
        if (threadName.startsWith("rocksdb")) {
            return "rocksdb";
        }
        if (threadName.equals("main")) {
            return "main";
        }
        return "other";
    }
}
