package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoQueryException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Query behaviours real clients met (issue 12, item 6), each as MongoDB 7.0 answers: the positional {@code $} with
 * the {@code $and} the Java driver's {@code Filters.and()} sends, {@code $elemMatch} over {@code $and/$or/$nor},
 * MinKey/MaxKey bounds and missing fields, the {@code arr.$} projection, where empty arrays sort, {@code $natural}
 * orders, {@code $exists} on a path ending in a dot, and {@code $type: []}.
 */
class QueryConformanceTest extends MongoServerTestBase {
    private static MongoCollection<Document> fresh(String name, String... docs) {
        return fresh(client.getDatabase("conformance"), name, docs);
    }

    private static List<Object> ids(MongoCollection<Document> c, Bson filter) {
        List<Object> out = new ArrayList<>();
        c.find(filter).sort(Sorts.ascending("_id")).forEach(d -> out.add(d.get("_id")));
        return out;
    }

    @Test
    void positionalUpdateWithTheDriversAndFilter() {
        MongoCollection<Document> c = fresh("students", "{_id: 1, grades: [85, 80, 80]}",
                "{_id: 2, grades: [88, 90, 92]}");
        // Filters.and(...) is sent as {$and: [{_id: 1}, {grades: 80}]}: the $ is the first 80
        c.updateOne(Filters.and(Filters.eq("_id", 1), Filters.eq("grades", 80)), Updates.set("grades.$", 82));
        assertEquals(List.of(85, 82, 80), c.find(Filters.eq("_id", 1)).first().getList("grades", Integer.class));
        MongoCollection<Document> items = fresh("items",
                "{_id: 1, items: [{k: 'a', q: 1}, {k: 'b', q: 2}, {k: 'b', q: 3}]}");
        items.updateOne(Filters.and(Filters.eq("_id", 1), Filters.elemMatch("items",
                Filters.and(Filters.eq("k", "b"), Filters.gt("q", 2)))), Updates.inc("items.$.q", 10));
        assertEquals(List.of(1, 2, 13), items.find().first().getList("items", Document.class).stream()
                .map(d -> d.getInteger("q")).toList());
    }

    @Test
    void elemMatchWithLogicalOperatorsInside() {
        MongoCollection<Document> c = fresh("survey",
                "{_id: 1, results: [{product: 'abc', score: 10}, {product: 'xyz', score: 5}]}",
                "{_id: 2, results: [{product: 'abc', score: 8}, {product: 'xyz', score: 7}]}",
                "{_id: 3, results: [{product: 'abc', score: 7}, {product: 'xyz', score: 8}]}");
        assertEquals(List.of(3), ids(c, Filters.elemMatch("results", Filters.and(Filters.eq("product", "xyz"),
                Filters.gte("score", 8)))));
        assertEquals(List.of(1, 2, 3), ids(c, Filters.elemMatch("results", Filters.or(Filters.eq("score", 5),
                Filters.eq("product", "abc")))));
        assertEquals(List.of(1), ids(c, Filters.elemMatch("results", Filters.or(Filters.eq("score", 5),
                Filters.eq("score", 10)))));
        assertEquals(List.of(1), ids(c, Filters.elemMatch("results", Filters.and(Filters.eq("product", "abc"),
                Filters.nor(Filters.lt("score", 9))))));
    }

    @Test
    void minKeyAndMaxKeyBoundsMatchMissingFields() {
        MongoCollection<Document> c = fresh("bounds", "{_id: 1, a: 5}", "{_id: 2, a: null}", "{_id: 3}",
                "{_id: 4, a: 'x'}");
        // MongoDB's bracketing: a missing field is above MinKey and below MaxKey
        assertEquals(List.of(1, 2, 3, 4), ids(c, Filters.gt("a", new BsonMinKey())));
        assertEquals(List.of(1, 2, 3, 4), ids(c, Filters.lt("a", new BsonMaxKey())));
        assertEquals(List.of(), ids(c, Filters.lt("a", new BsonMinKey())));
        assertEquals(List.of(), ids(c, Filters.gt("a", new BsonMaxKey())));
        assertEquals(List.of(2, 3), ids(c, Filters.lte("a", null)));
    }

    @Test
    void positionalProjection() {
        MongoCollection<Document> c = fresh("grades", "{_id: 1, semester: 1, grades: [70, 87, 90]}",
                "{_id: 2, semester: 1, grades: [90, 88, 92]}", "{_id: 3, semester: 2, grades: [85, 100, 90]}");
        // the manual's example, with the driver's $and
        List<Document> out = new ArrayList<>();
        c.find(Filters.and(Filters.eq("semester", 1), Filters.gte("grades", 85)))
                .projection(Projections.include("grades.$")).sort(Sorts.ascending("_id")).into(out);
        assertEquals(List.of(Document.parse("{_id: 1, grades: [87]}"), Document.parse("{_id: 2, grades: [90]}")),
                out);
        MongoCollection<Document> s = fresh("students2",
                "{_id: 1, grades: [{grade: 80, mean: 75}, {grade: 85, mean: 90}, {grade: 90, mean: 85}]}");
        Document d = s.find(Filters.eq("grades.mean", 90)).projection(Projections.include("grades.$")).first();
        assertEquals(Document.parse("{_id: 1, grades: [{grade: 85, mean: 90}]}"), d);
        // $elemMatch projections over scalars and with $or inside, as the query's $elemMatch
        assertEquals(Document.parse("{_id: 3, grades: [100]}"), c.find(Filters.eq("_id", 3))
                .projection(new Document("grades", new Document("$elemMatch", new Document("$gt", 95)))).first());
        assertEquals(Document.parse("{_id: 1, grades: [{grade: 85, mean: 90}]}"), s.find().projection(
                new Document("grades", new Document("$elemMatch", Document.parse("{$or: [{mean: 90}, {grade: 90}]}"))))
                .first());
        MongoQueryException e = assertThrows(MongoQueryException.class,
                () -> c.find(Filters.eq("_id", 1)).projection(Projections.include("grades.$")).first());
        assertEquals(51246, e.getErrorCode());
    }

