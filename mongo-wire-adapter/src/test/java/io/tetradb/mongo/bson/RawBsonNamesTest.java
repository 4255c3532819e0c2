package io.tetradb.mongo.bson;

import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonRegularExpression;
import org.bson.BsonType;
import org.bson.ByteBufNIO;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mongo-encode: how the insert path reads names. {@link CachedNamesBsonInput} gives org.mongodb:bson's reader exactly
 * the names (and regex patterns and options) the library's own input gives, and says a name is ASCII exactly when it
 * is (its bytes then before the input's position), through caches of one slot (every name
 * replacing the last), two and 256: names of 0 to 80 bytes around the 7/8-byte and 64-byte bounds, prefixes of
 * each other, differing only in their last byte, multi-byte and malformed UTF-8, at the end of a document, in a
 * view of a larger array. {@link RawBsonItems#firstNameIsId} answers as the library's reader of the first name.
 */
class RawBsonNamesTest {
    @Test
    void namesReadThroughTheCacheAreTheLibrarysNames() {
        Random r = new Random(17);
        for (int slots : new int[]{1, 2, 256}) {
            CachedNamesBsonInput.Names names = new CachedNamesBsonInput.Names(slots);
            for (int round = 0; round < 400; round++) {
                byte[] doc = randomDocument(r, round);
                int pad = r.nextInt(9);
                byte[] framed = new byte[pad + doc.length + r.nextInt(9)]; // a view of a larger array, as a frame's
                System.arraycopy(doc, 0, framed, pad, doc.length);
                ByteBuffer view = ByteBuffer.wrap(framed, pad, doc.length).slice().order(ByteOrder.LITTLE_ENDIAN);
                List<String> expected = events(new BsonBinaryReader(ByteBuffer.wrap(doc)
                        .order(ByteOrder.LITTLE_ENDIAN)), null);
                CachedNamesBsonInput in = new CachedNamesBsonInput(new ByteBufNIO(view), names);
                assertEquals(expected, events(new BsonBinaryReader(in), in), "slots " + slots + ", round " + round);
                // and again: now from the cache wherever a slot kept the name
                view = ByteBuffer.wrap(framed, pad, doc.length).slice().order(ByteOrder.LITTLE_ENDIAN);
                in = new CachedNamesBsonInput(new ByteBufNIO(view), names);
                assertEquals(expected, events(new BsonBinaryReader(in), in),
                        "slots " + slots + ", round " + round + ", read again");
            }
        }
    }

    @Test
    void theFirstNameIsIdCheckReadsOnlyTheFirstElement() {
        String[][] cases = {{"_id"}, {"_id", "a"}, {"a", "_id"}, {}, {"_idx"}, {"_i"}, {""}, {"_Id"}, {"id"},
                {"x_id"}, {"_id\u00e9"}};
        for (String[] fields : cases) {
            BsonDocument d = new BsonDocument();
            for (String f : fields) {
                d.append(f, new BsonInt32(1));
            }
            byte[] bytes = bytes(d);
            byte[] framed = new byte[bytes.length + 11];
            System.arraycopy(bytes, 0, framed, 5, bytes.length);
            RawBsonDocument view = new RawBsonDocument(framed, 5, bytes.length);
            boolean library;
            try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(bytes))) {
                reader.readStartDocument();
                library = reader.readBsonType() != BsonType.END_OF_DOCUMENT && reader.readName().equals("_id");
            }
            assertEquals(library, RawBsonItems.firstNameIsId(view), String.join(",", fields));
            assertEquals(d.containsKey("_id"), DocumentMapper.hasId(view), String.join(",", fields));
        }
        assertTrue(RawBsonItems.firstNameIsId(new RawBsonDocument(bytes(new BsonDocument("_id", new BsonInt32(2))))));
        assertFalse(RawBsonItems.firstNameIsId(new RawBsonDocument(bytes(new BsonDocument()))));
    }

    /**
     * Every name, string, regex and type the reader gives, in order; with each name whether it is ASCII — from the
     * name's chars for the library's input, as {@code in} says it for the cached one (its bytes are then checked to be
     * the name's, right before the input's position: what the insert path copies).
     */
    private static List<String> events(BsonBinaryReader reader, CachedNamesBsonInput in) {
        List<String> out = new ArrayList<>();
        try (reader) {
            reader.readStartDocument();
            walk(reader, out, false, in);
            reader.readEndDocument();
        }
        return out;
    }

    private static void walk(BsonBinaryReader reader, List<String> out, boolean array, CachedNamesBsonInput in) {
        while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
            if (array) {
                out.add("[]");
            } else {
                String name = reader.readName();
                boolean ascii = in == null ? name.chars().allMatch(c -> c < 0x80) : in.lastCStringAscii();
                if (in != null && ascii) {
                    int at = in.arrayPosition() - 1 - name.length();
                    assertEquals(name, new String(in.array(), at, name.length(), StandardCharsets.US_ASCII));
                    assertEquals(0, in.array()[in.arrayPosition() - 1]);
                }
                out.add("name " + name + (ascii ? " (ascii)" : ""));
            }
            switch (reader.getCurrentBsonType()) {
                case DOCUMENT -> {
                    reader.readStartDocument();
                    walk(reader, out, false, in);
                    reader.readEndDocument();
                }
                case ARRAY -> {
                    reader.readStartArray();
                    walk(reader, out, true, in);
                    reader.readEndArray();
                }
                case STRING -> out.add("string " + reader.readString());
                case REGULAR_EXPRESSION -> {
                    BsonRegularExpression re = reader.readRegularExpression();
                    out.add("regex " + re.getPattern() + " / " + re.getOptions());
                }
                default -> {
                    out.add(reader.getCurrentBsonType().toString());
                    reader.skipValue();
                }
            }
        }
    }

    /** A document of random names and a few values, nested, as BSON bytes written by the library. */
    private static byte[] randomDocument(Random r, int round) {
        BasicOutputBuffer out = new BasicOutputBuffer();
        try (BsonBinaryWriter w = new BsonBinaryWriter(out)) {
            w.writeStartDocument();
            if (round % 7 == 3) { // made malformed below
                w.writeName("kz");
                w.writeInt32(0);
            }
            int n = 1 + r.nextInt(12);
            for (int i = 0; i < n; i++) {
                w.writeName(name(r, i));
                switch (r.nextInt(6)) {
                    case 0 -> {
                        w.writeStartDocument();
                        for (int k = r.nextInt(4); k > 0; k--) {
                            w.writeName(name(r, k));
                            w.writeString(name(r, k));
                        }
                        w.writeEndDocument();
                    }
                    case 1 -> {
                        w.writeStartArray();
                        w.writeInt32(1);
                        w.writeRegularExpression(new BsonRegularExpression(name(r, i), "i"));
                        w.writeEndArray();
                    }
                    case 2 -> w.writeRegularExpression(new BsonRegularExpression(name(r, i), round % 2 == 0 ? "" : "mx"));
                    case 3 -> w.writeNull(); // a short last element: its name within 8 bytes of the end
                    default -> w.writeInt32(i);
                }
            }
            w.writeEndDocument();
        }
        byte[] doc = out.toByteArray();
        if (round % 7 == 3) { // the first name "kz" made malformed UTF-8 (a lead byte before ASCII): the library's
            doc[5] = (byte) 0xC3; // replacement, through the cache too
        }
        return doc;
    }

    private static final String[] STEMS = {"", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgi", "owner",
            "status", "_id", "é", "名前", "😀x", "n".repeat(63), "n".repeat(64), "n".repeat(65), "m".repeat(80)};

    private static String name(Random r, int i) {
        String stem = STEMS[r.nextInt(STEMS.length)];
        return switch (r.nextInt(4)) {
            case 0 -> stem;
            case 1 -> stem + (char) ('a' + r.nextInt(3)); // prefixes of each other, last byte differing
            case 2 -> stem + i;
            default -> stem.isEmpty() ? "x" : stem.substring(0, r.nextInt(stem.length()) + 1);
        };
    }

    private static byte[] bytes(BsonDocument d) {
        java.nio.ByteBuffer b = new RawBsonDocument(d, new org.bson.codecs.BsonDocumentCodec()).getByteBuffer().asNIO();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
