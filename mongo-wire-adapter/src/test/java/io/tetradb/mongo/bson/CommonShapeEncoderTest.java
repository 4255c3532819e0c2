package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.item.BinaryItemStreamWriter;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.mongo.command.Limits;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bson-encode: the one-walk encoding of an insert's common documents writes exactly the bytes of the general path
 * ({@link DocumentMapper#toItem} and the core's tree writer), takes every document of the common shape, leaves every
 * other shape to the library's reader, and never accepts bytes the library's reader refuses.
 */
class CommonShapeEncoderTest {
    private static final ItemCodec CODEC = new ItemCodec(new ObjectMapper(), 200);
    private static final List<String> NAMES = List.of("a", "owner", "id", "_rid", "_self", "_etag", "_attachments",
            "_ts", "_types", "~", "~pk", "~rep", "i", "_", "idx", "_tsx", "", "\u00e9t\u00e9", "\u65e5\u672c",
            "emoji\ud83d\ude00", "long name with more than eight bytes", "_i", "x.y");

    /**
     * Random documents of the common shape ({@code _id} first of every kind it takes, the extremes of the integers,
     * names the store escapes, non-ASCII names and strings, doubles' specials, dates at the model's edges, nesting),
     * each alone and as a view inside a larger array (as the request decoder keeps them): always taken, and exactly
     * the general path's bytes.
     */
    @Test
    void commonDocumentsEncodeAsTheirTreesInOneWalk() {
        Random random = new Random(41);
        List<BsonValue> ids = List.of(new BsonInt32(0), new BsonInt32(-1), new BsonInt32(Integer.MIN_VALUE),
                new BsonInt32(Integer.MAX_VALUE), new BsonInt32(123_456), new BsonInt64(Long.MIN_VALUE),
                new BsonInt64(Long.MAX_VALUE), new BsonInt64(-10), new BsonInt64(1L << 40),
                new BsonObjectId(new ObjectId("0123456789abcdefABCDEF00")), new BsonObjectId(new ObjectId()),
                new BsonString("k"), new BsonString("caf\u00e9 \ud83d\ude00"), new BsonString("x".repeat(255)),
                new BsonString("with space-and.dots"));
        CommonShapeEncoder encoder = new CommonShapeEncoder();
        BinaryItemStreamWriter w = CODEC.itemStreamWriter();
        for (int i = 0; i < 3_000; i++) {
            BsonDocument doc = new BsonDocument("_id", ids.get(i % ids.size()));
            for (int f = random.nextInt(12); f > 0; f--) {
                String name = random.nextInt(3) == 0 ? NAMES.get(random.nextInt(NAMES.size())) : "f" + f;
                if (!name.equals("_id")) {
                    doc.put(name, commonValue(random, 1));
                }
            }
            byte[] own = bytes(doc);
            assertTrue(encoder.encode(own, 0, own.length, w), doc.toJson());
            byte[] expected = BinaryItemWriter.encode(DocumentMapper.toItem(doc));
            assertArrayEquals(expected, w.toByteArray(), doc.toJson());
            byte[] framed = new byte[own.length + 29];
            Arrays.fill(framed, (byte) 0x7F);
            System.arraycopy(own, 0, framed, 17, own.length);
            assertTrue(encoder.encode(framed, 17, own.length, w), doc.toJson());
            assertArrayEquals(expected, w.toByteArray(), doc.toJson());
            // and through the insert's entry point
            assertArrayEquals(expected, RawBsonItems.toEncoded(new RawBsonDocument(framed, 17, own.length), CODEC)
                    .body(), doc.toJson());
        }
    }

    /** Shapes the walk does not take: the library's reader maps them, as before, to the general path's bytes. */
    @Test
    void everyOtherShapeIsLeftToTheLibrarysReader() {
        BsonDocument deep = new BsonDocument("x", new BsonInt32(1));
        for (int level = 1; level < Limits.MAX_NESTING_DEPTH; level++) {
            deep = new BsonDocument("d", deep);
        }
        List<BsonDocument> others = List.of(
                BsonDocument.parse("{a: 1, _id: 2}"),
                new BsonDocument("_id", new BsonDouble(2.5)),
                new BsonDocument("_id", new BsonString("")),
                new BsonDocument("_id", new BsonString("a/b")),
                new BsonDocument("_id", new BsonString("~0")),
                new BsonDocument("_id", new BsonString("y".repeat(256))),
                new BsonDocument("_id", new BsonDecimal128(Decimal128.parse("1"))),
                new BsonDocument("_id", new BsonDocument("k", new BsonInt32(1))),
                new BsonDocument("_id", new BsonInt32(1)).append("$x", new BsonInt32(1)),
                new BsonDocument("_id", new BsonInt32(1)).append("a", new BsonDocument("$ref", new BsonString("c"))
                        .append("$id", new BsonInt32(1))),
                new BsonDocument("_id", new BsonInt32(1)).append("d", new BsonDecimal128(Decimal128.parse("1.5"))),
                new BsonDocument("_id", new BsonInt32(1)).append("b", new BsonBinary(new byte[]{1, 2})),
                new BsonDocument("_id", new BsonInt32(1)).append("r", new BsonRegularExpression("a", "i")),
                new BsonDocument("_id", new BsonInt32(1)).append("m", new BsonArray(List.of(new BsonMinKey()))),
                new BsonDocument("_id", new BsonInt32(1)).append("far", new BsonDateTime(Long.MAX_VALUE)),
                new BsonDocument("_id", new BsonInt32(1)).append("deep", deep));
        CommonShapeEncoder encoder = new CommonShapeEncoder();
        BinaryItemStreamWriter w = CODEC.itemStreamWriter();
        for (BsonDocument doc : others) {
            byte[] b = bytes(doc);
            assertFalse(encoder.encode(b, 0, b.length, w), doc.toJson());
            assertReaderPathAsBefore(b);
        }
        // a second top-level _id, a name and a string that are not UTF-8, a boolean byte other than 0 and 1
        byte[] twice = bytes(BsonDocument.parse("{_id: 1, a: 1, _iX: 3}"));
        twice[indexOf(twice, "_iX") + 2] = 'd';
        byte[] badName = bytes(BsonDocument.parse("{_id: 1, nameX: 1}"));
        badName[indexOf(badName, "nameX") + 4] = (byte) 0xC3;
        byte[] badString = bytes(BsonDocument.parse("{_id: 1, s: 'okX'}"));
        badString[indexOf(badString, "okX") + 2] = (byte) 0xFF;
        byte[] two = bytes(new BsonDocument("_id", new BsonInt32(1)).append("t", BsonBoolean.TRUE));
        two[two.length - 2] = 2;
        org.junit.jupiter.api.Assertions.assertThrows(org.bson.BsonSerializationException.class,
                () -> new RawBsonDocument(two).decode(new BsonDocumentCodec()));
        for (byte[] b : List.of(twice, badName, badString, two)) {
            assertFalse(encoder.encode(b, 0, b.length, w), Arrays.toString(b));
            // the library refuses the boolean byte 2 outright; of two _ids the reader's path keeps the first, a
            // decoded tree the last (as before this walk)
            if (b != two && b != twice) {
                assertReaderPathAsBefore(b);
            }
        }
    }

    /**
     * Corrupted documents (random bytes changed in valid common ones: lengths, types, terminators, names): whatever
     * the walk takes, the library's reader reads too, and to the same item; nothing it takes runs outside its
     * document (the view sits inside a larger array).
     */
    @Test
    void corruptedBytesAreTakenOnlyWhereTheLibraryReadsThemTheSame() {
        Random random = new Random(43);
        CommonShapeEncoder encoder = new CommonShapeEncoder();
        BinaryItemStreamWriter w = CODEC.itemStreamWriter();
        int taken = 0;
        for (int i = 0; i < 20_000; i++) {
            BsonDocument doc = new BsonDocument("_id", new BsonInt32(i));
            for (int f = random.nextInt(6); f > 0; f--) {
                doc.put("f" + f, commonValue(random, 1));
            }
            byte[] own = bytes(doc);
            for (int k = 1 + random.nextInt(3); k > 0; k--) {
                int at = random.nextInt(own.length);
                own[at] = switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> (byte) (own[at] + (random.nextBoolean() ? 1 : -1));
                    case 2 -> (byte) new int[]{1, 2, 3, 4, 7, 8, 9, 10, 16, 18, 0x13, 0x7F}[random.nextInt(12)];
                    default -> (byte) random.nextInt(256);
                };
            }
            byte[] framed = new byte[own.length + 64];
            System.arraycopy(own, 0, framed, 32, own.length);
            Arrays.fill(framed, 32 + own.length, framed.length, (byte) 0x10);
            if (!encoder.encode(framed, 32, own.length, w)) {
                continue;
            }
            taken++;
            BsonDocument read = new RawBsonDocument(own).decode(new BsonDocumentCodec()); // throws if it refuses
            assertArrayEquals(BinaryItemWriter.encode(DocumentMapper.toItem(read)), w.toByteArray(),
                    Arrays.toString(own));
        }
        assertTrue(taken > 1_000, "some corrupted documents are still well-formed: " + taken);
    }

    /** What {@link RawBsonItems#toEncoded} gives a document the walk left: the library reader's answer, as before. */
    private static void assertReaderPathAsBefore(byte[] b) {
        RawBsonDocument raw = new RawBsonDocument(b);
        BsonDocument decoded = raw.decode(new BsonDocumentCodec());
        io.tetradb.core.store.EncodedItem encoded;
        try {
            encoded = RawBsonItems.toEncoded(raw, CODEC);
        } catch (io.tetradb.mongo.command.MongoError e) {
            return; // the reader's path refuses it (an _id over 255 characters), as before
        }
        if (encoded == null) {
            assertEquals(null, RawBsonItems.toItem(raw), decoded.toJson());
        } else {
            assertArrayEquals(BinaryItemWriter.encode(DocumentMapper.toItem(decoded)), encoded.body(), decoded.toJson());
        }
    }

    private static BsonValue commonValue(Random random, int depth) {
        return switch (random.nextInt(depth > 3 ? 10 : 12)) {
            case 0 -> new BsonString(random.nextBoolean() ? "s" + random.nextInt() : "\u00e9\u65e5" + random.nextInt());
            case 1 -> new BsonInt32(random.nextBoolean() ? random.nextInt() : random.nextInt(3) - 1);
            case 2 -> new BsonInt64(random.nextBoolean() ? random.nextLong() : Long.MIN_VALUE);
            case 3 -> new BsonDouble(new double[]{random.nextDouble(), -0.0, Double.NaN, Double.NEGATIVE_INFINITY,
                    1e300, 3.0}[random.nextInt(6)]);
            case 4 -> new BsonDateTime(new long[]{random.nextLong() / 20_000, 0, -1, Long.MAX_VALUE / 10_000L,
                    Long.MIN_VALUE / 10_000L}[random.nextInt(5)]);
            case 5 -> new BsonObjectId(new ObjectId());
            case 6 -> BsonBoolean.valueOf(random.nextBoolean());
            case 7 -> BsonNull.VALUE;
            case 8 -> new BsonString("");
            case 9 -> new BsonString("nul\u0000inside");
            case 10 -> {
                BsonDocument d = new BsonDocument();
                for (int f = random.nextInt(5); f > 0; f--) {
                    d.put(NAMES.get(random.nextInt(NAMES.size())), commonValue(random, depth + 1));
                }
                yield d;
            }
            default -> {
                BsonArray a = new BsonArray();
                for (int k = random.nextInt(14); k > 0; k--) {
                    a.add(commonValue(random, depth + 1));
                }
                yield a;
            }
        };
    }

    private static byte[] bytes(BsonDocument doc) {
        java.nio.ByteBuffer b = new RawBsonDocument(doc, new BsonDocumentCodec()).getByteBuffer().asNIO();
        return Arrays.copyOfRange(b.array(), b.arrayOffset() + b.position(), b.arrayOffset() + b.limit());
    }

    private static int indexOf(byte[] bytes, String ascii) {
        byte[] p = ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i + p.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + p.length, p, 0, p.length)) {
                return i;
            }
        }
        throw new AssertionError("no " + ascii);
    }
}
