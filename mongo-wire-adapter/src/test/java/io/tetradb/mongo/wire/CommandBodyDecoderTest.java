package io.tetradb.mongo.wire;

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
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A command read by {@link CommandBodyDecoder} is the tree the bson codec decodes from the same bytes: every value
 * type (the rare ones through the codec), field order, value classes, nesting, repeated names, and a boolean byte
 * the codec refuses still refused.
 */
class CommandBodyDecoderTest {

    private static byte[] bytes(BsonDocument d) {
        ByteBuffer b = new RawBsonDocument(d, new BsonDocumentCodec()).getByteBuffer().asNIO();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static BsonDocument codec(byte[] b) {
        return new RawBsonDocument(b).decode(new BsonDocumentCodec());
    }

    /** Decoded at an offset inside a larger buffer, as the request decoder reads a section. */
    private static BsonDocument ours(byte[] b) {
        ByteBuffer buf = ByteBuffer.allocate(b.length + 7).order(ByteOrder.LITTLE_ENDIAN);
        buf.position(7);
        buf.put(b);
        return CommandBodyDecoder.decode(buf, 7);
    }

    private static final BsonDocument EVERY_TYPE = new BsonDocument("find", new BsonString("c"))
            .append("d", new BsonDouble(-0.0)).append("s", new BsonString("é 😀 \ud800x"))
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

    @Test
    void everyTypeDecodesAsTheCodecDecodesIt() {
        for (String name : EVERY_TYPE.keySet()) {
            BsonDocument one = new BsonDocument(name, EVERY_TYPE.get(name))
                    .append("nested", new BsonDocument("v", EVERY_TYPE.get(name)))
                    .append("inArray", new BsonArray(List.of(EVERY_TYPE.get(name))));
            byte[] b = bytes(one);
            BsonDocument expected = codec(b);
            BsonDocument got = ours(b);
            assertEquals(expected, got, name);
            assertEquals(expected.get(name).getClass(), got.get(name).getClass(), name);
            assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(got.keySet()));
        }
        assertEquals(codec(bytes(EVERY_TYPE)), ours(bytes(EVERY_TYPE)));
    }

    @Test
    void randomCommandsEqualTheCodecsTree() {
        SplittableRandom random = new SplittableRandom(17);
        List<String> names = new ArrayList<>(EVERY_TYPE.keySet());
        for (int round = 0; round < 1000; round++) {
            BsonDocument d = new BsonDocument();
            int n = random.nextInt(12);
            for (int k = 0; k < n; k++) {
                String name = names.get(random.nextInt(names.size()));
                d.append(name + random.nextInt(3), random.nextBoolean() ? EVERY_TYPE.get(name)
                        : new BsonDocument("x", EVERY_TYPE.get(name)));
            }
            byte[] b = bytes(d);
            BsonDocument expected = codec(b);
            assertEquals(expected, ours(b));
            assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(ours(b).keySet()));
        }
    }

    /** {@code {a: 1, b: 2, a: 3}} and a boolean byte of 2, written byte by byte. */
    @Test
    void repeatedNamesAndBadBooleansAsTheCodec() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0);
        b.put((byte) 0x10).put("a\0".getBytes()).putInt(1);
        b.put((byte) 0x10).put("b\0".getBytes()).putInt(2);
        b.put((byte) 0x10).put("a\0".getBytes()).putInt(3);
        b.put((byte) 0);
        byte[] raw = java.util.Arrays.copyOf(b.array(), b.position());
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).putInt(0, raw.length);
        assertEquals(codec(raw), ours(raw));
        assertEquals(List.of("a", "b"), new ArrayList<>(ours(raw).keySet()));
        assertEquals(new BsonInt32(3), ours(raw).get("a"));

        byte[] bool = bytes(new BsonDocument("flag", BsonBoolean.TRUE));
        bool[bool.length - 2] = 2; // the boolean's byte, before the document's terminating zero
        assertThrows(RuntimeException.class, () -> codec(bool));
        assertThrows(RuntimeException.class, () -> ours(bool));
    }
}
