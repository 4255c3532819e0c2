package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every query operator family with MongoDB's matching rules (arrays, dotted paths, nulls, type bracketing), and the
 * access paths the core's planner picks for them.
 */
class QueryOperatorTest extends MongoServerTestBase {
    static MongoCollection<Document> c;
    static final ObjectId OID = new ObjectId();

    @BeforeAll
    static void load() {
        c = client.getDatabase("ops").getCollection("docs");
        c.drop();
        c.insertMany(List.of(
                Document.parse("{_id: 1, n: 1, s: 'apple', tags: ['red', 'fruit'], a: {b: 1}}"),
                Document.parse("{_id: 2, n: 2.5, s: 'banana', tags: ['yellow', 'fruit'], a: [{b: 2}, {b: 3}]}"),
                Document.parse("{_id: 3, n: 3, s: 'Cherry', tags: [], a: {b: [4, 5]}, nul: null}"),
                Document.parse("{_id: 4, n: '4', s: 'date', a: [{b: [6]}, {c: 1}], scores: [80, 95]}"),
                Document.parse("{_id: 5, s: 'elder', arr: [[1, 2], [3]], scores: [50, 60], "
                        + "items: [{k: 'x', q: 5}, {k: 'y', q: 1}]}"),
                new Document("_id", 6).append("ref", OID).append("when", new Date(1000)).append("n", 6L)));
        // as in MongoDB, only _id and the fields of the collection's indexes are indexed
        for (String field : List.of("s", "a.b", "n", "tags")) {
            c.createIndex(new Document(field, 1));
        }
    }

    private static List<Integer> ids(Bson filter) {
        List<Integer> out = new ArrayList<>();
        c.find(filter).forEach(d -> out.add(d.getInteger("_id")));
        out.sort(null);
        return out;
    }

    @Test
    void comparisonWithTypeBracketing() {
        assertEquals(List.of(1), ids(Filters.eq("n", 1)));
        assertEquals(List.of(1), ids(Filters.eq("n", 1.0)));
        assertEquals(List.of(6), ids(Filters.eq("n", 6)), "an int matches the long 6");
        assertEquals(List.of(2, 3, 6), ids(Filters.gt("n", 2)), "the string '4' is not a number");
        assertEquals(List.of(1, 2, 3), ids(Filters.lte("n", 3)));
        assertEquals(List.of(4), ids(Filters.gte("n", "")), "strings only compare with strings");
        assertEquals(List.of(2, 3, 4, 5, 6), ids(Filters.ne("n", 1)));
        assertEquals(List.of(1, 3), ids(Filters.in("n", 1, 3)));
        assertEquals(List.of(2, 4, 5, 6), ids(Filters.nin("n", 1, 3)));
        assertEquals(List.of(6), ids(Filters.eq("ref", OID)));
        assertEquals(List.of(6), ids(Filters.lt("when", new Date(2000))));
    }

    @Test
    void logicalOperators() {
        assertEquals(List.of(1, 3), ids(Filters.or(Filters.eq("n", 1), Filters.eq("n", 3))));
        assertEquals(List.of(3), ids(Filters.and(Filters.gt("n", 1), Filters.lt("n", 4), Filters.eq("s", "Cherry"))));
        assertEquals(List.of(4, 5, 6), ids(Filters.nor(Filters.eq("tags", "fruit"), Filters.eq("n", 3))));
        assertEquals(List.of(1, 4, 5), ids(Filters.not(Filters.gt("n", 1))), "$not also matches missing and other types");
    }

    @Test
    void elementOperatorsAndNulls() {
        assertEquals(List.of(1, 2, 3, 4, 6), ids(Filters.exists("n")));
        assertEquals(List.of(5), ids(Filters.exists("n", false)));
        assertEquals(List.of(3), ids(Filters.exists("nul")));
        assertEquals(List.of(1, 2, 3, 4, 5, 6), ids(Filters.or(Filters.eq("nul", null), Filters.exists("nul"))));
        assertEquals(List.of(1, 2, 4, 5, 6), ids(Filters.and(Filters.eq("nul", null), Filters.not(Filters.exists("nul")))));
        assertEquals(List.of(4), ids(Filters.type("n", "string")));
        assertEquals(List.of(2), ids(Filters.type("n", "double")));
        assertEquals(List.of(6), ids(Filters.type("n", "long")));
        assertEquals(List.of(1, 2, 3, 6), ids(Filters.type("n", "number")));
        assertEquals(List.of(1, 2, 3, 4, 5), ids(Filters.type("s", "string")));
        assertEquals(List.of(1, 2, 3), ids(Filters.type("tags", "array")));
    }

