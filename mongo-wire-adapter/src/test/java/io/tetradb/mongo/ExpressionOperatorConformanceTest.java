package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoCollection;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The expression operators issue 12 (item 8) found missing, through the driver ({@code $project} over one stored
 * document), against MongoDB 7.0's answers: values, result types (int/long/double/decimal), null and missing, and
 * the error codes of bad arguments.
 */
class ExpressionOperatorConformanceTest extends MongoServerTestBase {
    private static MongoCollection<Document> one;

    @BeforeAll
    static void oneDocument() {
        one = client.getDatabase("expr2").getCollection("one");
        one.drop();
        one.insertOne(new Document("_id", 1).append("neg", -5).append("x", 2.5).append("big", Integer.MAX_VALUE)
                .append("word", "héllo").append("obj", new Document("a", 1).append("b.c", 2))
                .append("when", Date.from(Instant.parse("2021-01-31T10:00:00Z"))));
    }

    private static Object eval(Object expression) {
        Document d = one.aggregate(List.of(new Document("$project", new Document("_id", 0)
                .append("r", expression)))).first();
        return d.containsKey("r") ? d.get("r") : "missing";
    }

    private static Document op(String name, Object arg) {
        return new Document(name, arg);
    }

    private static int code(Object expression) {
        return assertThrows(MongoCommandException.class, () -> eval(expression)).getErrorCode();
    }

    @Test
    void arithmetic() {
        assertEquals(5, eval(op("$abs", "$neg")));
        assertEquals(2147483648L, eval(op("$abs", Integer.MIN_VALUE)), "int min overflows to a long");
        assertEquals(3.0, eval(op("$ceil", "$x")));
        assertEquals(-3.0, eval(op("$floor", -2.5)));
        assertEquals(7, eval(op("$ceil", 7)), "an int stays an int");
        assertEquals(null, eval(op("$abs", null)));
        assertEquals(null, eval(op("$sqrt", "$nothing")));
        assertEquals(5.0, eval(op("$sqrt", 25)));
        assertEquals(28714, code(op("$sqrt", "$neg")));
        assertEquals(28765, code(op("$abs", "$word")));
        assertEquals(1024, eval(op("$pow", List.of(2, 10))));
        assertEquals(4294967296L, eval(op("$pow", List.of(2, 32))), "an int power that overflows is a long");
        assertEquals(0.25, eval(op("$pow", List.of(2, -2))));
        assertEquals(28764, code(op("$pow", List.of(0, -1))));
        assertEquals(Math.E, eval(op("$exp", 1)));
        assertEquals(0.0, eval(op("$ln", 1)));
        assertEquals(2.0, eval(op("$log10", 100)));
        assertEquals(3.0, eval(op("$log", List.of(8, 2))));
        assertEquals(28766, code(op("$ln", 0)));
        assertEquals(28761, code(op("$log10", -1)));
        assertEquals(28759, code(op("$log", List.of(8, 1))));
        assertEquals(28758, code(op("$log", List.of(-8, 2))));
        // $round is half to even, as in MongoDB; $trunc toward zero; types kept
        assertEquals(10.0, eval(op("$round", List.of(10.5, 0))));
        assertEquals(12.0, eval(op("$round", List.of(11.5, 0))));
        assertEquals(1.3, eval(op("$round", List.of(1.298, 1))));
        assertEquals(1200, eval(op("$round", List.of(1234, -2))));
        assertEquals(20.0, eval(op("$trunc", List.of(23.298, -1))));
        assertEquals(-1.0, eval(op("$trunc", -1.6)));
        assertEquals(new Decimal128(new java.math.BigDecimal("-2")), eval(op("$round",
                new Decimal128(new java.math.BigDecimal("-1.6")))));
        assertEquals(new Decimal128(new java.math.BigDecimal("1.2")), eval(op("$trunc",
                List.of(new Decimal128(new java.math.BigDecimal("1.298")), 1))));
        assertEquals(51081, code(op("$round", "$word")));
        assertEquals(51083, code(op("$round", List.of(1.5, 101))));
        double r = (Double) eval(op("$rand", new Document()));
        assertTrue(r >= 0 && r < 1);
    }

