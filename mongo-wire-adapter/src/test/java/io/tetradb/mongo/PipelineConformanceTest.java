package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import org.bson.BsonTimestamp;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pipeline behaviours real clients met (issue 12, items 7 and the aggregation parts of 4 and 10): {@code $unwind}'s
 * options, {@code $addFields} of a missing value, {@code $convert} to null, {@code $substr} of numbers,
 * {@code $toDate}'s inputs, {@code $bucket}'s default, and MongoDB 7.0's codes and messages for malformed pipelines.
 */
class PipelineConformanceTest extends MongoServerTestBase {
    private static MongoDatabase db() {
        return client.getDatabase("pipelines");
    }

    private static MongoCollection<Document> fresh(String name, String... docs) {
        return fresh(db(), name, docs);
    }

    private static List<Document> run(MongoCollection<Document> c, String... stages) {
        return aggregate(c, stages);
    }

    private static MongoCommandException failure(MongoCollection<Document> c, String... stages) {
        return assertThrows(MongoCommandException.class, () -> run(c, stages));
    }

    @Test
    void unwindKeepsNullMissingAndEmptyAsMongoDbDoes() {
        // the manual's inventory example
        MongoCollection<Document> c = fresh("inventory", "{_id: 1, item: 'ABC', sizes: ['S', 'M', 'L']}",
                "{_id: 2, item: 'EFG', sizes: []}", "{_id: 3, item: 'IJK', sizes: 'M'}", "{_id: 4, item: 'LMN'}",
                "{_id: 5, item: 'XYZ', sizes: null}");
        List<Document> out = run(c, "{$unwind: {path: '$sizes', preserveNullAndEmptyArrays: true}}");
        assertEquals(List.of(
                Document.parse("{_id: 1, item: 'ABC', sizes: 'S'}"),
                Document.parse("{_id: 1, item: 'ABC', sizes: 'M'}"),
                Document.parse("{_id: 1, item: 'ABC', sizes: 'L'}"),
                Document.parse("{_id: 2, item: 'EFG'}"),
                Document.parse("{_id: 3, item: 'IJK', sizes: 'M'}"),
                Document.parse("{_id: 4, item: 'LMN'}"),
                Document.parse("{_id: 5, item: 'XYZ', sizes: null}")), out);
        List<Document> indexed = run(c, "{$unwind: {path: '$sizes', includeArrayIndex: 'meta.index', "
                + "preserveNullAndEmptyArrays: true}}", "{$match: {_id: {$in: [1, 2, 3]}}}");
        assertEquals(Document.parse("{_id: 1, item: 'ABC', sizes: 'M', meta: {index: {$numberLong: '1'}}}"),
                indexed.get(1));
        assertEquals(Document.parse("{_id: 2, item: 'EFG', meta: {index: null}}"), indexed.get(3));
        assertEquals(Document.parse("{_id: 3, item: 'IJK', sizes: 'M', meta: {index: null}}"), indexed.get(4));
        assertEquals(4, run(c, "{$unwind: '$sizes'}").size(), "without preserve: only unwound and scalar");
        MongoCommandException e = failure(c, "{$unwind: {path: '$sizes', includeArrayIndex: '$idx'}}");
        assertEquals(28822, e.getErrorCode());
        assertEquals("includeArrayIndex option to $unwind stage should not be prefixed with a '$': $idx",
                e.getErrorMessage());
        assertEquals(28818, failure(c, "{$unwind: 'sizes'}").getErrorCode());
        assertEquals(28809, failure(c, "{$unwind: {path: '$sizes', preserveNullAndEmptyArrays: 1}}").getErrorCode());
        assertEquals(28812, failure(c, "{$unwind: {includeArrayIndex: 'i'}}").getErrorCode());
    }

    @Test
    void addFieldsOfAMissingValueAddsNoField() {
        MongoCollection<Document> c = fresh("adds", "{_id: 1, a: 1, b: {c: 2}}");
        assertEquals(Document.parse("{_id: 1, a: 1, b: {c: 2}}"), run(c, "{$addFields: {x: '$nope', "
                + "'b.d': '$nope.deeper'}}").get(0));
        assertEquals(Document.parse("{_id: 1, b: {c: 2}}"), run(c, "{$set: {a: '$$REMOVE'}}").get(0));
        assertEquals(Document.parse("{_id: 1, a: 1, b: {c: 2}, n: null}"), run(c, "{$set: {n: null}}").get(0));
    }

