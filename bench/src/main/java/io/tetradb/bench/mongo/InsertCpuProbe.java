package io.tetradb.bench.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Indexes;
import org.bson.Document;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's CPU per inserted document once the JIT has settled (the quick benchmark measures a server whose insert
 * path is still being compiled): rounds of {@code insertMany} of 1000 of the benchmark's 1 KB documents into one
 * collection indexed on {@code owner} (2 batches unmeasured, then {@code batches} measured per round), one client
 * thread, each round's server thread CPU per document by thread group and the bytes the server's threads allocated
 * per document. One document is updated in the first round:
 * a collection that is not insert-only, whose change feed has a superseded version (held for the 24 h retention).
 * Prints every round and the median of the rounds after the first {@code warm}.
 *
 * <p>{@code java -cp bench.jar:lib/* io.tetradb.bench.mongo.InsertCpuProbe [tetra|peer] [rounds=24] [warm=6]
 * [batches=18]}
 */
public final class InsertCpuProbe {
    private InsertCpuProbe() {
    }

    public static void main(String[] args) throws Exception {
        String side = args.length > 0 ? args[0] : "tetra";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 24;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        int batches = args.length > 3 ? Integer.parseInt(args[3]) : 18;
        int perBatch = 1000;
        int perRound = (batches + 2) * perBatch;
        Docs docs = new Docs(rounds * perRound);
        Path base = Files.createDirectories(Path.of(System.getProperty("bench.dataDir", "target")));
        Path dir = Files.createTempDirectory(base, "insert-probe");
        ProbeRounds figures = new ProbeRounds(warm);
        Map<String, Long> coreThreads = new TreeMap<>(); // the core's background threads over the measured rounds
        double measured = 0;
        try (Endpoint e = side.equals("peer") ? Endpoint.peer(1) : Endpoint.tetra(dir, 1)) {
            MongoCollection<Document> c = e.collection("probe");
            for (int round = 0; round < rounds; round++) {
                List<Document> all = new ArrayList<>(perRound);
                for (int i = 0; i < perRound; i++) {
                    all.add(docs.doc(round * perRound + i));
                }
                if (round == 0) { // as the benchmark: made and indexed, then loaded at once
                    c.createIndex(Indexes.ascending("owner"));
                }
                c.insertMany(all.subList(0, perBatch));
                if (round == 0) { // one update: a collection that is not insert-only (its feed then has a record to prune)
                    c.updateOne(new Document("_id", 0), new Document("$inc", new Document("counter", 1)));
                }
                c.insertMany(all.subList(perBatch, 2 * perBatch));
                Map<String, Long> before = e.serverCpuNanos();
                long allocBefore = e.serverAllocatedBytes();
                Map<String, Long> coreBefore = coreThreadCpu();
                for (int b = 2; b < batches + 2; b++) {
                    c.insertMany(all.subList(b * perBatch, (b + 1) * perBatch));
                }
                Map<String, Long> after = e.serverCpuNanos();
                double n = batches * (double) perBatch;
                double alloc = (e.serverAllocatedBytes() - allocBefore) / n;
                if (round >= warm) {
                    coreThreadCpu().forEach((t, cpu) -> coreThreads.merge(t, cpu - coreBefore.getOrDefault(t, 0L),
                            Long::sum));
                    measured += n;
                }
                StringBuilder line = new StringBuilder("round " + round + ":");
                double total = figures.add(round, before, after, n, line);
                figures.keep(round, "allocated-bytes", alloc);
                System.out.println(line.append(String.format(" total=%.2f us/doc allocated=%.0f B/doc", total, alloc)));
            }
        }
        System.out.println(figures.medians("PROBE insert." + side + " median of rounds " + warm + "-"
                + (rounds - 1) + " (us/doc):"));
        StringBuilder core = new StringBuilder("PROBE insert." + side + " core threads over rounds " + warm + "-"
                + (rounds - 1) + " (us/doc):");
        double counted = measured;
        coreThreads.forEach((t, cpu) -> core.append(String.format(" %s=%.3f", t, cpu / 1000.0 / counted)));
        System.out.println(core);
    }

    /** CPU nanoseconds of each of the core's background threads ({@code tetradb-*}) by name (a pool's summed). */
    private static Map<String, Long> coreThreadCpu() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new TreeMap<>();
        for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("tetradb-")) {
                long cpu = mx.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) {
                    out.merge(t.getThreadName().replaceAll("-\\d+$", ""), cpu, Long::sum);
                }
            }
        }
        return out;
    }
}
