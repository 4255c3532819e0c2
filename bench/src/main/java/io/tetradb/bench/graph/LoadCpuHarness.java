package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * For measuring (not a benchmark of record): the bulk loader's CPU per element with encoded items against trees
 * ({@link BulkLoader#encodedItems}), air-routes loaded into fresh containers of one SYNC store, the two ways
 * alternating (the first of each pair alternates too), the store's background work awaited before each load.
 * Process CPU is every thread's (the caller decoding Gryo, the writers, RocksDB, GC), so it holds on a loaded
 * machine better than wall time. Prints each load and the medians.
 * <pre>
 * java $OPENS -cp "bench/target/bench-*.jar:bench/target/lib/*" io.tetradb.bench.graph.LoadCpuHarness 6
 * </pre>
 * With {@code -Dcompare=ingest} the pair is the core's bulk mode (SST ingestion) against batches through the WAL,
 * both with encoded items ({@code -Dtetradb.bulk.trace=true} also prints each chunk's sort and ingest times); each
 * load also prints the process CPU once the store's flushes and compactions have settled.
 */
public final class LoadCpuHarness {
    private LoadCpuHarness() {
    }

    public static void main(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        Path dir = BenchData.fresh("graph-load-cpu");
        List<Double> encodedUs = new ArrayList<>();
        List<Double> treeUs = new ArrayList<>();
        List<Double> encodedRate = new ArrayList<>();
        List<Double> treeRate = new ArrayList<>();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient()) {
            load(client, "warm-e", true);
            load(client, "warm-t", false);
            for (int i = 0; i < pairs; i++) {
                for (int k = 0; k < 2; k++) {
                    boolean encoded = (i + k) % 2 == 0;
                    client.coreStore().awaitBackgroundWork(GraphBenchmark.SETTLE_MILLIS);
                    double[] r = load(client, (encoded ? "e" : "t") + i, encoded);
                    (encoded ? encodedUs : treeUs).add(r[0]);
                    (encoded ? encodedRate : treeRate).add(r[1]);
                }
            }
        }
        System.out.printf(Locale.ROOT, "median caller+writer thread CPU per element: encoded %.1f us, trees %.1f us; "
                        + "elements/s: encoded %.0f, trees %.0f%n", median(encodedUs), median(treeUs),
                median(encodedRate), median(treeRate));
    }

    /** One load; returns {process CPU µs per element, elements per second}. */
    private static double[] load(CosmosClient client, String container, boolean encoded) throws Exception {
        try (TetraGraph graph = GraphBenchmark.openGraph(client, container);
             InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
            WriterCpu writers = new WriterCpu();
            writers.start();
            long caller0 = THREADS.getCurrentThreadCpuTime();
            long c0 = GraphBenchmark.processCpuNanos();
            long w0 = System.nanoTime();
            // -Dcompare=ingest: the A/B pair is bulk ingestion (SST files) against batches, both with encoded items
            BulkLoader loader = BulkLoader.into(graph).partitionKey(GraphBenchmark::partitionKey);
            loader = INGEST_PAIR ? loader.ingest(encoded) : loader.encodedItems(encoded).ingest(false);
            BulkLoader.Loaded loaded = loader.read(GryoReader.build().create(), in);
            double wall = (System.nanoTime() - w0) / 1e9;
            double cpuUs = (GraphBenchmark.processCpuNanos() - c0) / 1e3 / loaded.elements();
            double callerUs = (THREADS.getCurrentThreadCpuTime() - caller0) / 1e3 / loaded.elements();
            double writerUs = writers.finish() / 1e3 / loaded.elements();
            double rate = loaded.elements() / wall;
            client.coreStore().awaitBackgroundWork(60_000); // the load's own flushes and compactions, counted too
            double settledUs = (GraphBenchmark.processCpuNanos() - c0) / 1e3 / loaded.elements();
            System.out.printf(Locale.ROOT, "load %-7s %s: %.0f ms, %.0f elements/s, process CPU %.1f us/element "
                            + "(caller thread %.1f, writer threads %.1f; %.1f with the flushes and compactions "
                            + "settled)%n", container, INGEST_PAIR ? (encoded ? "ingest " : "batches")
                            : encoded ? "encoded" : "trees  ", wall * 1e3, rate, cpuUs, callerUs, writerUs, settledUs);
            return new double[]{callerUs + writerUs, rate};
        }
    }

    static final boolean INGEST_PAIR = "ingest".equals(System.getProperty("compare"));

    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** The bulk writer threads' CPU: polled (they end with the load), each thread's last reading kept. */
    static final class WriterCpu extends Thread {
        private final java.util.Map<Long, Long> last = new java.util.concurrent.ConcurrentHashMap<>();
        private volatile boolean running = true;

        WriterCpu() {
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                poll();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void poll() {
            for (java.lang.management.ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds(), 0)) {
                if (t != null && t.getThreadName().equals("tetra-bulk-writer")) {
                    long cpu = THREADS.getThreadCpuTime(t.getThreadId());
                    if (cpu > 0) {
                        last.merge(t.getThreadId(), cpu, Math::max);
                    }
                }
            }
        }

        long finish() throws InterruptedException {
            poll();
            running = false;
            join();
            return last.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
