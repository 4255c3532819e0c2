package io.tetradb.bench.cosmos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.Samples;
import io.tetradb.core.storage.Durability;
import io.tetradb.cosmos.CosmosHttpServer;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * TetraDB's Cosmos DB REST face against {@code @vercel/cosmosdb-server} (in memory), through the same
 * {@code @azure/cosmos} client code: one node driver process, one {@code CosmosClient} per side, 4 requests in
 * flight (issue 13). Operations: create (1 KB items), point read, upsert, a query on an indexed field returning 10 of
 * 20k items, and a cross-partition {@code SELECT TOP 10 ... ORDER BY}. Every answer is checked by the driver.
 * Rounds of the two sides alternate; throughput is the median of the rounds.
 */
public final class CosmosBenchmark implements Benchmark {
    static final String DATABASE = "bench";
    static final String CONTAINER = "items";
    /** Driver op name → reported op name, in the order they run. */
    static final Map<String, String> OPS = new LinkedHashMap<>();

    static {
        OPS.put("create", "create");
        OPS.put("read", "point-read");
        OPS.put("upsert", "upsert");
        OPS.put("query", "query-indexed");
        OPS.put("top", "top10-orderby");
    }

    /**
     * Sizes and rounds of one mode. {@code peerQueryRounds}: the peer scans all items per query (≈ 3.5 s of its CPU
     * each at 20k items, so one round of 4 concurrent queries lasts ≈ 15 s); it gets fewer query rounds than TetraDB
     * so that the quick mode stays under two minutes.
     */
    record Config(int items, int createRounds, int rounds, long roundMillis, int peerQueryRounds, int warmItems,
                  long warmMillis) {
    }

    static Config config(boolean quick) {
        return quick
                ? new Config(20_000, 5, 5, 500, 1, 10_000, 400)
                : new Config(20_000, 10, 7, 3_000, 3, 10_000, 1_500);
    }

    /** A throughput as printed: no decimals, but two below 10/s (the peer's queries). */
    static String rate(double opsPerSecond) {
        return String.format(Locale.ROOT, opsPerSecond < 10 ? "%.2f" : "%.0f", opsPerSecond);
    }

    static boolean isQuery(String op) {
        return op.equals("query") || op.equals("top");
    }

    /** One server under test: its name, endpoint and CPU time so far (ns). */
    private record Side(String name, String endpoint, LongSupplier serverCpu) {
    }

    @Override
    public String name() {
        return "cosmos";
    }

    @Override
    public String description() {
        return "Cosmos DB REST through @azure/cosmos (node), TetraDB (SYNC) vs @vercel/cosmosdb-server (memory): "
                + "create, point-read, upsert, query-indexed, top10-orderby";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        Config c = config(quick);
        String missing = NodeSide.unavailableReason();
        if (missing != null) {
            throw new IllegalStateException("cosmos benchmark needs node and npm: " + missing);
        }
        BenchData.runInFresh("cosmos", out, dir -> runSides(c, out, dir));
    }

    private static void runSides(Config c, Report out, Path dir) throws Exception {
        Path nodeHome = BenchData.root().getParent().resolve("cosmos-node");
        Map<String, String> versions = NodeSide.versions();
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            out.progress("installing " + versions + " into " + nodeHome + " if missing");
            NodeSide.install(nodeHome, versions);
            // SYNC is what users get by default; ASYNC only to see what the fsync per write costs
            Durability durability = Durability.valueOf(System.getProperty("bench.cosmos.durability", "SYNC"));
            CosmosClient store = new CosmosClientBuilder().dataDirectory(dir.resolve("tetra"))
                    .durability(durability).buildClient();
            resources.add(store);
            CosmosHttpServer tetra = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, store);
            resources.add(0, tetra);
            int peerPort = io.tetradb.bench.ChildProcesses.freePort();
            NodeSide peer = NodeSide.startPeer(nodeHome, peerPort);
            resources.add(0, peer);
            NodeSide driver = NodeSide.startDriver(nodeHome);
            resources.add(0, driver);

