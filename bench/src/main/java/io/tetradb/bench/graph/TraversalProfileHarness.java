package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * For profiling (not a benchmark): loads air-routes into TetraGraph once, then runs the named traversals of
 * {@link AirRoutesTraversals} in a loop for a number of seconds each and prints the mean time per run. Run with
 * a profiler attached, e.g.
 * <pre>
 * java -XX:StartFlightRecording=filename=/tmp/g.jfr,settings=profile $OPENS -cp "bench/target/bench-*.jar:bench/target/lib/*" \
 *     io.tetradb.bench.graph.TraversalProfileHarness 10 out-1 out-2-dedup
 * </pre>
 */
public final class TraversalProfileHarness {
    private TraversalProfileHarness() {
    }

    /** Pieces of the benchmark's traversals, to see where their time goes. */
    static final java.util.List<AirRoutesTraversals.Case> PROBES = java.util.List.of(
            new AirRoutesTraversals.Case("probe-out-count", true, null,
                    (g, id) -> g.V(id.apply("SEA")).out("route").count()),
            new AirRoutesTraversals.Case("probe-outE-count", true, null,
                    (g, id) -> g.V(id.apply("SEA")).outE("route").count()),
            new AirRoutesTraversals.Case("probe-in-count", true, null,
                    (g, id) -> g.V(id.apply("SEA")).in("route").count()),
            new AirRoutesTraversals.Case("probe-V-count", true, null, (g, id) -> g.V().count()),
            new AirRoutesTraversals.Case("probe-id", true, null, (g, id) -> g.V(id.apply("SEA"))));

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        Path dir = BenchData.fresh("graph-profile");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient(); TetraGraph graph = GraphBenchmark.openGraph(client, "air")) {
            // -Dloads=N: N extra loads into throwaway containers first (warm JIT figures for the load)
            for (int i = 0; i < Integer.getInteger("loads", 0); i++) {
                try (TetraGraph extra = GraphBenchmark.openGraph(client, "extra" + i);
                     InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
                    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
                    long c0 = os.getProcessCpuTime();
                    long w0 = System.nanoTime();
                    BulkLoader.into(extra).partitionKey(GraphBenchmark::partitionKey).read(GryoReader.build().create(), in);
                    System.out.printf(Locale.ROOT, "extra load %d: %.0f ms, process CPU %.0f ms%n", i,
                            (System.nanoTime() - w0) / 1e6, (os.getProcessCpuTime() - c0) / 1e6);
                }
            }
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            long pcpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            try (InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
                BulkLoader.Loaded loaded = BulkLoader.into(graph).partitionKey(GraphBenchmark::partitionKey)
                        .read(GryoReader.build().create(), in);
                System.out.printf(Locale.ROOT, "loaded %s in %.0f ms, process CPU %.0f ms%n", loaded,
                        (System.nanoTime() - t0) / 1e6, (os.getProcessCpuTime() - pcpu0) / 1e6);
            }
            GraphTraversalSource g = graph.traversal();
            Map<String, Object> ids = new HashMap<>();
            for (String code : AirRoutesTraversals.CODES) {
                ids.put(code, g.V().has("airport", "code", code).id().next());
            }
            for (int i = 1; i < args.length; i++) {
                String name = args[i];
                AirRoutesTraversals.Case t = java.util.stream.Stream.concat(AirRoutesTraversals.ALL.stream(),
                                PROBES.stream()).filter(c -> c.name().equals(name))
                        .findFirst().orElseThrow(() -> new IllegalArgumentException("no traversal " + name));
                long end = System.nanoTime() + (long) (seconds * 1e9);
                long runs = 0;
                java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
                long cpu0 = mx.getCurrentThreadCpuTime();
                long start = System.nanoTime();
                while (System.nanoTime() < end) {
                    t.build().apply(g, ids::get).toList();
                    runs++;
                }
                System.out.printf(Locale.ROOT, "%s: %d runs, %.1f us each, %.1f us of thread CPU%n", name, runs,
                        (System.nanoTime() - start) / 1e3 / runs, (mx.getCurrentThreadCpuTime() - cpu0) / 1e3 / runs);
            }
        } finally {
            BenchData.delete(dir);
        }
    }
}
