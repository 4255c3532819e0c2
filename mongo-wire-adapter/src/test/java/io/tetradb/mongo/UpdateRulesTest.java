package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoQueryException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.MergeOptions;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Upserts seeded as MongoDB seeds them, and update statements refused with MongoDB's codes, as write errors. */
class UpdateRulesTest extends MongoServerTestBase {

    private static MongoCollection<Document> fresh(String name) {
        MongoCollection<Document> c = client.getDatabase("upd").getCollection(name);
        c.drop();
        return c;
    }

    private static final UpdateOptions UPSERT = new UpdateOptions().upsert(true);

    @Test
    void upsertsSeedFromAndOrAndEq() {
        MongoCollection<Document> c = fresh("seed");
        for (int run = 0; run < 2; run++) {
            c.updateOne(Filters.or(Filters.eq("_id", "k")), Updates.inc("n", 1), UPSERT);
        }
        assertEquals(List.of(new Document("_id", "k").append("n", 2)), c.find().into(new ArrayList<>()));

        c.updateOne(Filters.and(Filters.eq("a", 1), new Document("b", new Document("$eq", 2))),
                Updates.set("c", 3), UPSERT);
        Document seeded = c.find(Filters.eq("c", 3)).first();
        assertInstanceOf(ObjectId.class, seeded.get("_id"));
        assertEquals(1, seeded.get("a"));
        assertEquals(2, seeded.get("b"));

        c.updateOne(new Document("$and", List.of(new Document("$and", List.of(new Document("x.y", 1))),
                new Document("$or", List.of(new Document("z", "w"))))), Updates.set("tag", "nested"), UPSERT);
        Document nested = c.find(Filters.eq("tag", "nested")).first();
        assertEquals(new Document("y", 1), nested.get("x"));
        assertEquals("w", nested.get("z"));

        // the query's _id is the inserted document's: an update changing it is refused (66), one setting it when the
        // query has none is not
        assertEquals(66, assertThrows(MongoWriteException.class, () -> c.updateOne(Filters.eq("_id", "i1"),
                Updates.set("_id", "i2"), UPSERT)).getError().getCode());
        c.updateOne(Filters.eq("name", "i3"), Updates.set("_id", "i3"), UPSERT);
        assertEquals("i3", c.find(Filters.eq("_id", "i3")).first().get("name"));
        // a replacement keeps only the filter's _id
        c.replaceOne(Filters.and(Filters.eq("_id", "r"), Filters.eq("a", 1), Filters.eq("a.b", 1)),
                new Document("b", 2), new com.mongodb.client.model.ReplaceOptions().upsert(true));
        assertEquals(new Document("_id", "r").append("b", 2), c.find(Filters.eq("_id", "r")).first());
        // a multi-branch $or pins nothing; two equalities on one path cannot both be set (54)
        c.updateOne(Filters.or(Filters.eq("p", 1), Filters.eq("p", 2)), Updates.set("tag", "or2"), UPSERT);
        assertEquals(null, c.find(Filters.eq("tag", "or2")).first().get("p"));
        MongoWriteException twice = assertThrows(MongoWriteException.class, () -> c.updateOne(
                new Document("q", 1).append("q.r", 2), Updates.set("tag", "bad"), UPSERT));
        assertEquals(54, twice.getError().getCode());
        assertEquals("cannot infer query fields to set, both paths 'q' and 'q.r' are matched",
                twice.getError().getMessage());
    }

    @Test
    void arrayUpdatesWhenAnUpsertInserts() {
        MongoCollection<Document> c = fresh("arrays");
        c.updateOne(new Document("_id", 5).append("a", List.of(1, 2)), Updates.inc("a.$[]", 10), UPSERT);
        assertEquals(List.of(11, 12), c.find(Filters.eq("_id", 5)).first().getList("a", Integer.class));
        c.updateOne(new Document("_id", 6).append("a", List.of(1, 5)), Updates.set("a.$[big]", 0),
                new UpdateOptions().upsert(true).arrayFilters(List.of(Filters.gt("big", 2))));
        assertEquals(List.of(1, 0), c.find(Filters.eq("_id", 6)).first().getList("a", Integer.class));
        // MongoDB: the array must exist in the inserted document; $ has no query match to name
        MongoWriteException missing = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", 7), Updates.set("a.$[]", 1), UPSERT));
        assertEquals(2, missing.getError().getCode());
        assertEquals("The path 'a' must exist in the document in order to apply array updates.",
                missing.getError().getMessage());
        assertEquals(2, assertThrows(MongoWriteException.class, () -> c.updateOne(Filters.eq("_id", 8),
                Updates.set("a.$", 1), UPSERT)).getError().getCode());
        assertEquals(2, c.countDocuments());
    }

    private static int writeErrorCode(MongoCollection<Document> c, Bson update) {
        return writeError(c, update, new UpdateOptions()).getError().getCode();
    }

    private static MongoWriteException writeError(MongoCollection<Document> c, Bson update, UpdateOptions options) {
        // a filter that matches nothing: MongoDB refuses a bad update when it parses it, before any document
        return assertThrows(MongoWriteException.class, () -> c.updateOne(Filters.eq("_id", "none"), update, options));
    }