    @Test
    void emptyArraysSortBeforeNullAndMissing() {
        MongoCollection<Document> c = fresh("sorting", "{_id: 1, a: 1}", "{_id: 2, a: []}", "{_id: 3, a: null}",
                "{_id: 4}", "{_id: 5, a: [0, 5]}");
        List<Object> asc = new ArrayList<>();
        c.find().sort(Sorts.orderBy(Sorts.ascending("a"), Sorts.ascending("_id"))).forEach(x -> asc.add(x.get("_id")));
        assertEquals(List.of(2, 3, 4, 5, 1), asc);
        List<Object> desc = new ArrayList<>();
        c.find().sort(Sorts.orderBy(Sorts.descending("a"), Sorts.ascending("_id")))
                .forEach(x -> desc.add(x.get("_id")));
        assertEquals(List.of(5, 1, 3, 4, 2), desc);
    }

    @Test
    void naturalOrderForwardAndReverse() {
        MongoCollection<Document> c = fresh("natural", "{_id: 1}", "{_id: 2}", "{_id: 3}", "{_id: 4}");
        List<Object> forward = new ArrayList<>();
        c.find().sort(new Document("$natural", 1)).forEach(x -> forward.add(x.get("_id")));
        List<Object> reverse = new ArrayList<>();
        c.find().sort(new Document("$natural", -1)).forEach(x -> reverse.add(x.get("_id")));
        assertEquals(List.of(1, 2, 3, 4), forward);
        assertEquals(List.of(4, 3, 2, 1), reverse);
        List<Object> hinted = new ArrayList<>();
        c.find(Filters.gt("_id", 1)).hint(new Document("$natural", -1)).limit(2).forEach(x -> hinted.add(x.get("_id")));
        assertEquals(List.of(4, 3), hinted);
        List<Object> hintedForward = new ArrayList<>();
        c.find().hint(new Document("$natural", 1)).forEach(x -> hintedForward.add(x.get("_id")));
        assertEquals(List.of(1, 2, 3, 4), hintedForward);
    }

    @Test
    void existsOnAPathEndingInADot() {
        MongoCollection<Document> c = fresh("dots", "{_id: 1, a: {'': 1}}", "{_id: 2, a: {b: 1}}", "{_id: 3, a: 1}",
                "{_id: 4}");
        assertEquals(List.of(1), ids(c, Filters.exists("a.")));
        assertEquals(List.of(2, 3, 4), ids(c, Filters.exists("a.", false)));
        // the empty last segment names a field, through arrays of documents too (no index seek is made for it)
        MongoCollection<Document> arrays = fresh("dots2", "{_id: 1, a: [{'': 1}, 2]}", "{_id: 2, a: [1, 2]}");
        arrays.createIndex(new Document("a", 1));
        assertEquals(List.of(1), ids(arrays, Filters.exists("a.")));
        assertEquals(List.of(1), ids(arrays, Filters.eq("a.", 1)));
    }

    @Test
    void anEmptyTypeListIsRefused() {
        MongoCollection<Document> c = fresh("types", "{_id: 1, a: 1}");
        MongoQueryException e = assertThrows(MongoQueryException.class,
                () -> c.find(new Document("a", new Document("$type", List.of()))).first());
        assertEquals(9, e.getErrorCode());
        assertEquals("a must match at least one type", e.getErrorMessage());
        assertEquals(List.of(1), ids(c, Filters.type("a", "number")));
        assertEquals(List.of(1), ids(c, new Document("a", new Document("$type", List.of(16, "string")))));
        MongoQueryException badCode = assertThrows(MongoQueryException.class,
                () -> c.find(new Document("a", new Document("$type", 42))).first());
        assertEquals(2, badCode.getErrorCode());
        assertEquals("Invalid numerical type code: 42", badCode.getErrorMessage());
        MongoCommandException agg = assertThrows(MongoCommandException.class, () -> c.aggregate(List.of(
                new Document("$match", new Document("a", new Document("$type", List.of()))))).first());
        assertEquals(9, agg.getErrorCode());
    }

    @Test
    void sampleRateMatchesAtRandom() {
        MongoCollection<Document> c = fresh("sampled", "{_id: 1}", "{_id: 2}", "{_id: 3}");
        assertEquals(List.of(1, 2, 3), ids(c, new Document("$sampleRate", 1.0)));
        assertEquals(List.of(), ids(c, new Document("$sampleRate", 0)));
        assertEquals(2, assertThrows(MongoQueryException.class,
                () -> c.find(new Document("$sampleRate", 2)).first()).getErrorCode());
    }
}
