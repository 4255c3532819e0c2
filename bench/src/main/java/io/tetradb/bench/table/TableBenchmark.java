package io.tetradb.bench.table;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.Samples;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.table.http.TableHttpServer;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * TetraDB's Azure Tables endpoint against Azurite (in memory and on disk), through the official SDK
 * ({@code com.azure:azure-data-tables}), one synchronous client on one thread per side, the same code, entities and
 * request sequence on every side. Operations: insert, point-read, upsert-merge, a PartitionKey + RowKey range query
 * and a filter on a non-key property. Rounds of the sides alternate, so machine noise hits all of them; every
 * figure is the median of its rounds.
 */
public final class TableBenchmark implements Benchmark {
    /** Azurite's well-known development account key, which TableHttpServer serves by default. */
    static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    static final String TABLE = "bench";

    record Config(int entities, int rounds, int rangeQueries, int filterQueries, int warmOps) {
    }

    static Config config(boolean quick) {
        return quick ? new Config(5_000, 5, 300, 200, 500) : new Config(20_000, 5, 1_000, 500, 1_000);
    }

    /** One server under test, the SDK client that talks to it, and the server's CPU time so far (ns). */
    private record Side(String name, TableServiceClient service, LongSupplier serverCpu) {
    }

    static volatile long sink;

    @Override
    public String name() {
        return "table";
    }

    @Override
    public String description() {
        return "Azure Tables through the official SDK, TetraDB vs Azurite (memory, disk): insert, point-read, "
                + "upsert-merge, range-query, nonkey-filter";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        Config c = config(quick);
        BenchData.runInFresh("table", out, dir -> runSides(c, out, dir));
    }

