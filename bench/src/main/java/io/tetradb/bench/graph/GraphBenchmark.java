package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.Samples;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerFactory;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Air-routes in TetraGraph (persistent, SYNC durability) and in TinkerGraph (in memory), side by side in one JVM:
 * load rate, then a fixed set of traversals ({@link AirRoutesTraversals}) whose results must be identical on both
 * and whose median times are compared.
 *
 * <p>Partition key: a vertex's country ({@code pk} = the airport's {@code country}; a country or continent vertex
 * uses its own {@code code}), what a Cosmos DB user would pick for this data: about 240 values, so storage and
 * throughput spread, and an airport's routes (stored with the airport) and a country's {@code contains} edges stay
 * inside one logical partition. Item ids are the data file's ids.
 */
public final class GraphBenchmark implements Benchmark {
    static final String RESOURCE = "/org/apache/tinkerpop/gremlin/tinkergraph/structure/air-routes.kryo";
    /** The longest wait for the store's flushes and compactions before a measured phase. */
    static final long SETTLE_MILLIS = 10_000;

    /**
     * Rounds and time budgets of one mode; warm loads (graph-load2): at least / at most this many more loads in the
     * same JVM for TetraGraph and TinkerGraph, and for JanusGraph in its own ({@link WarmLoads}).
     */
    record Config(int loadRounds, long warmNanos, long measureNanos, int minRuns, int maxRuns, int warmMin,
                  int warmMax, int janusWarmMin, int janusWarmMax) {
    }

    static Config config(boolean quick) {
        return quick ? new Config(3, 100_000_000L, 300_000_000L, 5, 101, 4, 8, 3, 4)
                : new Config(7, 500_000_000L, 2_000_000_000L, 11, 1001, 8, 20, 4, 8);
    }

    @Override
    public String name() {
        return "graph";
    }

