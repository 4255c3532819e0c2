package io.tetradb.mongo;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Inserts, finds, updates, deletes, cursors and errors through the Java driver. */
class CrudTest extends MongoServerTestBase {

    private MongoCollection<Document> fresh(String name) {
        MongoDatabase db = client.getDatabase("crud");
        db.getCollection(name).drop();
        return db.getCollection(name);
    }

    @Test
    void insertFindByIdAndGeneratedObjectId() {
        MongoCollection<Document> c = fresh("basic");
        c.insertOne(new Document("_id", "a").append("n", 1));
        Document generated = new Document("n", 2);
        c.insertOne(generated);
        assertTrue(generated.get("_id") instanceof ObjectId, "the driver adds an ObjectId");
        assertEquals(new Document("_id", "a").append("n", 1), c.find(Filters.eq("_id", "a")).first());
        assertEquals(2, c.find(Filters.eq("_id", generated.get("_id"))).first().get("n"));
        assertEquals(2, c.countDocuments());
        assertNull(c.find(Filters.eq("_id", "nope")).first());
    }

    @Test
    void everyBsonTypeRoundTripsExactly() {
        MongoCollection<BsonDocument> c = fresh("types").withDocumentClass(BsonDocument.class);
        BsonDocument doc = new BsonDocument("_id", new BsonObjectId(new ObjectId()))
                .append("int32", new BsonInt32(7))
                .append("int64small", new BsonInt64(7))
                .append("int64big", new BsonInt64(1L << 60))
                .append("double", new BsonDouble(7.0))
                .append("doubleFrac", new BsonDouble(-0.125))
                .append("nan", new BsonDouble(Double.NaN))
                .append("inf", new BsonDouble(Double.NEGATIVE_INFINITY))
                .append("decimalNaN", new BsonDecimal128(Decimal128.NaN))
                .append("decimalBig", new BsonDecimal128(Decimal128.parse("9.999999999999999999999999999999999E+6144")))
                .append("decimalsInArray", new org.bson.BsonArray(List.of(new BsonDecimal128(Decimal128.parse("0.10")))))
                .append("decimal", new BsonDecimal128(Decimal128.parse("1234.5600")))
                .append("string", new BsonString("h\u00e9llo / \\ ? # ~"))
                .append("date", new BsonDateTime(1736416800123L))
                .append("oldDate", new BsonDateTime(-62135596800000L - 1000))
                .append("binary", new BsonBinary(new byte[]{1, 2, 3}))
                .append("uuid", new BsonBinary(BsonBinarySubType.UUID_STANDARD, new byte[16]))
                .append("regex", new BsonRegularExpression("^a.*b$", "im"))
                .append("ts", new BsonTimestamp(1700000000, 5))
                .append("min", new BsonMinKey())
                .append("max", new BsonMaxKey())
                .append("null", BsonNull.VALUE)
                .append("nested", new BsonDocument("longs", new org.bson.BsonArray(List.of(new BsonInt64(1),
                        new BsonInt32(1), new BsonDocument("deep", new BsonInt64(-3))))))
                .append("id", new BsonString("a user field named id"))
                .append("_ts", new BsonString("a user field named _ts"))
                .append("~pk", new BsonString("a user field named ~pk"));
        c.insertOne(doc);
        BsonDocument back = c.find(Filters.eq("_id", doc.get("_id"))).first();
        assertEquals(doc, back);
        assertEquals(doc.get("int64small").getBsonType(), back.get("int64small").getBsonType());
        assertEquals(new BsonInt64(-3), back.getDocument("nested").getArray("longs").get(2).asDocument().get("deep"));
    }