    @Test
    void switchCase() {
        Document sw = new Document("branches", List.of(
                new Document("case", op("$lt", List.of("$neg", 0))).append("then", "negative"),
                new Document("case", op("$gt", List.of("$neg", 0))).append("then", "positive")))
                .append("default", "zero");
        assertEquals("negative", eval(op("$switch", sw)));
        assertEquals(40066, code(op("$switch", new Document("branches", List.of(
                new Document("case", false).append("then", 1))))));
        assertEquals(40068, code(op("$switch", new Document("branches", List.of()))));
    }

    @Test
    void setOperators() {
        assertEquals(true, eval(op("$setEquals", List.of(List.of(1, 2, 2), List.of(2, 1.0)))));
        assertEquals(List.of(2), eval(op("$setIntersection", List.of(List.of(1, 2), List.of(2, 3)))));
        List<?> union = (List<?>) eval(op("$setUnion", List.of(List.of(1, 2), List.of(2, 3))));
        assertEquals(3, union.size());
        assertEquals(List.of(1), eval(op("$setDifference", List.of(List.of(1, 2), List.of(2, 3)))));
        assertEquals(true, eval(op("$setIsSubset", List.of(List.of(1), List.of(1, 2)))));
        assertEquals(true, eval(op("$anyElementTrue", List.of(Arrays.asList(0, null, true)))));
        assertEquals(false, eval(op("$allElementsTrue", List.of(List.of(1, 0)))));
        assertEquals(null, eval(op("$setUnion", List.of(List.of(1), "$nothing"))));
        assertEquals(17044, code(op("$setEquals", List.of(List.of(1), "$word"))));
        assertEquals(17045, code(op("$setEquals", List.of(List.of(1)))));
        assertEquals(17048, code(op("$setDifference", List.of("$word", List.of(1)))));
        assertEquals(17041, code(op("$anyElementTrue", List.of("$word"))));
    }

    @Test
    void objectOperators() {
        assertEquals(Document.parse("{a: 1, b: 3, c: 4}"), eval(op("$mergeObjects", List.of(
                new Document("a", 1).append("b", 2), "$nothing", new Document("b", 3).append("c", 4)))));
        assertEquals(40400, code(op("$mergeObjects", List.of(new Document("a", 1), 5))));
        assertEquals(List.of(Document.parse("{k: 'a', v: 1}"), Document.parse("{k: 'b.c', v: 2}")),
                eval(op("$objectToArray", "$obj")));
        assertEquals(Document.parse("{item: 'abc', qty: 25}"), eval(op("$arrayToObject", List.of(List.of(
                List.of("item", "abc"), List.of("qty", 25))))));
        assertEquals(Document.parse("{item: 'abc', qty: 25}"), eval(op("$arrayToObject", op("$literal", List.of(
                Document.parse("{k: 'item', v: 'abc'}"), Document.parse("{k: 'qty', v: 25}"))))));
        assertEquals(40390, code(op("$objectToArray", 1)));
        assertEquals(40396, code(op("$arrayToObject", op("$literal", List.of(List.of("a", 1),
                Document.parse("{k: 'b', v: 2}"))))));
        assertEquals(2, eval(op("$getField", new Document("field", "b.c").append("input", "$obj"))));
        assertEquals("héllo", eval(op("$getField", "word")));
        assertEquals("missing", eval(op("$getField", new Document("field", "zz").append("input", "$obj"))));
        assertEquals(Document.parse("{a: 1, 'b.c': 2, d: 3}"), eval(op("$setField",
                new Document("field", "d").append("input", "$obj").append("value", 3))));
        assertEquals(Document.parse("{a: 1}"), eval(op("$unsetField",
                new Document("field", "b.c").append("input", "$obj"))));
    }

    @Test
    void byteStrings() {
        assertEquals(6, eval(op("$strLenBytes", "$word")), "é is two UTF-8 bytes");
        assertEquals("hé", eval(op("$substrBytes", List.of("$word", 0, 3))));
        assertEquals(28657, code(op("$substrBytes", List.of("$word", 0, 2))));
        assertEquals(28656, code(op("$substrBytes", List.of("$word", 2, 2))));
        assertEquals(34473, code(op("$strLenBytes", 5)));
        assertEquals("2147", eval(op("$substr", List.of("$big", 0, 4))), "numbers are substringed as text");
        assertEquals("2.5", eval(op("$substrCP", List.of("$x", 0, 3))));
        assertEquals("2021-01-31", eval(op("$substr", List.of("$when", 0, 10))));
    }