    @Test
    void conversionsAndSubstrings() {
        MongoCollection<Document> c = fresh("conv", "{_id: 1, n: 12345, d: 2.5, s: '42'}");
        Document out = run(c, "{$project: {_id: 0, toNull: {$convert: {input: '$s', to: null}}, "
                + "missingTo: {$convert: {input: '$s', to: '$nothing', onNull: 'x'}}, "
                + "nullInput: {$convert: {input: '$nothing', to: 'int', onNull: 'was null'}}, "
                + "sub: {$substr: ['$n', 1, 3]}, subD: {$substr: ['$d', 0, 2]}, subNull: {$substr: ['$none', 0, 2]}}}")
                .get(0);
        assertEquals(Document.parse("{toNull: null, missingTo: null, nullInput: 'was null', sub: '234', subD: '2.', "
                + "subNull: ''}"), out);
    }

    @Test
    void toDateReadsMongoDbsInputs() {
        MongoCollection<Document> c = fresh("dates", "{_id: 1}");
        ObjectId oid = new ObjectId("5ab9c3da31c2ab715d421285");
        Document values = new Document("_id", 0)
                .append("double", new Document("$toDate", 120000000000.5))
                .append("decimal", new Document("$toDate", new Decimal128(new BigDecimal("1253372036000.50"))))
                .append("long", new Document("$toDate", 1100000000000L))
                .append("negative", new Document("$toDate", -1100000000000L))
                .append("oid", new Document("$toDate", oid))
                .append("ts", new Document("$toDate", new BsonTimestamp(1522123738, 1)))
                .append("day", new Document("$toDate", "2018-03-03"))
                .append("spaced", new Document("$toDate", "2018-03-20 11:00:06 +0500"))
                .append("offset", new Document("$toDate", "2018-03-20T11:00:06.5+05:00"))
                .append("compact", new Document("$toDate", "2018-03-20T11:00:06-0130"))
                .append("zulu", new Document("$toDate", "2018-03-20T11:00:06Z"))
                .append("bad", new Document("$convert", new Document("input", "Friday").append("to", "date")
                        .append("onError", "not a date")));
        Document out = c.aggregate(List.of(new Document("$project", values))).first();
        assertEquals(Date.from(Instant.parse("1973-10-20T21:20:00Z")), out.get("double"));
        assertEquals(Date.from(Instant.parse("2009-09-19T14:53:56Z")), out.get("decimal"));
        assertEquals(Date.from(Instant.parse("2004-11-09T11:33:20Z")), out.get("long"));
        assertEquals(Date.from(Instant.parse("1935-02-22T12:26:40Z")), out.get("negative"));
        assertEquals(Date.from(Instant.parse("2018-03-27T04:08:58Z")), out.get("oid"));
        assertEquals(Date.from(Instant.parse("2018-03-27T04:08:58Z")), out.get("ts"));
        assertEquals(Date.from(Instant.parse("2018-03-03T00:00:00Z")), out.get("day"));
        assertEquals(Date.from(Instant.parse("2018-03-20T06:00:06Z")), out.get("spaced"));
        assertEquals(Date.from(Instant.parse("2018-03-20T06:00:06.500Z")), out.get("offset"));
        assertEquals(Date.from(Instant.parse("2018-03-20T12:30:06Z")), out.get("compact"));
        assertEquals(Date.from(Instant.parse("2018-03-20T11:00:06Z")), out.get("zulu"));
        assertEquals("not a date", out.get("bad"));
    }

    @Test
    void bucketDefaultTakesItsPlaceByValue() {
        MongoCollection<Document> c = fresh("artists", "{_id: 1, year: 1926}", "{_id: 2, year: 1880}",
                "{_id: 3, year: 1930}", "{_id: 4, year: 1845}", "{_id: 5}");
        List<Document> out = run(c, "{$bucket: {groupBy: '$year', boundaries: [1860, 1900, 1940], "
                + "default: 'Other', output: {n: {$sum: 1}, ids: {$push: '$_id'}}}}");
        assertEquals(List.of(Document.parse("{_id: 1860, n: 1, ids: [2]}"),
                Document.parse("{_id: 1900, n: 2, ids: [1, 3]}"),
                Document.parse("{_id: 'Other', n: 2, ids: [4, 5]}")), out);
        List<Document> low = run(c, "{$bucket: {groupBy: '$year', boundaries: [1860, 1900, 1940], default: 0}}");
        assertEquals(Document.parse("{_id: 0, count: 2}"), low.get(0), "a default below the boundaries sorts first");
        assertEquals(40199, failure(c, "{$bucket: {groupBy: '$year', boundaries: [1860, 1900], default: 1870}}")
                .getErrorCode());
        assertEquals(40193, failure(c, "{$bucket: {groupBy: '$year', boundaries: [1860, 'x']}}").getErrorCode());
    }

