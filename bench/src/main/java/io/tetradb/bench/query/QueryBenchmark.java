package io.tetradb.bench.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.Samples;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosBatchResponse;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.FeedResponse;
import io.tetradb.document.IndexingMode;
import io.tetradb.document.CompositePath;
import io.tetradb.document.CompositePathSortOrder;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.SqlParameter;
import io.tetradb.document.SqlQuerySpec;
import io.tetradb.document.ThroughputProperties;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Queries through the document API on a container with the default (all-paths) indexing policy and 8 physical
 * partitions, at 100k items and at the full size (1M; quick: 200k), plus the cost of indexing on batch writes.
 *
 * <p>Data: item {@code n} ({@code seq = n}) belongs to batch {@code b = n / 100}; a batch is 100 items of one
 * {@code deviceId} ({@code b % 1000}, so 1,000 devices whose logical partitions grow with the store), written as one
 * {@code CosmosBatch}. Each query type has a fixed result size at every store size:
 * <ul>
 * <li>{@code point-eq}: {@code c.lot = @lot}: a lot is shared by exactly 10 items of 10 devices (same position in 10
 * consecutive batches) → 10 items, cross-partition;</li>
 * <li>{@code range}: {@code c.seq BETWEEN @lo AND @lo + 999} → 1000 items, cross-partition;</li>
 * <li>{@code order-by-1p}: {@code c.deviceId = @d ORDER BY c.ts DESC OFFSET 0 LIMIT 10} → 10 items of one logical
 * partition;</li>
 * <li>{@code order-by-fanout}: {@code TOP 10 ... WHERE c.ts < @t ORDER BY c.ts DESC}, {@code @t} in the newer half of
 * the data → 10 items, over all 8 physical partitions;</li>
 * <li>{@code group-by}: {@code COUNT} and {@code AVG(temperature)} per {@code status} over a 1000-item {@code ts}
 * window ({@code BETWEEN}) → one row per status (5), cross-partition.</li>
 * </ul>
 * Each query is run with one page large enough for all its results (continuations re-run the query), timed from the
 * API call to the page's results; charges, documents loaded and index hits are summed over pages.
 */
public final class QueryBenchmark implements Benchmark {
    static final int DEVICES = 1_000;
    static final int BATCH = 100;
    static final int LOT_SIZE = 10;
    static final int RANGE = 1_000;
    static final int THROUGHPUT = 80_000;
    static final int PAGE = 10_000;
    static final long WARM_NANOS = 1_000_000_000L;
    static final int MAX_WARM_RUNS = 1_000;
    static final long TS_BASE = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String[] STATUS = {"ok", "ok", "ok", "ok", "idle", "warn", "fault", "offline"};
    private static final String[] FIRMWARE = {"2.4.1", "2.4.2", "2.5.0", "3.0.0-rc1"};
    private static final String[] MODEL = {"XMS-T100", "XMS-T200", "XMS-H300"};
    private static final char[] ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789 ".toCharArray();

    /** Sizes and run counts of one mode. */
    record Config(long[] sizes, int loadRoundItems, int warmRuns, int runs) {
    }

    static Config config(boolean quick) {
        return quick ? new Config(new long[]{100_000, 200_000}, 10_000, 3, 20)
                : new Config(new long[]{100_000, 1_000_000}, 10_000, 3, 21);
    }

    /** The query types, in the order they are measured. */
    enum Type {
        POINT_EQ("point-eq", "SELECT * FROM c WHERE c.lot = @lot"),
        RANGE("range", "SELECT * FROM c WHERE c.seq BETWEEN @lo AND @hi"),
        ORDER_BY_1P("order-by-1p", "SELECT * FROM c WHERE c.deviceId = @d ORDER BY c.ts DESC OFFSET 0 LIMIT 10"),
        ORDER_BY_FANOUT("order-by-fanout", "SELECT TOP 10 * FROM c WHERE c.ts < @t ORDER BY c.ts DESC"),
        GROUP_BY("group-by", "SELECT c.status, COUNT(1) AS n, AVG(c.temperature) AS avgTemp FROM c "
                + "WHERE c.ts BETWEEN @from AND @to GROUP BY c.status");

        final String label;
        final String sql;

        Type(String label, String sql) {
            this.label = label;
            this.sql = sql;
        }
    }

    @Override
    public String name() {
        return "query";
    }

    @Override
    public String description() {
        return "queries on a default-indexed container (point-eq, range, ORDER BY 1 partition / fan-out, GROUP BY): "
                + "latency, documents loaded per returned, RU at 100k and 1M items; write cost of indexing";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        Config c = config(quick);
        BenchData.runInFresh("query", out, dir -> new Run(c, dir, out).run());
    }