    @Test
    void idsOfEveryTypeAreUniqueAsMongoDbHoldsThemEqual() {
        MongoCollection<Document> c = fresh("ids");
        c.insertOne(new Document("_id", 1));
        MongoWriteException dup = assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("_id", 1.0)));
        assertEquals(11000, dup.getError().getCode());
        Document raw = client.getDatabase("crud").runCommand(new Document("insert", "ids")
                .append("documents", List.of(new Document("_id", 1.0))));
        Document writeError = raw.getList("writeErrors", Document.class).get(0);
        assertEquals(0, writeError.get("index"));
        assertEquals(11000, writeError.get("code"));
        assertEquals(new Document("_id", 1), writeError.get("keyPattern"));
        assertEquals(new Document("_id", 1.0), writeError.get("keyValue"));
        c.insertOne(new Document("_id", "1"));
        c.insertOne(new Document("_id", new Document("a", 1)));
        c.insertOne(new Document("_id", new java.util.Date(5)));
        c.insertOne(new Document("_id", "with/slash?and#hash\\and~tilde"));
        assertEquals(5, c.countDocuments());
        assertEquals("with/slash?and#hash\\and~tilde",
                c.find(Filters.regex("_id", "^with/slash")).first().get("_id"));
        assertNotNull(c.find(Filters.eq("_id", new Document("a", 1))).first());
        assertNotNull(c.find(Filters.eq("_id", 1L)).first());
        MongoWriteException arrayId = assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", List.of(1, 2))));
        assertEquals(53, arrayId.getError().getCode());
    }

    @Test
    void bulkInsertReportsWriteErrorsWithIndexesOrderedAndUnordered() {
        MongoCollection<Document> c = fresh("bulk");
        List<Document> docs = List.of(new Document("_id", 1), new Document("_id", 1), new Document("_id", 2),
                new Document("_id", 2), new Document("_id", 3));
        MongoBulkWriteException ordered = assertThrows(MongoBulkWriteException.class, () -> c.insertMany(docs));
        assertEquals(1, ordered.getWriteErrors().size());
        assertEquals(1, ordered.getWriteErrors().get(0).getIndex());
        assertEquals(11000, ordered.getWriteErrors().get(0).getCode());
        assertEquals(1, c.countDocuments(), "ordered: stops at the first error");
        c.drop();
        MongoBulkWriteException unordered = assertThrows(MongoBulkWriteException.class,
                () -> c.insertMany(docs, new InsertManyOptions().ordered(false)));
        assertEquals(List.of(1, 3), unordered.getWriteErrors().stream().map(e -> e.getIndex()).toList());
        assertEquals(3, c.countDocuments(), "unordered: every valid document is inserted");
    }

    @Test
    void cursorsAcrossBatchesAndKillCursors() {
        MongoCollection<Document> c = fresh("cursor");
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            docs.add(new Document("_id", i).append("n", i % 10).append("pad", "x".repeat(100)));
        }
        c.insertMany(docs);
        List<Integer> ids = new ArrayList<>();
        for (Document d : c.find().batchSize(37)) {
            ids.add(d.getInteger("_id"));
        }
        assertEquals(1000, ids.size());
        assertEquals(1000, ids.stream().distinct().count());
        List<Integer> sorted = new ArrayList<>();
        c.find(Filters.eq("n", 3)).sort(Sorts.descending("_id")).batchSize(7).forEach(d -> sorted.add(d.getInteger("_id")));
        assertEquals(100, sorted.size());
        assertEquals(993, sorted.get(0));
        assertEquals(3, sorted.get(99));
        assertEquals(List.of(989, 979, 969), c.find(Filters.eq("n", 9)).sort(Sorts.descending("_id")).skip(1).limit(3)
                .map(d -> d.getInteger("_id")).into(new ArrayList<>()), "a bounded top-k keeps skip + limit");
        assertEquals(List.of(10, 11, 12), c.find().sort(Sorts.ascending("_id")).skip(10).limit(3)
                .map(d -> d.getInteger("_id")).into(new ArrayList<>()));
        try (MongoCursor<Document> cursor = c.find().batchSize(2).iterator()) {
            cursor.next(); // the rest is killed by close()
        }
        // a cursor is continued in the session it was opened in (mongod's 50736-50738): one explicit session
        com.mongodb.client.ClientSession session = client.startSession();
        Document defaults = client.getDatabase("crud").runCommand(session, new Document("find", "cursor"));
        assertEquals(101, defaults.get("cursor", Document.class).getList("firstBatch", Document.class).size(),
                "MongoDB's default first batch");
        Document more = client.getDatabase("crud").runCommand(session, new Document("getMore",
                defaults.get("cursor", Document.class).getLong("id")).append("collection", "cursor"));
        assertEquals(899, more.get("cursor", Document.class).getList("nextBatch", Document.class).size(),
                "a getMore without batchSize returns the rest (up to 16 MB)");
        assertEquals(0L, more.get("cursor", Document.class).getLong("id"));
        Document reply = client.getDatabase("crud").runCommand(new Document("find", "cursor").append("batchSize", 2));
        long id = reply.get("cursor", Document.class).getLong("id");
        assertTrue(id != 0);
        Document killed = client.getDatabase("crud").runCommand(new Document("killCursors", "cursor")
                .append("cursors", List.of(id)));
        assertEquals(List.of(id), killed.getList("cursorsKilled", Long.class));
        MongoCommandException gone = assertThrows(MongoCommandException.class, () -> client.getDatabase("crud")
                .runCommand(new Document("getMore", id).append("collection", "cursor")));
        assertEquals(43, gone.getErrorCode());
        session.close();
    }

    @Test
    void projectionIncludesExcludesAndSlices() {
        MongoCollection<Document> c = fresh("proj");
        c.insertOne(Document.parse("{_id: 1, a: 1, b: {c: 2, d: 3}, arr: [1, 2, 3, 4], docs: [{x: 1, y: 1}, {x: 2, y: 2}]}"));
        assertEquals(Document.parse("{_id: 1, a: 1, b: {c: 2}}"),
                c.find().projection(Projections.include("a", "b.c")).first());
        assertEquals(Document.parse("{a: 1}"), c.find().projection(Projections.fields(Projections.include("a"),
                Projections.excludeId())).first());
        assertEquals(Document.parse("{_id: 1, a: 1, b: {d: 3}}"),
                c.find().projection(Projections.exclude("arr", "docs", "b.c")).first());
        assertEquals(List.of(3, 4), c.find().projection(Projections.slice("arr", -2)).first().getList("arr", Integer.class));
        assertEquals(Document.parse("{_id: 1, docs: [{x: 2, y: 2}]}"),
                c.find().projection(Projections.elemMatch("docs", Filters.eq("x", 2))).first());
    }

    @Test
    void updateOperators() {
        MongoCollection<Document> c = fresh("upd");
        c.insertOne(Document.parse("{_id: 1, n: 5, f: 1.5, s: 'x', arr: [3, 1, 2], tags: ['a'], old: 1, "
                + "nested: {k: 1}, small: 10, big: 10}"));
        UpdateResult r = c.updateOne(Filters.eq("_id", 1), Updates.combine(
                Updates.set("s", "y"), Updates.set("nested.deep.z", true), Updates.unset("old"),
                Updates.inc("n", 2), Updates.mul("f", 2), Updates.min("small", 3), Updates.max("big", 20),
                Updates.rename("nested.k", "nested.kk"), Updates.currentDate("touched"),
                Updates.pushEach("arr", List.of(9, 0), new com.mongodb.client.model.PushOptions().sort(1).slice(4)),
                Updates.addEachToSet("tags", List.of("a", "b"))));
        assertEquals(1, r.getMatchedCount());
        assertEquals(1, r.getModifiedCount());
        Document d = c.find().first();
        assertEquals("y", d.get("s"));
        assertEquals(true, d.get("nested", Document.class).get("deep", Document.class).get("z"));
        assertFalse(d.containsKey("old"));
        assertEquals(7, d.get("n"));
        assertEquals(3.0, d.get("f"));
        assertEquals(3, d.get("small"));
        assertEquals(20, d.get("big"));
        assertEquals(1, d.get("nested", Document.class).get("kk"));
        assertTrue(d.get("touched") instanceof java.util.Date);
        assertEquals(List.of(0, 1, 2, 3), d.getList("arr", Integer.class));
        assertEquals(List.of("a", "b"), d.getList("tags", String.class));
        c.updateOne(Filters.eq("_id", 1), Updates.combine(Updates.popFirst("arr"), Updates.pull("tags", "a")));
        c.updateOne(Filters.eq("_id", 1), Updates.pullAll("arr", List.of(1, 2)));
        d = c.find().first();
        assertEquals(List.of(3), d.getList("arr", Integer.class));
        assertEquals(List.of("b"), d.getList("tags", String.class));
        c.updateOne(Filters.eq("_id", 1), Updates.pushEach("tags", List.of("first"),
                new com.mongodb.client.model.PushOptions().position(0)));
        assertEquals(List.of("first", "b"), c.find().first().getList("tags", String.class));
        // a no-op update matches but modifies nothing
        UpdateResult same = c.updateOne(Filters.eq("_id", 1), Updates.set("s", "y"));
        assertEquals(1, same.getMatchedCount());
        assertEquals(0, same.getModifiedCount());
    }

    @Test
    void positionalUpdateOperators() {
        MongoCollection<Document> c = fresh("positional");
        c.insertOne(Document.parse("{_id: 1, grades: [{g: 80, n: 0}, {g: 95, n: 0}, {g: 70, n: 0}], tags: ['a', 'b']}"));
        c.updateOne(Filters.eq("grades.g", 95), Updates.set("grades.$.n", 1));
        c.updateOne(Filters.eq("_id", 1), Updates.inc("grades.$[].n", 10));
        c.updateOne(Filters.eq("_id", 1), Updates.set("grades.$[low].low", true),
                new UpdateOptions().arrayFilters(List.of(Filters.lt("low.g", 85))));
        c.updateOne(Filters.eq("tags", "b"), Updates.set("tags.$", "B"));
        Document d = c.find().first();
        assertEquals(Document.parse("{_id: 1, grades: [{g: 80, n: 10, low: true}, {g: 95, n: 11}, "
                + "{g: 70, n: 10, low: true}], tags: ['a', 'B']}"), d);
        MongoWriteException noFilter = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", 1), Updates.set("grades.$[nope].x", 1)));
        assertEquals(2, noFilter.getError().getCode());
    }

    @Test
    void upsertMultiReplaceAndSetOnInsert() {
        MongoCollection<Document> c = fresh("upsert");
        UpdateResult up = c.updateOne(Filters.eq("name", "ann"), Updates.combine(Updates.set("age", 30),
                Updates.setOnInsert("created", true)), new UpdateOptions().upsert(true));
        assertNotNull(up.getUpsertedId());
        Document ann = c.find(Filters.eq("name", "ann")).first();
        assertEquals(30, ann.get("age"));
        assertEquals(true, ann.get("created"));
        c.updateOne(Filters.eq("name", "ann"), Updates.combine(Updates.set("age", 31),
                Updates.setOnInsert("created", false)), new UpdateOptions().upsert(true));
        assertEquals(true, c.find().first().get("created"), "$setOnInsert only on insert");
        c.insertMany(List.of(new Document("g", 1), new Document("g", 1), new Document("g", 2)));
        UpdateResult many = c.updateMany(Filters.eq("g", 1), Updates.inc("hits", 1));
        assertEquals(2, many.getModifiedCount());
        UpdateResult replaced = c.replaceOne(Filters.eq("g", 2), new Document("g", 3).append("replaced", true));
        assertEquals(1, replaced.getModifiedCount());
        assertEquals(true, c.find(Filters.eq("g", 3)).first().get("replaced"));
        c.replaceOne(Filters.eq("_id", "new"), new Document("v", 1), new com.mongodb.client.model.ReplaceOptions().upsert(true));
        assertEquals(1, c.find(Filters.eq("_id", "new")).first().get("v"));
        MongoWriteException immutable = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", "new"), Updates.set("_id", "other")));
        assertEquals(66, immutable.getError().getCode());
        c.updateOne(Filters.eq("_id", "new"), Updates.set("t", "x"));
        MongoWriteException typeMismatch = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", "new"), Updates.inc("t", 1)));
        assertEquals(14, typeMismatch.getError().getCode());
    }

    @Test
    void updateMultiDoesNotVisitMovedDocumentsTwice() {
        MongoCollection<Document> c = fresh("halloween");
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            docs.add(new Document("_id", i).append("n", i));
        }
        c.insertMany(docs);
        UpdateResult r = c.updateMany(Filters.gte("n", 0), Updates.inc("n", 1000));
        assertEquals(300, r.getModifiedCount());
        assertEquals(300, c.countDocuments(Filters.gte("n", 1000)));
        assertEquals(0, c.countDocuments(Filters.gte("n", 2000)));
    }

    @Test
    void deleteFindAndModifyCountDistinct() {
        MongoCollection<Document> c = fresh("misc");
        c.insertMany(List.of(Document.parse("{_id: 1, k: 'a', tags: ['x', 'y']}"),
                Document.parse("{_id: 2, k: 'b', tags: ['y', 'z']}"), Document.parse("{_id: 3, k: 'a', n: 1}")));
        assertEquals(List.of("x", "y", "z"), c.distinct("tags", String.class).into(new ArrayList<>()));
        assertEquals(2, c.countDocuments(Filters.eq("k", "a")));
        Document before = c.findOneAndUpdate(Filters.eq("k", "a"), Updates.inc("n", 10),
                new FindOneAndUpdateOptions().sort(Sorts.descending("_id")));
        assertEquals(3, before.get("_id"));
        assertEquals(1, before.get("n"));
        Document after = c.findOneAndUpdate(Filters.eq("_id", 3), Updates.inc("n", 1),
                new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
        assertEquals(12, after.get("n"));
        Document upserted = c.findOneAndUpdate(Filters.eq("_id", 9), Updates.set("v", 1),
                new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
        assertEquals(Document.parse("{_id: 9, v: 1}"), upserted);
        Document removed = c.findOneAndDelete(Filters.eq("_id", 9));
        assertEquals(9, removed.get("_id"));
        DeleteResult one = c.deleteOne(Filters.eq("k", "a"));
        assertEquals(1, one.getDeletedCount());
        assertEquals(0, c.countDocuments(Filters.eq("_id", 1)), "the first in natural (_id) order");
        DeleteResult many = c.deleteMany(Filters.exists("tags"));
        assertEquals(1, many.getDeletedCount());
        assertEquals(List.of(3), c.find().map(d -> d.getInteger("_id")).into(new ArrayList<>()));
    }

    @Test
    void uniqueIndexesAreEnforced() {
        MongoCollection<Document> c = fresh("uniq");
        c.insertOne(new Document("email", "a@x"));
        c.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        MongoWriteException dup = assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("email", "a@x")));
        assertEquals(11000, dup.getError().getCode());
        Document raw = client.getDatabase("crud").runCommand(new Document("insert", "uniq")
                .append("documents", List.of(new Document("email", "a@x"))));
        Document writeError = raw.getList("writeErrors", Document.class).get(0);
        assertEquals(new Document("email", 1), writeError.get("keyPattern"));
        assertEquals(new Document("email", "a@x"), writeError.get("keyValue"));
        c.insertOne(new Document("email", "b@x"));
        MongoWriteException byUpdate = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("email", "b@x"), Updates.set("email", "a@x")));
        assertEquals(11000, byUpdate.getError().getCode());
        List<String> names = c.listIndexes().map(d -> d.getString("name")).into(new ArrayList<>());
        assertEquals(List.of("_id_", "email_1"), names);
        c.dropIndex("email_1");
        c.insertOne(new Document("email", "a@x"));
        assertEquals(3, c.countDocuments());
        MongoCommandException missing = assertThrows(MongoCommandException.class, () -> c.dropIndex("nope_1"));
        assertEquals(27, missing.getErrorCode());
    }

    /** Writes see index changes at once: a dropped collection or database takes its unique indexes along. */
    @Test
    void uniqueIndexesGoWithTheirCollectionAndDatabase() {
        MongoCollection<Document> c = fresh("uniqDrop");
        c.createIndex(new Document("k", 1), new IndexOptions().unique(true));
        c.insertOne(new Document("k", 1));
        assertEquals(11000, assertThrows(MongoWriteException.class, () -> c.insertOne(new Document("k", 1)))
                .getError().getCode());
        c.drop();
        c.insertOne(new Document("k", 1));
        c.insertOne(new Document("k", 1));
        assertEquals(2, c.countDocuments(), "the recreated collection has no unique index");

        MongoDatabase db = client.getDatabase("uniqDb");
        db.drop();
        MongoCollection<Document> d = db.getCollection("u");
        d.createIndex(new Document("k", 1), new IndexOptions().unique(true));
        d.insertOne(new Document("k", 1));
        assertThrows(MongoWriteException.class, () -> d.insertOne(new Document("k", 1)));
        db.drop();
        d.insertOne(new Document("k", 1));
        d.insertOne(new Document("k", 1));
        assertEquals(2, d.countDocuments());
        assertEquals(List.of("_id_"), d.listIndexes().map(x -> x.getString("name")).into(new ArrayList<>()));
        db.drop();
    }

    @Test
    void databasesAndCollections() {
        MongoDatabase db = client.getDatabase("catalog");
        db.drop();
        db.createCollection("one");
        db.getCollection("two").insertOne(new Document("x", 1));
        assertEquals(List.of("one", "two"), db.listCollectionNames().into(new ArrayList<>()).stream().sorted().toList());
        MongoCommandException exists = assertThrows(MongoCommandException.class, () -> db.createCollection("one"));
        assertEquals(48, exists.getErrorCode());
        assertTrue(client.listDatabaseNames().into(new ArrayList<>()).contains("catalog"));
        List<Document> filtered = db.listCollections().filter(Filters.eq("name", "two")).into(new ArrayList<>());
        assertEquals(1, filtered.size());
        db.getCollection("one").drop();
        assertEquals(List.of("two"), db.listCollectionNames().into(new ArrayList<>()));
        db.drop();
        assertFalse(client.listDatabaseNames().into(new ArrayList<>()).contains("catalog"));
        MongoCommandException badName = assertThrows(MongoCommandException.class,
                () -> client.getDatabase("catalog").createCollection("a$b"));
        assertEquals(73, badName.getErrorCode());
    }

    @Test
    void renameCollectionMovesDocumentsAndIndexes() {
        MongoCollection<Document> a = fresh("renameA");
        fresh("renameB");
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            docs.add(new Document("_id", i).append("email", "u" + i));
        }
        a.insertMany(docs);
        a.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        a.renameCollection(new com.mongodb.MongoNamespace("crud", "renameB"));
        MongoCollection<Document> b = client.getDatabase("crud").getCollection("renameB");
        assertEquals(250, b.countDocuments());
        assertEquals(0, a.countDocuments());
        assertFalse(client.getDatabase("crud").listCollectionNames().into(new ArrayList<>()).contains("renameA"));
        MongoWriteException dup = assertThrows(MongoWriteException.class, () -> b.insertOne(new Document("email", "u7")));
        assertEquals(11000, dup.getError().getCode(), "the unique index moved along");
        MongoCommandException missing = assertThrows(MongoCommandException.class,
                () -> a.renameCollection(new com.mongodb.MongoNamespace("crud", "renameC")));
        assertEquals(26, missing.getErrorCode());
    }

    @Test
    void badCommandArgumentsGetTypedErrors() {
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> client.getDatabase("crud")
                .runCommand(new Document("find", "x").append("filter", "not a document")));
        assertEquals(14, e.getErrorCode());
        MongoCommandException op = assertThrows(MongoCommandException.class, () -> client.getDatabase("crud")
                .runCommand(new Document("find", "x").append("filter", new Document("a", new Document("$bogus", 1)))));
        assertEquals(2, op.getErrorCode());
        MongoCommandException collation = assertThrows(MongoCommandException.class, () -> client.getDatabase("crud")
                .getCollection("x").find().collation(com.mongodb.client.model.Collation.builder().locale("en")
                        .numericOrdering(true).build()).first());
        assertEquals(238, collation.getErrorCode(), "refused rather than answered with another comparison");
        client.getDatabase("crud").runCommand(new Document("find", "x"));
        Document stats = client.getDatabase("crud").runCommand(new Document("getLastRequestStatistics", 1));
        assertEquals("find", stats.getString("CommandName"));
    }
}
