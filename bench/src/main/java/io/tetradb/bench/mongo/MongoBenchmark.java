package io.tetradb.bench.mongo;

import com.mongodb.MongoException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import com.mongodb.client.result.UpdateResult;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.Samples;
import org.bson.Document;
import org.bson.conversions.Bson;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TetraDB's Mongo face against {@code mongo-java-server}'s in-memory backend, both in this process on loopback ports,
 * through the same {@code mongodb-driver-sync} code and the same documents (issue #5). Operations: {@code insert}
 * (insertMany of 1000), {@code find-id}, {@code find-indexed} (equality on an indexed secondary field, 10 results),
 * {@code aggregate} ($match on the indexed field, $group, $sort), {@code update-inc} (updateOne with $inc). Every
 * answer is checked against the generator's known truth, so both sides are held to the same results.
 */
public final class MongoBenchmark implements Benchmark {
    static final String COLLECTION = "docs";
    static final int BATCH = 1000;
    /** Owners per aggregate window: 10 owners x 10 documents = 100 documents grouped. */
    static final int AGG_OWNERS = 10;
    static final List<String> OPS = List.of("find-id", "find-indexed", "aggregate", "update-inc");

    /** Sizes and round counts of one mode. */
    record Config(int docs, int insertWarmBatches, int rounds, long roundMillis, int warmDocs, long warmMillis,
                  int threads) {
    }

    /** Client threads of the point operations; {@code -Dbench.mongo.threads=N} (in BENCH_JAVA_OPTS) changes it. */
    static final int THREADS = Integer.getInteger("bench.mongo.threads", 4);

    static Config config(boolean quick) {
        return quick
                ? new Config(20_000, 2, 5, 1_000, 10_000, 1_000, THREADS)
                : new Config(100_000, 10, 7, 2_000, 20_000, 2_000, THREADS);
    }

    @Override
    public String name() {
        return "mongo";
    }

    @Override
    public String description() {
        return "Mongo face (SYNC, persisted) vs mongo-java-server in memory through the Java driver: insert, "
                + "find-id, find-indexed, aggregate, update-inc";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        // the servers' per-connection INFO lines would drown the progress on stderr
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Config c = config(quick);
        Path dir = BenchData.fresh("mongo");
        long start = System.nanoTime();
        try (Endpoint tetra = Endpoint.tetra(dir.resolve("tetra"), c.threads());
             Endpoint peer = Endpoint.peer(c.threads());
             ConcurrentRounds clients = new ConcurrentRounds(c.threads())) {
            new Run(c, out, List.of(tetra, peer), clients).run();
        } finally {
            BenchData.delete(dir);
        }
        out.note(String.format(Locale.ROOT, "mongo: finished in %.1f s", (System.nanoTime() - start) / 1e9));
    }

    private static final class Run {
        private final Config c;
        private final Report out;
        private final List<Endpoint> sides;
        private final ConcurrentRounds clients;
        private final Docs docs;

        Run(Config c, Report out, List<Endpoint> sides, ConcurrentRounds clients) {
            this.c = c;
            this.out = out;
            this.sides = sides;
            this.clients = clients;
            this.docs = new Docs(c.docs());
        }

        void run() throws Exception {
            out.note("mongo: tetra = TetraDB's Mongo face (MongoWireServer over a fresh data directory, SYNC: every "
                    + "acknowledged write fsynced), peer = de.bwaldvogel mongo-java-server with MemoryBackend; both "
                    + "in-process on loopback, the same mongodb-driver-sync code; " + c.docs() + " documents of "
                    + Docs.bsonSize(docs.doc(0)) + " B BSON, index {owner: 1} created on both before loading");
            out.note("insert: one thread, insertMany of " + BATCH + " (ordered), one batch per side in turn, the "
                    + "first " + c.insertWarmBatches() + " of each side not recorded; find-id, find-indexed, aggregate, "
                    + "update-inc: " + clients.threads() + " client threads sharing one MongoClient per side, "
                    + c.rounds() + " rounds of " + c.roundMillis() + " ms per side after a warm-up round, sides "
                    + "alternating; throughput and server CPU per unit = median of the recorded rounds, except "
                    + "insert's server CPU: the lower quartile of its batches; latencies per call");
            freshPageMicros = FreshPageCost.microsPerPage(3);
            out.note(String.format(Locale.ROOT, "this machine charges %.1f us of a thread's cpu for the first touch of "
                    + "a fresh 4 KiB page (a zeroed 64 MiB direct buffer, median of 3; well under 1 us on bare metal)",
                    freshPageMicros));
            warmUp();
            List<MongoCollection<Document>> colls = new ArrayList<>();
            for (Endpoint e : sides) {
                MongoCollection<Document> coll = e.collection(COLLECTION);
                coll.createIndex(Indexes.ascending("owner"));
                colls.add(coll);
            }
            measureInsert(colls);
            verifyLoaded(colls);

            explainAggregateMatch(colls.get(0));
            List<AtomicLong> updates = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            for (String op : OPS) {
                List<ConcurrentRounds.Op> calls = new ArrayList<>();
                for (MongoCollection<Document> coll : colls) {
                    AtomicLong counter = new AtomicLong();
                    updates.add(counter);
                    calls.add(operation(op, coll, docs, counter));
                }
                try {
                    report(op, "ops_per_s", measure(op, calls));
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof MongoException m)) {
                        throw e;
                    }
                    // a server's error is a result too: the other operations are still measured, the run fails at the end
                    String failure = op + ": " + m.getMessage();
                    failures.add(failure);
                    out.note("FAILED " + failure);
                    out.ratio(op + " tetra/peer", 0);
                }
            }
            verifyCounters(colls, updates);
            if (!failures.isEmpty()) {
                throw new IllegalStateException("mongo benchmark: server errors: " + failures);
            }
        }

        // ---- warm-up: the JIT of both servers and of the driver, on a throwaway collection ----

        private void warmUp() throws Exception {
            out.progress("warm-up: " + c.warmDocs() + " documents and " + c.warmMillis() + " ms of each operation per side");
            Docs warm = new Docs(c.warmDocs());
            for (Endpoint e : sides) {
                MongoCollection<Document> coll = e.collection("warmup");
                coll.createIndex(Indexes.ascending("owner"));
                for (int b = 0; b < warm.count() / BATCH; b++) {
                    insertBatch(coll, warm, b);
                }
                for (String op : OPS) {
                    clients.round(c.warmMillis(), operation(op, coll, warm, new AtomicLong()), null);
                }
                coll.drop();
            }
        }

        // ---- insert ----

        private void measureInsert(List<MongoCollection<Document>> colls) {
            out.progress("insert: loading " + c.docs() + " documents on each side");
            Samples[] samples = newSamples();
            int batches = c.docs() / BATCH;
            for (int b = 0; b < batches; b++) {
                for (int k = 0; k < sides.size(); k++) {
                    // one batch per side in turn, the first side alternating: a burst of the machine's other work
                    // (which inflates a thread's CPU time several times over here) hits both sides' batches alike
                    int s = (b + k) % sides.size();
                    long faults0 = sides.get(s).serverMinorFaults();
                    java.util.Map<String, Long> cpu0 = sides.get(s).serverCpuNanos();
                    long t0 = System.nanoTime();
                    insertBatch(colls.get(s), docs, b);
                    long elapsed = System.nanoTime() - t0;
                    java.util.Map<String, Long> cpu1 = sides.get(s).serverCpuNanos();
                    samples[s].latency(elapsed);
                    // the first batches of each side are a warm-up (the collection is new) and are not recorded
                    if (b >= c.insertWarmBatches()) {
                        samples[s].round(BATCH, elapsed);
                        serverCpu[s].add(BATCH, cpu0, cpu1, sides.get(s).serverMinorFaults() - faults0);
                    }
                }
            }
            report("insert", "items_per_s", samples);
        }

        private static void insertBatch(MongoCollection<Document> coll, Docs docs, int batch) {
            List<Document> list = new ArrayList<>(BATCH);
            for (int i = batch * BATCH; i < (batch + 1) * BATCH; i++) {
                list.add(docs.doc(i));
            }
            int inserted = coll.insertMany(list).getInsertedIds().size();
            check(inserted == BATCH, "insertMany acknowledged " + inserted + " of " + BATCH);
        }

        private void verifyLoaded(List<MongoCollection<Document>> colls) {
            SplittableRandom random = new SplittableRandom(7);
            int[] probes = random.ints(200, 0, c.docs()).toArray();
            for (int s = 0; s < sides.size(); s++) {
                // not countDocuments(): see verifyCounters
                long n = 0;
                for (Document ignored : colls.get(s).find().projection(Projections.include("_id"))) {
                    n++;
                }
                check(n == c.docs(), sides.get(s).label() + " holds " + n + " documents, expected " + c.docs());
                for (int i : probes) {
                    Document got = colls.get(s).find(Filters.eq("_id", i)).first();
                    check(docs.doc(i).equals(got), sides.get(s).label() + " returned " + got + " for _id " + i
                            + ", expected " + docs.doc(i));
                }
            }
            out.progress("loaded: both sides hold " + c.docs() + " documents; 200 random documents equal the inserted ones");
        }

        // ---- the point operations ----

        private Samples[] measure(String op, List<ConcurrentRounds.Op> calls) throws Exception {
            out.progress(op + ": " + (c.rounds() + 1) + " rounds of " + c.roundMillis() + " ms per side");
            Samples[] samples = newSamples();
            for (int round = 0; round <= c.rounds(); round++) {
                for (int k = 0; k < sides.size(); k++) {
                    int s = (round + k) % sides.size();
                    long faults0 = sides.get(s).serverMinorFaults();
                    java.util.Map<String, Long> cpu0 = sides.get(s).serverCpuNanos();
                    long calls0 = clients.round(c.roundMillis(), calls.get(s), round == 0 ? null : samples[s]);
                    java.util.Map<String, Long> cpu1 = sides.get(s).serverCpuNanos();
                    if (round > 0) {
                        serverCpu[s].add(calls0, cpu0, cpu1, sides.get(s).serverMinorFaults() - faults0);
                    }
                }
            }
            return samples;
        }

        /** One call of {@code op} against {@code coll} holding {@code d}'s documents, checking the answer. */
        private static ConcurrentRounds.Op operation(String op, MongoCollection<Document> coll, Docs d,
                                                     AtomicLong updates) {
            return switch (op) {
                case "find-id" -> random -> {
                    int i = random.nextInt(d.count());
                    Document got = coll.find(Filters.eq("_id", i)).first();
                    check(got != null && Objects.equals(got.get("_id"), i)
                            && Objects.equals(got.get("owner"), d.owner(i)), "find-id " + i + " returned " + got);
                };
                case "find-indexed" -> random -> {
                    int owner = random.nextInt(d.owners());
                    int n = 0;
                    for (Document got : coll.find(Filters.eq("owner", owner))) {
                        check(Objects.equals(got.get("owner"), owner), "find-indexed owner " + owner + " returned " + got);
                        n++;
                    }
                    check(n == Docs.PER_OWNER, "find-indexed owner " + owner + " returned " + n + " documents");
                };
                case "aggregate" -> random -> {
                    int from = random.nextInt(d.owners() - AGG_OWNERS + 1);
                    List<Document> got = coll.aggregate(aggregatePipeline(from)).into(new ArrayList<>());
                    List<Document> expected = expectedAggregate(d, from);
                    check(expected.equals(got), "aggregate from owner " + from + " returned " + got
                            + ", expected " + expected);
                };
                case "update-inc" -> random -> {
                    int i = random.nextInt(d.count());
                    UpdateResult r = coll.updateOne(Filters.eq("_id", i), Updates.inc("counter", 1));
                    check(r.getMatchedCount() == 1 && r.getModifiedCount() == 1, "update-inc " + i + ": " + r);
                    updates.incrementAndGet();
                };
                default -> throw new IllegalArgumentException(op);
            };
        }

        /** $match on a window of owners (100 documents, through the index), $group by status, $sort. */
        static List<Bson> aggregatePipeline(int fromOwner) {
            return List.of(
                    Aggregates.match(Filters.and(Filters.gte("owner", fromOwner),
                            Filters.lt("owner", fromOwner + AGG_OWNERS))),
                    Aggregates.group("$status", Accumulators.sum("n", 1), Accumulators.sum("total", "$amount")),
                    Aggregates.sort(Sorts.ascending("_id")));
        }

        static List<Document> expectedAggregate(Docs d, int fromOwner) {
            TreeMap<String, int[]> groups = new TreeMap<>();
            for (int owner = fromOwner; owner < fromOwner + AGG_OWNERS; owner++) {
                for (int k = 0; k < Docs.PER_OWNER; k++) {
                    int i = owner + k * d.owners();
                    int[] g = groups.computeIfAbsent(Docs.status(i), s -> new int[2]);
                    g[0]++;
                    g[1] += Docs.amount(i);
                }
            }
            List<Document> rows = new ArrayList<>();
            groups.forEach((status, g) -> rows.add(new Document("_id", status).append("n", g[0]).append("total", g[1])));
            return rows;
        }

        /**
         * {@code updates} holds one counter per side and operation, in the order of {@link #OPS} then sides. Summed in
         * the client over a find: a whole-collection $group (and so countDocuments()) fails on TetraDB at 100k
         * documents (the face materialises the $match's output before grouping; README).
         */
        private void verifyCounters(List<MongoCollection<Document>> colls, List<AtomicLong> updates) {
            for (int s = 0; s < sides.size(); s++) {
                long expected = 0;
                for (int k = s; k < updates.size(); k += sides.size()) {
                    expected += updates.get(k).get();
                }
                long got = 0;
                for (Document d : colls.get(s).find().projection(Projections.include("counter"))) {
                    got += ((Number) d.get("counter")).longValue();
                }
                check(got == expected, sides.get(s).label() + ": sum of counters " + got + ", expected " + expected
                        + " (one per update-inc)");
            }
            out.progress("checked: the counters of each side sum to its number of update-inc calls");
        }

        /**
         * How TetraDB runs the aggregate's $match (a find with the same filter), and the same range written as one
         * field document: printed, not judged.
         */
        private void explainAggregateMatch(MongoCollection<Document> tetra) {
            int from = docs.owners() / 2;
            Bson asDriverWrites = Filters.and(Filters.gte("owner", from), Filters.lt("owner", from + AGG_OWNERS));
            Bson oneField = new Document("owner", new Document("$gte", from).append("$lt", from + AGG_OWNERS));
            for (Bson match : List.of(asDriverWrites, oneField)) {
                Document plan = tetra.find(match).explain(com.mongodb.ExplainVerbosity.EXECUTION_STATS);
                Document stats = plan.get("executionStats", Document.class);
                out.note("tetra explain of find " + match.toBsonDocument().toJson() + ": " + (stats == null
                        ? plan.toJson() : "nReturned=" + stats.get("nReturned") + " totalDocsExamined="
                        + stats.get("totalDocsExamined") + " totalKeysExamined=" + stats.get("totalKeysExamined")));
            }
        }

        // ---- output ----

        private Samples[] newSamples() {
            Samples[] s = new Samples[sides.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = new Samples();
            }
            return s;
        }

        private void report(String op, String rateField, Samples[] samples) {
            for (int s = 0; s < sides.size(); s++) {
                out.bench("mongo." + op + "." + sides.get(s).label(), c.docs(), rateField, samples[s]);
            }
            out.ratio(op + " tetra/peer", samples[0].medianRate() / samples[1].medianRate());
            double[] cpu = new double[sides.size()];
            for (int s = 0; s < sides.size(); s++) {
                cpu[s] = serverCpu[s].figure(op);
                out.result(String.format(Locale.ROOT, "BENCH mongo.%s.%s-cpu items=%d server_cpu_us_per_unit=%.1f",
                        op, sides.get(s).label(), c.docs(), cpu[s]));
            }
            out.ratio(op + ".server-cpu peer/tetra", cpu[1] / cpu[0]);
            out.note(String.format(Locale.ROOT, "%s tetra server cpu per unit by thread group (us, medians): %s", op,
                    serverCpu[0].byGroup()));
            for (int s = 0; s < sides.size(); s++) {
                out.note(String.format(Locale.ROOT, "%s %s server cpu per unit over %d rounds (us): median %.1f, "
                                + "lower quartile %.1f, range %s, all rounds' cpu / all units %.1f; minor page faults "
                                + "per round %s", op, sides.get(s).label(), serverCpu[s].count(),
                        serverCpu[s].microsPerUnit(), serverCpu[s].lowerQuartileMicrosPerUnit(), serverCpu[s].range(),
                        serverCpu[s].meanMicrosPerUnit(), serverCpu[s].faults()));
            }
            for (int s = 0; s < sides.size(); s++) {
                double pages = serverCpu[s].faultsPerUnit();
                out.note(String.format(Locale.ROOT, "%s %s fresh memory: %.3f minor page faults per unit (median) "
                                + "x %.1f us per fresh page = %.1f us of the server cpu per unit; without it %.1f", op,
                        sides.get(s).label(), pages, freshPageMicros, pages * freshPageMicros,
                        cpu[s] - pages * freshPageMicros));
            }
            for (ServerCpuRounds rounds : serverCpu) {
                rounds.reset();
            }
        }

        private final ServerCpuRounds[] serverCpu = {new ServerCpuRounds(), new ServerCpuRounds()};
        /** This machine's thread CPU per fresh page ({@link FreshPageCost}), measured once at the start. */
        private double freshPageMicros;

        private static void check(boolean ok, String message) {
            if (!ok) {
                throw new IllegalStateException("mongo benchmark: wrong answer: " + message);
            }
        }
    }
}
