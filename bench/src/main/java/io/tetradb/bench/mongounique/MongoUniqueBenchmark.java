package io.tetradb.bench.mongounique;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.MongoWireServer;
import org.bson.Document;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Insert throughput of the Mongo face into a collection with one unique index ({@code email}), beside the same
 * inserts without it (issue 15): {@code insertMany} of 1000 from one thread, and {@code insertOne} from 4 threads.
 * Rounds alternate between the two collections; the median round is reported.
 */
public final class MongoUniqueBenchmark implements Benchmark {
    @Override
    public String name() {
        return "mongo-unique";
    }

    @Override
    public String description() {
        return "Mongo face insert rate with one unique index vs none (insertMany of 1000; insertOne from 4 threads)";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        int rounds = quick ? 5 : 9;
        int manyPerRound = quick ? 5_000 : 20_000;
        int onePerRound = quick ? 2_000 : 8_000;
        Path dir = BenchData.fresh("mongo-unique");
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
            try (MongoClient client = MongoClients.create(MongoClientSettings.builder().applyConnectionString(
                    new ConnectionString("mongodb://127.0.0.1:" + server.address().getPort())).build())) {
                MongoCollection<Document> plain = client.getDatabase("bench").getCollection("plain");
                MongoCollection<Document> unique = client.getDatabase("bench").getCollection("unique");
                plain.createIndex(new Document("email", 1));
                unique.createIndex(new Document("email", 1), new IndexOptions().unique(true));
                AtomicInteger next = new AtomicInteger();
                out.progress("warming up");
                for (int w = 0; w < 2; w++) {
                    insertMany(plain, next, manyPerRound);
                    insertMany(unique, next, manyPerRound);
                    insertOne(plain, next, onePerRound);
                    insertOne(unique, next, onePerRound);
                }
                double[][] many = new double[2][rounds];
                double[][] one = new double[2][rounds];
                for (int r = 0; r < rounds; r++) {
                    out.progress("round " + (r + 1) + " of " + rounds);
                    many[0][r] = insertMany(plain, next, manyPerRound);
                    many[1][r] = insertMany(unique, next, manyPerRound);
                    one[0][r] = insertOne(plain, next, onePerRound);
                    one[1][r] = insertOne(unique, next, onePerRound);
                }
                out.note("one store (SYNC), documents of ~200 B with a distinct e-mail each; 'plain' has a non-unique "
                        + "index on email, 'unique' a unique one; the machine is shared with other work");
                report(out, "insertMany", many);
                report(out, "insertOne-4-threads", one);
            } finally {
                server.close();
            }
        } finally {
            BenchData.delete(dir);
        }
    }

    private static void report(Report out, String op, double[][] rates) {
        double plain = median(rates[0]);
        double unique = median(rates[1]);
        out.result(String.format(Locale.ROOT, "BENCH mongo-unique.%s.plain items_per_s=%.0f", op, plain));
        out.result(String.format(Locale.ROOT, "BENCH mongo-unique.%s.unique items_per_s=%.0f", op, unique));
        out.ratio("mongo-unique " + op + " unique/plain", unique / plain);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static Document doc(int i) {
        return new Document("_id", i).append("email", "user" + i + "@example.com").append("name", "User " + i)
                .append("n", i % 100).append("tags", List.of("a", "b"));
    }

    private static double insertMany(MongoCollection<Document> c, AtomicInteger next, int n) {
        long t0 = System.nanoTime();
        for (int done = 0; done < n; done += 1000) {
            List<Document> batch = new ArrayList<>(1000);
            for (int i = 0; i < 1000; i++) {
                batch.add(doc(next.getAndIncrement()));
            }
            c.insertMany(batch);
        }
        return n / ((System.nanoTime() - t0) / 1e9);
    }

    private static double insertOne(MongoCollection<Document> c, AtomicInteger next, int n) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            long t0 = System.nanoTime();
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                all.add(pool.submit(() -> {
                    for (int i = 0; i < n / 4; i++) {
                        c.insertOne(doc(next.getAndIncrement()));
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
            return n / ((System.nanoTime() - t0) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }
}
