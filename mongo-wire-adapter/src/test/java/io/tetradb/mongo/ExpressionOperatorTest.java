package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoCollection;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Aggregation expression operators evaluated through the driver ({@code $project} over one stored document), each
 * against the answer MongoDB's manual gives for the same input.
 */
class ExpressionOperatorTest extends MongoServerTestBase {
    private static final Date WHEN = Date.from(Instant.parse("2014-01-01T08:15:39.736Z"));
    private static MongoCollection<Document> one;

    @BeforeAll
    static void oneDocument() {
        one = client.getDatabase("expr").getCollection("one");
        one.drop();
        one.insertOne(new Document("_id", 1).append("date", WHEN).append("price", 10).append("tax", 0.5)
                .append("applyDiscount", true).append("word", "cafétéria").append("n", 5));
    }

    private static Object eval(Object expression) {
        Document d = one.aggregate(List.of(new Document("$project", new Document("_id", 0)
                .append("r", expression)))).first();
        return d.get("r");
    }

    private static Document op(String name, Object arg) {
        return new Document(name, arg);
    }

    @Test
    void stringOperators() {
        assertEquals("cafét", eval(op("$substrCP", List.of("$word", 0, 5))));
        assertEquals(9, eval(op("$strLenCP", "$word")));
        assertEquals(List.of("June", "15", "2013"), eval(op("$split", List.of("June-15-2013", "-"))));
        assertEquals("good  bye", eval(op("$trim", new Document("input", " \n good  bye \t "))));
        assertEquals("good  bye \t ", eval(op("$ltrim", new Document("input", " \n good  bye \t "))));
        assertEquals("ee", eval(op("$trim", new Document("input", "xxeex").append("chars", "x"))));
        assertEquals(true, eval(op("$regexMatch", new Document("input", "Single LINE description.")
                .append("regex", Pattern.compile("line", Pattern.CASE_INSENSITIVE)))));
        assertEquals(false, eval(op("$regexMatch", new Document("input", "Single LINE description.")
                .append("regex", "line"))));
        assertEquals("ABC-def", eval(op("$concat", List.of(op("$toUpper", "abc"), "-", op("$toLower", "DEF")))));
        assertEquals(2, eval(op("$indexOfCP", List.of("cafétéria", "f"))));
        MongoCommandException e = assertThrows(MongoCommandException.class,
                () -> eval(op("$strLenCP", "$price")));
        assertEquals(34471, e.getErrorCode(), "MongoDB's code for a non-string $strLenCP");
    }

    @Test
    void dateOperators() {
        assertEquals(2014, eval(op("$year", "$date")));
        assertEquals(1, eval(op("$month", "$date")));
        assertEquals(1, eval(op("$dayOfMonth", "$date")));
        assertEquals(8, eval(op("$hour", "$date")));
        assertEquals(15, eval(op("$minute", "$date")));
        assertEquals(39, eval(op("$second", "$date")));
        assertEquals(736, eval(op("$millisecond", "$date")));
        assertEquals(1, eval(op("$dayOfYear", "$date")));
        assertEquals(4, eval(op("$dayOfWeek", "$date")));
        assertEquals(3, eval(op("$hour", new Document("date", "$date").append("timezone", "America/New_York"))));
        assertEquals("2014-01-01", eval(op("$dateToString", new Document("format", "%Y-%m-%d")
                .append("date", "$date"))));
        assertEquals("03:15:39:736-0500", eval(op("$dateToString", new Document("format", "%H:%M:%S:%L%z")
                .append("date", "$date").append("timezone", "America/New_York"))));
        assertEquals("2014-01-01T08:15:39.736Z", eval(op("$dateToString", new Document("date", "$date"))));
        assertEquals(Date.from(Instant.parse("2017-02-08T17:10:40.787Z")), eval(op("$dateFromString",
                new Document("dateString", "2017-02-08T12:10:40.787").append("timezone", "America/New_York"))));
        assertEquals(Date.from(Instant.parse("2018-06-15T00:00:00Z")), eval(op("$dateFromString",
                new Document("dateString", "15-06-2018").append("format", "%d-%m-%Y"))));
        assertEquals(Date.from(Instant.parse("2017-02-08T10:00:00Z")), eval(op("$dateFromString",
                new Document("dateString", "2017-02-08T12:00:00+02:00"))));
        assertEquals("bad", eval(op("$dateFromString", new Document("dateString", "not a date")
                .append("onError", "bad"))));
        MongoCommandException e = assertThrows(MongoCommandException.class,
                () -> eval(op("$dateFromString", new Document("dateString", "not a date"))));
        assertEquals(241, e.getErrorCode());
    }

