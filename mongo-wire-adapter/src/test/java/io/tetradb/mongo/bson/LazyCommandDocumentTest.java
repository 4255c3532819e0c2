package io.tetradb.mongo.bson;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonUndefined;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A command read lazily from its bytes answers exactly as the tree the codec decodes from the same bytes: every
 * value type, repeated names (first position, last value), nested values handed out once and kept when the tree is
 * built, appended kind-1 sections, and a point find's fields read without building the tree.
 */
class LazyCommandDocumentTest {

    private static byte[] bytes(BsonDocument d) {
        ByteBuffer b = new RawBsonDocument(d, new BsonDocumentCodec()).getByteBuffer().asNIO();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static BsonDocument codec(byte[] b) {
        return new RawBsonDocument(b).decode(new BsonDocumentCodec());
    }

    private static BsonDocument everyType() {
        return new BsonDocument("find", new BsonString("c"))
                .append("d", new BsonDouble(-0.0)).append("s", new BsonString("é 😀"))
                .append("doc", new BsonDocument("a", new BsonArray(List.of(new BsonInt32(1), new BsonDocument()))))
                .append("arr", new BsonArray(List.of(new BsonString("x"), new BsonArray())))
                .append("bin", new BsonBinary(BsonBinarySubType.UUID_STANDARD, new byte[16]))
                .append("old", new BsonBinary(BsonBinarySubType.OLD_BINARY, new byte[] {1, 2, 3}))
                .append("u", new BsonUndefined()).append("oid", new BsonObjectId(new ObjectId()))
                .append("t", BsonBoolean.TRUE).append("f", BsonBoolean.FALSE)
                .append("date", new BsonDateTime(1_700_000_000_000L)).append("null", BsonNull.VALUE)
                .append("re", new BsonRegularExpression("^a", "i")).append("i", new BsonInt32(-7))
                .append("ts", new BsonTimestamp(5, 6)).append("l", new BsonInt64(Long.MIN_VALUE))
                .append("dec", new BsonDecimal128(Decimal128.parse("1.50")))
                .append("code", new BsonJavaScriptWithScope("f()", new BsonDocument("x", new BsonInt32(1))))
                .append("min", new BsonMinKey()).append("max", new BsonMaxKey());
    }

    @Test
    void everyTypeReadsAsTheCodecDecodesIt() {
        byte[] b = bytes(everyType());
        BsonDocument expected = codec(b);
        LazyCommandDocument lazy = LazyCommandDocument.of(b, 0);
        for (String name : expected.keySet()) {
            assertEquals(expected.get(name), lazy.get(name), name);
            assertEquals(expected.get(name).getClass(), lazy.get(name).getClass(), name);
        }
        assertNull(lazy.get("absent"));
        assertFalse(lazy.containsKey("absent"));
        assertEquals("find", lazy.getFirstKey());
        assertFalse(lazy.built(), "get/containsKey/getFirstKey build no tree");
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(lazy.keySet()));
        assertTrue(lazy.built());
        assertEquals(expected, lazy);
        assertEquals(lazy, expected);
        assertEquals(expected.toJson(), lazy.toJson());
        assertEquals(expected.hashCode(), lazy.hashCode());
        assertEquals(expected, lazy.clone());
    }

