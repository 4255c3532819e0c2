package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import io.tetradb.mongo.bson.IdCodec;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Point finds' cached documents ({@link PointReplyCache}) are what a read would give: a repeated read is a hit
 * charged as the read was, every writer of the document — this face, another face through the core's document
 * API — makes the next read a miss that sees the write, and writes of other documents leave it a hit.
 */
class PointReplyCacheTest {
    @TempDir
    Path dir;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRepeatedPointReadIsAHitUntilAWriterReachesTheDocument() throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            MongoCatalog catalog = new MongoCatalog(store.coreStore());
            MongoCollection c = catalog.createIfAbsent("db", "docs");
            c.insert(new BsonDocument("_id", new BsonInt32(1)).append("v", new BsonString("a")));
            String id = IdCodec.encode(new BsonInt32(1));

            double[] read = new double[1];
            BsonDocument first = c.readPointReply(id, "db.docs", d -> d, read);
            double[] hit = new double[1];
            BsonDocument again = c.readPointReply(id, "db.docs", d -> d, hit);
            assertSame(first, again, "the second read is answered from the cache");
            assertTrue(read[0] > 0);
            assertEquals(read[0], hit[0], "a hit is charged what the read was");

            // another face writes the item through the core's document API: the next read sees it
            CosmosContainer container = store.getDatabase("db").getContainer("docs");
            ObjectNode other = (ObjectNode) JSON.readTree("{\"id\": \"" + id + "\", \"_id\": 1, \"v\": \"b\"}");
            container.upsertItem(other, PartitionKey.NONE, null);
            BsonDocument afterOtherFace = c.readPointReply(id, "db.docs", d -> d, new double[1]);
            assertEquals("b", afterOtherFace.getString("v").getValue());

            // a write to another document of the partition leaves it a hit (the stamp is the document's)
            BsonDocument cached = c.readPointReply(id, "db.docs", d -> d, new double[1]);
            assertSame(afterOtherFace, cached);
            c.insert(new BsonDocument("_id", new BsonInt32(2)).append("v", new BsonString("x")));
            assertSame(cached, c.readPointReply(id, "db.docs", d -> d, new double[1]), "a neighbour's write");
            // ... and so does a multi-document transaction of the core that does not write it
            container.upsertItem((ObjectNode) JSON.readTree("{\"id\": \"n3\", \"v\": 3}"), PartitionKey.NONE, null);
            assertSame(cached, c.readPointReply(id, "db.docs", d -> d, new double[1]), "another face's neighbour");

