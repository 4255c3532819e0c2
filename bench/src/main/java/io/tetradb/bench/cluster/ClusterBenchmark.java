package io.tetradb.bench.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.cassandra.cluster.NodeClasspath;
import io.tetradb.cassandra.cluster.Ports;
import io.tetradb.cassandra.store.CassandraMetadataStore;
import io.tetradb.cassandra.store.CassandraPartitionStore;
import io.tetradb.cassandra.store.Sessions;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosBatchResponse;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.SqlParameter;
import io.tetradb.document.SqlQuerySpec;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 20's {@code cluster} benchmark: the core (the embedded document API) with its metadata and items on a local
 * 3-node Cassandra cluster ({@link LocalCluster}: three JVMs on 127.0.0.1, replication factor 3, QUORUM writes with
 * SERIAL conditions, QUORUM reads) against the embedded RocksDB engine in the same run — point reads, point writes,
 * 100-item batches and an indexed query, one thread, latency percentiles — then the throughput of two TetraDB cores
 * (each with its own driver session, as two servers on one keyspace) against one, under the same number of client
 * threads. Everything shares the machine's cores with the three Cassandra nodes.
 */
public final class ClusterBenchmark implements Benchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 100;
    private static final int CITIES = 50;
    private static final int BATCH = 100;

    record Config(int items, int writes, int reads, int batches, int queries, int scaleThreads, int scaleOps,
                  int rounds) {
    }

    static Config config(boolean quick) {
        return quick ? new Config(2_000, 150, 400, 6, 10, 8, 400, 1)
                : new Config(10_000, 2_000, 4_000, 40, 200, 8, 4_000, 3);
    }

    @Override
    public String name() {
        return "cluster";
    }

    @Override
    public String description() {
        return "the core on a local 3-node Cassandra cluster vs the embedded engine (point reads/writes, 100-item "
                + "batches, an indexed query) and two TetraDB cores on one keyspace vs one (issue 20)";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        Config c = config(quick);
        Path dir = BenchData.fresh("cluster");
        Path node = Path.of(System.getProperty("bench.cassandraNode", "cassandra-engine/node"));
        out.note("cluster: " + Runtime.getRuntime().availableProcessors() + " cores shared by the bench JVM (the "
                + "TetraDB cores and their drivers), the three Cassandra JVMs (-Xmx384m each) and whatever else runs; "
                + "load average at start " + loadAverage());
        long t0 = System.nanoTime();
        try (LocalCluster cluster = LocalCluster.start(dir.resolve("nodes"), 3, NodeClasspath.build(node),
                Ports.DEFAULT, "384m", 300)) {
            out.result(String.format(Locale.ROOT, "BENCH cluster.start nodes=3 seconds=%.1f",
                    (System.nanoTime() - t0) / 1e9));
            long measured = System.nanoTime();
            try (Core embedded = Core.embedded(dir.resolve("embedded"));
                 Core first = Core.onCassandra(cluster, dir.resolve("core1"));
                 Core second = Core.onCassandra(cluster, dir.resolve("core2"))) {
                out.note("items " + JSON.writeValueAsBytes(item(0)).length + " B, " + PARTITIONS + " logical "
                        + "partitions, default indexing; embedded: SYNC (fsync per commit); Cassandra: QUORUM writes "
                        + "(commit log fsync periodic, Cassandra's default), SERIAL conditions, QUORUM reads");
                Sides sides = new Sides(out, cluster);
                List<Core> both = List.of(embedded, first);
                for (Core core : both) {
                    core.container = core.client.getDatabase("bench").getContainer("items");
                    core.load(c.items());
                }
                for (Core core : both) {
                    sides.latency("point-write", core, c.writes(), n -> core.pointWrite(c.items() + n));
                }
                for (Core core : both) {
                    SplittableRandom r = new SplittableRandom(7);
                    sides.latency("point-read", core, c.reads(), n -> core.pointRead(r.nextInt(c.items())));
                }
                for (Core core : both) {
                    sides.latency("batch100-write", core, c.batches(), n -> core.batch(n));
                }
                for (Core core : both) {
                    sides.latency("indexed-query", core, c.queries(), n -> core.query(n % CITIES, c.items()));
                }
                for (String op : List.of("point-write", "point-read", "batch100-write", "indexed-query")) {
                    out.ratio("cluster " + op + " embedded/cassandra ops_per_s",
                            sides.rate(op, embedded) / sides.rate(op, first));
                }
                second.container = second.client.getDatabase("bench").getContainer("items");
                scaling(out, c, first, second, cluster);
            }
            out.note(String.format(Locale.ROOT, "cluster: measured in %.1f s after the cluster was up; load average "
                    + "at the end %s", (System.nanoTime() - measured) / 1e9, loadAverage()));
        } finally {
            BenchData.delete(dir);
        }
    }

    /** Two cores on one keyspace vs one, the same client threads in total: point writes, then point reads. */
    private static void scaling(Report out, Config c, Core first, Core second, LocalCluster cluster) throws Exception {
        AtomicInteger ids = new AtomicInteger(10_000_000);
        for (String op : List.of("point-write", "point-read")) {
            List<Double> one = new ArrayList<>();
            List<Double> two = new ArrayList<>();
            for (int round = 0; round < c.rounds(); round++) {
                // alternate which setup runs first, so that the machine's drift hits both
                boolean oneFirst = round % 2 == 0;
                for (int k = 0; k < 2; k++) {
                    boolean single = (k == 0) == oneFirst;
                    List<Core> cores = single ? List.of(first) : List.of(first, second);
                    double rate = throughput(op, cores, c, ids, out, cluster, single ? "one" : "two");
                    (single ? one : two).add(rate);
                }
            }
            double r1 = median(one);
            double r2 = median(two);
            out.ratio("cluster " + op + " two-servers/one ops_per_s", r2 / r1);
        }
    }

    private static double throughput(String op, List<Core> cores, Config c, AtomicInteger ids, Report out,
                                     LocalCluster cluster, String label) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(c.scaleThreads());
        try {
            AtomicInteger left = new AtomicInteger(c.scaleOps());
            long racesBefore = cores.stream().mapToLong(k -> k.lostRaces.get()).sum();
            Latencies lat = new Latencies();
            Cpu cpu = Cpu.start(cluster);
            long t0 = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < c.scaleThreads(); t++) {
                Core core = cores.get(t % cores.size());
                SplittableRandom r = new SplittableRandom(t);
                running.add(pool.submit(() -> {
                    while (left.decrementAndGet() >= 0) {
                        long s = System.nanoTime();
                        if (op.equals("point-write")) {
                            core.pointWrite(ids.incrementAndGet());
                        } else {
                            core.pointRead(r.nextInt(c.items()));
                        }
                        lat.add(System.nanoTime() - s);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            long nanos = System.nanoTime() - t0;
            double rate = c.scaleOps() * 1e9 / nanos;
            long races = cores.stream().mapToLong(k -> k.lostRaces.get()).sum() - racesBefore;
            out.result(String.format(Locale.ROOT, "BENCH cluster.%s.%s-server%s threads=%d ops=%d ops_per_s=%.0f "
                            + "p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f retried_449=%d %s", op, label,
                    label.equals("one") ? "" : "s", c.scaleThreads(), c.scaleOps(), rate, lat.ms(0.50), lat.ms(0.95),
                    lat.ms(0.99), races, cpu.perOp(c.scaleOps())));
            return rate;
        } finally {
            pool.shutdownNow();
        }
    }

    private static double median(List<Double> xs) {
        double[] s = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static ObjectNode item(int n) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", "i" + n);
        o.put("pk", "p" + (n % PARTITIONS));
        o.put("city", "c" + (n % CITIES));
        o.put("n", n);
        o.put("note", "a short text so that the item is of a realistic small size");
        return o;
    }

    static String loadAverage() {
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** One measured operation, numbered. */
    interface Op {
        void run(int n) throws Exception;
    }

    /** Single-thread latency runs of each side and their lines. */
    private static final class Sides {
        private final Report out;
        private final LocalCluster cluster;
        private final java.util.Map<String, Double> rates = new java.util.HashMap<>();

        Sides(Report out, LocalCluster cluster) {
            this.out = out;
            this.cluster = cluster;
        }

        void latency(String op, Core core, int count, Op body) throws Exception {
            for (int i = 0; i < Math.max(1, count / 10); i++) {
                body.run(-1 - i); // warm-up, not measured
            }
            Latencies lat = new Latencies();
            Cpu cpu = Cpu.start(cluster);
            long t0 = System.nanoTime();
            for (int i = 0; i < count; i++) {
                long s = System.nanoTime();
                body.run(i);
                lat.add(System.nanoTime() - s);
            }
            double rate = count * 1e9 / (System.nanoTime() - t0);
            rates.put(op + "/" + core.name, rate);
            out.result(String.format(Locale.ROOT, "BENCH cluster.%s.%s ops=%d ops_per_s=%.1f p50_ms=%.2f "
                            + "p95_ms=%.2f p99_ms=%.2f max_ms=%.2f %s", op, core.name, count, rate, lat.ms(0.50),
                    lat.ms(0.95), lat.ms(0.99), lat.ms(1.0), core.name.equals("embedded") ? cpu.benchOnly(count)
                            : cpu.perOp(count)));
        }

        double rate(String op, Core core) {
            return rates.get(op + "/" + core.name);
        }
    }

    /** Latencies of many threads, percentiles by nearest rank. */
    private static final class Latencies {
        private final List<Long> nanos = new ArrayList<>();

        synchronized void add(long n) {
            nanos.add(n);
        }

        synchronized double ms(double q) {
            long[] s = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
            int rank = (int) Math.ceil(q * s.length);
            return s[Math.max(0, Math.min(s.length - 1, rank - 1))] / 1e6;
        }
    }

    /** CPU time of this JVM (cores, drivers, clients) and of the three Cassandra nodes over a measured run. */
    private record Cpu(LocalCluster cluster, long bench, long nodes) {
        static Cpu start(LocalCluster cluster) {
            return new Cpu(cluster, benchCpu(), nodesCpu(cluster));
        }

        String perOp(int ops) {
            return String.format(Locale.ROOT, "bench_cpu_us_per_op=%.0f cassandra_cpu_us_per_op=%.0f",
                    (benchCpu() - bench) / 1e3 / ops, (nodesCpu(cluster) - nodes) / 1e3 / ops);
        }

        String benchOnly(int ops) {
            return String.format(Locale.ROOT, "bench_cpu_us_per_op=%.0f", (benchCpu() - bench) / 1e3 / ops);
        }

        static long benchCpu() {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
        }

        static long nodesCpu(LocalCluster cluster) {
            long sum = 0;
            for (int i = 1; i <= cluster.size(); i++) {
                sum += ProcessHandle.of(cluster.pid(i)).flatMap(h -> h.info().totalCpuDuration())
                        .map(java.time.Duration::toNanos).orElse(0L);
            }
            return sum;
        }
    }

    /** One TetraDB core (the embedded document API) on the embedded engine or on the cluster. */
    private static final class Core implements AutoCloseable {
        final String name;
        final CosmosClient client;
        private final CqlSession session;
        CosmosContainer container;

        private Core(String name, CosmosClient client, CqlSession session) {
            this.name = name;
            this.client = client;
            this.session = session;
        }

        static Core embedded(Path dir) {
            return new Core("embedded", new CosmosClientBuilder().dataDirectory(dir).buildClient(), null);
        }

        /** A core with its metadata and items on keyspace {@code bench} of the cluster, with its own session. */
        static Core onCassandra(LocalCluster cluster, Path dir) {
            CqlSession session = Sessions.open(cluster.contactPoints());
            CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).storage(
                    CassandraMetadataStore.open(session, "bench", 3, CassandraPartitionStore.Consistency.QUORUM),
                    CassandraPartitionStore.open(session, "bench", 3, CassandraPartitionStore.Consistency.QUORUM))
                    .buildClient();
            client.createDatabaseIfNotExists("bench");
            client.getDatabase("bench").createContainerIfNotExists("items", "/pk");
            return new Core("cassandra", client, session);
        }

        void load(int items) {
            if (name.equals("embedded")) {
                client.createDatabaseIfNotExists("bench");
                client.getDatabase("bench").createContainerIfNotExists("items", "/pk");
                container = client.getDatabase("bench").getContainer("items");
            }
            // one batch per logical partition (items n with n % PARTITIONS == p), four partitions at a time
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> loads = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    int partition = p;
                    loads.add(pool.submit(() -> {
                        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p" + partition));
                        for (int n = partition; n < items; n += PARTITIONS) {
                            batch.upsertItemOperation(item(n));
                        }
                        check(container.executeCosmosBatch(batch));
                        return null;
                    }));
                }
                for (Future<?> f : loads) {
                    f.get();
                }
            } catch (Exception e) {
                throw new IllegalStateException("loading " + name + " failed", e);
            } finally {
                pool.shutdownNow();
            }
        }

        /** Races lost to the other core on one logical partition (449), retried as the Cosmos SDKs retry them. */
        final java.util.concurrent.atomic.AtomicLong lostRaces = new java.util.concurrent.atomic.AtomicLong();

        void pointWrite(int n) {
            ObjectNode item = item(n < 0 ? 20_000_000 - n : n);
            for (int attempt = 1; ; attempt++) {
                try {
                    container.upsertItem(item);
                    return;
                } catch (io.tetradb.document.CosmosException e) {
                    if (e.getStatusCode() != 449 || attempt == 20) {
                        throw e;
                    }
                    lostRaces.incrementAndGet();
                }
            }
        }

        void pointRead(int n) {
            if (container.readItem("i" + n, new PartitionKey("p" + (n % PARTITIONS)), ObjectNode.class).getItem()
                    == null) {
                throw new IllegalStateException("item i" + n + " not read");
            }
        }

        void batch(int n) {
            String pk = "batch" + (n < 0 ? "w" + (-n) : n);
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
            for (int i = 0; i < BATCH; i++) {
                ObjectNode o = item(30_000_000 + i);
                o.put("id", pk + "-" + i);
                o.put("pk", pk);
                batch.upsertItemOperation(o);
            }
            check(container.executeCosmosBatch(batch));
        }

        /** An indexed equality across partitions: the loaded items of one city. */
        void query(int city, int loaded) {
            int expected = 0;
            for (int n = city; n < loaded; n += CITIES) {
                expected++;
            }
            SqlQuerySpec q = new SqlQuerySpec("SELECT c.id FROM c WHERE c.city = @city AND c.n < @loaded",
                    List.of(new SqlParameter("@city", "c" + Math.abs(city)), new SqlParameter("@loaded", loaded)));
            long got = container.queryItems(q, new CosmosQueryRequestOptions(), ObjectNode.class).stream().count();
            if (city >= 0 && got != expected) {
                throw new IllegalStateException(name + ": city c" + city + " gave " + got + " items, not " + expected);
            }
        }

        private static void check(CosmosBatchResponse r) {
            if (!r.isSuccessStatusCode()) {
                throw new IllegalStateException("batch failed: " + r.getStatusCode() + " " + r.getErrorMessage());
            }
        }

        @Override
        public void close() {
            client.close();
            if (session != null) {
                session.close();
            }
        }
    }
}