    @Test
    void malformedPipelinesGetMongoDbsCodes() {
        MongoCollection<Document> c = fresh("bad", "{_id: 1, a: 1}");
        MongoCommandException noCursor = assertThrows(MongoCommandException.class, () -> db().runCommand(
                Document.parse("{aggregate: 'bad', pipeline: [{$match: {}}]}")));
        assertEquals(9, noCursor.getErrorCode());
        assertEquals("FailedToParse", noCursor.getErrorCodeName());
        assertEquals("The 'cursor' option is required, except for aggregate with the explain argument",
                noCursor.getErrorMessage());
        Document explained = db().runCommand(Document.parse("{aggregate: 'bad', pipeline: [{$match: {a: 1}}], "
                + "explain: true}"));
        assertTrue(explained.containsKey("queryPlanner"));
        assertEquals(1.0, db().runCommand(Document.parse("{aggregate: 'bad', pipeline: [], cursor: {}}"))
                .get("ok", Number.class).doubleValue());

        MongoCommandException noId = failure(c, "{$group: {n: {$sum: 1}}}");
        assertEquals(15955, noId.getErrorCode());
        assertEquals("a group specification must include an _id", noId.getErrorMessage());
        MongoCommandException notAccumulator = failure(c, "{$group: {_id: null, n: 1}}");
        assertEquals(40234, notAccumulator.getErrorCode());
        assertEquals("The field 'n' must be an accumulator object", notAccumulator.getErrorMessage());
        MongoCommandException unknownAccumulator = failure(c, "{$group: {_id: null, n: {$frob: 1}}}");
        assertEquals(15952, unknownAccumulator.getErrorCode());
        assertEquals("unknown group operator '$frob'", unknownAccumulator.getErrorMessage());
        // refused before anything runs, even over an empty collection
        MongoCollection<Document> empty = fresh("empty");
        assertEquals(15955, failure(empty, "{$group: {n: {$sum: 1}}}").getErrorCode());

        MongoCommandException outFirst = failure(c, "{$out: 'elsewhere'}", "{$match: {}}");
        assertEquals(40601, outFirst.getErrorCode());
        assertEquals("$out can only be the final stage in the pipeline", outFirst.getErrorMessage());
        assertEquals(40601, failure(c, "{$merge: {into: 'elsewhere'}}", "{$match: {}}").getErrorCode());
        assertFalse(db().listCollectionNames().into(new ArrayList<>()).contains("elsewhere"));
        MongoCommandException unknownStage = failure(c, "{$frobnicate: {}}");
        assertEquals(40324, unknownStage.getErrorCode());
        assertEquals("Unrecognized pipeline stage name: '$frobnicate'", unknownStage.getErrorMessage());
        MongoCommandException unknownExpression = failure(c, "{$project: {x: {$frobnicate: 1}}}");
        assertEquals(168, unknownExpression.getErrorCode());
        assertEquals(238, failure(c, "{$geoNear: {near: [0, 0], distanceField: 'd'}}").getErrorCode());
        // parsed before running, as MongoDB does: over an empty collection, and inside sub-pipelines
        assertEquals(168, failure(empty, "{$project: {x: {$add: [1, {$frobnicate: 1}]}}}").getErrorCode());
        assertEquals(168, failure(empty, "{$group: {_id: {$frobnicate: '$a'}}}").getErrorCode());
        assertEquals(40324, failure(c, "{$facet: {a: [{$frobnicate: {}}]}}").getErrorCode());
        assertEquals(40324, failure(c, "{$lookup: {from: 'bad', as: 'x', pipeline: [{$frobnicate: {}}]}}")
                .getErrorCode());
        assertEquals(List.of(Document.parse("{x: {$frobnicate: 1}}")), run(c, "{$project: {_id: 0, "
                + "x: {$literal: {$frobnicate: 1}}}}"), "a $literal's content is not an expression");
    }

    @Test
    void documentsStartsADatabaseAggregate() {
        List<Document> out = db().aggregate(List.of(Document.parse("{$documents: [{x: 10}, {x: 2}, {x: 5}]}"),
                Document.parse("{$sort: {x: 1}}"), Document.parse("{$set: {y: {$multiply: ['$x', 2]}}}")))
                .batchSize(2).into(new ArrayList<>());
        assertEquals(List.of(Document.parse("{x: 2, y: 4}"), Document.parse("{x: 5, y: 10}"),
                Document.parse("{x: 10, y: 20}")), out);
        MongoCollection<Document> c = fresh("docsFirst", "{_id: 1}");
        assertEquals(2, failure(c, "{$match: {}}", "{$documents: []}").getErrorCode());
        MongoCommandException notFirst = assertThrows(MongoCommandException.class, () -> db().aggregate(List.of(
                Document.parse("{$match: {}}"))).first());
        assertEquals(238, notFirst.getErrorCode());
    }
}
