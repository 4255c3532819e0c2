package io.tetradb.mongo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoWriteException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.IdCodec;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * encoded-writes (issue 17): single-document inserts through the driver (insertOne, an upsert's insert, a sharded
 * collection's inserts) store the item straight from the wire bytes, with no document tree, and store what the tree
 * path stores; what the tree path treats specially (DBRefs, tagged types, out-of-range dates) still goes through it.
 */
class EncodedInsertTest extends MongoServerTestBase {
    private static final String DOC = "{_id: 7, name: 'Zoë', n: NumberLong(5), d: {$date: '2026-01-02T03:04:05.006Z'},"
            + " oid: {$oid: '64b7f0c2a1b2c3d4e5f60718'}, tags: ['a', 'b', 3], nested: {x: 1.5, y: null, z: true},"
            + " id: 'user id', _ts: 'mine', dec: NumberDecimal('1.10'), bin: {$binary: {base64: 'AQID', subType: '00'}}}";

    @Test
    void insertOneBuildsNoTreeAndStoresWhatTheTreePathStores() {
        MongoCollection<Document> c = fresh(client.getDatabase("enc"), "one");
        Document doc = Document.parse(DOC);
        long trees = DocumentMapper.treeItems();
        c.insertOne(doc);
        assertEquals(0, DocumentMapper.treeItems() - trees, "insertOne built a document tree");
        assertEquals(doc, c.find(Filters.eq("_id", 7)).first());
        assertStoredAsTree("enc", "one", PartitionKeyValue.none(1), BsonDocument.parse(DOC));

        MongoWriteException dup = assertThrows(MongoWriteException.class, () -> c.insertOne(Document.parse(DOC)));
        assertEquals(11000, dup.getError().getCode());
        assertTrue(dup.getError().getMessage().contains("dup key: { _id: 7 }"), dup.getError().getMessage());
    }

    @Test
    void aBatchOfOneAndAShardedCollectionBuildNoTree() {
        MongoCollection<Document> c = fresh(client.getDatabase("enc"), "last");
        long trees = DocumentMapper.treeItems();
        c.insertMany(List.of(new Document("_id", 1).append("v", "x")));
        assertEquals(0, DocumentMapper.treeItems() - trees, "a one-document insertMany built a tree");
        // the benchmark's shape (bench/run mongo: ordered insertMany of 1 KB documents): core batches of 100, no tree
        List<Document> many = new java.util.ArrayList<>();
        for (int i = 2; i < 252; i++) {
            many.add(new Document("_id", i).append("owner", i % 25).append("notes", "lorem ipsum ".repeat(80)));
        }
        trees = DocumentMapper.treeItems();
        c.insertMany(many);
        assertEquals(0, DocumentMapper.treeItems() - trees, "insertMany built a tree");
        assertEquals(251, c.countDocuments());

        client.getDatabase("enc").getCollection("sharded").drop();
        client.getDatabase("admin").runCommand(new Document("shardCollection", "enc.sharded")
                .append("key", new Document("region", "hashed")));
        MongoCollection<Document> s = client.getDatabase("enc").getCollection("sharded");
        trees = DocumentMapper.treeItems();
        s.insertOne(new Document("_id", 1).append("region", "eu").append("n", 1));
        s.insertMany(List.of(new Document("_id", 2).append("region", "us"), new Document("_id", 1).append("region", "us")));
        assertEquals(0, DocumentMapper.treeItems() - trees, "a sharded collection's inserts built a tree");
        assertEquals(2, s.countDocuments(Filters.eq("region", "us")));
        assertEquals(1, s.countDocuments(Filters.and(Filters.eq("region", "eu"), Filters.eq("_id", 1))));
        MongoWriteException noKey = assertThrows(MongoWriteException.class, () -> s.insertOne(new Document("_id", 9)));
        assertEquals(61, noKey.getError().getCode());
        MongoWriteException dup = assertThrows(MongoWriteException.class,
                () -> s.insertOne(new Document("_id", 2).append("region", "us")));
        assertEquals(11000, dup.getError().getCode());
    }

    @Test
    void whatTheTreePathTreatsSpeciallyStillGoesThroughIt() {
        MongoCollection<Document> c = fresh(client.getDatabase("enc"), "special");
        Document dbRef = Document.parse("{_id: 1, ref: {$ref: 'other', $id: 5}}");
        Document farDate = new Document("_id", 2).append("d", new Date(Long.MAX_VALUE));
        Document undefinedValue = Document.parse("{_id: 3, u: {$undefined: true}}");
        for (Document d : List.of(dbRef, farDate, undefinedValue)) {
            long trees = DocumentMapper.treeItems();
            c.insertOne(d);
            assertTrue(DocumentMapper.treeItems() - trees > 0, "expected the tree path for " + d.toJson());
        }
        assertEquals(BsonDocument.parse("{_id: 1, ref: {$ref: 'other', $id: 5}}"),
                c.withDocumentClass(BsonDocument.class).find(Filters.eq("_id", 1)).first());
        assertEquals(farDate, c.find(Filters.eq("_id", 2)).first());
        assertEquals(3, c.countDocuments());
        MongoWriteException dollar = assertThrows(MongoWriteException.class,
                () -> c.insertOne(Document.parse("{_id: 4, a: {$bad: 1}}")));
        assertEquals(52, dollar.getError().getCode());
    }

    @Test
    void insertsInATransactionStillCommitTheSameDocuments() {
        MongoCollection<Document> c = fresh(client.getDatabase("enc"), "txn");
        long trees = DocumentMapper.treeItems();
        try (ClientSession s = client.startSession()) {
            s.withTransaction(() -> {
                c.insertOne(s, Document.parse(DOC));
                c.insertOne(s, new Document("_id", 8).append("v", 1));
                return null;
            });
        }
        assertEquals(0, DocumentMapper.treeItems() - trees, "a transaction's inserts built a tree");
        assertEquals(Document.parse(DOC), c.find(Filters.eq("_id", 7)).first());
        // an inserted document updated in the same transaction: its reads and the commit see the update
        try (ClientSession s = client.startSession()) {
            s.withTransaction(() -> {
                c.insertOne(s, new Document("_id", 9).append("v", 1).append("k", "x"));
                c.updateOne(s, Filters.eq("_id", 9), com.mongodb.client.model.Updates.inc("v", 10));
                assertEquals(11, c.find(s, Filters.eq("_id", 9)).first().getInteger("v"));
                assertEquals(1, c.countDocuments(s, Filters.eq("k", "x")));
                return null;
            });
        }
        assertEquals(new Document("_id", 9).append("v", 11).append("k", "x"), c.find(Filters.eq("_id", 9)).first());
        assertStoredAsTree("enc", "txn", PartitionKeyValue.none(1), BsonDocument.parse(DOC));
    }

    /**
     * mongo-cmd: the encoded item tells the core it holds no system property (the core no longer searches for them),
     * which holds because the face escapes those names: documents naming every one of them, batched and alone, keep
     * them as their own fields and store what the tree path stores.
     */
    @Test
    void documentsNamingTheCoresSystemPropertiesKeepThemThroughTheEncodedPath() {
        MongoCollection<Document> c = fresh(client.getDatabase("enc"), "system");
        List<Document> docs = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            docs.add(new Document("_id", i).append("_rid", "r" + i).append("_self", i).append("_etag", "e")
                    .append("_attachments", List.of(i)).append("_ts", (long) i).append("id", "mine")
                    .append("_types", "t").append("n", i));
        }
        long trees = DocumentMapper.treeItems();
        c.insertMany(docs.subList(0, 4)); // one core batch
        c.insertOne(docs.get(4));
        assertEquals(0, DocumentMapper.treeItems() - trees, "the inserts built a tree");
        for (Document d : docs) {
            assertEquals(d, c.find(Filters.eq("_id", d.getInteger("_id"))).first());
            BsonDocument bson = d.toBsonDocument(BsonDocument.class,
                    com.mongodb.MongoClientSettings.getDefaultCodecRegistry()); // _ts stays an Int64
            assertStoredAsTree("enc", "system", PartitionKeyValue.none(1), bson);
            byte[] body = DocumentMapper.createOperation(new org.bson.RawBsonDocument(bson,
                    new org.bson.codecs.BsonDocumentCodec()), store.coreStore().container("enc", "system").codec())
                    .encoded().body();
            for (String system : List.of("_rid", "_self", "_etag", "_attachments", "_ts")) {
                assertTrue(io.tetradb.core.item.BinaryItemReader.find(body, 0, system) < 0, system);
            }
        }
    }

    /** The stored item, without the core's system properties, is the item the tree path maps {@code doc} to. */
    private static void assertStoredAsTree(String db, String coll, PartitionKeyValue pk, BsonDocument doc) {
        ContainerStore container = store.coreStore().container(db, coll);
        BsonValue id = doc.get("_id");
        ObjectNode stored = container.codec().parse(container.read(pk, IdCodec.encode(id), null).stored());
        for (String system : List.of("_rid", "_self", "_etag", "_attachments", "_ts")) {
            stored.remove(system);
        }
        assertEquals(DocumentMapper.toItem(doc), stored);
    }

}