    @Test
    void dateArithmetic() {
        // a month after Jan 31 is the last day of February
        assertEquals(Date.from(Instant.parse("2021-02-28T10:00:00Z")), eval(op("$dateAdd",
                new Document("startDate", "$when").append("unit", "month").append("amount", 1))));
        assertEquals(Date.from(Instant.parse("2021-01-31T07:00:00Z")), eval(op("$dateSubtract",
                new Document("startDate", "$when").append("unit", "hour").append("amount", 3))));
        assertEquals(Date.from(Instant.parse("2021-03-14T10:00:00Z")), eval(op("$dateAdd",
                new Document("startDate", "$when").append("unit", "week").append("amount", 6))));
        // across a DST change in New York a day is a calendar day (23 hours here), an hour is an hour
        assertEquals(Date.from(Instant.parse("2021-03-14T16:00:00Z")), eval(op("$dateAdd",
                new Document("startDate", Date.from(Instant.parse("2021-03-13T17:00:00Z"))).append("unit", "day")
                        .append("amount", 1).append("timezone", "America/New_York"))));
        assertEquals(null, eval(op("$dateAdd", new Document("startDate", "$nothing").append("unit", "day")
                .append("amount", 1))));
        assertEquals(5166405, code(op("$dateAdd", new Document("startDate", "$when").append("unit", "day")
                .append("amount", 1.5))));
        assertEquals(1L, eval(op("$dateDiff", new Document("startDate",
                Date.from(Instant.parse("2020-12-31T23:59:00Z"))).append("endDate", "$when").append("unit", "year"))));
        assertEquals(31L, eval(op("$dateDiff", new Document("startDate",
                Date.from(Instant.parse("2020-12-31T23:59:00Z"))).append("endDate", "$when").append("unit", "day"))));
        assertEquals(1L, eval(op("$dateDiff", new Document("startDate",
                Date.from(Instant.parse("2021-01-30T12:00:00Z"))).append("endDate", "$when").append("unit", "week"))),
                "Jan 31 2021 was a Sunday: one week boundary");
        assertEquals(0L, eval(op("$dateDiff", new Document("startDate",
                Date.from(Instant.parse("2021-01-30T12:00:00Z"))).append("endDate", "$when").append("unit", "week")
                .append("startOfWeek", "monday"))));
        assertEquals(-22L, eval(op("$dateDiff", new Document("startDate", "$when")
                .append("endDate", Date.from(Instant.parse("2021-01-30T12:00:00Z"))).append("unit", "hour"))));
        assertEquals(9, code(op("$dateDiff", new Document("startDate", "$when").append("endDate", "$when")
                .append("unit", "fortnight"))));
    }