    @Test
    void typeOperators() {
        assertEquals("string", eval(op("$type", "$word")));
        assertEquals("int", eval(op("$type", "$n")));
        assertEquals("double", eval(op("$type", "$tax")));
        assertEquals("date", eval(op("$type", "$date")));
        assertEquals("missing", eval(op("$type", "$nothing")));
        assertEquals(5, eval(op("$convert", new Document("input", "5").append("to", "int"))));
        assertEquals(5L, eval(op("$convert", new Document("input", 5.9).append("to", "long"))));
        assertEquals("bad", eval(op("$convert", new Document("input", "abc").append("to", "int")
                .append("onError", "bad"))));
        assertEquals(0, eval(op("$convert", new Document("input", "$nothing").append("to", "int")
                .append("onNull", 0))));
        assertEquals(5, eval(op("$toInt", 5.5)));
        assertEquals(2.5, eval(op("$toDouble", "2.5")));
        assertEquals(1.3889E12, (Double) eval(op("$toDouble", "$date")), 1e9);
        assertEquals("2.5", eval(op("$toString", 2.5)));
        assertEquals("5", eval(op("$toString", "$n")));
        assertEquals("2014-01-01T08:15:39.736Z", eval(op("$toString", "$date")));
        assertEquals(false, eval(op("$toBool", 0)));
        assertEquals(true, eval(op("$toBool", "false")), "every string is true");
        assertEquals(new Date(1234567890000L), eval(op("$toDate", 1234567890000L)));
        assertEquals(Date.from(Instant.parse("2018-03-03T00:00:00Z")), eval(op("$toDate", "2018-03-03")));
        assertEquals(new ObjectId("5ab9cbfa31c2ab715d42129e"), eval(op("$toObjectId", "5ab9cbfa31c2ab715d42129e")));
        MongoCommandException e = assertThrows(MongoCommandException.class, () -> eval(op("$toInt", "1.5")));
        assertEquals(241, e.getErrorCode());
        assertEquals("ConversionFailure", e.getErrorCodeName());
    }

    @Test
    void arrayOperatorsAndVariables() {
        assertEquals(3, eval(op("$size", op("$literal", List.of(1, 2, 3)))));
        assertEquals(3, eval(op("$arrayElemAt", List.of(op("$literal", List.of(1, 2, 3)), -1))));
        assertEquals(true, eval(op("$in", List.of(2, op("$literal", List.of(1, 2, 3))))));
        assertEquals(List.of(2), eval(op("$slice", List.of(op("$literal", List.of(1, 2, 3)), 1, 1))));
        assertEquals(List.of(2, 3), eval(op("$slice", List.of(op("$literal", List.of(1, 2, 3)), -2))));
        assertEquals(List.of("hello", " ", "world"), eval(op("$concatArrays",
                List.of(op("$literal", List.of("hello", " ")), op("$literal", List.of("world"))))));
        List<Document> items = List.of(new Document("item_id", 43).append("price", 110),
                new Document("item_id", 2).append("price", 1), new Document("item_id", 7).append("price", 100));
        Object filtered = eval(op("$filter", new Document("input", op("$literal", items)).append("as", "item")
                .append("cond", op("$gte", List.of("$$item.price", 100)))));
        assertEquals(List.of(items.get(0), items.get(2)), filtered);
        assertEquals(List.of(items.get(0)), eval(op("$filter", new Document("input", op("$literal", items))
                .append("cond", op("$gte", List.of("$$this.price", 100))).append("limit", 1))));
        assertEquals(List.of(7, 8, 9), eval(op("$map", new Document("input", op("$literal", List.of(5, 6, 7)))
                .append("as", "x").append("in", op("$add", List.of("$$x", 2))))));
        assertEquals("abc", eval(op("$reduce", new Document("input", op("$literal", List.of("a", "b", "c")))
                .append("initialValue", "").append("in", op("$concat", List.of("$$value", "$$this"))))));
        assertEquals(new Document("sum", 15).append("product", 48), eval(op("$reduce",
                new Document("input", op("$literal", List.of(1, 2, 3, 4)))
                        .append("initialValue", new Document("sum", 5).append("product", 2))
                        .append("in", new Document("sum", op("$add", List.of("$$value.sum", "$$this")))
                                .append("product", op("$multiply", List.of("$$value.product", "$$this")))))));
        // an inner $map binds $$this again: each scope sees its own
        assertEquals(List.of(List.of(10, 20), List.of(30)), eval(op("$map",
                new Document("input", op("$literal", List.of(List.of(1, 2), List.of(3)))).append("as", "row")
                        .append("in", op("$map", new Document("input", "$$row")
                                .append("in", op("$multiply", List.of("$$this", 10))))))));
        Object let = eval(op("$let", new Document("vars", new Document("total", op("$add", List.of("$price", "$tax")))
                .append("discounted", op("$cond", new Document("if", "$applyDiscount").append("then", 0.9)
                        .append("else", 1))))
                .append("in", op("$multiply", List.of("$$total", "$$discounted")))));
        assertEquals(9.45, (Double) let, 1e-9);
        assertEquals(Arrays.asList(3, 2, 1), eval(op("$reverseArray", op("$literal", List.of(1, 2, 3)))));
    }
}