            // this face's update and delete
            double[] charge = new double[1];
            StoredDoc stored = c.findById(new BsonInt32(1), charge);
            c.replace(stored, new BsonDocument("_id", new BsonInt32(1)).append("v", new BsonString("c")), charge);
            assertEquals("c", c.readPointReply(id, "db.docs", d -> d, new double[1]).getString("v").getValue());
            c.readPointReply(id, "db.docs", d -> d, new double[1]);
            c.delete(c.findById(new BsonInt32(1), charge), charge);
            assertNull(c.readPointReply(id, "db.docs", d -> d, new double[1]));
        }
    }

    /**
     * Exactness under concurrency, with the stamp per document: a reader never gets an older version of a document
     * than one whose write had returned before the read began, while writers update some documents and others stay
     * cached. A write's stamp bumped before its item is visible, or not bumped for its item, fails it.
     */
    @Test
    void concurrentWritesNeverLeaveAReaderAVersionOlderThanAnAcknowledgedOne() throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            MongoCatalog catalog = new MongoCatalog(store.coreStore());
            MongoCollection c = catalog.createIfAbsent("db", "race");
            CosmosContainer container = store.getDatabase("db").getContainer("race");
            int docs = 16; // the writers write the even ones; the odd ones stay as inserted
            String[] ids = new String[docs];
            java.util.concurrent.atomic.AtomicLongArray acknowledged = new java.util.concurrent.atomic.AtomicLongArray(docs);
            for (int i = 0; i < docs; i++) {
                c.insert(new BsonDocument("_id", new BsonInt32(i)).append("v", new org.bson.BsonInt64(0)));
                ids[i] = IdCodec.encode(new BsonInt32(i));
            }
            int writesPerWriter = 600;
            java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
            try {
                java.util.List<java.util.concurrent.Future<Long>> work = new java.util.ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    int writer = w;
                    work.add(pool.submit(() -> {
                        for (long n = 1; n <= writesPerWriter; n++) {
                            int i = 2 * (writer + 2 * (int) (n % 4)); // writer 0: 0, 4, 8, 12; writer 1: 2, 6, 10, 14
                            container.upsertItem((ObjectNode) JSON.readTree("{\"id\": \"" + ids[i] + "\", \"_id\": "
                                    + i + ", \"v\": " + n + "}"), PartitionKey.NONE, null);
                            acknowledged.set(i, n);
                        }
                        return 0L;
                    }));
                }
                for (int r = 0; r < 2; r++) {
                    work.add(pool.submit(() -> {
                        java.util.Random random = new java.util.Random();
                        long hits = 0;
                        BsonDocument[] last = new BsonDocument[docs];
                        while (writing.get()) {
                            int i = random.nextInt(docs);
                            long before = acknowledged.get(i);
                            BsonDocument read = c.readPointReply(ids[i], "db.race", d -> d, new double[1]);
                            long v = read.get("v").asNumber().longValue();
                            assertTrue(v >= before, "document " + i + ": read version " + v + " after " + before
                                    + " was acknowledged");
                            hits += read == last[i] ? 1 : 0;
                            last[i] = read;
                        }
                        return hits;
                    }));
                }
                work.get(0).get(60, java.util.concurrent.TimeUnit.SECONDS);
                work.get(1).get(60, java.util.concurrent.TimeUnit.SECONDS);
                writing.set(false);
                long hits = work.get(2).get(60, java.util.concurrent.TimeUnit.SECONDS)
                        + work.get(3).get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertTrue(hits > 0, "the documents nobody writes were answered from the cache meanwhile");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void expiringItemsASharedEngineAndAZeroBoundAreNeverCached() throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            MongoCatalog catalog = new MongoCatalog(store.coreStore());
            MongoCollection c = catalog.createIfAbsent("db", "expiring");
            c.insert(new BsonDocument("_id", new BsonInt32(1)).append("v", new BsonString("a")));
            String id = IdCodec.encode(new BsonInt32(1));
            assertSame(c.readPointReply(id, "db.docs", d -> d, new double[1]), c.readPointReply(id, "db.docs", d -> d, new double[1]));

            // items that expire can vanish with no write: a container with a TTL is read every time
            CosmosContainer container = store.getDatabase("db").getContainer("expiring");
            CosmosContainerProperties p = container.read().getProperties();
            container.replace(p.setDefaultTimeToLiveInSeconds(3600));
            MongoCollection ttl = catalog.collection("db", "expiring");
            assertNotSame(ttl.readPointReply(id, "db.docs", d -> d, new double[1]), ttl.readPointReply(id, "db.docs", d -> d, new double[1]));

            PartitionKeyFree none = new PartitionKeyFree(catalog);
            assertEquals(-1, new PointReplyCache(PointReplyCache.DEFAULT_BYTES, true)
                    .stampBeforeRead(none.container(), none.partition(), "x"), "another server's writes bump no stamp here");
            assertEquals(-1, new PointReplyCache(0, false).stampBeforeRead(none.container(), none.partition(), "x"));
        }
    }

    @Test
    void theDefaultBoundIsASixteenthOfTheHeapAndAtLeast32MiB() {
        long mib = 1L << 20;
        assertEquals(32 * mib, PointReplyCache.defaultBytes(512 * mib), "the server's default budget: 512 MiB heap");
        assertEquals(32 * mib, PointReplyCache.defaultBytes(128 * mib), "never below 32 MiB");
        assertEquals(384 * mib, PointReplyCache.defaultBytes(6L << 30), "-Xmx6g");
        assertEquals(32 * mib, PointReplyCache.defaultBytes(Long.MAX_VALUE), "a heap without limit");
    }

    /** A collection without expiry and its partition, to ask the cache's rules about. */
    private record PartitionKeyFree(io.tetradb.core.store.ContainerStore container,
                                    io.tetradb.core.partition.PartitionKeyValue partition) {
        PartitionKeyFree(MongoCatalog catalog) {
            this(catalog.createIfAbsent("db", "plain").container(), io.tetradb.core.partition.PartitionKeyValue.none(1));
        }
    }
}
