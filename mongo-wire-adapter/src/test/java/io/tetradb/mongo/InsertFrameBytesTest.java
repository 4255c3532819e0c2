package io.tetradb.mongo;

import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.IdCodec;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * insert-frame (issue 17): documents inserted through the driver — an ordered insertMany of the benchmark's shape
 * into an indexed collection (core batches of 100), insertOne, and a sharded collection, whose key the core now
 * checks from the item's bytes — are stored byte for byte as the body path stored them: {@code StoredItems.finish}
 * of the TB1 encoding of the tree the face maps each document to, with the write's lsn and system properties; a
 * document whose shard key does not match is still refused.
 */
class InsertFrameBytesTest extends MongoServerTestBase {
    @Test
    void insertedDocumentsAreStoredAsTheBodyPathStoredThem() {
        MongoCollection<Document> c = fresh(client.getDatabase("frame"), "docs");
        c.createIndex(Indexes.ascending("owner"));
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            docs.add(new Document("_id", i).append("owner", i % 25).append("name", "n\u00e9" + i)
                    .append("at", new Date(1_700_000_000_000L + i)).append("oid", new ObjectId())
                    .append("tags", List.of("a", i)).append("sub", new Document("x", i * 1.5).append("y", null))
                    .append("notes", "lorem ipsum ".repeat(i % 90)));
        }
        c.insertMany(docs);
        Document one = new Document("_id", "one").append("v", 1L);
        c.insertOne(one);
        docs.add(one);
        for (Document d : docs) {
            assertStoredAsBody("frame", "docs", PartitionKeyValue.none(1), d);
        }
        assertEquals(251, c.countDocuments());
        assertEquals(10, c.countDocuments(Filters.eq("owner", 3)));

        client.getDatabase("frame").getCollection("sharded").drop();
        client.getDatabase("admin").runCommand(new Document("shardCollection", "frame.sharded")
                .append("key", new Document("region", "hashed")));
        MongoCollection<Document> s = client.getDatabase("frame").getCollection("sharded");
        List<Document> sharded = List.of(new Document("_id", 1).append("region", "eu").append("n", 1),
                new Document("_id", 2).append("region", "\u00e9u").append("n", 2));
        s.insertMany(sharded);
        for (Document d : sharded) {
            ContainerStore container = store.coreStore().container("frame", "sharded");
            PartitionKeyValue pk = container.definition().partitionKey().extract(DocumentMapper.toItem(bson(d)));
            assertStoredAsBody("frame", "sharded", pk, d);
        }
        assertEquals(1, s.countDocuments(Filters.eq("region", "\u00e9u")));
    }

    private static BsonDocument bson(Document d) {
        return d.toBsonDocument(BsonDocument.class, MongoClientSettings.getDefaultCodecRegistry());
    }

    /** The stored bytes are {@code StoredItems.finish} of the tree path's item's TB1 body with the stored trailer. */
    private static void assertStoredAsBody(String db, String coll, PartitionKeyValue pk, Document d) {
        ContainerStore container = store.coreStore().container(db, coll);
        BsonDocument doc = bson(d);
        byte[] stored = container.read(pk, IdCodec.encode(doc.get("_id")), null).stored();
        StoredItems.Trailer t = StoredItems.trailer(stored);
        byte[] expected = StoredItems.finish(BinaryItemWriter.encode(DocumentMapper.toItem(doc)),
                io.tetradb.core.store.ItemCodec.lsn(stored), t.rid().getBytes(StandardCharsets.UTF_8),
                t.selfPrefix().getBytes(StandardCharsets.UTF_8), t.etag(), t.ts());
        assertArrayEquals(expected, stored, "document " + d.get("_id"));
    }
}