    // ---- items --------------------------------------------------------------------------------------------------

    static String deviceId(int device) {
        return String.format(Locale.ROOT, "XMS-%04d", device);
    }

    static int device(long seq) {
        return (int) ((seq / BATCH) % DEVICES);
    }

    /** Lot of item {@code seq}: the same position in 10 consecutive batches (10 different devices). */
    static String lot(long seq) {
        long batch = seq / BATCH;
        return lotName((batch / LOT_SIZE) * BATCH + seq % BATCH);
    }

    static String lotName(long lot) {
        return String.format(Locale.ROOT, "LOT-%08d", lot);
    }

    static String ts(long seq) {
        return Instant.ofEpochSecond(TS_BASE + seq).toString();
    }

    /** Item {@code seq}: 13 properties (one nested object, one array of 3 strings), ≈ 0.6 KB of JSON. */
    static ObjectNode item(long seq) {
        SplittableRandom r = new SplittableRandom(seq * 0x9E3779B97F4A7C15L);
        int device = device(seq);
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", deviceId(device) + "-" + String.format(Locale.ROOT, "%09d", seq));
        n.put("deviceId", deviceId(device));
        n.put("seq", seq);
        n.put("lot", lot(seq));
        n.put("ts", ts(seq));
        n.put("temperature", Math.round((15 + r.nextDouble() * 15) * 10) / 10.0);
        n.put("humidity", Math.round((30 + r.nextDouble() * 40) * 10) / 10.0);
        n.put("battery", r.nextInt(101));
        n.put("status", STATUS[r.nextInt(STATUS.length)]);
        n.put("firmware", FIRMWARE[device % FIRMWARE.length]);
        n.put("model", MODEL[device % MODEL.length]);
        ObjectNode location = n.putObject("location");
        location.put("site", "site-" + (device % 20));
        location.put("lat", Math.round((47 + (device % 97) / 100.0) * 1e4) / 1e4);
        location.put("lon", Math.round((8 + (device % 89) / 100.0) * 1e4) / 1e4);
        ArrayNode tags = n.putArray("tags");
        tags.add("zone-" + (device % 7));
        tags.add("line-" + (device % 13));
        tags.add(r.nextInt(10) == 0 ? "maintenance" : "production");
        StringBuilder note = new StringBuilder(240);
        for (int i = 0; i < 240; i++) {
            note.append(ALNUM[r.nextInt(ALNUM.length)]);
        }
        n.put("note", note.toString());
        return n;
    }

    /**
     * The default all-paths policy plus the composite index Cosmos DB's documentation recommends for a filter on one
     * property and an ORDER BY on another ({@code order-by-1p}: the partition key, then {@code ts DESC}).
     */
    static CosmosContainerProperties indexed(String id) {
        return new CosmosContainerProperties(id, "/deviceId").setIndexingPolicy(new IndexingPolicy()
                .setCompositeIndexes(List.of(List.of(new CompositePath().setPath("/deviceId"),
                        new CompositePath().setPath("/ts").setOrder(CompositePathSortOrder.DESCENDING)))));
    }

    static CosmosContainerProperties unindexed(String id) {
        return new CosmosContainerProperties(id, "/deviceId").setIndexingPolicy(new IndexingPolicy()
                .setIndexingMode(IndexingMode.NONE).setAutomatic(false)
                .setIncludedPaths(List.of()).setExcludedPaths(List.of()));
    }

    /** The longest wait for the load's flushes and compactions before queries are measured. */
    static final long SETTLE_MILLIS = 60_000;

    /** Keeps results alive so that nothing measured can be optimised away. */
    static volatile long sink;

    /** The figures of one query type at one store size. */
    static final class QueryStats {
        final List<Long> latencies = new ArrayList<>();
        final List<Double> charges = new ArrayList<>();
        long returned;
        long loaded;
        long hits;
        String accessPath;

        double percentileMs(double q) {
            long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
            int rank = (int) Math.ceil(q * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
        }

        double medianCharge() {
            double[] s = charges.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = s.length;
            return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        }
    }

    private static final class Run {
        private final Config c;
        private final Path dir;
        private final Report out;
        private final Samples writeIndexed = new Samples();
        private final Samples writeNone = new Samples();
        private final Map<String, QueryStats> stats = new LinkedHashMap<>();
        private CosmosContainer indexed;
        private CosmosContainer none;

        Run(Config c, Path dir, Report out) {
            this.c = c;
            this.dir = dir;
            this.out = out;
        }

