package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerFactory;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * For A/B runs of single traversals (not a benchmark of its own): loads air-routes into TetraGraph (SYNC, as
 * {@code bench/run graph}) and TinkerGraph in one JVM, checks that each named traversal gives the same results on
 * both, then times runs alternating between the two graphs, as the benchmark does, and prints per traversal the
 * medians of wall and thread-CPU time and their ratios. Compare code paths by running it in alternated JVMs with and
 * without a switch, e.g.
 * <pre>
 * java $OPENS -cp "bench/target/bench-*.jar:bench/target/lib/*" io.tetradb.bench.graph.TraversalPairHarness 3 2 in-1 out-1
 * </pre>
 * (arguments: seconds per traversal and round, rounds, names; no name: all of {@link AirRoutesTraversals#ALL}).
 */
public final class TraversalPairHarness {
    /** The warm-up per traversal and round (default: a fifth of the measured seconds). */
    private static final double WARM_SECONDS = Double.parseDouble(System.getProperty("pair.warmSeconds", "-1"));
    /** At most this many measured runs per traversal and round (the benchmark's quick mode stops at 101). */
    private static final int MAX_RUNS = Integer.getInteger("pair.maxRuns", Integer.MAX_VALUE);

    private TraversalPairHarness() {
    }

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> names = new ArrayList<>(Arrays.asList(args).subList(2, args.length));
        if (names.isEmpty()) {
            AirRoutesTraversals.ALL.forEach(c -> names.add(c.name()));
        }
        Path dir = BenchData.fresh("graph-pair");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient(); TetraGraph tetra = GraphBenchmark.openGraph(client, "air");
             TinkerGraph tinker = TinkerFactory.createAirRoutes()) {
            try (InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
                BulkLoader.into(tetra).partitionKey(GraphBenchmark::partitionKey).read(GryoReader.build().create(), in);
            }
            client.coreStore().awaitBackgroundWork(10_000);
            GraphTraversalSource gTetra = tetra.traversal();
            GraphTraversalSource gTinker = tinker.traversal();
            Map<String, Object> tetraIds = ids(gTetra);
            Map<String, Object> tinkerIds = ids(gTinker);
            for (int round = 0; round < rounds; round++) {
                for (String name : names) {
                    AirRoutesTraversals.Case t = AirRoutesTraversals.ALL.stream().filter(c -> c.name().equals(name))
                            .findFirst().orElseThrow(() -> new IllegalArgumentException("no traversal " + name));
                    List<String> want = CanonicalResult.of(t.build().apply(gTinker, tinkerIds::get).toList(), t.ordered());
                    List<String> got = CanonicalResult.of(t.build().apply(gTetra, tetraIds::get).toList(), t.ordered());
                    if (!want.equals(got)) {
                        throw new IllegalStateException(name + ": results differ from TinkerGraph's");
                    }
                    long warmEnd = System.nanoTime() + (long) (WARM_SECONDS < 0 ? seconds * 0.2e9 : WARM_SECONDS * 1e9);
                    while (System.nanoTime() < warmEnd) {
                        t.build().apply(gTinker, tinkerIds::get).toList();
                        t.build().apply(gTetra, tetraIds::get).toList();
                    }
                    List<Long> tkWall = new ArrayList<>();
                    List<Long> ttWall = new ArrayList<>();
                    List<Long> tkCpu = new ArrayList<>();
                    List<Long> ttCpu = new ArrayList<>();
                    long end = System.nanoTime() + (long) (seconds * 1e9);
                    while ((System.nanoTime() < end || tkWall.size() < 5) && tkWall.size() < MAX_RUNS) {
                        AlternatedPairTiming pair = AlternatedPairTiming.of(
                                () -> t.build().apply(gTinker, tinkerIds::get).toList(),
                                () -> t.build().apply(gTetra, tetraIds::get).toList());
                        tkWall.add(pair.tinkerWallNanos());
                        ttWall.add(pair.tetraWallNanos());
                        tkCpu.add(pair.tinkerCpuNanos());
                        ttCpu.add(pair.tetraCpuNanos());
                    }
                    System.out.printf(Locale.ROOT, "PAIR round=%d %s results=%d runs=%d tetra_p50_us=%.1f "
                                    + "tinkergraph_p50_us=%.1f ratio=%.2f tetra_cpu_p50_us=%.1f tinkergraph_cpu_p50_us=%.1f "
                                    + "cpu_ratio=%.2f%n", round, name, want.size(), tkWall.size(), median(ttWall),
                            median(tkWall), median(ttWall) / median(tkWall), median(ttCpu), median(tkCpu),
                            median(ttCpu) / median(tkCpu));
                }
            }
        } finally {
            BenchData.delete(dir);
        }
    }

    private static double median(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2) / 1e3;
    }

    private static Map<String, Object> ids(GraphTraversalSource g) {
        Map<String, Object> ids = new HashMap<>();
        for (String code : AirRoutesTraversals.CODES) {
            ids.put(code, g.V().has("airport", "code", code).id().next());
        }
        return ids;
    }
}
