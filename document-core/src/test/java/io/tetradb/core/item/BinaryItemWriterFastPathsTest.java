package io.tetradb.core.item;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core-write's two fast paths of the tree writer: long strings copied through the JDK's UTF-8 encoder when they are
 * ASCII (any other string, a lone surrogate or a '?' included, still gets the store's own UTF-8), and object keys
 * sorted by their first 8 bytes as one number before their whole bytes.
 */
class BinaryItemWriterFastPathsTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void longStringsAreWrittenAsTheStoresUtf8WhateverTheirChars() {
        String ascii = "abcdefghijklmnopqrstuvwxyz0123456789";
        String[] odd = {"", "?", "\u00e9", "\u00ff", "\u0141", "\u4e41", "\ud800", "\udc41", "\ud83d\ude00",
                "\u0000", "\u007f", "\u0080", "\ud83d"};
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        Random rnd = new Random(0xC0DEL);
        for (int i = 0; i < 20_000; i++) {
            int len = BinaryItemWriter.LONG_STRING - 2 + rnd.nextInt(rnd.nextBoolean() ? 6 : 300);
            StringBuilder sb = new StringBuilder();
            while (sb.length() < len) {
                sb.append(ascii.charAt(rnd.nextInt(ascii.length())));
            }
            String[] insert = rnd.nextInt(4) == 0 ? new String[0] : new String[]{odd[rnd.nextInt(odd.length)]};
            for (String s : insert) {
                sb.insert(rnd.nextInt(sb.length() + 1), s);
            }
            String value = sb.toString();
            ObjectNode doc = M.createObjectNode().put("s", value).put(value, 1);
            byte[] b = writer.write(doc);
            int at = BinaryItemReader.find(b, 0, "s");
            assertEquals(value, BinaryItemReader.read(b, at).textValue(), BinaryItemRoundTripTest.printable(value));
            assertTrue(BinaryItemReader.find(b, 0, value) > 0, BinaryItemRoundTripTest.printable(value));
            // the value's bytes are exactly tag · varint(len) · the store's UTF-8 of the string
            byte[] utf8 = Utf8.encode(value);
            int bytesAt = at + 1 + (utf8.length < 128 ? 1 : utf8.length < 16_384 ? 2 : 3);
            byte[] stored = java.util.Arrays.copyOfRange(b, bytesAt, bytesAt + utf8.length);
            assertArrayEquals(utf8, stored, BinaryItemRoundTripTest.printable(value));
        }
        // a lone surrogate is kept (the JDK's encoder would have written '?')
        String lone = "x".repeat(40) + "\ud800";
        byte[] b = writer.write(M.createObjectNode().put("s", lone));
        assertEquals(lone, BinaryItemReader.path(b, 0, "s").textValue());
        assertTrue(new String(b, StandardCharsets.ISO_8859_1).indexOf('?') < 0);
    }

    @Test
    void keysSortByTheirBytesWhenTheyShareTheirFirstEightBytes() {
        String[] stems = {"", "a", "ab", "ab\u0000", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh\u00e9", "\u00e9",
                "\u00ff\u00ff", "zzzzzzzzzzzz", "abcdefgi", "\u0000", "\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"};
        Random rnd = new Random(0x50F7L);
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        for (int i = 0; i < 5_000; i++) {
            ObjectNode doc = M.createObjectNode();
            int n = 1 + rnd.nextInt(24);
            for (int k = 0; k < n; k++) {
                String name = stems[rnd.nextInt(stems.length)] + (rnd.nextBoolean() ? "" : (char) ('a' + rnd.nextInt(3)));
                if (rnd.nextInt(5) == 0) {
                    doc.putObject(name).put(stems[rnd.nextInt(stems.length)], k).put("x", k);
                } else {
                    doc.put(name, k);
                }
            }
            byte[] b = writer.write(doc);
            assertEquals(doc, BinaryItemReader.read(b, 0), doc.toString());
            assertTableSorted(b, 0);
            doc.fieldNames().forEachRemaining(name -> assertTrue(BinaryItemReader.find(b, 0, name) > 0, name));
        }
    }

    /** The object at {@code off}'s offset table lists its keys in strictly ascending unsigned byte order. */
    private static void assertTableSorted(byte[] b, int off) {
        assertEquals(BinaryItemFormat.OBJECT, b[off] & 0xFF);
        long count = BinaryItemReader.varintAt(b, off + 5);
        int n = (int) count;
        int tableAt = off + 5 + varintLength(n);
        int entriesAt = tableAt + 2 * n;
        byte[] previous = null;
        for (int k = 0; k < n; k++) {
            int entry = entriesAt + ((b[tableAt + 2 * k] & 0xFF) | (b[tableAt + 2 * k + 1] & 0xFF) << 8);
            long kv = BinaryItemReader.varintAt(b, entry);
            int from = (int) (kv >>> 32);
            byte[] key = java.util.Arrays.copyOfRange(b, from, from + (int) kv);
            if (previous != null) {
                assertTrue(java.util.Arrays.compareUnsigned(previous, key) < 0,
                        new String(previous, StandardCharsets.UTF_8) + " before " + new String(key, StandardCharsets.UTF_8));
            }
            previous = key;
        }
    }

    private static int varintLength(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