    @Test
    void unknownOperatorsAndVariables() {
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> eval(op("$frobnicate", 1)));
        assertEquals(168, e.getErrorCode());
        assertEquals("InvalidPipelineOperator", e.getErrorCodeName());
        assertEquals("Unrecognized expression '$frobnicate'", e.getErrorMessage());
        assertEquals(17276, code("$$nosuchvar"));
        assertEquals(new ObjectId("5f0000000000000000000000").getDate(), eval(op("$toDate",
                new ObjectId("5f0000000000000000000000"))));
    }

    @Test
    void trigonometryAndBits() {
        assertEquals(1.0, (Double) eval(op("$sin", Math.PI / 2)), 1e-15);
        assertEquals(Math.PI, (Double) eval(op("$degreesToRadians", 180)), 1e-15);
        assertEquals(180.0, (Double) eval(op("$radiansToDegrees", Math.PI)), 1e-12);
        assertEquals(Math.PI / 4, (Double) eval(op("$atan2", List.of(1, 1))), 1e-15);
        assertEquals(0.0, eval(op("$atanh", 0)));
        assertEquals(null, eval(op("$cos", null)));
        assertEquals(50989, code(op("$acos", 2)));
        assertEquals(50989, code(op("$acosh", 0.5)));
        assertEquals(1, eval(op("$bitAnd", List.of(5, 3))));
        assertEquals(7L, eval(op("$bitOr", List.of(5, 3L))));
        assertEquals(6, eval(op("$bitXor", List.of(5, 3))));
        assertEquals(-6, eval(op("$bitNot", 5)));
        assertEquals(28834, code(op("$bitAnd", List.of(5, 1.5))));
    }

    @Test
    void moreStringArrayAndDateOperators() {
        assertEquals(0, eval(op("$strcasecmp", List.of("Hello", "hELLO"))));
        assertEquals(-1, eval(op("$strcasecmp", List.of("a", "B"))));
        assertEquals("a-b.c", eval(op("$replaceOne", new Document("input", "a.b.c").append("find", ".")
                .append("replacement", "-"))));
        assertEquals("a-b-c", eval(op("$replaceAll", new Document("input", "a.b.c").append("find", ".")
                .append("replacement", "-"))));
        assertEquals(null, eval(op("$replaceAll", new Document("input", null).append("find", ".")
                .append("replacement", "-"))));
        assertEquals(3, eval(op("$indexOfBytes", List.of("héllo", "l"))));
        assertEquals(Document.parse("{match: 'l1', idx: 3, captures: ['1']}"), eval(op("$regexFind",
                new Document("input", "héll1o l2").append("regex", "l(\\d)"))));
        assertEquals(2, ((List<?>) eval(op("$regexFindAll", new Document("input", "l1 l2")
                .append("regex", "l\\d")))).size());
        assertEquals(2, eval(op("$indexOfArray", List.of(List.of("a", "b", "c"), "c"))));
        assertEquals(-1, eval(op("$indexOfArray", List.of(List.of(1, 2), "1"))));
        assertEquals(List.of(0, 5, 10), eval(op("$range", List.of(0, 15, 5))));
        assertEquals(List.of(3, 2), eval(op("$range", List.of(3, 1, -1))));
        assertEquals(34449, code(op("$range", List.of(0, 5, 0))));
        assertEquals(List.of(List.of(1, "a"), List.of(2, "b")), eval(op("$zip", new Document("inputs",
                List.of(List.of(1, 2, 3), List.of("a", "b"))))));
        assertEquals(List.of(List.of(1, "a"), List.of(2, "z")), eval(op("$zip", new Document("inputs",
                List.of(List.of(1, 2), List.of("a"))).append("useLongestLength", true)
                .append("defaults", List.of(0, "z")))));
        assertEquals(List.of(3, 2, 1), eval(op("$sortArray", new Document("input", List.of(2, 3, 1))
                .append("sortBy", -1))));
        assertEquals(List.of(Document.parse("{a: 1}"), Document.parse("{a: 2}")), eval(op("$sortArray",
                new Document("input", List.of(Document.parse("{a: 2}"), Document.parse("{a: 1}")))
                        .append("sortBy", new Document("a", 1)))));
        assertEquals(List.of(9, 7), eval(op("$maxN", new Document("n", 2).append("input",
                java.util.Arrays.asList(7, null, 9, 1)))));
        assertEquals(List.of(2, 3), eval(op("$lastN", new Document("n", 2).append("input", List.of(1, 2, 3)))));
        assertEquals(5787908, code(op("$firstN", new Document("n", 0).append("input", List.of(1)))));
        assertEquals(true, eval(op("$isNumber", "$x")));
        assertEquals(false, eval(op("$isNumber", "$word")));
        assertEquals(5, eval(op("$week", "$when")), "2021-01-31 is in Sunday-week 5");
        assertEquals(Date.from(Instant.parse("2021-01-01T00:00:00Z")), eval(op("$dateTrunc",
                new Document("date", "$when").append("unit", "month"))));
        assertEquals(Date.from(Instant.parse("2021-01-31T00:00:00Z")), eval(op("$dateTrunc",
                new Document("date", "$when").append("unit", "week"))));
        assertEquals(Date.from(Instant.parse("2021-01-01T00:00:00Z")), eval(op("$dateTrunc",
                new Document("date", "$when").append("unit", "quarter"))));
        assertEquals(Date.from(Instant.parse("2021-01-31T06:00:00Z")), eval(op("$dateTrunc",
                new Document("date", "$when").append("unit", "hour").append("binSize", 6))));
        assertEquals(Document.parse("{year: 2021, month: 1, day: 31, hour: 10, minute: 0, second: 0, "
                + "millisecond: 0}"), eval(op("$dateToParts", new Document("date", "$when"))));
        assertEquals(Date.from(Instant.parse("2018-02-01T12:00:00Z")), eval(op("$dateFromParts",
                new Document("year", 2017).append("month", 14).append("hour", 12))));
        assertEquals(Date.from(Instant.parse("2017-01-02T00:00:00Z")), eval(op("$dateFromParts",
                new Document("isoWeekYear", 2017).append("isoWeek", 1).append("isoDayOfWeek", 1))));
        assertEquals(31034, code(op("$dateFromParts", new Document("year", 2017).append("month", 40000))));
        assertEquals(2.0, eval(op("$stdDevPop", List.of(2, 4, 4, 4, 5, 5, 7, 9))));
    }

    @Test
    void theFourOperationsKeepMongoDbsTypes() {
        Date when = Date.from(Instant.parse("2021-01-31T10:00:00Z"));
        assertEquals(Date.from(Instant.parse("2021-01-31T10:00:03Z")), eval(op("$add", List.of("$when", 1000, 2000))));
        assertEquals(3, eval(op("$add", List.of(1, 2))));
        assertEquals(2147483648L, eval(op("$add", List.of("$big", 1))), "int overflow becomes a long");
        assertEquals(3.5, eval(op("$add", List.of(1, 2.5))));
        assertEquals(null, eval(op("$add", java.util.Arrays.asList(1, null))));
        assertEquals(3_600_000L, eval(op("$subtract", List.of("$when", Date.from(Instant.parse(
                "2021-01-31T09:00:00Z"))))));
        assertEquals(Date.from(Instant.parse("2021-01-31T09:59:59Z")), eval(op("$subtract", List.of("$when", 1000))));
        assertEquals(1, eval(op("$mod", List.of(7, 3))));
        assertEquals(1L, eval(op("$mod", List.of(7L, 3))));
        assertEquals(-1, eval(op("$mod", List.of(-7, 3))));
        assertEquals(1.5, eval(op("$mod", List.of(7.5, 2))));
        assertEquals(0.25, eval(op("$divide", List.of(1, 4))));
        assertEquals(new Decimal128(new java.math.BigDecimal("0.25")), eval(op("$divide",
                List.of(new Decimal128(1), 4))));
        assertEquals(16610, code(op("$mod", List.of(5, 0))));
        assertEquals(2, code(op("$divide", List.of(5, 0))));
        assertEquals(16609, code(op("$divide", List.of("$word", 1))));
        assertEquals(16554, code(op("$add", List.of("$word", 1))));
        assertEquals(16555, code(op("$multiply", List.of("$word", 1))));
        assertEquals(16556, code(op("$subtract", List.of("$word", 1))));
        assertEquals(16612, code(op("$add", List.of("$when", when))));
    }

    @Test
    void badArgumentsGetMongoDbsCodes() {
        assertEquals(28651, code(op("$filter", new Document("input", "$word").append("cond", true))));
        assertEquals(16883, code(op("$map", new Document("input", "$word").append("in", 1))));
        assertEquals(40080, code(op("$reduce", new Document("input", "$word").append("initialValue", 0)
                .append("in", 1))));
        assertEquals(28664, code(op("$concatArrays", List.of(List.of(1), "$word"))));
        assertEquals(34435, code(op("$reverseArray", "$word")));
        assertEquals(28724, code(op("$slice", List.of("$word", 1))));
        assertEquals(28689, code(op("$arrayElemAt", List.of("$word", 0))));
        assertEquals(28690, code(op("$arrayElemAt", List.of(List.of(1), "$word"))));
        assertEquals(28691, code(op("$arrayElemAt", List.of(List.of(1), 0.5))));
        assertEquals(2, eval(op("$arrayElemAt", List.of(List.of(1, 2), -1))));
        assertEquals("missing", eval(op("$arrayElemAt", List.of(List.of(1, 2), 5))));
        assertEquals(null, eval(op("$arrayElemAt", List.of("$nothing", 0))));
        assertEquals(40085, code(op("$split", List.of(5, "-"))));
        assertEquals(40086, code(op("$split", List.of("a-b", 5))));
        assertEquals(40087, code(op("$split", List.of("a-b", ""))));
        assertEquals(40093, code(op("$indexOfCP", List.of(5, "a"))));
        assertEquals(40094, code(op("$indexOfCP", List.of("a", 5))));
        assertEquals(50699, code(op("$trim", new Document("input", 5))));
        assertEquals(51104, code(op("$regexMatch", new Document("input", 5).append("regex", "a"))));
        assertEquals(16702, code(op("$concat", List.of("a", 5))));
        assertEquals(17124, code(op("$size", "$nothing")));
        assertEquals(40081, code(op("$in", List.of(1, "$nothing"))));
        assertEquals("2.5", eval(op("$toUpper", "$x")), "numbers are upper-cased as their text");
        assertEquals(16007, code(op("$toLower", "$obj")));
    }
}
