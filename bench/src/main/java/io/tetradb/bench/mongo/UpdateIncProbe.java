package io.tetradb.bench.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import org.bson.Document;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark's {@code update-inc} alone against TetraDB (bson-encode): 20,000 of the 1 KB documents in a collection
 * indexed on {@code owner}, then rounds of {@code seconds} in which {@code threads} client threads each send
 * {@code updateOne(eq("_id", random), inc("counter", 1))} one after another (one statement per message, the driver's
 * default write concern); per round the updates per second, the server's thread CPU per update by thread group and
 * the bytes its threads allocated per update, and the medians of the rounds from {@code warm} on. The bench's
 * {@code -Dbench.mongo.durability=ASYNC} runs it without a WAL sync per acknowledged write, to see what the sync
 * costs; {@code strace -c -e trace=fdatasync} on the process counts the syncs.
 *
 * <p>{@code java -cp bench.jar:lib/* io.tetradb.bench.mongo.UpdateIncProbe [rounds=10] [warm=4] [seconds=3]
 * [threads=4]}
 */
public final class UpdateIncProbe {
    private static final int DOCUMENTS = 20_000;

    private UpdateIncProbe() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int warm = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        long seconds = args.length > 2 ? Long.parseLong(args[2]) : 3;
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        Docs docs = new Docs(DOCUMENTS);
        Path base = Files.createDirectories(Path.of(System.getProperty("bench.dataDir", "target")));
        ProbeRounds figures = new ProbeRounds(warm);
        try (Endpoint e = Endpoint.tetra(Files.createTempDirectory(base, "update-probe"), threads)) {
            MongoCollection<Document> c = e.collection("probe");
            c.createIndex(Indexes.ascending("owner"));
            List<Document> batch = new ArrayList<>();
            for (int i = 0; i < DOCUMENTS; i++) {
                batch.add(docs.doc(i));
                if (batch.size() == 1000) {
                    c.insertMany(batch);
                    batch.clear();
                }
            }
            System.out.println("pid " + ProcessHandle.current().pid());
            for (int round = 0; round < rounds; round++) {
                AtomicLong updates = new AtomicLong();
                Map<String, Long> before = e.serverCpuNanos();
                long allocBefore = e.serverAllocatedBytes();
                long start = System.nanoTime();
                long until = start + seconds * 1_000_000_000L;
                List<Thread> clients = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Thread client = new Thread(() -> {
                        while (System.nanoTime() < until) {
                            int i = ThreadLocalRandom.current().nextInt(DOCUMENTS);
                            c.updateOne(Filters.eq("_id", i), Updates.inc("counter", 1));
                            updates.incrementAndGet();
                        }
                    });
                    client.start();
                    clients.add(client);
                }
                for (Thread client : clients) {
                    client.join();
                }
                double wall = (System.nanoTime() - start) / 1e9;
                Map<String, Long> after = e.serverCpuNanos();
                double n = updates.get();
                double alloc = (e.serverAllocatedBytes() - allocBefore) / n;
                StringBuilder line = new StringBuilder("round " + round + ":");
                double total = figures.add(round, before, after, n, line);
                figures.keep(round, "updates-per-second", n / wall);
                figures.keep(round, "allocated-bytes", alloc);
                System.out.println(line.append(String.format(" total=%.1f us/update %.0f updates/s allocated=%.0f B/update",
                        total, n / wall, alloc)));
            }
        }
        System.out.println(figures.medians("PROBE update-inc median of rounds " + warm + "-" + (rounds - 1) + ":"));
    }
}
