package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mongo-find: a point find's whole reply is kept with its cached document ({@code store/PointReplyCache}) and sent
 * again as it is while the partition's write stamp is unchanged. Through the Java driver: repeated point finds answer
 * what the general query path answers, each collection its own document, and finds racing updates of the same
 * {@code _id} only ever see committed versions, never one older than a version they already saw.
 */
class CachedPointReplyTest {
    @TempDir
    Path dir;

    private static MongoClient connect(MongoWireServer server) {
        return MongoClients.create("mongodb://" + server.address().getHostString() + ":" + server.address().getPort()
                + "/?directConnection=true");
    }

    @Test
    void repeatedPointFindsAnswerAsTheGeneralPathEachCollectionItsOwn() {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = connect(server)) {
            MongoCollection<Document> a = client.getDatabase("db").getCollection("a");
            MongoCollection<Document> b = client.getDatabase("db").getCollection("b");
            List<Object> ids = List.of(1, 7L, 2.5, "s", new ObjectId(), "~x");
            for (Object id : ids) {
                a.insertOne(new Document("_id", id).append("in", "a").append("nested", new Document("k", List.of(1,
                        "two", new Document("three", 3)))));
                b.insertOne(new Document("_id", id).append("in", "b"));
            }
            for (int round = 0; round < 3; round++) { // the first reads, then replies from the cache
                for (Object id : ids) {
                    Document general = a.find(Filters.eq("_id", id)).sort(Sorts.ascending("_id")).first();
                    assertEquals(general, a.find(Filters.eq("_id", id)).first(), "round " + round + ", _id " + id);
                    assertEquals("a", general.getString("in"));
                    assertEquals(b.find(Filters.eq("_id", id)).sort(Sorts.ascending("_id")).first(),
                            b.find(Filters.eq("_id", id)).first());
                    assertEquals("b", b.find(Filters.eq("_id", id)).first().getString("in"));
                    // the raw reply names its own namespace and leaves no cursor
                    Document raw = client.getDatabase("db").runCommand(new Document("find", "b")
                            .append("filter", new Document("_id", id)).append("limit", 1).append("singleBatch", true));
                    Document cursor = raw.get("cursor", Document.class);
                    assertEquals("db.b", cursor.getString("ns"));
                    assertEquals(0L, cursor.getLong("id"));
                }
            }
            assertEquals(null, a.find(Filters.eq("_id", 99)).first());
            a.updateOne(Filters.eq("_id", 1), Updates.set("in", "a2"));
            assertEquals("a2", a.find(Filters.eq("_id", 1)).first().getString("in"), "a write ends the cached reply");
            assertEquals("b", b.find(Filters.eq("_id", 1)).first().getString("in"));
        }
    }

    @Test
    void findsRacingUpdatesOfOneIdSeeOnlyCommittedVersionsInOrder() throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = connect(server)) {
            MongoCollection<Document> c = client.getDatabase("db").getCollection("race");
            c.insertOne(new Document("_id", 1).append("v", 0).append("w", 0));
            c.insertOne(new Document("_id", 2).append("v", -1));
            int updates = 300;
            AtomicBoolean writing = new AtomicBoolean(true);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Integer>> readers = new ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    readers.add(pool.submit(() -> {
                        int last = -1;
                        int reads = 0;
                        while (writing.get() || reads < 10) {
                            Document d = c.find(Filters.eq("_id", 1)).first();
                            int v = d.getInteger("v");
                            assertEquals(2 * v, d.getInteger("w"), "one committed version, both fields of it: " + d);
                            assertTrue(v >= last, "a find saw v " + v + " after v " + last);
                            last = v;
                            reads++;
                        }
                        return reads;
                    }));
                }
                Future<?> writer = pool.submit(() -> {
                    try {
                        for (int i = 1; i <= updates; i++) {
                            c.updateOne(Filters.eq("_id", 1), Updates.combine(Updates.set("v", i),
                                    Updates.set("w", 2 * i)));
                            if (i % 3 == 0) { // a neighbour's write: the partition's stamp moves too
                                c.updateOne(Filters.eq("_id", 2), Updates.set("v", i));
                            }
                        }
                    } finally {
                        writing.set(false);
                    }
                    return null;
                });
                writer.get();
                for (Future<Integer> r : readers) {
                    assertTrue(r.get() >= 10);
                }
            } finally {
                pool.shutdownNow();
            }
            for (int i = 0; i < 3; i++) {
                assertEquals(updates, c.find(Filters.eq("_id", 1)).first().getInteger("v"), "the last version");
            }
        }
    }
}
