package io.tetradb.mongo.bson;

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
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MaxKeyNode;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;
import org.bson.BsonBinary;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonRegularExpression;
import org.bson.BsonTimestamp;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The item a document maps to holds the core's typed values (no Extended JSON, no sidecar) and reads back, through
 * the typed tree and through the binary item format, as the same document; items in the earlier shape and items
 * other faces wrote read as documented.
 */
class DocumentMapperTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ItemCodec CODEC = new ItemCodec(JSON, 200);

    @Test
    void everyBsonTypeIsStoredAsItsTypedValue() {
        ObjectId oid = new ObjectId();
        java.util.UUID uuid = java.util.UUID.randomUUID();
        BsonDocument doc = new BsonDocument("_id", new BsonObjectId(oid))
                .append("i", new BsonInt32(7))
                .append("l", new BsonInt64(7))
                .append("huge", new BsonInt64((1L << 53) + 1))
                .append("d", new BsonDouble(-0.0))
                .append("nan", new BsonDouble(Double.NaN))
                .append("dec", new BsonDecimal128(Decimal128.parse("1.50")))
                .append("decInf", new BsonDecimal128(Decimal128.NEGATIVE_INFINITY))
                .append("date", new BsonDateTime(1_736_416_800_123L))
                .append("bin", new BsonBinary((byte) 0x80, new byte[]{1, 2, 3}))
                .append("uuid", new BsonBinary(uuid))
                .append("ts", new BsonTimestamp(1_700_000_000, 5))
                .append("re", new BsonRegularExpression("^a.c", "im"))
                .append("min", new BsonMinKey())
                .append("max", new BsonMaxKey())
                .append("id", new BsonString("a user field named id"));
        ObjectNode item = DocumentMapper.toItem(doc);
        assertEquals(ObjectIdNode.of(oid.toByteArray()), item.get("_id"));
        assertTrue(item.get("i") instanceof IntNode);
        assertTrue(item.get("l") instanceof LongNode);
        assertEquals((1L << 53) + 1, item.get("huge").longValue());
        assertEquals(Decimal128Node.of(new java.math.BigDecimal("1.50")), item.get("dec"));
        assertEquals(Decimal128Node.negativeInfinity(), item.get("decInf"));
        assertEquals(DateTimeNode.ofEpochMillis(1_736_416_800_123L), item.get("date"));
        assertEquals(BinaryDataNode.of(0x80, new byte[]{1, 2, 3}), item.get("bin"));
        assertEquals(UuidNode.of(uuid), item.get("uuid"));
        assertEquals(TimestampNode.of(1_700_000_000, 5), item.get("ts"));
        assertEquals(RegexNode.of("^a.c", "im"), item.get("re"));
        assertEquals(MinKeyNode.INSTANCE, item.get("min"));
        assertEquals(MaxKeyNode.INSTANCE, item.get("max"));
        assertEquals("a user field named id", item.get("~id").textValue());
        assertTrue(!item.has(DocumentMapper.TYPES), "no sidecar");
        assertEquals(doc, DocumentMapper.fromItem(item));
        assertEquals(doc, DocumentMapper.fromStored(CODEC, stored(item)));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(
                DocumentMapper.fromStored(CODEC, stored(item)).getDouble("d").getValue()), "-0.0 stays -0.0");
    }

    /** What the typed model has no type for keeps the tagged Extended JSON the bson library reads back. */
    @Test
    void typesOutsideTheModelRoundTrip() {
        BsonDocument doc = new BsonDocument("_id", new BsonInt32(1))
                .append("u", new org.bson.BsonUndefined())
                .append("sym", new org.bson.BsonSymbol("s"))
                .append("code", new org.bson.BsonJavaScript("x = 1"))
                .append("negZero", new BsonDecimal128(Decimal128.NEGATIVE_ZERO))
                .append("farFuture", new BsonDateTime(Long.MAX_VALUE))
                .append("farPast", new BsonDateTime(Long.MIN_VALUE));
        ObjectNode item = DocumentMapper.toItem(doc);
        assertEquals(doc, DocumentMapper.fromItem(item));
        assertEquals(doc, DocumentMapper.fromStored(CODEC, stored(item)));
    }

    /** Random documents of every type, nesting and size read back equal from the stored binary item. */
    @Test
    void randomDocumentsRoundTripThroughTheBinaryItem() {
        Random random = new Random(13);
        for (int i = 0; i < 500; i++) {
            BsonDocument doc = randomDocument(random, 0);
            doc.put("_id", new BsonInt32(i));
            doc.put("small", new BsonInt64(i));
            doc.put("nan", new BsonDouble(Double.NaN));
            ObjectNode item = DocumentMapper.toItem(doc);
            BsonDocument expected = new BsonDocument("_id", doc.get("_id"));
            doc.forEach((k, v) -> expected.putIfAbsent(k, v));
            assertEquals(expected, DocumentMapper.fromItem(item), doc.toJson());
            assertEquals(expected, DocumentMapper.fromStored(CODEC, stored(item)), doc.toJson());
        }
    }

    /**
     * Items stored by the earlier mapping (relaxed Extended JSON with the {@code _types} sidecar, in JSON text) read
     * as the documents they stored.
     */
    @Test
    void itemsInTheEarlierShapeStillRead() throws Exception {
        String legacy = "{\"id\": \"o5f0000000000000000000001\", \"_id\": {\"$oid\": \"5f0000000000000000000001\"},"
                + " \"at\": {\"$date\": \"2025-01-09T10:00:00.5Z\"}, \"old\": {\"$date\": {\"$numberLong\": \"-5\"}},"
                + " \"small\": 5, \"big\": 4000000000, \"dec\": 1.5, \"inf\": -1.7976931348623157E308,"
                + " \"nested\": {\"a/b~c\": [1, 2]}, \"bin\": {\"$binary\": {\"base64\": \"AQI=\", \"subType\": \"80\"}},"
                + " \"~id\": \"user id\", \"_types\": {\"/small\": \"long\", \"/dec\": \"decimal:1.50\","
                + " \"/inf\": \"double:-Infinity\", \"/nested/a~1b~0c/1\": \"long\"},"
                + " \"_rid\": \"r\", \"_self\": \"s\", \"_etag\": \"\\\"e\\\"\", \"_attachments\": \"attachments/\", \"_ts\": 1}";
        byte[] json = legacy.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] stored = new byte[ItemCodec.HEADER + json.length];
        stored[0] = 1;
        System.arraycopy(json, 0, stored, ItemCodec.HEADER, json.length);
        BsonDocument expected = new BsonDocument("_id", new BsonObjectId(new ObjectId("5f0000000000000000000001")))
                .append("at", new BsonDateTime(1_736_416_800_500L))
                .append("old", new BsonDateTime(-5))
                .append("small", new BsonInt64(5))
                .append("big", new BsonInt64(4_000_000_000L))
                .append("dec", new BsonDecimal128(Decimal128.parse("1.50")))
                .append("inf", new BsonDouble(Double.NEGATIVE_INFINITY))
                .append("nested", new BsonDocument("a/b~c", new BsonArray(List.of(new BsonInt32(1), new BsonInt64(2)))))
                .append("bin", new BsonBinary((byte) 0x80, new byte[]{1, 2}))
                .append("id", new BsonString("user id"));
        assertEquals(expected, DocumentMapper.fromStored(CODEC, stored));
        assertEquals(expected, DocumentMapper.fromItem(JSON.readTree(legacy)));
        // the tagged values of the earlier shape in a binary item (converted to TB1 by the core, without a sidecar)
        ObjectNode tagged = (ObjectNode) JSON.readTree(legacy);
        for (String sidecarOnly : List.of("_types", "small", "dec", "inf", "nested", "_rid", "_self", "_etag",
                "_attachments", "_ts")) {
            tagged.remove(sidecarOnly);
            expected.remove(sidecarOnly);
        }
        assertEquals(expected, DocumentMapper.fromStored(CODEC, stored(tagged)));
    }

    /** Items other faces wrote: {@code _id} from the item id, no bookkeeping, their types where they are known. */
    @Test
    void itemsOfOtherFacesShowInBsonTypes() throws Exception {
        ObjectNode entity = (ObjectNode) JSON.readTree("{\"id\": \"row1\", \"PartitionKey\": \"p\","
                + " \"Timestamp\": \"2026-11-23T21:11:31.1234567Z\", \"Age\": 42, \"Balance\": 5,"
                + " \"Joined\": \"2016-03-01T09:30:00.1234567Z\", \"G\": \"0b5f1e8e-4a0c-4d7b-9d7c-3c1b2a4e5f60\","
                + " \"B\": \"0aff\", \"_types\": {\"Balance\": \"Edm.Int64\", \"Joined\": \"Edm.DateTime\","
                + " \"G\": \"Edm.Guid\", \"B\": \"Edm.Binary\"}, \"_rid\": \"r\", \"_ts\": 1700000000}");
        assertEquals(new BsonDocument("_id", new BsonString("row1")).append("PartitionKey", new BsonString("p"))
                .append("Timestamp", new BsonDateTime(java.time.Instant.parse("2026-11-23T21:11:31.123Z").toEpochMilli()))
                .append("Age", new BsonInt32(42)).append("Balance", new BsonInt64(5))
                .append("Joined", new BsonDateTime(java.time.Instant.parse("2016-03-01T09:30:00.123Z").toEpochMilli()))
                .append("G", new BsonBinary(java.util.UUID.fromString("0b5f1e8e-4a0c-4d7b-9d7c-3c1b2a4e5f60")))
                .append("B", new BsonBinary(new byte[]{0x0a, (byte) 0xff})), DocumentMapper.fromItem(entity));
        ObjectNode typedEntity = JSON.createObjectNode().put("id", "row2").put("PartitionKey", "p").put("_ts", 10);
        typedEntity.set("When", DateTimeNode.ofTicks(17_364_168_001_234_567L));
        assertEquals(new BsonDocument("_id", new BsonString("row2")).append("PartitionKey", new BsonString("p"))
                .append("When", new BsonDateTime(1_736_416_800_123L)).append("Timestamp", new BsonDateTime(10_000)),
                DocumentMapper.fromItem(typedEntity));
        ObjectNode vertex = (ObjectNode) JSON.readTree("{\"id\": \"v1\", \"pk\": \"USA\", \"label\": \"city\","
                + " \"name\": [{\"id\": \"p1\", \"_value\": \"Seattle\"}],"
                + " \"pop\": [{\"id\": \"p2\", \"_value\": 700000, \"_types\": {\"_value\": \"long\"}}],"
                + " \"founded\": [{\"id\": \"p3\", \"_value\": 1000, \"_types\": {\"_value\": \"date\"}}],"
                + " \"tags\": [{\"id\": \"p4\", \"_value\": \"a\"}, {\"id\": \"p5\", \"_value\": \"b\"}], \"_etag\": \"x\"}");
        assertEquals(new BsonDocument("_id", new BsonString("v1")).append("pk", new BsonString("USA"))
                .append("label", new BsonString("city")).append("name", new BsonString("Seattle"))
                .append("pop", new BsonInt64(700_000)).append("founded", new BsonDateTime(1000))
                .append("tags", new BsonArray(List.of(new BsonString("a"), new BsonString("b")))),
                DocumentMapper.fromItem(vertex));
        ObjectNode edge = (ObjectNode) JSON.readTree("{\"id\": \"e1\", \"pk\": \"USA\", \"label\": \"road\","
                + " \"_isEdge\": true, \"_vertexId\": \"v1\", \"_vertexLabel\": \"city\", \"_sink\": \"v2\","
                + " \"_sinkLabel\": \"city\", \"_sinkPartition\": \"USA\", \"miles\": 12}");
        assertEquals(new BsonDocument("_id", new BsonString("e1")).append("pk", new BsonString("USA"))
                .append("label", new BsonString("road")).append("miles", new BsonInt32(12)),
                DocumentMapper.fromItem(edge));
    }

    /** The stored bytes of an item in the binary format, with system properties, as the core writes them. */
    private static byte[] stored(ObjectNode item) {
        return StoredItems.finish(new BinaryItemWriter().write(item), 1, "rid".getBytes(), "dbs/x/".getBytes(),
                "etag", 5);
    }

    @Test
    void dbRefsAndIdOrderRoundTripThroughTheTreeAndTheStream() throws Exception {
        BsonDocument doc = BsonDocument.parse("{a: {$ref: 'c', $id: {$oid: '5f0000000000000000000001'}, $db: 'd'},"
                + " l: [{$ref: 'c', $id: {$numberLong: '7'}}], _id: 1}");
        ObjectNode item = DocumentMapper.toItem(doc);
        for (BsonDocument back : List.of(DocumentMapper.fromItem(item), DocumentMapper.fromStored(CODEC, stored(item)))) {
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

    /**
     * The point read's transcoding (a binary item straight into BSON bytes) reads every document as the decoder does:
     * the model's common types are transcoded, the rest (regexes, big decimals, tagged values, the sidecar) are
     * handed back to the decoder; names the face escapes come back as the user's.
     */
    @Test
    void transcodedRepliesEqualTheDecodedDocuments() {
        BsonDocument common = BsonDocument.parse("{_id: {k: 'compound', n: [1, {$numberLong: '2'}]}, s: 'é ü 😀', "
                + "i: 7, l: {$numberLong: '-9'}, d: -0.0, nan: NaN, dec: {$numberDecimal: '1.50'}, t: true, f: false, "
                + "z: null, date: {$date: '2026-01-02T03:04:05.678Z'}, oid: {$oid: '5f0000000000000000000001'}, "
                + "bin: {$binary: {base64: 'AQID', subType: '80'}}, "
                + "uuid: {$binary: {base64: 'AAECAwQFBgcICQoLDA0ODw==', subType: '04'}}, "
                + "ts: {$timestamp: {t: 1700000000, i: 5}}, min: {$minKey: 1}, max: {$maxKey: 1}, "
                + "arr: [[], {}, [1, [2, {a: 'b'}]], 'x'], id: 'a user field named id', '~x': 1, _ts: 'mine', "
                + "ref: {$ref: 'c', $id: 1}, nested: {'~y': 1, id: 2, deep: {deeper: [{e: 1}]}}}");
        BsonDocument transcoded = DocumentMapper.fromStoredForReply(CODEC, stored(DocumentMapper.toItem(common)));
        assertTrue(transcoded instanceof org.bson.RawBsonDocument, "the common types are transcoded");
        assertEquals(common, transcoded);
        assertEquals(List.copyOf(common.keySet()), List.copyOf(transcoded.keySet()));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(
                transcoded.getDouble("d").getValue()), "-0.0 stays -0.0");

        BsonDocument idLast = BsonDocument.parse("{a: 1, b: [1, 2], _id: 'last'}");
        ObjectNode item = DocumentMapper.toItem(idLast);
        item.remove("_id");
        item.set("_id", DocumentMapper.toItem(idLast).get("_id")); // an item stored with _id last
        assertEquals(List.of("_id", "a", "b"), List.copyOf(DocumentMapper.fromStoredForReply(CODEC, stored(item))
                .keySet()));

        BsonDocument rare = new BsonDocument("_id", new BsonInt32(1))
                .append("re", new BsonRegularExpression("^a.c", "mi"))
                .append("u", new org.bson.BsonUndefined())
                .append("negZero", new BsonDecimal128(Decimal128.NEGATIVE_ZERO))
                .append("old", new BsonBinary((byte) 2, new byte[]{1, 2}))
                .append("farFuture", new BsonDateTime(Long.MAX_VALUE));
        for (String field : List.of("re", "u", "negZero", "old", "farFuture")) {
            BsonDocument one = new BsonDocument("_id", new BsonInt32(1)).append(field, rare.get(field));
            BsonDocument back = DocumentMapper.fromStoredForReply(CODEC, stored(DocumentMapper.toItem(one)));
            assertEquals(DocumentMapper.fromStored(CODEC, stored(DocumentMapper.toItem(one))), back, field);
        }
        // arrays past the precomputed element names, and top-level names that share a first byte or a length with
        // the hidden ones (only the hidden names themselves are left out)
        org.bson.BsonArray longArray = new org.bson.BsonArray();
        for (int i = 0; i < 1_100; i++) {
            longArray.add(i % 3 == 0 ? new org.bson.BsonString("s" + i) : new BsonInt32(i));
        }
        BsonDocument lookalikes = new BsonDocument("_id", new BsonInt32(5)).append("long", longArray)
                .append("_i", new BsonInt32(1)).append("_idx", new BsonInt32(2)).append("i", new BsonInt32(3))
                .append("ids", new BsonInt32(4)).append("_ri", new BsonInt32(5)).append("_selfish", new BsonInt32(6))
                .append("_etags", new BsonInt32(7)).append("~rep2", new BsonInt32(8)).append("_tss", new BsonInt32(9))
                .append("nested", new BsonDocument("_rid", new BsonInt32(10)).append("id", longArray));
        BsonDocument lookalikesBack = DocumentMapper.fromStoredForReply(CODEC, stored(DocumentMapper.toItem(lookalikes)));
        assertTrue(lookalikesBack instanceof org.bson.RawBsonDocument);
        assertEquals(lookalikes, lookalikesBack);
        assertEquals(List.copyOf(lookalikes.keySet()), List.copyOf(lookalikesBack.keySet()));

        Random random = new Random(17);
        for (int i = 0; i < 500; i++) {
            BsonDocument doc = randomDocument(random, 0);
            doc.put("_id", new BsonInt32(i));
            byte[] stored = stored(DocumentMapper.toItem(doc));
            assertEquals(DocumentMapper.fromStored(CODEC, stored), DocumentMapper.fromStoredForReply(CODEC, stored),
                    doc.toJson());
        }
    }

    /**
     * An insert's document still in its wire bytes ({@code RawBsonDocument}, as the request decoder keeps them) maps
     * to the item its decoded tree maps to: read straight from the bytes in the common shape, through the tree for
     * DBRefs, tagged types and the limits (with the same errors).
     */
    @Test
    void rawDocumentsMapAsTheirTrees() {
        Random random = new Random(23);
        List<BsonDocument> docs = new java.util.ArrayList<>(List.of(
                BsonDocument.parse("{a: 1, _id: 'last', id: 'x', '~t': 2, _ts: 3, sub: {id: 1, '~u': [1, {b: null}]}, "
                        + "d: {$date: '2026-01-02T03:04:05.678Z'}, o: {$oid: '5f0000000000000000000001'}, "
                        + "dec: {$numberDecimal: '1.50'}, negZero: {$numberDecimal: '-0'}, re: {$regex: 'a', $options: 'i'}, "
                        + "bin: {$binary: {base64: 'AQID', subType: '80'}}, min: {$minKey: 1}, t: {$timestamp: {t: 1, i: 2}}}"),
                BsonDocument.parse("{_id: {k: 1}, ref: {$ref: 'c', $id: 1}}"),
                BsonDocument.parse("{_id: 2, far: {$date: {$numberLong: '9223372036854775807'}}, u: {$undefined: true}}")));
        for (int i = 0; i < 300; i++) {
            BsonDocument doc = randomDocument(random, 0);
            doc.put("_id", new BsonInt32(i));
            docs.add(doc);
        }
        for (BsonDocument doc : docs) {
            org.bson.RawBsonDocument raw = new org.bson.RawBsonDocument(doc, new org.bson.codecs.BsonDocumentCodec());
            ObjectNode expected = DocumentMapper.toItem(doc);
            ObjectNode actual = DocumentMapper.toItem(raw);
            assertEquals(expected, actual, doc.toJson());
            assertEquals(List.copyOf(iterable(expected.fieldNames())), List.copyOf(iterable(actual.fieldNames())));
        }
        BsonDocument deep = new BsonDocument("_id", new BsonInt32(1));
        BsonDocument level = deep;
        for (int i = 0; i < 100; i++) {
            BsonDocument next = new BsonDocument();
            level.put("n", next);
            level = next;
        }
        io.tetradb.mongo.command.MongoError tooDeep = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.mongo.command.MongoError.class, () -> DocumentMapper.toItem(
                        new org.bson.RawBsonDocument(deep, new org.bson.codecs.BsonDocumentCodec())));
        assertEquals(2, tooDeep.code().code());
        io.tetradb.mongo.command.MongoError badRef = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.mongo.command.MongoError.class, () -> DocumentMapper.toItem(new org.bson.RawBsonDocument(
                        BsonDocument.parse("{_id: 1, a: {$id: 1, $ref: 'c'}}"), new org.bson.codecs.BsonDocumentCodec())));
        assertEquals(55, badRef.code().code());
    }

    /**
     * write-path: an insert's document encoded straight from its wire bytes into the core's binary item format gives
     * exactly the bytes of the tree {@link DocumentMapper#toItem} maps it to (ids of every kind, ASCII strings with
     * NULs, non-ASCII strings, names the store escapes, every common type, nesting); what the tree path maps the
     * general way (DBRefs, tagged types, dates beyond the model, repeated names) is not encoded.
     */
    @Test
    void rawDocumentsEncodeAsTheirTrees() {
        Random random = new Random(29);
        List<BsonDocument> docs = new java.util.ArrayList<>(List.of(
                BsonDocument.parse("{a: 1, _id: 'last', id: 'x', '~t': 2, _ts: 3, sub: {id: 1, '~u': [1, {b: null}]}, "
                        + "s: 'nul\\u0000in', e: '\u00e9t\u00e9 \ud83d\ude00', d: {$date: '2026-01-02T03:04:05.678Z'}, "
                        + "o: {$oid: '5f0000000000000000000001'}, dec: {$numberDecimal: '1.50'}, "
                        + "re: {$regex: 'a', $options: 'i'}, bin: {$binary: {base64: 'AQID', subType: '80'}}, "
                        + "u: {$binary: {base64: 'AAECAwQFBgcICQoLDA0ODw==', subType: '04'}}, "
                        + "t: {$timestamp: {t: 1, i: 2}}, f: true, n: null, l: {$numberLong: '5'}}"),
                BsonDocument.parse("{_id: {$oid: '5f0000000000000000000002'}, x: [[1, 'a'], {y: 'z'}]}"),
                BsonDocument.parse("{_id: 3.5, x: 'y'}")));
        for (int i = 0; i < 300; i++) {
            BsonDocument doc = randomDocument(random, 0);
            doc.put("_id", i % 2 == 0 ? new BsonInt32(i) : new BsonString("s" + i));
            docs.add(doc);
        }
        for (BsonDocument doc : docs) {
            org.bson.RawBsonDocument raw = new org.bson.RawBsonDocument(doc, new org.bson.codecs.BsonDocumentCodec());
            io.tetradb.core.store.ItemOperation op = DocumentMapper.createOperation(raw, CODEC);
            // encoded exactly when the tree is read from the bytes too (a date beyond the model: neither)
            assertEquals(RawBsonItems.toItem(raw) != null, op.encoded() != null, doc.toJson());
            assertTrue(op.encoded() != null || docs.indexOf(doc) >= 3, "encoded: " + doc.toJson());
            if (op.encoded() == null) {
                continue;
            }
            org.junit.jupiter.api.Assertions.assertArrayEquals(
                    io.tetradb.core.item.BinaryItemWriter.encode(DocumentMapper.toItem(doc)), op.encoded().body(),
                    doc.toJson());
        }
        for (String general : new String[]{"{_id: 1, ref: {$ref: 'c', $id: 1}}", "{_id: 1, m: {$minKey: 1}}",
                "{_id: 2, far: {$date: {$numberLong: '9223372036854775807'}}}", "{_id: {k: 1}}"}) {
            org.bson.RawBsonDocument raw = new org.bson.RawBsonDocument(BsonDocument.parse(general),
                    new org.bson.codecs.BsonDocumentCodec());
            assertEquals(null, RawBsonItems.toEncoded(raw, CODEC), general);
        }
        // a repeated name (the tree keeps the last value at the first's place): the tree's item, not an encoding
        org.bson.io.BasicOutputBuffer out = new org.bson.io.BasicOutputBuffer();
        try (org.bson.BsonBinaryWriter w = new org.bson.BsonBinaryWriter(out)) {
            w.writeStartDocument();
            w.writeInt32("_id", 1);
            w.writeString("a", "first");
            w.writeString("a", "second");
            w.writeEndDocument();
        }
        org.bson.RawBsonDocument twice = new org.bson.RawBsonDocument(out.toByteArray());
        io.tetradb.core.store.ItemOperation op = DocumentMapper.createOperation(twice, CODEC);
        assertEquals(null, op.encoded());
        assertEquals("second", op.item().get("a").textValue());
    }

    /**
     * mongo-net: the one-pass encoding with {@code _id} first (every id type: the usual ones read in place, the rest
     * through the document), names and strings copied as bytes (ASCII and non-ASCII names at the top and nested, names
     * the store escapes), malformed UTF-8 in strings (decoded with U+FFFD as the driver decodes them), dates at the
     * model's edges and ObjectIds: exactly the bytes of the tree the decoded document maps to.
     */
    @Test
    void idFirstDocumentsWithRawNamesAndStringsEncodeAsTheirTrees() {
        List<BsonValue> ids = List.of(new BsonInt32(7), new BsonInt64(1L << 40), new BsonString("k\u00e9y/1"),
                new BsonString(""), new BsonObjectId(new ObjectId("5f0000000000000000000003")), new BsonDouble(2.5),
                new BsonDateTime(5), new BsonDecimal128(Decimal128.parse("3.10")), new org.bson.BsonBoolean(true));
        Random random = new Random(31);
        List<byte[]> docs = new java.util.ArrayList<>();
        for (BsonValue id : ids) {
            BsonDocument doc = new BsonDocument("_id", id).append("id", new BsonString("escaped"))
                    .append("\u00e9t\u00e9", new BsonString("caf\u00e9 \ud83d\ude00"))
                    .append("plain", new BsonString("ascii only, longer than eight bytes"))
                    .append("bad", new BsonString("XXXXXXXXXXXXXXXX"))
                    .append("sub", new BsonDocument("\u00fcber", new BsonInt32(1)).append("bad2", new BsonString("YYYYY"))
                            .append("_id", new BsonString("inner")).append("id", new BsonInt32(2)))
                    .append("when", new BsonDateTime(Long.MAX_VALUE / 10_000L))
                    .append("early", new BsonDateTime(Long.MIN_VALUE / 10_000L))
                    .append("oid", new BsonObjectId(new ObjectId("65a1b2c3d4e5f60718293a4b")))
                    .append("arr", new BsonArray(List.of(new BsonObjectId(new ObjectId("5f0000000000000000000004")),
                            new BsonDateTime(-1), new BsonString("\u00e9"))));
            byte[] bytes = new org.bson.RawBsonDocument(doc, new org.bson.codecs.BsonDocumentCodec()).getByteBuffer()
                    .array().clone();
            // malformed UTF-8 where the placeholders were: lone continuation, overlong, a surrogate, past U+10FFFF,
            // a truncated sequence before ASCII
            patch(bytes, "XXXXXXXXXXXXXXXX", new byte[]{(byte) 0x80, 'a', (byte) 0xC0, (byte) 0xAF, (byte) 0xED,
                    (byte) 0xA0, (byte) 0x80, (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, (byte) 0xE2,
                    (byte) 0x82, 'b', 'c', 'd'});
            patch(bytes, "YYYYY", new byte[]{'o', 'k', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF});
            docs.add(bytes);
        }
        for (int i = 0; i < 200; i++) { // random documents with _id moved to the front
            BsonDocument r = randomDocument(random, 0);
            BsonDocument doc = new BsonDocument("_id", i % 3 == 0 ? new BsonInt32(i) : new BsonString("s\u00e9" + i));
            r.forEach((k, v) -> {
                if (!k.equals("_id")) {
                    doc.put(k, v);
                }
            });
            docs.add(new org.bson.RawBsonDocument(doc, new org.bson.codecs.BsonDocumentCodec()).getByteBuffer().array()
                    .clone());
        }
        for (byte[] bytes : docs) {
            org.bson.RawBsonDocument raw = new org.bson.RawBsonDocument(bytes);
            BsonDocument decoded = raw.decode(new org.bson.codecs.BsonDocumentCodec());
            io.tetradb.core.store.EncodedItem encoded = RawBsonItems.toEncoded(raw, CODEC);
            // the crafted documents always encode; a random one only when its tree is read from the bytes too (a
            // date beyond the model: neither)
            assertTrue(encoded != null || docs.indexOf(bytes) >= ids.size(), decoded.toJson());
            if (encoded == null) {
                assertEquals(null, RawBsonItems.toItem(raw), decoded.toJson());
                continue;
            }
            org.junit.jupiter.api.Assertions.assertArrayEquals(BinaryItemWriter.encode(DocumentMapper.toItem(decoded)),
                    encoded.body(), decoded.toJson());
        }
    }

    private static void patch(byte[] bytes, String placeholder, byte[] with) {
        byte[] p = placeholder.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i + p.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + p.length, p, 0, p.length)) {
                System.arraycopy(with, 0, bytes, i, with.length);
                return;
            }
        }
        throw new AssertionError("no " + placeholder);
    }

    /** mongo-net: the UTF-8 check that lets strings be copied as bytes accepts exactly what the JDK decodes as is. */
    @Test
    void wellFormedUtf8IsWhatTheDecoderKeeps() {
        Random random = new Random(37);
        byte[] interesting = {0, 'a', 0x7F, (byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xC1, (byte) 0xC2,
                (byte) 0xDF, (byte) 0xE0, (byte) 0xA0, (byte) 0x9F, (byte) 0xED, (byte) 0xEF, (byte) 0xF0, (byte) 0x90,
                (byte) 0x8F, (byte) 0xF4, (byte) 0xF5, (byte) 0xFF};
        for (int i = 0; i < 200_000; i++) {
            int n = random.nextInt(24);
            byte[] b = new byte[n + 2];
            for (int k = 1; k <= n; k++) {
                b[k] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : interesting[random.nextInt(interesting.length)];
            }
            byte[] roundTrip = new String(b, 1, n, java.nio.charset.StandardCharsets.UTF_8)
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            boolean kept = java.util.Arrays.equals(roundTrip, 0, roundTrip.length, b, 1, n + 1);
            assertEquals(kept, RawBsonItems.wellFormedUtf8(b, 1, n), java.util.Arrays.toString(b));
        }
    }

    private static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
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
    /**
     * mongo-insert: whether an insert's document has an {@code _id} is read from its first name when that is
     * {@code _id} (drivers put it there), else by the search {@code containsKey} makes; the answer is containsKey's
     * for every shape, the document a view inside a larger array (as the request decoder keeps an insert's documents).
     */
    @org.junit.jupiter.api.Test
    void hasIdAnswersAsContainsKeyReadingOnlyTheFirstNameWhenItIsTheId() {
        List<BsonDocument> shapes = List.of(
                new BsonDocument("_id", new BsonInt32(1)).append("a", new BsonInt32(2)),
                new BsonDocument("a", new BsonInt32(1)).append("_id", new BsonString("x")),
                new BsonDocument("a", new BsonInt32(1)).append("b", new BsonDocument("_id", new BsonInt32(3))),
                new BsonDocument("_idx", new BsonInt32(1)),
                new BsonDocument("_i", new BsonInt32(1)).append("d", new BsonInt32(1)),
                new BsonDocument("_id", new BsonDocument("k", new BsonInt32(1))),
                new BsonDocument());
        List<Boolean> expected = List.of(true, true, false, false, false, true, false);
        for (int i = 0; i < shapes.size(); i++) {
            org.bson.RawBsonDocument alone = new org.bson.RawBsonDocument(shapes.get(i),
                    new org.bson.codecs.BsonDocumentCodec());
            byte[] own = java.util.Arrays.copyOfRange(alone.getByteBuffer().array(),
                    alone.getByteBuffer().arrayOffset(), alone.getByteBuffer().arrayOffset() + alone.getByteBuffer().remaining());
            byte[] framed = new byte[own.length + 37]; // a view at an offset, bytes after it that are not its own
            System.arraycopy(own, 0, framed, 21, own.length);
            java.util.Arrays.fill(framed, 21 + own.length, framed.length, (byte) 0x5F);
            org.bson.RawBsonDocument view = new org.bson.RawBsonDocument(framed, 21, own.length);
            assertEquals(expected.get(i), DocumentMapper.hasId(alone), shapes.get(i).toJson());
            assertEquals(expected.get(i), DocumentMapper.hasId(view), shapes.get(i).toJson());
            assertEquals(expected.get(i), DocumentMapper.hasId(shapes.get(i)), shapes.get(i).toJson());
            assertEquals(shapes.get(i).containsKey("_id"), DocumentMapper.hasId(view));
        }
    }
}
