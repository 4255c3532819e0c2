package io.tetradb.mongo;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Updates;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Unique indexes keyed as MongoDB keys them (one key per array element, compound keys through arrays of documents,
 * sparse and partial indexes leaving documents out) and the E11000 error exactly as MongoDB writes it.
 */
class UniqueIndexTest extends MongoServerTestBase {

    private static MongoCollection<Document> fresh(String name) {
        MongoCollection<Document> c = client.getDatabase("uniq").getCollection(name);
        c.drop();
        return c;
    }

    /** The write error of an insert as the server sends it (the driver keeps keyPattern/keyValue to itself). */
    private static Document rawWriteError(String collection, Document doc) {
        Document reply = client.getDatabase("uniq").runCommand(new Document("insert", collection)
                .append("documents", List.of(doc)));
        return reply.getList("writeErrors", Document.class).get(0);
    }

    @Test
    void everyArrayElementIsAKey() {
        MongoCollection<Document> c = fresh("arr");
        c.createIndex(new Document("a", 1), new IndexOptions().unique(true));
        c.insertOne(new Document("_id", 1).append("a", List.of("x", "y")));
        MongoWriteException dup = assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", 2).append("a", "y")));
        assertEquals(11000, dup.getError().getCode());
        assertEquals("E11000 duplicate key error collection: uniq.arr index: a_1 dup key: { a: \"y\" }",
                dup.getError().getMessage());
        Document raw = rawWriteError("arr", new Document("_id", 5).append("a", "y"));
        assertEquals(new Document("a", 1), raw.get("keyPattern"));
        assertEquals(new Document("a", "y"), raw.get("keyValue"));
        // one document may repeat its own value; another array sharing an element may not exist
        assertDoesNotThrow(() -> c.insertOne(new Document("_id", 3).append("a", List.of("z", "z"))));
        assertEquals(11000, assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", 4).append("a", List.of("q", "x")))).getError().getCode());
        assertEquals(11000, assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", 3), Updates.push("a", "x"))).getError().getCode());
        assertEquals(2, c.countDocuments());
        // an existing duplicate through an array stops createIndexes
        MongoCollection<Document> d = fresh("arr2");
        d.insertOne(new Document("_id", 1).append("t", List.of(1, 2)));
        d.insertOne(new Document("_id", 2).append("t", 2.0));
        com.mongodb.MongoServerException existing = assertThrows(com.mongodb.MongoServerException.class,
                () -> d.createIndex(new Document("t", 1), new IndexOptions().unique(true)));
        assertEquals(11000, existing.getCode());
        assertTrue(existing.getMessage().contains(
                "E11000 duplicate key error collection: uniq.arr2 index: t_1 dup key: { t: 2.0 }"), existing.getMessage());
    }

    @Test
    void sparseAndPartialIndexesLeaveDocumentsOut() {
        MongoCollection<Document> c = fresh("sparse");
        c.createIndex(new Document("b", 1), new IndexOptions().unique(true).sparse(true));
        c.insertOne(new Document("_id", 1));
        c.insertOne(new Document("_id", 2)); // both miss b: a sparse index holds neither
        c.insertOne(new Document("_id", 3).append("b", null));
        MongoWriteException nullTwice = assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", 4).append("b", null)));
        assertEquals("E11000 duplicate key error collection: uniq.sparse index: b_1 dup key: { b: null }",
                nullTwice.getError().getMessage());
        // without sparse, a missing field is the key null
        MongoCollection<Document> plain = fresh("plain");
        plain.createIndex(new Document("b", 1), new IndexOptions().unique(true));
        plain.insertOne(new Document("_id", 1));
        assertEquals(11000, assertThrows(MongoWriteException.class,
                () -> plain.insertOne(new Document("_id", 2))).getError().getCode());

        MongoCollection<Document> p = fresh("partial");
        p.createIndex(new Document("code", 1), new IndexOptions().unique(true)
                .partialFilterExpression(new Document("active", true)));
        p.insertOne(new Document("_id", 1).append("code", "A").append("active", false));
        p.insertOne(new Document("_id", 2).append("code", "A").append("active", false));
        p.insertOne(new Document("_id", 3).append("code", "A").append("active", true));
        assertEquals(11000, assertThrows(MongoWriteException.class, () -> p.insertOne(
                new Document("_id", 4).append("code", "A").append("active", true))).getError().getCode());
        assertEquals(11000, assertThrows(MongoWriteException.class, () -> p.updateOne(Filters.eq("_id", 1),
                Updates.set("active", true))).getError().getCode());
        assertEquals(3, p.countDocuments());
    }

    @Test
    void compoundKeysOverArraysOfDocuments() {
        MongoCollection<Document> c = fresh("stock");
        c.createIndex(new Document("stock.size", 1).append("stock.color", 1), new IndexOptions().unique(true));
        c.insertOne(new Document("_id", 1).append("stock", List.of(new Document("size", "S").append("color", "red"),
                new Document("size", "M").append("color", "blue"))));
        // before: both read as { stock.size: null, stock.color: null } and collided
        assertDoesNotThrow(() -> c.insertOne(new Document("_id", 2).append("stock",
                List.of(new Document("size", "L").append("color", "red")))));
        MongoWriteException dup = assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("_id", 3)
                .append("stock", List.of(new Document("size", "M").append("color", "blue")))));
        assertEquals("E11000 duplicate key error collection: uniq.stock index: stock.size_1_stock.color_1 dup key: "
                + "{ stock.size: \"M\", stock.color: \"blue\" }", dup.getError().getMessage());
        assertEquals(new Document("stock.size", "M").append("stock.color", "blue"), rawWriteError("stock",
                new Document("_id", 4).append("stock", List.of(new Document("size", "M").append("color", "blue"))))
                .get("keyValue"));
        // two fields through two different arrays cannot be indexed together (MongoDB: 171)
        MongoCollection<Document> par = fresh("parallel");
        par.createIndex(new Document("a", 1).append("b", 1), new IndexOptions().unique(true));
        assertEquals(171, assertThrows(MongoWriteException.class, () -> par.insertOne(
                new Document("a", List.of(1, 2)).append("b", List.of(3, 4)))).getError().getCode());
        // any compound index, unique or not, refuses them, on insert, update and when it is created
        MongoCollection<Document> plain = fresh("parallelPlain");
        plain.createIndex(new Document("a", 1).append("b", 1));
        plain.insertOne(new Document("_id", 1).append("a", List.of(1, 2)).append("b", 3));
        MongoWriteException insert = assertThrows(MongoWriteException.class, () -> plain.insertOne(
                new Document("_id", 2).append("a", List.of(1, 2)).append("b", List.of(3, 4))));
        assertEquals(171, insert.getError().getCode());
        assertEquals("cannot index parallel arrays [b] [a]", insert.getError().getMessage());
        assertEquals(171, assertThrows(MongoWriteException.class, () -> plain.updateOne(Filters.eq("_id", 1),
                Updates.set("b", List.of(5, 6)))).getError().getCode());
        MongoCollection<Document> later = fresh("parallelLater");
        later.insertOne(new Document("x", List.of(1)).append("y", List.of(2)));
        assertEquals(171, assertThrows(com.mongodb.MongoServerException.class,
                () -> later.createIndex(new Document("x", 1).append("y", 1))).getCode());
    }

    @Test
    void duplicateIdTextIsMongoDbs() {
        MongoCollection<Document> c = fresh("ids");
        c.insertOne(new Document("_id", 1));
        assertEquals("E11000 duplicate key error collection: uniq.ids index: _id_ dup key: { _id: 1 }",
                assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("_id", 1)))
                        .getError().getMessage());
        c.insertOne(new Document("_id", "k"));
        assertEquals("E11000 duplicate key error collection: uniq.ids index: _id_ dup key: { _id: \"k\" }",
                assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("_id", "k")))
                        .getError().getMessage());
        ObjectId oid = new ObjectId();
        c.insertOne(new Document("_id", oid));
        MongoWriteException dup = assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", oid)));
        assertEquals("E11000 duplicate key error collection: uniq.ids index: _id_ dup key: { _id: ObjectId('"
                + oid.toHexString() + "') }", dup.getError().getMessage());
        Document raw = rawWriteError("ids", new Document("_id", oid));
        assertEquals(new Document("_id", 1), raw.get("keyPattern"));
        assertEquals(new Document("_id", oid), raw.get("keyValue"));
    }
}