        void run() throws Exception {
            long[] sizes = c.sizes();
            long full = sizes[sizes.length - 1];
            ObjectNode sample = item(0);
            out.note("query: single thread, SYNC; container /deviceId, " + THROUGHPUT + " RU/s (8 physical "
                    + "partitions), default indexing policy (all paths) plus one composite index "
                    + "(deviceId ASC, ts DESC); " + DEVICES + " deviceIds, batches of "
                    + BATCH + " items of one deviceId (CosmosBatch); item " + MAPPER.writeValueAsBytes(sample).length
                    + " B of JSON, " + sample.size() + " properties; sizes " + k(sizes[0]) + " and " + k(full)
                    + "; per query type " + c.runs() + " runs with varying parameters after " + c.warmRuns()
                    + " warm-up runs (and at least 1 s of them); p50/p99 of the API call, "
                    + "loaded_per_returned = documents loaded / returned (summed over runs), "
                    + "ru = median request charge");
            // two stores so that the measured (indexed) store holds nothing else; writes alternate between them
            try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("indexed"))
                    .durability(Durability.SYNC).buildClient();
                 CosmosClient noneClient = new CosmosClientBuilder().dataDirectory(dir.resolve("none"))
                         .durability(Durability.SYNC).buildClient()) {
                indexed = container(client, indexed("items"));
                none = container(noneClient, unindexed("items"));
                long loaded = 0;
                int round = 0;
                for (long size : sizes) {
                    out.progress("loading " + k(loaded) + " -> " + k(size) + " items into both containers");
                    long t0 = System.nanoTime();
                    while (loaded < size) {
                        int batches = (int) (Math.min(c.loadRoundItems(), size - loaded) / BATCH);
                        long firstBatch = loaded / BATCH;
                        boolean record = round > 0; // the first round of each side warms the JIT up
                        if (round++ % 2 == 0) {
                            load(indexed, firstBatch, batches, record ? writeIndexed : new Samples());
                            load(none, firstBatch, batches, record ? writeNone : new Samples());
                        } else {
                            load(none, firstBatch, batches, record ? writeNone : new Samples());
                            load(indexed, firstBatch, batches, record ? writeIndexed : new Samples());
                        }
                        loaded += (long) batches * BATCH;
                    }
                    // queries measure the settled layout: flushes and compactions of the load done (bounded wait)
                    long settled = client.coreStore().awaitBackgroundWork(SETTLE_MILLIS);
                    out.progress(String.format(Locale.ROOT, "loaded in %.1f s, compactions settled in %.1f s; "
                            + "measuring queries at %s items", (System.nanoTime() - t0) / 1e9, settled / 1e3, k(size)));
                    for (Type type : Type.values()) {
                        QueryStats s = measure(type, size);
                        stats.put(type.label + "@" + size, s);
                        if (size == sizes[0]) {
                            out.note("access path " + type.label + ": " + s.accessPath + " -- " + type.sql);
                        }
                        out.result(String.format(Locale.ROOT,
                                "BENCH query.%s items=%d p50_ms=%.2f p99_ms=%.2f loaded_per_returned=%.2f ru=%.2f",
                                type.label, size, s.percentileMs(0.50), s.percentileMs(0.99),
                                (double) s.loaded / s.returned, s.medianCharge()));
                        out.progress(String.format(Locale.ROOT, "%s@%s: returned/run %.1f, loaded/run %.1f, "
                                        + "index hits/run %.1f", type.label, k(size),
                                (double) s.returned / c.runs(), (double) s.loaded / c.runs(),
                                (double) s.hits / c.runs()));
                    }
                }
                out.bench("query.batch100-write.indexed", full, "items_per_s", writeIndexed);
                out.bench("query.batch100-write.none", full, "items_per_s", writeNone);
                out.progress("closing");
            }
            long small = sizes[0];
            for (Type type : Type.values()) {
                out.ratio("query." + type.label + " latency@" + k(full) + "/latency@" + k(small),
                        stats.get(type.label + "@" + full).percentileMs(0.5)
                                / stats.get(type.label + "@" + small).percentileMs(0.5));
            }
            out.ratio("write indexed/none", writeIndexed.medianRate() / writeNone.medianRate());
        }

        private static CosmosContainer container(CosmosClient client, CosmosContainerProperties props) {
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase db = client.getDatabase("bench");
            db.createContainerIfNotExists(props, ThroughputProperties.createManualThroughput(THROUGHPUT));
            CosmosContainer container = db.getContainer(props.getId());
            int ranges = container.getFeedRanges().size();
            if (ranges != 8) {
                throw new IllegalStateException("expected 8 physical partitions, got " + ranges);
            }
            return container;
        }

