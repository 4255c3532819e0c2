package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A quick look at throughput through the Java driver (not a test, not a benchmark: the `bench` module owns those).
 * Run it as the module README says ("Measured").
 */
public final class ThroughputProbe {
    private ThroughputProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("mongo-probe");
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + server.address().getPort())) {
            MongoCollection<Document> c = client.getDatabase("probe").getCollection("p");
            String pad = "x".repeat(900);
            int n = 20_000;
            long t0 = System.nanoTime();
            for (int b = 0; b < n / 1000; b++) {
                List<Document> docs = new ArrayList<>();
                for (int i = 0; i < 1000; i++) {
                    int id = b * 1000 + i;
                    docs.add(new Document("_id", id).append("k", "key" + (id % 1000)).append("n", id).append("pad", pad));
                }
                c.insertMany(docs);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < 5000; i++) {
                c.find(Filters.eq("_id", (i * 7919) % n)).first();
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < 2000; i++) {
                c.find(Filters.eq("k", "key" + (i % 1000))).into(new ArrayList<>());
            }
            long t3 = System.nanoTime();
            for (int i = 0; i < 3000; i++) {
                c.updateOne(Filters.eq("_id", (i * 31) % n), Updates.inc("n", 1));
            }
            long t4 = System.nanoTime();
            System.out.printf("PROBE insert %.0f docs/s, point find %.0f/s, indexed find (20 results) %.0f/s, "
                            + "updateOne $inc %.0f/s%n", n / ((t1 - t0) / 1e9), 5000 / ((t2 - t1) / 1e9),
                    2000 / ((t3 - t2) / 1e9), 3000 / ((t4 - t3) / 1e9));
        }
    }
}