    @Override
    public String description() {
        return "air-routes in TetraGraph and TinkerGraph: load rate, median time of " + AirRoutesTraversals.ALL.size()
                + " traversals (results checked equal), geometric-mean ratio";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        Config c = config(quick);
        Path dir = BenchData.fresh("graph");
        long start = System.nanoTime();
        boolean ok;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient()) {
            ok = new Run(c, client, out).run();
        } finally {
            BenchData.delete(dir);
        }
        out.note(String.format(Locale.ROOT, "graph: finished in %.1f s", (System.nanoTime() - start) / 1e9));
        if (!ok) {
            throw new IllegalStateException("some traversals gave TetraGraph results that differ from TinkerGraph's");
        }
    }

    /** The partition key of an air-routes vertex: its country, or its own code (countries, continents). */
    static Object partitionKey(Vertex v) {
        if (v.property("country").isPresent()) {
            return v.value("country");
        }
        return v.property("code").isPresent() ? v.value("code") : v.label();
    }

    static TetraGraph openGraph(CosmosClient client, String container) {
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(TetraGraph.DATABASE, "graphbench");
        conf.setProperty(TetraGraph.CONTAINER, container);
        return TetraGraph.open(client, conf);
    }

    /** This process's CPU time (every thread: the bulk loader writes from several). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static final class Run {
        private final Config c;
        private final CosmosClient client;
        private final Report out;

        /** JanusGraph's warm loads in its JVM (null when the peer is not built), for the warm-load ratio. */
        private WarmLoads.Result janusWarm;
        /** TetraGraph's median time (and thread CPU) per traversal, for the JanusGraph comparison. */
        private final Map<String, Double> tetraMicros = new HashMap<>();
        private final Map<String, Double> tetraCpuMicros = new HashMap<>();

        Run(Config c, CosmosClient client, Report out) {
            this.c = c;
            this.client = client;
            this.out = out;
        }

        boolean run() throws Exception {
            out.note("air-routes (" + RESOURCE.substring(RESOURCE.lastIndexOf('/') + 1) + " from tinkergraph-gremlin) "
                    + "into TetraGraph (SYNC, partition key = country) and TinkerGraph; load = Gryo read + writes");
            Samples tinkerLoad = new Samples();
            Samples tetraLoad = new Samples();
            Samples tetraLoadCpu = new Samples(); // elements per second of the whole process's CPU time
            Samples tinkerLoadCpu = new Samples();
            TinkerGraph tinker = null;
            TetraGraph tetra = null;
            long elements = 0;
            for (int round = 0; round <= c.loadRounds(); round++) { // round 0 warms up, unrecorded
                if (tinker != null) {
                    tinker.close();
                }
                long c0 = processCpuNanos();
                long t0 = System.nanoTime();
                tinker = TinkerFactory.createAirRoutes();
                long tinkerNanos = System.nanoTime() - t0;
                long tinkerCpu = processCpuNanos() - c0;
                long tinkerElements = tinker.traversal().V().count().next() + tinker.traversal().E().count().next();

                if (tetra != null) {
                    tetra.close();
                    // kept, not deleted: a deletion leaves range tombstones that slow the next round down
                }
                tetra = openGraph(client, "air" + round);
                // each load starts on a settled store: the previous round's flushes, compactions and deletion done
                client.coreStore().awaitBackgroundWork(SETTLE_MILLIS);
                long c1 = processCpuNanos();
                long t1 = System.nanoTime();
                BulkLoader.Loaded loaded;
                try (InputStream in = GraphBenchmark.class.getResourceAsStream(RESOURCE)) {
                    loaded = BulkLoader.into(tetra).partitionKey(GraphBenchmark::partitionKey)
                            .read(GryoReader.build().create(), in);
                }
                long tetraNanos = System.nanoTime() - t1;
                long tetraCpu = processCpuNanos() - c1;
                if (loaded.elements() != tinkerElements) {
                    throw new IllegalStateException("TetraGraph loaded " + loaded + ", TinkerGraph " + tinkerElements);
                }
                elements = tinkerElements;
                out.progress(String.format(Locale.ROOT, "load round %d: tinkergraph %.0f ms, tetra %.0f ms (%s)",
                        round, tinkerNanos / 1e6, tetraNanos / 1e6, loaded));
                if (round > 0) {
                    tinkerLoad.round(elements, tinkerNanos);
                    tetraLoad.round(elements, tetraNanos);
                    tinkerLoadCpu.round(elements, tinkerCpu);
                    tetraLoadCpu.round(elements, tetraCpu);
                }
            }
            long settled = client.coreStore().awaitBackgroundWork(SETTLE_MILLIS);
            out.progress("compactions after the load settled in " + settled + " ms");
            out.result(String.format(Locale.ROOT, "BENCH graph.load.tetra elements=%d elements_per_s=%.0f "
                    + "elements_per_cpu_s=%.0f", elements, tetraLoad.medianRate(), tetraLoadCpu.medianRate()));
            out.result(String.format(Locale.ROOT, "BENCH graph.load.tinkergraph elements=%d elements_per_s=%.0f "
                    + "elements_per_cpu_s=%.0f", elements, tinkerLoad.medianRate(), tinkerLoadCpu.medianRate()));
            out.ratio("load tetra/tinkergraph", tetraLoad.medianRate() / tinkerLoad.medianRate());
            try {
                warmPass(tinker, tetra);
                boolean ok = traversals(tinker, tetra, "", "traversal");
                tetra.close();
                ok &= janus(tinker, tetraLoad.medianRate(), tetraLoadCpu.medianRate());
                ok &= uncached(tinker);
                warmLoads(elements);
                return ok;
            } finally {
                tinker.close();
                tetra.close();
            }
        }

        /**
         * JanusGraph 1.1.0 on BerkeleyJE (persistent, fsync per commit) in its own JVM: the same air-routes file
         * loaded (a commit per 100 elements, as TetraGraph's batches), the same traversals, results checked equal to
         * TinkerGraph's; compared with TetraGraph's medians measured above. Skipped with a note if the peer is not built.
         */
        private boolean janus(TinkerGraph tinker, double tetraLoadRate, double tetraLoadCpuRate) throws Exception {
            Path build = JanusGraphPeer.built();
            if (build == null) {
                out.note("JanusGraph peer not built (bench/peers/janusgraph; bench/run graph builds it): skipped");
                return true;
            }
            Path dir = BenchData.fresh("graph-janus");
            try (JanusGraphPeer janus = new JanusGraphPeer(build, BenchData.root().resolve("janusgraph-peer.log"))) {
                Path gryo = JanusGraphPeer.extract(RESOURCE, dir);
                Samples load = new Samples();
                Samples loadCpu = new Samples();
                int rounds = c.loadRounds() > 3 ? 2 : 1;
                long elements = 0;
                for (int round = 0; round < rounds; round++) {
                    long[] r = janus.load(dir.resolve("db" + round), gryo, 100);
                    long expected = tinker.traversal().V().count().next() + tinker.traversal().E().count().next();
                    if (r[0] != expected) { // the same elements as TetraGraph loaded, or the rates are not comparable
                        throw new IllegalStateException("JanusGraph loaded " + r[0] + " elements, TinkerGraph has "
                                + expected);
                    }
                    elements = r[0];
                    load.round(r[0], r[1]);
                    loadCpu.round(r[0], r[2]);
                    out.progress(String.format(Locale.ROOT, "janusgraph load round %d: %.0f ms (%d elements)", round,
                            r[1] / 1e6, r[0]));
                }
                out.result(String.format(Locale.ROOT, "BENCH graph.load.janusgraph elements=%d elements_per_s=%.0f "
                        + "elements_per_cpu_s=%.0f", elements, load.medianRate(), loadCpu.medianRate()));
                out.ratio("load tetra/janusgraph", tetraLoadRate / load.medianRate());
                out.ratio("load-cpu tetra/janusgraph", tetraLoadCpuRate / loadCpu.medianRate());
                janus.ids(AirRoutesTraversals.CODES);
                GraphTraversalSource gTinker = tinker.traversal();
                Map<String, Object> tinkerIds = ids(gTinker);
                boolean ok = true;
                double logSum = 0;
                double cpuLogSum = 0;
                int n = 0;
                int slower = 0;
                for (AirRoutesTraversals.Case t : AirRoutesTraversals.ALL) {
                    janus.warm(t, c.warmNanos()); // the same warm-up pass as TetraGraph's and TinkerGraph's
                }
                for (AirRoutesTraversals.Case t : AirRoutesTraversals.ALL) {
                    List<String> want = CanonicalResult.of(gTinkerRun(gTinker, tinkerIds, t), t.ordered());
                    JanusGraphPeer.Result r = janus.run(t, c);
                    if (!want.equals(r.canonical())) {
                        out.result("FAIL graph.janusgraph." + t.name() + " results differ: tinkergraph "
                                + abbreviate(want) + " janusgraph " + abbreviate(r.canonical()));
                        ok = false;
                        continue;
                    }
                    Double tetraUs = tetraMicros.get(t.name());
                    if (tetraUs == null) {
                        continue; // TetraGraph failed this one (reported above)
                    }
                    double ratio = tetraUs / r.p50Micros();
                    double cpuRatio = tetraCpuMicros.get(t.name()) / r.cpuP50Micros();
                    slower += ratio > 1 ? 1 : 0;
                    logSum += Math.log(ratio);
                    cpuLogSum += Math.log(cpuRatio);
                    n++;
                    out.result(String.format(Locale.ROOT, "BENCH graph.janusgraph.%s results=%d tetra_p50_us=%.1f "
                                    + "janusgraph_p50_us=%.1f ratio=%.2f tetra_cpu_p50_us=%.1f janusgraph_cpu_p50_us=%.1f "
                                    + "cpu_ratio=%.2f", t.name(), want.size(), tetraUs, r.p50Micros(), ratio,
                            tetraCpuMicros.get(t.name()), r.cpuP50Micros(), cpuRatio));
                }
                if (n > 0) {
                    out.ratio("traversal tetra/janusgraph", Math.exp(logSum / n));
                    out.ratio("traversal-cpu tetra/janusgraph", Math.exp(cpuLogSum / n));
                    out.note("traversals where TetraGraph is slower than JanusGraph: " + slower + " of " + n);
                }
                // graph-load2: the same load repeated in the peer's JVM until its rate settles, each into a fresh graph
                janusWarm = WarmLoads.run(c.janusWarmMin(), c.janusWarmMax(),
                        i -> janus.load(dir.resolve("warm" + i), gryo, 100), s -> out.progress("janusgraph " + s));
                return ok;
            } finally {
                BenchData.delete(dir);
            }
        }

        /**
         * Warm loads (graph-load2): the same load repeated in this JVM, each into a fresh graph (TetraGraph: a new
         * container of the same store, on a settled store as above), until its rate settles; JanusGraph's were
         * measured in its own JVM ({@link #janus}). Printed beside the cold figures above, which stay as they were.
         */
        private void warmLoads(long elements) throws Exception {
            out.note("warm loads: the same load repeated in the same JVM, each into a fresh graph, until the last "
                    + WarmLoads.LAST + " rates are within " + Math.round(WarmLoads.SPREAD * 100) + " % of their median"
                    + " (their median reported)");
            WarmLoads.Result tinker = WarmLoads.run(c.warmMin(), c.warmMax(), i -> {
                long c0 = processCpuNanos();
                long t0 = System.nanoTime();
                TinkerGraph g = TinkerFactory.createAirRoutes();
                long nanos = System.nanoTime() - t0;
                long cpu = processCpuNanos() - c0;
                long n = g.traversal().V().count().next() + g.traversal().E().count().next();
                g.close();
                return new long[] {n, nanos, cpu};
            }, s -> out.progress("tinkergraph " + s));
            WarmLoads.Result tetra = WarmLoads.run(c.warmMin(), c.warmMax(), i -> {
                try (TetraGraph g = openGraph(client, "warm" + i);
                     InputStream in = GraphBenchmark.class.getResourceAsStream(RESOURCE)) {
                    client.coreStore().awaitBackgroundWork(SETTLE_MILLIS);
                    long c0 = processCpuNanos();
                    long t0 = System.nanoTime();
                    BulkLoader.Loaded loaded = BulkLoader.into(g).partitionKey(GraphBenchmark::partitionKey)
                            .read(GryoReader.build().create(), in);
                    long nanos = System.nanoTime() - t0;
                    return new long[] {loaded.elements(), nanos, processCpuNanos() - c0};
                }
            }, s -> out.progress("tetra " + s));
            for (WarmLoads.Result r : new WarmLoads.Result[] {tetra, tinker, janusWarm}) {
                if (r != null && r.elements() != elements) { // the same elements, or the rates are not comparable
                    throw new IllegalStateException("warm loads gave " + r.elements() + " elements, the cold "
                            + elements);
                }
            }
            printWarm("tetra", tetra);
            printWarm("tinkergraph", tinker);
            out.ratio("load-warm tetra/tinkergraph", tetra.rate() / tinker.rate());
            if (janusWarm != null) {
                printWarm("janusgraph", janusWarm);
                out.ratio("load-warm tetra/janusgraph", tetra.rate() / janusWarm.rate());
                out.ratio("load-warm-cpu tetra/janusgraph", tetra.cpuRate() / janusWarm.cpuRate());
            }
        }

        private void printWarm(String side, WarmLoads.Result r) {
            out.result(String.format(Locale.ROOT, "BENCH graph.load-warm.%s elements=%d loads=%d settled=%b "
                            + "elements_per_s=%.0f elements_per_cpu_s=%.0f rates=%s", side, r.elements(), r.loads(),
                    r.settled(), r.rate(), r.cpuRate(), r.rates().stream()
                            .map(x -> String.format(Locale.ROOT, "%.0f", x))
                            .collect(java.util.stream.Collectors.joining(","))));
        }

        /**
         * The traversals again on a second store whose parsed-item caches are off (the core's
         * {@code tetradb.parsedItemCache=0}, the graph's {@code tetra.cachedItems=0}): every read parses its item, as
         * the first touch of data does. Same graph, loaded the same way.
         */
        private boolean uncached(TinkerGraph tinker) throws Exception {
            String before = System.getProperty("tetradb.parsedItemCache");
            System.setProperty("tetradb.parsedItemCache", "0");
            Path dir = BenchData.fresh("graph-uncached");
            try (CosmosClient cold = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                    .buildClient()) {
                BaseConfiguration conf = new BaseConfiguration();
                conf.setProperty(TetraGraph.DATABASE, "graphbench");
                conf.setProperty(TetraGraph.CONTAINER, "air");
                conf.setProperty(TetraGraph.CACHED_ITEMS, 0);
                try (TetraGraph graph = TetraGraph.open(cold, conf);
                     InputStream in = GraphBenchmark.class.getResourceAsStream(RESOURCE)) {
                    BulkLoader.into(graph).partitionKey(GraphBenchmark::partitionKey)
                            .read(GryoReader.build().create(), in);
                    cold.coreStore().awaitBackgroundWork(SETTLE_MILLIS);
                    out.note("the same traversals with the parsed-item caches off (every read parses its item)");
                    return traversals(tinker, graph, "uncached.", "traversal-uncached");
                }
            } finally {
                if (before == null) {
                    System.clearProperty("tetradb.parsedItemCache");
                } else {
                    System.setProperty("tetradb.parsedItemCache", before);
                }
                BenchData.delete(dir);
            }
        }

        private boolean traversals(Graph tinker, TetraGraph tetra, String prefix, String ratioName) {
            GraphTraversalSource gTinker = tinker.traversal();
            GraphTraversalSource gTetra = tetra.traversal();
            Map<String, Object> tinkerIds = ids(gTinker);
            Map<String, Object> tetraIds = ids(gTetra);
            boolean ok = true;
            double logSum = 0;
            double cpuLogSum = 0;
            int n = 0;
            if (prefix.isEmpty()) {
                out.note("per traversal: median time of a run (build the traversal, apply strategies, iterate to a "
                        + "list); runs of the two graphs interleaved");
            }
            for (AirRoutesTraversals.Case t : AirRoutesTraversals.ALL) {
                List<?> expected = gTinkerRun(gTinker, tinkerIds, t);
                List<?> actual;
                try {
                    actual = gTinkerRun(gTetra, tetraIds, t);
                } catch (RuntimeException e) {
                    out.result("FAIL graph." + prefix + t.name() + " tetra threw " + e);
                    ok = false;
                    continue;
                }
                List<String> want = CanonicalResult.of(expected, t.ordered());
                List<String> got = CanonicalResult.of(actual, t.ordered());
                if (!want.equals(got)) {
                    out.result("FAIL graph." + prefix + t.name() + " results differ: tinkergraph " + abbreviate(want)
                            + " tetra " + abbreviate(got));
                    ok = false;
                    continue;
                }
                Samples tk = new Samples();
                Samples tt = new Samples();
                Samples tkCpu = new Samples();
                Samples ttCpu = new Samples();
                measure(gTinker, tinkerIds, gTetra, tetraIds, t, tk, tt, tkCpu, ttCpu);
                double tkUs = tk.percentileMicros(0.5);
                double ttUs = tt.percentileMicros(0.5);
                if (prefix.isEmpty()) {
                    tetraMicros.put(t.name(), ttUs);
                    tetraCpuMicros.put(t.name(), ttCpu.percentileMicros(0.5));
                }
                double ratio = ttUs / tkUs;
                double cpuRatio = ttCpu.percentileMicros(0.5) / tkCpu.percentileMicros(0.5);
                logSum += Math.log(ratio);
                cpuLogSum += Math.log(cpuRatio);
                n++;
                out.result(String.format(Locale.ROOT,
                        "BENCH graph.%s%s results=%d tetra_p50_us=%.1f tinkergraph_p50_us=%.1f ratio=%.2f "
                                + "tetra_cpu_p50_us=%.1f tinkergraph_cpu_p50_us=%.1f cpu_ratio=%.2f",
                        prefix, t.name(), expected.size(), ttUs, tkUs, ratio, ttCpu.percentileMicros(0.5),
                        tkCpu.percentileMicros(0.5), cpuRatio));
            }
            if (n > 0) {
                out.ratio(ratioName + " tetra/tinkergraph", Math.exp(logSum / n));
                out.ratio(ratioName + "-cpu tetra/tinkergraph", Math.exp(cpuLogSum / n));
            }
            return ok;
        }

        /**
         * Every traversal on both graphs for the warm-up budget, untimed, before the first timed one. Without it the
         * first traversals were timed in code the JIT had not compiled yet, on both graphs: in a quick run TinkerGraph's
         * own {@code path-edges} took 474 µs in the timed pass and 92 µs in the uncached pass later in the same JVM
         * (2026-11-29), while JanusGraph, in its own JVM, had been warmed by its slow traversals before its
         * {@code path-edges}. JanusGraph gets the same pass ({@link JanusGraphPeer#warm}).
         */
        private void warmPass(Graph tinker, TetraGraph tetra) {
            GraphTraversalSource gTinker = tinker.traversal();
            GraphTraversalSource gTetra = tetra.traversal();
            Map<String, Object> tinkerIds = ids(gTinker);
            Map<String, Object> tetraIds = ids(gTetra);
            long t0 = System.nanoTime();
            for (AirRoutesTraversals.Case t : AirRoutesTraversals.ALL) {
                long end = System.nanoTime() + c.warmNanos();
                try {
                    do {
                        gTinkerRun(gTinker, tinkerIds, t);
                        gTinkerRun(gTetra, tetraIds, t);
                    } while (System.nanoTime() < end);
                } catch (RuntimeException e) {
                    // the timed pass runs it again and reports the failure as FAIL graph.<name>
                }
            }
            out.progress(String.format(Locale.ROOT, "warm-up pass over the %d traversals: %.1f s",
                    AirRoutesTraversals.ALL.size(), (System.nanoTime() - t0) / 1e9));
        }

        private static List<?> gTinkerRun(GraphTraversalSource g, Map<String, Object> ids,
                                          AirRoutesTraversals.Case t) {
            return t.build().apply(g, ids::get).toList();
        }

        /** Warm-up, then runs alternating between the graphs until the time budget or run limit is reached. */
        private void measure(GraphTraversalSource gTinker, Map<String, Object> tinkerIds, GraphTraversalSource gTetra,
                             Map<String, Object> tetraIds, AirRoutesTraversals.Case t, Samples tk, Samples tt,
                             Samples tkCpu, Samples ttCpu) {
            long warmEnd = System.nanoTime() + c.warmNanos();
            while (System.nanoTime() < warmEnd) {
                gTinkerRun(gTinker, tinkerIds, t);
                gTinkerRun(gTetra, tetraIds, t);
            }
            long spent = 0;
            for (int run = 0; run < c.maxRuns() && (run < c.minRuns() || spent < c.measureNanos()); run++) {
                AlternatedPairTiming pair = AlternatedPairTiming.of(() -> gTinkerRun(gTinker, tinkerIds, t),
                        () -> gTinkerRun(gTetra, tetraIds, t));
                tk.latency(pair.tinkerWallNanos());
                tt.latency(pair.tetraWallNanos());
                tkCpu.latency(pair.tinkerCpuNanos());
                ttCpu.latency(pair.tetraCpuNanos());
                spent += pair.tinkerWallNanos() + pair.tetraWallNanos();
            }
        }

        /** Each airport of {@link AirRoutesTraversals#CODES} → its id in this graph. */
        private static Map<String, Object> ids(GraphTraversalSource g) {
            Map<String, Object> ids = new HashMap<>();
            for (String code : AirRoutesTraversals.CODES) {
                ids.put(code, g.V().has("airport", "code", code).id().next());
            }
            return ids;
        }

        private static String abbreviate(List<String> l) {
            String s = l.size() + " " + l;
            return s.length() > 300 ? s.substring(0, 300) + "..." : s;
        }
    }
}
