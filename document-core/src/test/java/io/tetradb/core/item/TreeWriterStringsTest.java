package io.tetradb.core.item;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * tb1-strings (issue 17): the tree writer's short-string loop (chars or-ed, checked once) and its cache of field
 * names' encoded bytes write the store's UTF-8 ({@link Utf8#encode}: a lone surrogate in its 3-byte form), whatever
 * the chars, wherever the first non-ASCII char sits, and whichever names share a cache slot or come back as other
 * String instances.
 */
class TreeWriterStringsTest {
    private static final ObjectMapper M = new ObjectMapper();
    /** Chars around the ASCII boundary and beyond: Latin-1, wider, lone and paired surrogates. */
    private static final String[] ODD = {"\u007f", "\u0080", "\u00e9", "\u00ff", "\u0100", "\u0141", "\u07ff",
            "\u0800", "\u4e41", "\uffff", "\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00", "\ude00\ud83d"};

    @Test
    void shortStringsWithAnOddCharAnywhereAreTheStoresUtf8() {
        BinaryItemWriter writer = new BinaryItemWriter(16, 64);
        for (int n = 0; n < BinaryItemWriter.LONG_STRING + 2; n++) {
            for (String odd : ODD) {
                for (int at = 0; at <= n; at++) {
                    String s = "x".repeat(at) + odd + "y".repeat(n - at);
                    assertArrayEquals(string(s), writer.write(TextNode.valueOf(s)), () -> "value " + escaped(s));
                    byte[] doc = writer.write(M.createObjectNode().putNull(s));
                    assertArrayEquals(key(s), keyOf(doc), () -> "name " + escaped(s));
                }
            }
            String ascii = "a".repeat(n);
            assertArrayEquals(string(ascii), writer.write(TextNode.valueOf(ascii)));
        }
    }

    @Test
    void cachedNamesAreWrittenAsTheirOwnBytesWhateverSharesTheirSlot() {
        // "Aa" and "BB" (and every concatenation of them) share a hash, so they share a slot: each must keep its bytes
        String[] sameHash = {"AaAa", "AaBB", "BBAa", "BBBB"};
        Random rnd = new Random(0x5E1FL);
        BinaryItemWriter reused = new BinaryItemWriter(16, 64);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = M.createObjectNode();
            int fields = 1 + rnd.nextInt(12);
            for (int f = 0; f < fields; f++) {
                String name = switch (rnd.nextInt(6)) {
                    case 0 -> sameHash[rnd.nextInt(sameHash.length)];
                    case 1 -> new String("name" + rnd.nextInt(40)); // equal names, other instances
                    case 2 -> "n" + ODD[rnd.nextInt(ODD.length)] + rnd.nextInt(5);
                    case 3 -> "L".repeat(60 + rnd.nextInt(8)); // around the 64 bytes a cached name may take
                    case 4 -> ODD[rnd.nextInt(ODD.length)].repeat(20 + rnd.nextInt(4)); // 40-92 bytes
                    default -> Integer.toString(rnd.nextInt(1000), 36);
                };
                doc.put(name, f);
            }
            byte[] fresh = new BinaryItemWriter(16, 64).write(doc);
            assertArrayEquals(fresh, reused.write(doc), "document " + i);
            assertEquals(doc, BinaryItemReader.readObject(fresh, 0), "document " + i);
        }
        for (String name : sameHash) { // and each name's key is the store's UTF-8 after its slot changed hands
            assertArrayEquals(key(name), keyOf(reused.write(M.createObjectNode().putNull(name))));
        }
    }

    /** {@code STRING · varint length · Utf8.encode(s)}. */
    private static byte[] string(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(BinaryItemFormat.STRING);
        out.writeBytes(key(s));
        return out.toByteArray();
    }

    /** {@code varint length · Utf8.encode(s)}: a key as the format writes it. */
    private static byte[] key(String s) {
        byte[] utf8 = Utf8.encode(s);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int v = utf8.length;
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
        out.writeBytes(utf8);
        return out.toByteArray();
    }

    /** The key of a one-field object {@code {name: null}}: after tag, size, count and a two-byte table; before null. */
    private static byte[] keyOf(byte[] doc) {
        assertEquals(BinaryItemFormat.NULL, doc[doc.length - 1]);
        return java.util.Arrays.copyOfRange(doc, 1 + 4 + 1 + 2, doc.length - 1);
    }

    private static String escaped(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c < 0x80 ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return sb.toString();
    }
}
