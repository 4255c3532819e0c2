package io.tetradb.bench.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import org.bson.Document;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The server's CPU and allocation per warm point find, as the benchmark's {@code find-id}: {@code docs} of the
 * benchmark's 1 KB documents loaded (indexed on {@code owner}), then rounds of {@code perThread} finds
 * {@code find(eq("_id", random)).first()} from {@code threads} client threads; each round's server thread CPU per
 * find by thread group, and the bytes the server's threads allocated per find. Prints every round and the medians of
 * the rounds after the first {@code warm}. With {@code updateEvery} k &gt; 0, every k-th operation of a thread is an
 * {@code updateOne(eq("_id", random), $set: {seq: i})} instead (a mixed workload: whether writes to some documents
 * cost the finds of the others their cached replies), and the figures are per operation.
 *
 * <p>{@code java -cp bench.jar:lib/* io.tetradb.bench.mongo.FindCpuProbe [tetra|peer] [rounds=16] [warm=6]
 * [docs=20000] [perThread=5000] [threads=4] [updateEvery=0]}
 */
public final class FindCpuProbe {
    private FindCpuProbe() {
    }

    public static void main(String[] args) throws Exception {
        String side = args.length > 0 ? args[0] : "tetra";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        int n = args.length > 3 ? Integer.parseInt(args[3]) : 20_000;
        int perThread = args.length > 4 ? Integer.parseInt(args[4]) : 5_000;
        int threads = args.length > 5 ? Integer.parseInt(args[5]) : 4;
        int updateEvery = args.length > 6 ? Integer.parseInt(args[6]) : 0;
        Docs docs = new Docs(n);
        Path base = Files.createDirectories(Path.of(System.getProperty("bench.dataDir", "target")));
        Path dir = Files.createTempDirectory(base, "find-probe");
        ProbeRounds figures = new ProbeRounds(warm);
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        try (Endpoint e = side.equals("peer") ? Endpoint.peer(threads) : Endpoint.tetra(dir, threads)) {
            MongoCollection<Document> c = e.collection("probe");
            c.createIndex(Indexes.ascending("owner"));
            for (int from = 0; from < n; from += 1000) {
                List<Document> batch = new ArrayList<>();
                for (int i = from; i < Math.min(n, from + 1000); i++) {
                    batch.add(docs.doc(i));
                }
                c.insertMany(batch);
            }
            for (int round = 0; round < rounds; round++) {
                Map<String, Long> before = e.serverCpuNanos();
                long allocBefore = e.serverAllocatedBytes();
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(clients.submit(() -> {
                        ThreadLocalRandom r = ThreadLocalRandom.current();
                        for (int i = 0; i < perThread; i++) {
                            int id = r.nextInt(n);
                            if (updateEvery > 0 && i % updateEvery == updateEvery - 1) {
                                if (c.updateOne(Filters.eq("_id", id), new Document("$set", new Document("seq", i)))
                                        .getMatchedCount() != 1) {
                                    throw new IllegalStateException("update of _id " + id + " matched nothing");
                                }
                                continue;
                            }
                            Document d = c.find(Filters.eq("_id", id)).first();
                            if (d == null || d.getInteger("_id") != id) {
                                throw new IllegalStateException("find of _id " + id + " answered " + d);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                Map<String, Long> after = e.serverCpuNanos();
                double finds = threads * (double) perThread;
                double alloc = (e.serverAllocatedBytes() - allocBefore) / finds;
                StringBuilder line = new StringBuilder("round " + round + ":");
                double total = figures.add(round, before, after, finds, line);
                figures.keep(round, "allocated-bytes", alloc);
                System.out.println(line.append(String.format(" total=%.2f us/find allocated=%.0f B/find", total,
                        alloc)));
            }
        } finally {
            clients.shutdownNow();
        }
        String name = updateEvery > 0 ? "find-id-mixed" + updateEvery : "find-id";
        System.out.println(figures.medians("PROBE " + name + "." + side + " median of rounds " + warm + "-"
                + (rounds - 1) + (updateEvery > 0 ? " (us/operation):" : " (us/find):")));
    }
}