    @Test
    void badUpdatesAreRefusedAsWriteErrors() {
        MongoCollection<Document> c = fresh("bad");
        c.insertOne(new Document("_id", 1).append("a", List.of(1, 2)).append("n", 5));
        MongoWriteException unknown = writeError(c, new Document("$foo", new Document("a", 1)), new UpdateOptions());
        assertEquals(9, unknown.getError().getCode());
        assertTrue(unknown.getError().getMessage().startsWith("Unknown modifier: $foo"));
        MongoWriteException push = writeError(c, new Document("$push", new Document("a",
                new Document("$each", List.of(3)).append("$foo", 1))), new UpdateOptions());
        assertEquals(2, push.getError().getCode());
        assertEquals("Unrecognized clause in $push: $foo", push.getError().getMessage());
        assertEquals(2, writeErrorCode(c, new Document("$addToSet", new Document("a",
                new Document("$each", List.of(3)).append("$foo", 1)))));
        assertEquals(40, writeErrorCode(c, Updates.combine(Updates.set("a", 1), Updates.inc("a.b", 1))));
        assertEquals(40, writeErrorCode(c, Updates.combine(Updates.set("s", 1), Updates.setOnInsert("s", 2))));
        MongoWriteException trailingDot = writeError(c, Updates.set("a.", 1), new UpdateOptions());
        assertEquals(56, trailingDot.getError().getCode());
        assertEquals("The update path 'a.' contains an empty field name, which is not allowed.",
                trailingDot.getError().getMessage());
        assertEquals(56, writeErrorCode(c, Updates.inc("a..b", 1)));
        MongoWriteException unused = writeError(c, Updates.set("a.$[i]", 5),
                new UpdateOptions().arrayFilters(List.of(Filters.eq("i", 0), Filters.eq("j", 0))));
        assertEquals(9, unused.getError().getCode());
        assertEquals("The array filter for identifier 'j' was not used in the update { $set: { a.$[i]: 5 } }",
                unused.getError().getMessage());
        assertEquals(14, writeErrorCode(c, new Document("$inc", new Document("n", "x"))));
        // nothing changed, and the same update with a good spelling works
        assertEquals(new Document("_id", 1).append("a", List.of(1, 2)).append("n", 5), c.find().first());
        c.updateOne(Filters.eq("_id", 1), new Document("$bit", new Document("n", new Document("and", 4))));
        assertEquals(4, c.find().first().get("n"));
    }

    @Test
    void emptyTypeListAndMergeChangingIdAreRefused() {
        MongoCollection<Document> c = fresh("typeq");
        c.insertOne(new Document("_id", 1).append("a", 1));
        MongoQueryException type = assertThrows(MongoQueryException.class,
                () -> c.find(new Document("a", new Document("$type", List.of()))).first());
        assertEquals(9, type.getErrorCode());
        assertEquals("a must match at least one type", type.getErrorMessage());

        MongoCollection<Document> target = fresh("mergeTarget");
        target.insertOne(new Document("_id", 9).append("k", "a").append("v", 0));
        MongoCollection<Document> source = fresh("mergeSource");
        source.insertOne(new Document("_id", 1).append("k", "a").append("v", 1));
        MongoCommandException merge = assertThrows(MongoCommandException.class, () -> source.aggregate(List.of(
                Aggregates.merge("mergeTarget", new MergeOptions().uniqueIdentifier("k")
                        .whenMatched(MergeOptions.WhenMatched.REPLACE)))).toCollection());
        assertEquals(66, merge.getErrorCode());
        assertEquals(0, target.find().first().get("v"));
        // without _id the source documents merge into the target's
        source.aggregate(List.of(Aggregates.project(new Document("_id", 0)), Aggregates.merge("mergeTarget",
                new MergeOptions().uniqueIdentifier("k").whenMatched(MergeOptions.WhenMatched.REPLACE))))
                .toCollection();
        assertEquals(new Document("_id", 9).append("k", "a").append("v", 1), target.find().first());
    }

    @Test
    void writeCommandErrorsCarrySpecificCodes() {
        MongoCollection<Document> c = fresh("codes");
        c.insertOne(new Document("_id", 1).append("k", "a"));
        com.mongodb.client.MongoDatabase db = client.getDatabase("upd");
        // statements whose shape is wrong fail the whole command, as MongoDB's command parser refuses them
        MongoCommandException limit = assertThrows(MongoCommandException.class, () -> db.runCommand(new Document(
                "delete", "codes").append("deletes", List.of(new Document("q", new Document()).append("limit", 5)))));
        assertEquals(9, limit.getErrorCode());
        assertEquals("The limit field in delete objects must be 0 or 1. Got 5", limit.getErrorMessage());
        assertEquals(40414, assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("update",
                "codes").append("updates", List.of(new Document("q", new Document()))))).getErrorCode());
        MongoCommandException removeNew = assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("findAndModify", "codes").append("remove", true).append("new", true)));
        assertEquals(9, removeNew.getErrorCode());
        assertTrue(removeNew.getErrorMessage().startsWith("Cannot specify both new=true and remove=true"));
        // $merge: not last → 40601, an 'on' field missing from a result → 51132
        assertEquals(40601, assertThrows(MongoCommandException.class, () -> c.aggregate(List.of(
                Aggregates.merge("codesOut"), Aggregates.match(new Document()))).first()).getErrorCode());
        assertEquals(51132, assertThrows(MongoCommandException.class, () -> c.aggregate(List.of(
                Aggregates.project(new Document("_id", 0)), Aggregates.merge("codesOut",
                        new MergeOptions().uniqueIdentifier("missing")))).toCollection()).getErrorCode());
        // index specs: empty key → 67, no key → 9
        assertEquals(67, assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("createIndexes",
                "codes").append("indexes", List.of(new Document("key", new Document()).append("name", "e")))))
                .getErrorCode());
        assertEquals(9, assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("createIndexes",
                "codes").append("indexes", List.of(new Document("name", "nokey"))))).getErrorCode());
    }
}