    @Test
    void regexAndEvaluation() {
        assertEquals(List.of(1), ids(Filters.regex("s", "^app")));
        assertEquals(List.of(3), ids(Filters.regex("s", "^cher", "i")));
        assertEquals(List.of(2, 3, 4, 5), ids(Filters.regex("s", "[aeiou]r|an|te")));
        assertEquals(List.of(1, 2), ids(Filters.eq("tags", Pattern.compile("^(r|y)"))));
        assertEquals(List.of(2, 3, 4, 5, 6), ids(Filters.not(Filters.regex("s", "^app"))), "6 has no s");
        assertEquals(List.of(1, 3), ids(Filters.mod("n", 2, 1)));
        assertEquals(List.of(2, 4), ids(Document.parse("{$expr: {$gt: ['$n', '$_id']}}")),
                "aggregation comparisons use BSON order across types: the string '4' is above every number");
        assertEquals(List.of(2, 3), ids(Document.parse("{$expr: {$in: [{$type: '$n'}, ['double', 'int']]}, "
                + "n: {$gt: 2}}")), "$expr beside a field condition (the long 6 is neither double nor int)");
    }

    @Test
    void bitwiseOperators() {
        // n: 1 (0b1), 3 (0b11), 6 (0b110); 2.5 and '4' are never matched
        assertEquals(List.of(1, 3), ids(Filters.bitsAllSet("n", 1)));
        assertEquals(List.of(3, 6), ids(Filters.bitsAnySet("n", 6)));
        assertEquals(List.of(6), ids(Document.parse("{n: {$bitsAllClear: [0]}}")));
        assertEquals(List.of(1, 6), ids(Filters.bitsAnyClear("n", 3)));
    }

    @Test
    void arrayOperators() {
        assertEquals(List.of(1, 2), ids(Filters.eq("tags", "fruit")));
        assertEquals(List.of(1), ids(Filters.all("tags", "fruit", "red")));
        assertEquals(List.of(3), ids(Filters.size("tags", 0)));
        assertEquals(List.of(4, 5), ids(Filters.size("scores", 2)));
        assertEquals(List.of(4), ids(Document.parse("{scores: {$elemMatch: {$gte: 90, $lt: 100}}}")));
        assertEquals(List.of(4), ids(Document.parse("{scores: {$gt: 90, $lt: 85}}")),
                "without $elemMatch each condition may hold for another element");
        assertEquals(List.of(), ids(Document.parse("{scores: {$elemMatch: {$gt: 90, $lt: 85}}}")));
        assertEquals(List.of(5), ids(Document.parse("{items: {$elemMatch: {k: 'x', q: {$gt: 2}}}}")));
        assertEquals(List.of(), ids(Document.parse("{items: {$elemMatch: {k: 'y', q: {$gt: 2}}}}")));
        assertEquals(List.of(5), ids(Filters.eq("arr", List.of(3))), "whole-element equality");
        assertEquals(List.of(1), ids(Filters.eq("tags", List.of("red", "fruit"))), "whole-array equality");
    }

    @Test
    void dottedPathsThroughArraysOfDocuments() {
        assertEquals(List.of(1), ids(Filters.eq("a.b", 1)));
        assertEquals(List.of(2), ids(Filters.eq("a.b", 3)), "a is an array of documents");
        assertEquals(List.of(3), ids(Filters.eq("a.b", 5)), "a.b is an array");
        assertEquals(List.of(4), ids(Filters.eq("a.b", 6)), "an array in an array element");
        assertEquals(List.of(2, 3, 4), ids(Filters.gt("a.b", 2)));
        assertEquals(List.of(2), ids(Filters.eq("a.1.b", 3)), "a positional segment");
        assertEquals(List.of(4, 5, 6), ids(Filters.eq("a.b", null)), "missing in some element counts as null");
        assertEquals(List.of(4), ids(Filters.eq("a.c", 1)));
        assertEquals(List.of(5), ids(Filters.eq("items.k", "y")));
    }

    @Test
    void indexedQueriesSeekTheCoresIndexes() {
        assertEquals("IXSCAN", stage(Document.parse("{s: 'banana'}")));
        assertEquals("IXSCAN", stage(Document.parse("{'a.b': 3}")), "multikey path through an array");
        assertEquals("IXSCAN", stage(Document.parse("{n: {$gt: 2}}")));
        assertEquals("IXSCAN", stage(Document.parse("{s: /^ban/}")));
        assertEquals("IXSCAN", stage(Document.parse("{tags: {$in: ['red', 'yellow']}}")));
        assertEquals("IDHACK", stage(Document.parse("{_id: 3}")));
        assertEquals("COLLSCAN", stage(Document.parse("{s: {$ne: 'x'}}")));
        assertEquals("COLLSCAN", stage(Document.parse("{nul: null}")), "no index on nul");
        assertEquals("COLLSCAN", stage(Document.parse("{scores: 80}")), "no index on scores");
        assertEquals(List.of(4), ids(Filters.eq("scores", 80)));
        Document explain = explain(Document.parse("{'a.b': 3}"));
        Document stats = explain.get("executionStats", Document.class);
        assertEquals(1L, ((Number) stats.get("nReturned")).longValue());
        assertEquals(1L, ((Number) stats.get("totalDocsExamined")).longValue(), explain.toJson());
    }