    private static void runSides(Config c, Report out, Path dir) throws Exception {
        Path azuriteHome = BenchData.root().getParent().resolve("azurite");
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            List<Side> sides = new ArrayList<>();
            // SYNC is what users get by default; ASYNC only to show what the fsync per write costs (README)
            Durability durability = Durability.valueOf(System.getProperty("bench.table.durability", "SYNC"));
            CosmosClient cosmos = new CosmosClientBuilder().dataDirectory(dir.resolve("tetra"))
                    .durability(durability).buildClient();
            resources.add(cosmos);
            TableHttpServer tetra = TableHttpServer.start(InetAddress.getLoopbackAddress(), 0, cosmos);
            resources.add(0, tetra);
            sides.add(new Side("tetra", client(tetra.address().getPort()),
                    () -> CpuMeter.threads(CpuMeter.TETRA_SERVER)));

            String version = Azurite.version();
            String missing = Boolean.getBoolean("bench.table.noAzurite")
                    ? "-Dbench.table.noAzurite=true" : Azurite.unavailableReason();
            if (missing != null) {
                out.note("table: Azurite side SKIPPED: " + missing + "; no RATIO lines");
            } else {
                out.progress("installing azurite@" + version + " into " + azuriteHome + " if missing");
                Path mainJs = Azurite.install(azuriteHome, version);
                Azurite mem = Azurite.start(mainJs, null, azuriteHome.resolve("azurite-mem.log"));
                resources.add(0, mem);
                sides.add(new Side("azurite-mem", client(mem.port()), () -> CpuMeter.process(mem.handle())));
                Azurite disk = Azurite.start(mainJs, dir.resolve("azurite-disk"), azuriteHome.resolve("azurite-disk.log"));
                resources.add(0, disk);
                sides.add(new Side("azurite-disk", client(disk.port()), () -> CpuMeter.process(disk.handle())));
            }
            out.note(String.format(Locale.ROOT, "table: %d entities (~1 KB, 10 typed properties) in %d partitions "
                            + "of %d rows; one synchronous SDK client (azure-data-tables) on one thread per side, "
                            + "sides: %s; tetra = TableHttpServer over a fresh store, %s durability; azurite = npm "
                            + "azurite@%s (--inMemoryPersistence, --location DIR); throughput = median of %d "
                            + "interleaved rounds", c.entities(), c.entities() / BenchEntities.ROWS_PER_PARTITION,
                    BenchEntities.ROWS_PER_PARTITION, String.join(", ", sides.stream().map(Side::name).toList()), durability,
                    version, c.rounds()));
            new Run(c, sides, out).run();
        } finally {
            for (AutoCloseable r : resources) {
                r.close();
            }
        }
    }

    private static TableServiceClient client(int port) {
        return new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;"
                + "AccountName=devstoreaccount1;AccountKey=" + DEV_KEY
                + ";TableEndpoint=http://127.0.0.1:" + port + "/devstoreaccount1;").buildClient();
    }

    /** One run over all sides. */
    private static final class Run {
        private static final String[] OPS = {"insert", "point-read", "upsert-merge", "range-query", "nonkey-filter"};

        private final Config c;
        private final List<Side> sides;
        private final Report out;
        private final BenchEntities data;
        /** op → side → samples */
        private final Map<String, Map<String, Samples>> results = new LinkedHashMap<>();
        /** op → side → CPU time per unit over all rounds: {server ns, client ns, units} */
        private final Map<String, Map<String, long[]>> cpu = new LinkedHashMap<>();

        Run(Config c, List<Side> sides, Report out) {
            this.c = c;
            this.sides = sides;
            this.out = out;
            this.data = new BenchEntities(c.entities());
        }

        void run() {
            warmUp();
            List<TableClient> tables = new ArrayList<>();
            for (Side s : sides) {
                tables.add(s.service().createTable(TABLE));
            }
            int n = c.entities();
            int perRound = n / c.rounds();
            int[] readOrder = permutation(n, 1);
            int[] mergeOrder = permutation(n, 2);

            measure("insert", perRound, tables, (t, r) -> {
                for (int i = r * perRound; i < (r + 1) * perRound; i++) {
                    TableEntity e = data.entity(i);
                    long t0 = System.nanoTime();
                    t.createEntity(e);
                    latency(t0);
                }
            });
            measure("point-read", perRound, tables, (t, r) -> {
                for (int k = r * perRound; k < (r + 1) * perRound; k++) {
                    int i = readOrder[k];
                    long t0 = System.nanoTime();
                    TableEntity e = t.getEntity(data.partitionKey(i), data.rowKey(i));
                    latency(t0);
                    check(e.getProperty("Seq") instanceof Long l && l == i, "point-read of entity " + i
                            + " returned Seq=" + e.getProperty("Seq"));
                }
            });
            measure("upsert-merge", perRound, tables, (t, r) -> {
                for (int k = r * perRound; k < (r + 1) * perRound; k++) {
                    TableEntity e = data.merge(mergeOrder[k]);
                    long t0 = System.nanoTime();
                    t.upsertEntityWithResponse(e, TableEntityUpdateMode.MERGE, null, null);
                    latency(t0);
                }
            });
            for (int s = 0; s < sides.size(); s++) {
                checkMerged(sides.get(s).name(), tables.get(s));
            }

            int rangePerRound = c.rangeQueries() / c.rounds();
            int filterPerRound = c.filterQueries() / c.rounds();
            measure("range-query", rangePerRound, tables, (t, r) -> {
                SplittableRandom rnd = new SplittableRandom(1000 + r);
                for (int q = 0; q < rangePerRound; q++) {
                    String filter = data.rangeFilter(rnd.nextInt(data.partitions),
                            rnd.nextInt(BenchEntities.ROWS_PER_PARTITION - BenchEntities.RANGE + 1));
                    expectCount(t, filter, BenchEntities.RANGE);
                }
            });
            measure("nonkey-filter", filterPerRound, tables, (t, r) -> {
                SplittableRandom rnd = new SplittableRandom(2000 + r);
                for (int q = 0; q < filterPerRound; q++) {
                    expectCount(t, data.categoryFilter(rnd.nextInt(data.categories())), BenchEntities.PER_CATEGORY);
                }
            });
            report();
        }

        /** A few hundred requests of every kind on a throwaway table per side, so that no side pays for warm-up. */
        private void warmUp() {
            out.progress("warm-up: " + c.warmOps() + " entities per side on a throwaway table");
            for (Side s : sides) {
                TableClient t = s.service().createTable("warmup");
                BenchEntities w = new BenchEntities(c.warmOps() / BenchEntities.ROWS_PER_PARTITION
                        * BenchEntities.ROWS_PER_PARTITION);
                for (int i = 0; i < w.n; i++) {
                    t.createEntity(w.entity(i));
                }
                for (int i = 0; i < w.n; i++) {
                    sink += t.getEntity(w.partitionKey(i), w.rowKey(i)).getProperties().size();
                    t.upsertEntityWithResponse(w.merge(i), TableEntityUpdateMode.MERGE, null, null);
                }
                for (int q = 0; q < 20; q++) {
                    expectCount(t, w.rangeFilter(q % w.partitions, q), BenchEntities.RANGE);
                    expectCount(t, w.categoryFilter(q % w.categories()), BenchEntities.PER_CATEGORY);
                }
                s.service().deleteTable("warmup");
            }
        }

        private interface RoundBody {
            void run(TableClient table, int round);
        }

        /**
         * Runs {@code c.rounds()} rounds of {@code op}, each side in turn within a round (the order rotating), and
         * records {@code unitsPerRound} / elapsed time per round and side.
         */
        private void measure(String op, int unitsPerRound, List<TableClient> tables, RoundBody body) {
            Map<String, Samples> bySide = results.computeIfAbsent(op, k -> new LinkedHashMap<>());
            Map<String, long[]> cpuBySide = cpu.computeIfAbsent(op, k -> new LinkedHashMap<>());
            for (Side s : sides) {
                bySide.put(s.name(), new Samples());
                cpuBySide.put(s.name(), new long[3]);
            }
            for (int r = 0; r < c.rounds(); r++) {
                for (int k = 0; k < sides.size(); k++) {
                    int s = (r + k) % sides.size();
                    Samples samples = bySide.get(sides.get(s).name());
                    TableClient t = tables.get(s);
                    int round = r;
                    long server0 = sides.get(s).serverCpu().getAsLong();
                    long client0 = CpuMeter.threads(CpuMeter.SDK_CLIENT);
                    long t0 = System.nanoTime();
                    timedEach(samples, () -> body.run(t, round));
                    long elapsed = System.nanoTime() - t0;
                    long[] c = cpuBySide.get(sides.get(s).name());
                    c[0] += sides.get(s).serverCpu().getAsLong() - server0;
                    c[1] += CpuMeter.threads(CpuMeter.SDK_CLIENT) - client0;
                    c[2] += unitsPerRound;
                    samples.round(unitsPerRound, elapsed);
                    out.progress(String.format(Locale.ROOT, "%s %s round %d: %.0f ops/s", op, sides.get(s).name(), r,
                            unitsPerRound * 1e9 / elapsed));
                }
            }
        }

        /** The samples that the operations of the running round add their latency to. */
        private Samples current;

        private void timedEach(Samples samples, Runnable round) {
            current = samples;
            try {
                round.run();
            } finally {
                current = null;
            }
        }

        /** Runs one query to its end (every page) and fails unless it returns {@code expected} entities. */
        private void expectCount(TableClient t, String filter, int expected) {
            long t0 = System.nanoTime();
            long count = 0;
            for (TableEntity e : t.listEntities(new ListEntitiesOptions().setFilter(filter), null, null)) {
                sink += e.getProperties().size();
                count++;
            }
            latency(t0);
            check(count == expected, "query on " + t.getAccountName() + " at " + t.getTableEndpoint() + " returned "
                    + count + " entities instead of " + expected + ": " + filter);
        }

        private void latency(long t0) {
            if (current != null) {
                current.latency(System.nanoTime() - t0);
            }
        }

        /** After the merge, a few entities on each side: merged properties new, the others kept. */
        private void checkMerged(String side, TableClient t) {
            for (int i = 0; i < data.n; i += data.n / 10) {
                TableEntity e = t.getEntity(data.partitionKey(i), data.rowKey(i));
                TableEntity want = data.entity(i);
                check(Integer.valueOf(1).equals(e.getProperty("Visits"))
                                && Boolean.valueOf(i % 2 != 0).equals(e.getProperty("Active"))
                                && want.getProperty("Name").equals(e.getProperty("Name"))
                                && want.getProperty("Created").equals(e.getProperty("Created")),
                        side + ": entity " + i + " after upsert-merge: " + e.getProperties());
            }
        }

        private void report() {
            int n = c.entities();
            for (String op : OPS) {
                for (Map.Entry<String, Samples> e : results.get(op).entrySet()) {
                    out.bench("table." + op + "." + e.getKey(), n, "ops_per_s", e.getValue());
                }
            }
            for (String op : OPS) {
                for (Map.Entry<String, long[]> e : cpu.get(op).entrySet()) {
                    long[] c = e.getValue();
                    out.result(String.format(Locale.ROOT,
                            "BENCH table.%s.%s-cpu items=%d server_cpu_us_per_op=%.1f client_cpu_us_per_op=%.1f",
                            op, e.getKey(), n, c[0] / 1e3 / c[2], c[1] / 1e3 / c[2]));
                }
            }
            for (String op : OPS) {
                Map<String, Samples> bySide = results.get(op);
                for (String anchor : new String[]{"azurite-mem", "azurite-disk"}) {
                    if (bySide.containsKey(anchor)) {
                        out.ratio(op + " tetra/" + anchor, bySide.get("tetra").medianRate()
                                / bySide.get(anchor).medianRate());
                    }
                }
            }
            // the same comparison by server CPU per request (less noisy than throughput): anchor / tetra
            for (String op : OPS) {
                Map<String, long[]> bySide = cpu.get(op);
                for (String anchor : new String[]{"azurite-mem", "azurite-disk"}) {
                    if (bySide.containsKey(anchor)) {
                        out.ratio(op + ".server-cpu " + anchor + "/tetra",
                                (double) bySide.get(anchor)[0] / bySide.get("tetra")[0]);
                    }
                }
            }
        }

        private static int[] permutation(int n, long seed) {
            int[] p = new int[n];
            for (int i = 0; i < n; i++) {
                p[i] = i;
            }
            SplittableRandom rnd = new SplittableRandom(seed);
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int tmp = p[i];
                p[i] = p[j];
                p[j] = tmp;
            }
            return p;
        }

        private static void check(boolean ok, String message) {
            if (!ok) {
                throw new IllegalStateException("table benchmark: results differ from what was written: " + message);
            }
        }
    }
}