        private static void load(CosmosContainer container, long firstBatch, int batches, Samples s) {
            long total = 0;
            for (long b = firstBatch; b < firstBatch + batches; b++) {
                ObjectNode[] nodes = new ObjectNode[BATCH];
                for (int i = 0; i < BATCH; i++) {
                    nodes[i] = item(b * BATCH + i);
                }
                String deviceId = deviceId(device(b * BATCH));
                long t0 = System.nanoTime();
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(deviceId));
                for (ObjectNode node : nodes) {
                    batch.createItemOperation(node);
                }
                CosmosBatchResponse r = container.executeCosmosBatch(batch);
                long t = System.nanoTime() - t0;
                if (!r.isSuccessStatusCode()) {
                    throw new IllegalStateException("batch " + b + " failed: " + r.getStatusCode() + " "
                            + r.getErrorMessage());
                }
                s.latency(t);
                total += t;
            }
            s.round((long) batches * BATCH, total);
        }

        /** One query of {@code type} with parameters drawn from {@code random} over a store of {@code size} items. */
        private SqlQuerySpec spec(Type type, long size, SplittableRandom random) {
            return switch (type) {
                case POINT_EQ -> new SqlQuerySpec(type.sql,
                        new SqlParameter("@lot", lotName(random.nextLong(size / LOT_SIZE))));
                case RANGE -> {
                    long lo = random.nextLong(size - RANGE + 1);
                    yield new SqlQuerySpec(type.sql, new SqlParameter("@lo", lo),
                            new SqlParameter("@hi", lo + RANGE - 1));
                }
                case ORDER_BY_1P -> new SqlQuerySpec(type.sql,
                        new SqlParameter("@d", deviceId(random.nextInt(DEVICES))));
                case ORDER_BY_FANOUT -> new SqlQuerySpec(type.sql,
                        new SqlParameter("@t", ts(size / 2 + random.nextLong(size / 2))));
                case GROUP_BY -> {
                    long lo = random.nextLong(size - RANGE + 1);
                    yield new SqlQuerySpec(type.sql, new SqlParameter("@from", ts(lo)),
                            new SqlParameter("@to", ts(lo + RANGE - 1)));
                }
            };
        }

        private QueryStats measure(Type type, long size) {
            SplittableRandom random = new SplittableRandom(size * 7 + type.ordinal());
            QueryStats warm = new QueryStats();
            // JIT and caches: at least warmRuns runs and at least WARM_NANOS of them (cheap queries run hundreds)
            long warmStart = System.nanoTime();
            for (int i = 0; i < MAX_WARM_RUNS
                    && (i < c.warmRuns() || System.nanoTime() - warmStart < WARM_NANOS); i++) {
                runOnce(type, spec(type, size, random), warm);
            }
            QueryStats s = new QueryStats();
            for (int i = 0; i < c.runs(); i++) {
                runOnce(type, spec(type, size, random), s);
            }
            return s;
        }

        private void runOnce(Type type, SqlQuerySpec spec, QueryStats s) {
            CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setMaxItemCount(PAGE);
            if (type == Type.ORDER_BY_1P) {
                options.setPartitionKey(new PartitionKey(spec.getParameters().get(0).getValue(String.class)));
            }
            long t0 = System.nanoTime();
            long returned = 0;
            long loaded = 0;
            long hits = 0;
            double charge = 0;
            String path = null;
            for (FeedResponse<JsonNode> page : indexed.queryItems(spec, options, JsonNode.class)
                    .iterableByPage(PAGE)) {
                returned += page.getResults().size();
                loaded += page.getDocumentsLoaded();
                hits += page.getIndexHits();
                charge += page.getRequestCharge();
                path = page.getAccessPath();
                for (JsonNode r : page.getResults()) {
                    sink += r.size();
                }
            }
            s.latencies.add(System.nanoTime() - t0);
            long expected = switch (type) {
                case POINT_EQ -> LOT_SIZE;
                case RANGE -> RANGE;
                case ORDER_BY_1P, ORDER_BY_FANOUT -> 10;
                case GROUP_BY -> -1;
            };
            if (expected >= 0 && returned != expected) {
                throw new IllegalStateException(type.label + " returned " + returned + " items, expected " + expected
                        + ": " + spec.getQueryText());
            }
            s.returned += returned;
            s.loaded += loaded;
            s.hits += hits;
            s.charges.add(charge);
            s.accessPath = path;
        }

        static String k(long n) {
            return n > 0 && n % 1000 == 0 ? (n / 1000) + "k" : Long.toString(n);
        }
    }
}