    @Test
    void numbersOfEveryTypeAreFoundByNumericSeeks() {
        MongoCollection<Document> nums = client.getDatabase("ops").getCollection("nums");
        nums.drop();
        nums.insertMany(List.of(new Document("_id", 1).append("v", org.bson.types.Decimal128.parse("5.5")),
                new Document("_id", 2).append("v", Double.POSITIVE_INFINITY),
                new Document("_id", 3).append("v", Double.NaN),
                new Document("_id", 4).append("v", 1L << 60),
                new Document("_id", 5).append("v", org.bson.types.Decimal128.parse("2")),
                new Document("_id", 6).append("v", 2)));
        List<Integer> gt2 = new ArrayList<>();
        nums.find(Filters.gt("v", 2)).forEach(d -> gt2.add(d.getInteger("_id")));
        gt2.sort(null);
        assertEquals(List.of(1, 2, 4), gt2);
        List<Integer> eq2 = new ArrayList<>();
        nums.find(Filters.eq("v", 2)).forEach(d -> eq2.add(d.getInteger("_id")));
        eq2.sort(null);
        assertEquals(List.of(5, 6), eq2, "the decimal 2 equals the int 2");
        List<Integer> lt0 = new ArrayList<>();
        nums.find(Filters.lt("v", 0)).forEach(d -> lt0.add(d.getInteger("_id")));
        assertEquals(List.of(3), lt0, "NaN sorts below every number");
        assertEquals(Double.POSITIVE_INFINITY, nums.find(Filters.eq("_id", 2)).first().get("v"));
    }

    @Test
    void hintsMustNameAnExistingIndex() {
        assertEquals(List.of(1), c.find(Filters.eq("n", 1)).hint(new Document("_id", 1))
                .map(d -> d.getInteger("_id")).into(new ArrayList<>()));
        assertEquals(List.of(1), c.find(Filters.eq("n", 1)).hintString("_id_")
                .map(d -> d.getInteger("_id")).into(new ArrayList<>()));
        com.mongodb.MongoQueryException e = org.junit.jupiter.api.Assertions.assertThrows(
                com.mongodb.MongoQueryException.class, () -> c.find().hintString("nope_1").first());
        assertEquals(2, e.getErrorCode());
    }

    /**
     * {@code {v: {$gte: a, $lt: b}}} examines only documents in both bounds while no document ever had an array
     * under {@code v}; once one has, a document whose elements meet each bound in turn still matches (MongoDB's
     * multikey rule), so the bounds are sought one at a time from then on.
     */
    @Test
    void rangeBoundsAreOneSeekUntilThePathHoldsAnArray() {
        MongoCollection<Document> r = client.getDatabase("ops").getCollection("ranges");
        r.drop();
        r.createIndex(new Document("v", 1));
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            docs.add(new Document("_id", i).append("v", i));
        }
        r.insertMany(docs);
        Document filter = Document.parse("{v: {$gte: 200, $lt: 210}}");
        Document stats = rangeStats(filter);
        assertEquals(10L, ((Number) stats.get("nReturned")).longValue());
        // 200..210: numeric bounds are sought inclusively (a decimal is indexed as its nearest double)
        assertEquals(11L, ((Number) stats.get("totalDocsExamined")).longValue(), stats.toJson());
        Document and = Document.parse("{$and: [{v: {$gte: 200}}, {v: {$lt: 210}}]}");
        assertEquals(11L, ((Number) rangeStats(and).get("totalDocsExamined")).longValue());

        r.insertOne(Document.parse("{_id: 'wide', v: [0, 999]}"));
        List<Object> found = new ArrayList<>();
        r.find(filter).forEach(d -> found.add(d.get("_id")));
        assertTrue(found.contains("wide"), "0 < 210 and 999 >= 200: " + found);
        assertEquals(11, found.size(), found.toString());
    }

    private static Document rangeStats(Document filter) {
        Document e = client.getDatabase("ops").runCommand(new Document("explain",
                new Document("find", "ranges").append("filter", filter)));
        return e.get("executionStats", Document.class);
    }

    static String stage(Document filter) {
        Document plan = explain(filter).get("queryPlanner", Document.class).get("winningPlan", Document.class);
        if (plan.getString("stage").equals("FETCH")) {
            plan = plan.get("inputStage", Document.class);
        }
        return plan.getString("stage");
    }

    static Document explain(Document filter) {
        Document e = client.getDatabase("ops").runCommand(new Document("explain",
                new Document("find", "docs").append("filter", filter)));
        assertTrue(e.containsKey("queryPlanner"), e.toJson());
        return e;
    }
}
