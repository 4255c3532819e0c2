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
 * charged as the read was, and every writer of the partition — this face, another face through the core's document
 * API, a write to another document — makes the next read a miss that sees the write.
 */
class PointReplyCacheTest {
    @TempDir
    Path dir;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRepeatedPointReadIsAHitUntilAnyWriterReachesThePartition() throws Exception {
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

            // a write to another document of the partition is a miss too (the stamp is the partition's)
            BsonDocument cached = c.readPointReply(id, "db.docs", d -> d, new double[1]);
            assertSame(afterOtherFace, cached);
            c.insert(new BsonDocument("_id", new BsonInt32(2)).append("v", new BsonString("x")));
            BsonDocument afterNeighbour = c.readPointReply(id, "db.docs", d -> d, new double[1]);
            assertNotSame(cached, afterNeighbour);
            assertEquals(cached, afterNeighbour);

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
                    .stampBeforeRead(none.container(), none.partition()), "another server's writes bump no stamp here");
            assertEquals(-1, new PointReplyCache(0, false).stampBeforeRead(none.container(), none.partition()));
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