    @Test
    void randomCommandsEqualTheCodecsTree() {
        SplittableRandom random = new SplittableRandom(17);
        BsonDocument all = everyType();
        List<String> names = new ArrayList<>(all.keySet());
        for (int round = 0; round < 500; round++) {
            BsonDocument d = new BsonDocument();
            int n = random.nextInt(12);
            for (int k = 0; k < n; k++) {
                String name = names.get(random.nextInt(names.size()));
                d.append(name + random.nextInt(3), all.get(name));
            }
            byte[] b = bytes(d);
            LazyCommandDocument lazy = LazyCommandDocument.of(b, 0);
            BsonDocument expected = codec(b);
            assertEquals(expected.isEmpty(), lazy.isEmpty());
            for (int probe = 0; probe < 3 && !expected.isEmpty(); probe++) {
                String name = new ArrayList<>(expected.keySet()).get(random.nextInt(expected.size()));
                assertEquals(expected.get(name), lazy.get(name));
            }
            assertEquals(expected, lazy);
            assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(lazy.keySet()));
        }
    }

    /** Bytes with {@code filter} twice: the codec's tree keeps the first position and the last value. */
    @Test
    void aRepeatedNameKeepsItsFirstPositionAndLastValue() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0);
        b.put((byte) 0x10).put("a\0".getBytes()).putInt(1);
        b.put((byte) 0x10).put("b\0".getBytes()).putInt(2);
        b.put((byte) 0x10).put("a\0".getBytes()).putInt(3);
        b.put((byte) 0);
        byte[] raw = java.util.Arrays.copyOf(b.array(), b.position());
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).putInt(0, raw.length);
        BsonDocument expected = codec(raw);
        LazyCommandDocument lazy = LazyCommandDocument.of(raw, 0);
        assertEquals(new BsonInt32(3), lazy.get("a"));
        assertEquals(List.of("a", "b"), iterable(LazyCommandDocument.fieldNames(lazy)));
        assertEquals("a", lazy.getFirstKey());
        assertEquals(expected, lazy);
        assertEquals(List.of("a", "b"), new ArrayList<>(lazy.keySet()));
        assertEquals(2, lazy.size());
    }

    @Test
    void valuesHandedOutAreTheTreesValues() {
        BsonDocument source = new BsonDocument("find", new BsonString("c"))
                .append("filter", new BsonDocument("_id", new BsonInt32(1)))
                .append("lsid", new BsonDocument("id", new BsonBinary(BsonBinarySubType.UUID_STANDARD, new byte[16])));
        LazyCommandDocument lazy = LazyCommandDocument.of(bytes(source), 0);
        BsonDocument filter = lazy.getDocument("filter");
        assertSame(filter, lazy.get("filter"), "decoded once");
        filter.put("x", new BsonInt32(2)); // a handler changing what it was given
        assertFalse(lazy.built());
        assertEquals(new BsonDocument("_id", new BsonInt32(1)).append("x", new BsonInt32(2)),
                lazy.clone().getDocument("filter"));
        assertSame(filter, lazy.get("filter"));
        lazy.put("limit", new BsonInt32(1));
        lazy.remove("lsid");
        assertEquals(List.of("find", "filter", "limit"), new ArrayList<>(lazy.keySet()));
    }

    @Test
    void sectionsAreAppendedFields() {
        BsonDocument body = new BsonDocument("insert", new BsonString("c")).append("$db", new BsonString("d"));
        BsonArray docs = new BsonArray(List.of(new BsonDocument("_id", new BsonInt32(1))));
        LazyCommandDocument lazy = LazyCommandDocument.of(bytes(body), 1);
        lazy.section("documents", docs);
        assertSame(docs, lazy.get("documents"));
        assertFalse(lazy.built());
        assertEquals(body.clone().append("documents", docs), lazy);
        // a section named as a body field replaces its value in place, as put does
        LazyCommandDocument twice = LazyCommandDocument.of(bytes(body), 1);
        twice.section("$db", docs);
        assertEquals(new BsonDocument("insert", new BsonString("c")).append("$db", docs), twice);
        // an empty body
        LazyCommandDocument empty = LazyCommandDocument.of(bytes(new BsonDocument()), 0);
        assertTrue(empty.isEmpty());
        assertFalse(empty.containsKey("find"));
        assertEquals(new BsonDocument(), empty);
    }

    private static List<String> iterable(Iterable<String> names) {
        List<String> out = new ArrayList<>();
        names.forEach(out::add);
        return out;
    }
}