            List<Side> sides = List.of(
                    new Side("tetra", "http://127.0.0.1:" + tetra.address().getPort(),
                            ProcessCpu::thisJvmWithoutCaller),
                    new Side("peer", "http://127.0.0.1:" + peerPort, () -> ProcessCpu.of(peer.handle())));
            out.note(String.format(Locale.ROOT, "cosmos: %d items of 1 KB (partition key /pk, 1000 values), "
                            + "@azure/cosmos@%s from one node process, one CosmosClient per side, 4 requests in "
                            + "flight; tetra = CosmosHttpServer (plain HTTP) in the benchmark JVM over a fresh store, "
                            + "%s durability, default indexing; peer = @vercel/cosmosdb-server@%s --no-ssl (memory); "
                            + "create: %d rounds, others: %d rounds of %d ms per side, interleaved (peer queries: %d "
                            + "round(s), each lasting until its 4 queries end); server CPU: tetra = this JVM minus the "
                            + "main thread, peer = its process (/proc/<pid>/stat)",
                    c.items(), versions.get("@azure/cosmos"), durability, versions.get("@vercel/cosmosdb-server"),
                    c.createRounds(), c.rounds(), c.roundMillis(), c.peerQueryRounds()));
            new Run(c, sides, driver, out).run();
        } finally {
            for (AutoCloseable r : resources) {
                r.close();
            }
        }
    }

    /** One run over both sides. */
    private static final class Run {
        private static final ObjectMapper JSON = new ObjectMapper();

        private final Config c;
        private final List<Side> sides;
        private final NodeSide driver;
        private final Report out;
        /** op → side → samples */
        private final Map<String, Map<String, Samples>> results = new LinkedHashMap<>();
        /** op → side → {server CPU ns, client CPU ns, ops, request threads' CPU ns (tetra)} over the recorded rounds */
        private final Map<String, Map<String, long[]>> cpu = new LinkedHashMap<>();

        Run(Config c, List<Side> sides, NodeSide driver, Report out) {
            this.c = c;
            this.sides = sides;
            this.driver = driver;
            this.out = out;
        }

        void run() {
            warmUp();
            for (Side s : sides) {
                call(open(s, CONTAINER));
            }
            int perRound = c.items() / c.createRounds();
            measure("create", c.createRounds(), (s, r) -> round(s, CONTAINER, "create", r)
                    .put("from", r * perRound).put("to", (r + 1) * perRound));
            for (String op : List.of("read", "upsert", "query", "top")) {
                if (!selected(op)) {
                    continue;
                }
                // one unrecorded round per side first: the store's compactions after the load, the JIT on new paths
                // (not for the peer's queries: its one code path for them ran in the warm-up, and each costs seconds)
                for (Side s : sides) {
                    if (!(isQuery(op) && s.name().equals("peer"))) {
                        call(round(s, CONTAINER, op, 999).put("durationMs", c.roundMillis()));
                    }
                }
                measure(op, c.rounds(), (s, r) -> round(s, CONTAINER, op, r).put("durationMs", c.roundMillis()));
            }
            report();
        }

        /** Every operation on a throwaway container per side, so that neither side pays for warm-up. */
        private void warmUp() {
            out.progress("warm-up: " + c.warmItems() + " items and every operation for " + c.warmMillis()
                    + " ms per side on a throwaway container");
            for (Side s : sides) {
                call(open(s, "warmup"));
                call(round(s, "warmup", "create", 0).put("from", 0).put("to", c.warmItems()).put("items", c.warmItems()));
                for (String op : List.of("read", "upsert", "query", "top")) {
                    if (!selected(op)) {
                        continue;
                    }
                    call(round(s, "warmup", op, 0).put("durationMs", c.warmMillis()).put("items", c.warmItems()));
                }
                call(command("drop", s, "warmup"));
            }
        }

        private interface RoundCommand {
            ObjectNode make(Side side, int round);
        }

        /** Runs {@code rounds} rounds of {@code op}, the sides alternating (the first side rotating). */
        private void measure(String op, int rounds, RoundCommand command) {
            Map<String, Samples> bySide = results.computeIfAbsent(op, k -> new LinkedHashMap<>());
            Map<String, long[]> cpuBySide = cpu.computeIfAbsent(op, k -> new LinkedHashMap<>());
            for (Side s : sides) {
                bySide.put(s.name(), new Samples());
                cpuBySide.put(s.name(), new long[4]);
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < sides.size(); k++) {
                    Side s = sides.get((r + k) % sides.size());
                    if (isQuery(op) && s.name().equals("peer") && r >= c.peerQueryRounds()) {
                        continue;
                    }
                    boolean tetra = s.name().equals("tetra");
                    long server0 = s.serverCpu().getAsLong();
                    long request0 = tetra ? ProcessCpu.requestThreads() : 0;
                    RoundResult result = RoundResult.parse(driver.call(command.make(s, r)));
                    long server = s.serverCpu().getAsLong() - server0;
                    long request = tetra ? ProcessCpu.requestThreads() - request0 : 0;
                    Samples samples = bySide.get(s.name());
                    for (long l : result.latencyNanos()) {
                        samples.latency(l);
                    }
                    samples.round(result.ops(), result.elapsedNanos());
                    long[] t = cpuBySide.get(s.name());
                    t[0] += server;
                    t[1] += result.clientCpuMicros() * 1000;
                    t[2] += result.ops();
                    t[3] += request;
                    out.progress(String.format(Locale.ROOT, "%s %s round %d: %.0f ops/s, server %.0f us/op, "
                                    + "client %.0f us/op", OPS.get(op), s.name(), r,
                            result.ops() * 1e9 / result.elapsedNanos(), server / 1e3 / result.ops(),
                            (double) result.clientCpuMicros() / result.ops()));
                }
            }
        }

        private ObjectNode command(String cmd, Side s, String container) {
            return JSON.createObjectNode().put("cmd", cmd).put("side", s.name()).put("container", container);
        }

        private ObjectNode open(Side s, String container) {
            return command("open", s, container).put("endpoint", s.endpoint())
                    .put("key", CosmosRestOptions.EMULATOR_KEY).put("database", DATABASE);
        }

        private ObjectNode round(Side s, String container, String op, int seed) {
            // the same seed on both sides: the same random targets in the same order
            return command("round", s, container).put("op", op).put("seed", 1 + seed).put("items", c.items());
        }

        private void call(ObjectNode command) {
            RoundResult.answer(driver.call(command));
        }

        /**
         * {@code -Dbench.cosmos.ops=create,read,...} (keys of OPS) limits the measured operations, e.g. to compare
         * create alone; create always runs (it loads the items). Unset: all.
         */
        private static boolean selected(String op) {
            String only = System.getProperty("bench.cosmos.ops");
            return only == null || op.equals("create") || List.of(only.split(",")).contains(op);
        }

        private void report() {
            int n = c.items();
            Map<String, String> ops = new LinkedHashMap<>(OPS);
            ops.keySet().removeIf(op -> !results.containsKey(op));
            for (Map.Entry<String, String> op : ops.entrySet()) {
                for (Map.Entry<String, Samples> e : results.get(op.getKey()).entrySet()) {
                    Samples s = e.getValue();
                    // Report.bench's format, with decimals for rates below 10/s (the peer's queries)
                    out.result(String.format(Locale.ROOT, "BENCH cosmos.%s.%s items=%d ops_per_s=%s p50_us=%.1f "
                                    + "p99_us=%.1f", op.getValue(), e.getKey(), n, rate(s.medianRate()),
                            s.percentileMicros(0.50), s.percentileMicros(0.99)));
                }
            }
            for (Map.Entry<String, String> op : ops.entrySet()) {
                for (Map.Entry<String, long[]> e : cpu.get(op.getKey()).entrySet()) {
                    long[] t = e.getValue();
                    out.result(String.format(Locale.ROOT,
                            "BENCH cosmos.%s.%s-cpu items=%d server_cpu_us_per_op=%.1f client_cpu_us_per_op=%.1f",
                            op.getValue(), e.getKey(), n, t[0] / 1e3 / t[2], t[1] / 1e3 / t[2]));
                }
            }
            for (Map.Entry<String, String> op : ops.entrySet()) {
                Map<String, Samples> bySide = results.get(op.getKey());
                out.ratio(op.getValue() + " tetra/peer", bySide.get("tetra").medianRate()
                        / bySide.get("peer").medianRate());
            }
            for (Map.Entry<String, String> op : ops.entrySet()) {
                long[] t = cpu.get(op.getKey()).get("tetra");
                out.note(String.format(Locale.ROOT, "cosmos.%s tetra server CPU per op: request threads (HTTP, "
                                + "face, core, WAL sync) %.1f us, the rest of the JVM (GC, JIT, RocksDB flushes and "
                                + "compactions) %.1f us", op.getValue(), t[3] / 1e3 / t[2], (t[0] - t[3]) / 1e3 / t[2]));
            }
            // the same comparison by server CPU per operation (steadier than throughput): peer / tetra
            for (Map.Entry<String, String> op : ops.entrySet()) {
                Map<String, long[]> bySide = cpu.get(op.getKey());
                double tetra = (double) bySide.get("tetra")[0] / bySide.get("tetra")[2];
                double peer = (double) bySide.get("peer")[0] / bySide.get("peer")[2];
                out.ratio(op.getValue() + ".server-cpu peer/tetra", peer / tetra);
            }
        }
    }
}
