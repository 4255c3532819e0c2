package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.bson.BsonArray;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The item a document maps to is its relaxed Extended JSON as the bson library writes it (ObjectIds and dates are
 * written by the face itself, so they are compared with the library's output here), and reads back to an equal
 * document.
 */
class DocumentMapperTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

    @Test
    void datesAndObjectIdsAreWrittenAsTheLibraryWritesThem() throws Exception {
        Random random = new Random(7);
        long[] edges = {0, 1, 999, 1000, 86_399_999, 253402300799999L, 253402300800000L, -1, -86_400_000L,
                Long.MIN_VALUE, Long.MAX_VALUE, 951_782_400_000L /* 2000-02-29 */};
        for (int i = 0; i < 2000 + edges.length; i++) {
            long ms = i < edges.length ? edges[i] : random.nextLong() % 300_000_000_000_000L;
            BsonValue date = new BsonDateTime(ms);
            assertMapsLikeTheLibrary(date);
            assertMapsLikeTheLibrary(new BsonObjectId(new ObjectId()));
        }
    }

    /** The positional reader of this face's date form agrees with java.time's ISO parser, and refuses other forms. */
    @Test
    void plainUtcDatesReadByPositionAsJavaTimeReadsThem() {
        Random random = new Random(11);
        for (int i = 0; i < 5000; i++) {
            long ms = Math.floorMod(random.nextLong(), 253402300800000L);
            String text = java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
                    java.time.Instant.ofEpochMilli(ms).atOffset(java.time.ZoneOffset.UTC));
            assertEquals(ms, DocumentMapper.utcMillis(text), text);
        }
        assertEquals(1_500L, DocumentMapper.utcMillis("1970-01-01T00:00:01.5Z"));
        assertEquals(1_123L, DocumentMapper.utcMillis("1970-01-01T00:00:01.123456789Z"));
        for (String other : List.of("2020-02-30T00:00:00Z", "2020-01-01T00:00:00+01:00", "2020-01-01T24:00:00Z",
                "2020-01-01 00:00:00Z", "2020-01-01T00:00:00.Z", "2020-1-01T00:00:00Z", "+2020-01-01T00:00:00Z")) {
            assertEquals(Long.MIN_VALUE, DocumentMapper.utcMillis(other), other);
        }
    }

    private static void assertMapsLikeTheLibrary(BsonValue v) throws Exception {
        BsonDocument doc = new BsonDocument("_id", new BsonInt32(1)).append("v", v);
        ObjectNode item = DocumentMapper.toItem(doc);
        JsonNode expected = JSON.readTree(new BsonDocument("v", v).toJson(RELAXED)).get("v");
        assertEquals(expected, item.get("v"), v.toString());
        assertEquals(doc, DocumentMapper.fromItem(item), v.toString());
    }

    /**
     * The streaming reader of stored items gives what the tree reader gives: random documents (every type, nesting,
     * the numbers' sidecar), stored with the core's system properties, and items other faces wrote ('$' names that
     * are no Extended JSON, huge integers, floats, nulls).
     */
    @Test
    void streamingReadEqualsTreeRead() throws Exception {
        Random random = new Random(13);
        for (int i = 0; i < 500; i++) {
            BsonDocument doc = randomDocument(random, 0);
            doc.put("_id", new BsonInt32(i));
            doc.put("small", new BsonInt64(i));
            doc.put("nan", new BsonDouble(Double.NaN));
            ObjectNode item = DocumentMapper.toItem(doc);
            item.put("_rid", "x").put("_self", "y").put("_etag", "\"z\"").put("_ts", 1).putObject("_attachments");
            assertStreamsLikeTree(item);
            assertEquals(doc, fromJson(item), doc.toJson());
        }
        assertStreamsLikeTree((ObjectNode) JSON.readTree("{\"id\": \"a\", \"o\": {\"$weird\": 1, \"b\": [1, 2]},"
                + " \"big\": 123456789012345678901234567890, \"f\": 1.5e300, \"n\": null, \"e\": {}, \"ea\": [],"
                + " \"l\": 4000000000, \"neg\": -7, \"t\": true, \"d\": {\"$date\": \"2020-01-01\"},"
                + " \"~id\": \"user id\", \"_types\": {\"/l\": \"long\"}}"));
    }

    @Test
    void dbRefsAndIdOrderRoundTripThroughTheTreeAndTheStream() throws Exception {
        BsonDocument doc = BsonDocument.parse("{a: {$ref: 'c', $id: {$oid: '5f0000000000000000000001'}, $db: 'd'},"
                + " l: [{$ref: 'c', $id: {$numberLong: '7'}}], _id: 1}");
        ObjectNode item = DocumentMapper.toItem(doc);
        for (BsonDocument back : List.of(DocumentMapper.fromItem(item), fromJson(item))) {
            assertEquals(doc, back);
            assertEquals(List.of("_id", "a", "l"), List.copyOf(back.keySet()));
            assertEquals(List.of("$ref", "$id", "$db"), List.copyOf(back.getDocument("a").keySet()));
            assertEquals(new org.bson.BsonInt64(7), back.getArray("l").get(0).asDocument().get("$id"));
        }
        io.tetradb.mongo.command.MongoError noRef = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.mongo.command.MongoError.class, () -> DocumentMapper.toItem(BsonDocument.parse(
                        "{_id: 1, a: {$id: 1, $ref: 'c'}}")));
        assertEquals(55, noRef.code().code());
        io.tetradb.mongo.command.MongoError dbNotString = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.mongo.command.MongoError.class, () -> DocumentMapper.toItem(BsonDocument.parse(
                        "{_id: 1, a: {$ref: 'c', $id: 1, $db: 2}}")));
        assertEquals(55, dbNotString.code().code());
    }

    private static void assertStreamsLikeTree(ObjectNode item) throws Exception {
        assertEquals(DocumentMapper.fromItem(item), fromJson(item), item.toString());
    }

    private static BsonDocument fromJson(ObjectNode item) throws Exception {
        byte[] json = JSON.writeValueAsBytes(item);
        byte[] padded = new byte[json.length + 9];
        System.arraycopy(json, 0, padded, 9, json.length);
        return DocumentMapper.fromItemJson(JSON, padded, 9, json.length);
    }

    /** The cheap bound that spares most documents an encoding pass is never below the real size. */
    @Test
    void sizeBoundIsNeverBelowTheEncodedSize() {
        Random random = new Random(3);
        for (int i = 0; i < 500; i++) {
            BsonDocument doc = randomDocument(random, 0);
            assertTrue(DocumentMapper.sizeBound(doc) >= BsonSize.of(doc), doc.toJson());
        }
    }

    private static BsonDocument randomDocument(Random random, int depth) {
        BsonDocument d = new BsonDocument();
        int fields = random.nextInt(6);
        for (int f = 0; f < fields; f++) {
            d.append(randomString(random), randomValue(random, depth));
        }
        return d;
    }

    private static BsonValue randomValue(Random random, int depth) {
        return switch (random.nextInt(depth > 3 ? 9 : 11)) {
            case 0 -> new BsonString(randomString(random));
            case 1 -> new BsonInt32(random.nextInt());
            case 2 -> new BsonInt64(random.nextLong());
            case 3 -> new BsonDouble(random.nextDouble());
            case 4 -> new BsonDateTime(random.nextLong());
            case 5 -> new BsonObjectId(new ObjectId());
            case 6 -> new org.bson.BsonBinary(new byte[random.nextInt(40)]);
            case 7 -> new org.bson.BsonRegularExpression(randomString(random), "i");
            case 8 -> new BsonDecimal128(Decimal128.parse(Integer.toString(random.nextInt())));
            case 9 -> randomDocument(random, depth + 1);
            default -> {
                BsonArray a = new BsonArray();
                for (int i = random.nextInt(15); i > 0; i--) {
                    a.add(randomValue(random, depth + 1));
                }
                yield a;
            }
        };
    }

    private static String randomString(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            sb.append(random.nextInt(4) == 0 ? (char) (0x800 + random.nextInt(0x7000)) : (char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    @Test
    void dollarNamesAndDeepNestingAreRefused() {
        io.tetradb.mongo.command.MongoError dollar = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.mongo.command.MongoError.class, () -> DocumentMapper.toItem(BsonDocument.parse(
                        "{_id: 1, a: [{b: {'$bad': 1}}]}")));
        assertEquals(52, dollar.code().code());
        BsonDocument ok = new BsonDocument("x", new BsonInt32(1));
        for (int level = 2; level < io.tetradb.mongo.command.Limits.MAX_NESTING_DEPTH; level++) {
            ok = new BsonDocument("d", ok);
        }
        BsonDocument hundred = new BsonDocument("_id", new BsonInt32(1)).append("d", ok);
        assertEquals(hundred, DocumentMapper.fromItem(DocumentMapper.toItem(hundred)), "100 levels are allowed");
        BsonDocument deeper = new BsonDocument("_id", new BsonInt32(1)).append("d", new BsonArray(List.of(ok)));
        io.tetradb.mongo.command.MongoError deep = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.mongo.command.MongoError.class, () -> DocumentMapper.toItem(deeper));
        assertEquals(2, deep.code().code(), "101 levels: BadValue");
    }

    @Test
    void numbersKeepTheirTypesThroughTheSidecar() {
        BsonDocument doc = new BsonDocument("_id", new BsonInt32(1))
                .append("small", new BsonInt64(5))
                .append("big", new BsonInt64(1L << 40))
                .append("nan", new BsonDouble(Double.NaN))
                .append("dec", new BsonDecimal128(Decimal128.parse("1.50")))
                .append("nested", new BsonDocument("a/b~c", new BsonArray(java.util.List.of(new BsonInt32(1),
                        new BsonInt64(2), new BsonDocument("inf", new BsonDouble(Double.NEGATIVE_INFINITY))))))
                .append("id", new BsonString("user id field"));
        ObjectNode item = DocumentMapper.toItem(doc);
        assertEquals("long", item.get(DocumentMapper.TYPES).get("/small").asText());
        assertEquals("long", item.get(DocumentMapper.TYPES).get("/nested/a~1b~0c/1").asText());
        assertEquals("double:-Infinity", item.get(DocumentMapper.TYPES).get("/nested/a~1b~0c/2/inf").asText());
        assertEquals(1.5, item.get("dec").asDouble());
        assertEquals(doc, DocumentMapper.fromItem(item));
    }
}
