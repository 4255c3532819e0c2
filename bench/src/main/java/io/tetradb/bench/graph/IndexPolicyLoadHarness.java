package io.tetradb.bench.graph;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.bench.BenchData;
import io.tetradb.core.index.IndexTerm;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.document.CompositePath;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import io.tetradb.graph.store.GraphStore;
import io.tetradb.graph.store.Layout;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * For measuring (not a benchmark of record): index entries per air-routes element and the load's CPU per element
 * under the graph container's policy of before issue 18 item 1 ({@code before}: Cosmos's default minus five edge
 * fields), today's {@link Layout#indexingPolicy()} ({@code now}) and no path but the always indexed {@code id} and
 * {@code _ts} ({@code ids}: to see what an entry costs); {@code now/1} is {@code now} with one bulk writer thread
 * instead of the default (so the caller's decoding and one writer overlap on the 2 cores). Each policy loads air-routes into fresh containers of one
 * SYNC store, the policies alternating in rotated order, the store's background work awaited before each load. CPU is
 * the caller's thread (Gryo decoding) plus the bulk writer threads, by thread CPU time: it holds on a loaded machine
 * better than wall time. Prints each load, one vertex's and one edge's index paths, and the medians.
 * <pre>
 * java $OPENS -cp "bench/target/bench-*.jar:bench/target/lib/*" io.tetradb.bench.graph.IndexPolicyLoadHarness 4 before now
 * </pre>
 */
public final class IndexPolicyLoadHarness {
    private IndexPolicyLoadHarness() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        List<String> policies = args.length > 1 ? List.of(args).subList(1, args.length) : List.of("before", "now");
        Path dir = BenchData.fresh("graph-index-policy");
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient()) {
            for (String p : policies) {
                load(client, "warm-" + p, p, true);
                results.put(p, new ArrayList<>());
            }
            for (int i = 0; i < rounds; i++) {
                for (int k = 0; k < policies.size(); k++) {
                    String p = policies.get((i + k) % policies.size());
                    client.coreStore().awaitBackgroundWork(GraphBenchmark.SETTLE_MILLIS);
                    results.get(p).add(load(client, p + i, p, false));
                }
            }
        }
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            System.out.printf(Locale.ROOT, "median %-6s: entries/element %.2f, caller+writer CPU %.1f us/element "
                            + "(writers %.1f; process %.1f), %.0f elements/s%n", e.getKey(), median(e.getValue(), 0),
                    median(e.getValue(), 1), median(e.getValue(), 2), median(e.getValue(), 4),
                    median(e.getValue(), 3));
        }
    }

    static IndexingPolicy policy(String spec) {
        String name = spec.contains("/") ? spec.substring(0, spec.indexOf('/')) : spec;
        return switch (name) {
            case "now" -> Layout.indexingPolicy();
            case "before" -> new IndexingPolicy().setExcludedPaths(List.of("/\"_etag\"/?", "/_vertexLabel/?",
                    "/_sinkLabel/?", "/_sinkPartition/?", "/_vertexId/?", "/_sink/?")).setCompositeIndexes(labelIndex());
            case "ids" -> new IndexingPolicy().setExcludedPaths(List.of("/*")).setCompositeIndexes(labelIndex());
            default -> throw new IllegalArgumentException("policy before, now or ids: " + name);
        };
    }

    private static List<List<CompositePath>> labelIndex() {
        return List.of(GraphStore.LABEL_COUNT_INDEX.stream().map(p -> new CompositePath().setPath(p)).toList());
    }

    /** One load; returns {index entries per element, caller+writer CPU µs per element, writers' µs, elements/s}. */
    private static double[] load(CosmosClient client, String container, String policy, boolean show)
            throws Exception {
        client.createDatabaseIfNotExists("graphbench");
        client.getDatabase("graphbench").createContainerIfNotExists(
                new CosmosContainerProperties(container.replace('/', '-'), "/pk").setIndexingPolicy(policy(policy)));
        container = container.replace('/', '-');
        int writerThreads = policy.contains("/") ? Integer.parseInt(policy.substring(policy.indexOf('/') + 1)) : 0;
        try (TetraGraph graph = GraphBenchmark.openGraph(client, container);
             InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
            LoadCpuHarness.WriterCpu writers = new LoadCpuHarness.WriterCpu();
            writers.start();
            long caller0 = LoadCpuHarness.THREADS.getCurrentThreadCpuTime();
            Map<String, Long> threads0 = javaThreadCpu();
            long p0 = GraphBenchmark.processCpuNanos();
            long w0 = System.nanoTime();
            BulkLoader loader = BulkLoader.into(graph).partitionKey(GraphBenchmark::partitionKey);
            if (writerThreads > 0) {
                loader.writers(writerThreads);
            }
            BulkLoader.Loaded loaded = loader.read(GryoReader.build().create(), in);
            double wall = (System.nanoTime() - w0) / 1e9;
            double processUs = (GraphBenchmark.processCpuNanos() - p0) / 1e3 / loaded.elements();
            Map<String, Long> threads1 = javaThreadCpu();
            double callerUs = (LoadCpuHarness.THREADS.getCurrentThreadCpuTime() - caller0) / 1e3 / loaded.elements();
            double writerUs = writers.finish() / 1e3 / loaded.elements();
            ContainerStore core = client.coreStore().container("graphbench", container);
            ContainerStore.IndexCheck check = core.checkIndexes();
            if (!check.consistent()) {
                throw new IllegalStateException("index entries inconsistent after the load: " + check);
            }
            double perElement = (double) check.stored() / loaded.elements();
            System.out.printf(Locale.ROOT, "load %-9s: %.0f ms, %.0f elements/s, %d index entries (%.2f per element), "
                            + "CPU %.1f us/element (caller %.1f, writers %.1f; process %.1f)%n", container, wall * 1e3,
                    loaded.elements() / wall, check.stored(), perElement, callerUs + writerUs, callerUs, writerUs,
                    processUs);
            // the writer threads end with the load: their CPU is the polled figure, not in the second snapshot
            double javaUs = writerUs;
            StringBuilder groups = new StringBuilder(String.format(Locale.ROOT, " tetra-bulk-writer %.1f", writerUs));
            for (Map.Entry<String, Long> t : threads1.entrySet()) {
                if (t.getKey().equals("tetra-bulk-writer")) {
                    continue;
                }
                long d = t.getValue() - threads0.getOrDefault(t.getKey(), 0L);
                javaUs += d / 1e3 / loaded.elements();
                if (d / 1e3 / loaded.elements() >= 0.5) {
                    groups.append(String.format(Locale.ROOT, " %s %.1f", t.getKey(), d / 1e3 / loaded.elements()));
                }
            }
            System.out.printf(Locale.ROOT, "  CPU us/element by Java thread group:%s; outside Java threads (GC, "
                    + "RocksDB's native threads) %.1f%n", groups, processUs - javaUs);
            if (show) {
                show(graph, core, "vertex", graph.traversal().V().has("airport", "code", "AUS").next().id());
                show(graph, core, "edge", graph.traversal().V().has("airport", "code", "AUS").outE("route")
                        .next().id());
            }
            return new double[]{perElement, callerUs + writerUs, writerUs, loaded.elements() / wall, processUs};
        }
    }

    /** One element's index paths under the container's policy (terms, then one entry per composite index). */
    private static void show(TetraGraph graph, ContainerStore core, String kind, Object id) {
        List<?> address = (List<?>) id;
        JsonNode item = graph.store().read(address.get(0), (String) address.get(1));
        List<IndexTerm> terms = IndexTerms.ofVersion(item, core.seekablePolicy(), item.path("_ts").asLong());
        List<String> paths = new ArrayList<>();
        for (IndexTerm t : terms) {
            paths.add(t.path());
        }
        int composites = core.seekablePolicy().composites().size();
        System.out.printf(Locale.ROOT, "  %s %s: %d entries = %d terms %s + %d composite%n", kind, id,
                terms.size() + composites, terms.size(), paths, composites);
    }

    /** Every live Java thread's CPU so far, summed by name with digits dropped (a pool's threads together). */
    private static Map<String, Long> javaThreadCpu() {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (long id : LoadCpuHarness.THREADS.getAllThreadIds()) {
            java.lang.management.ThreadInfo t = LoadCpuHarness.THREADS.getThreadInfo(id);
            long cpu = LoadCpuHarness.THREADS.getThreadCpuTime(id);
            if (t != null && cpu > 0) {
                out.merge(t.getThreadName().replaceAll("[0-9]+", "#"), cpu, Long::sum);
            }
        }
        return out;
    }

    private static double median(List<double[]> xs, int field) {
        List<Double> s = new ArrayList<>();
        for (double[] x : xs) {
            s.add(x[field]);
        }
        Collections.sort(s);
        int n = s.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
