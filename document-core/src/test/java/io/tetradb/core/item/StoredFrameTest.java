package io.tetradb.core.item;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * item-copies (issue 17): a stored item written as a frame (the body after the stored header, room left for the
 * trailer) and finished in place is byte for byte the item the body path stores ({@code StoredItems.finish} of the
 * writer's body), with the index terms' offsets moved by the header; and strings written straight into the writer's
 * buffer are the store's UTF-8 (well-formed text as the JDK encodes it, a lone surrogate in its 3-byte form).
 */
class StoredFrameTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final byte[] SELF = "dbs/AbCdEf==/colls/AbCdEfGhIjK=/docs/".getBytes(StandardCharsets.US_ASCII);

    @Test
    void framesFinishedInPlaceAreTheBodyPathsStoredBytes() throws Exception {
        long seed = Long.getLong("value.seed", new Random().nextLong());
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        List<CompiledIndexingPolicy> policies = List.of(CompiledIndexingPolicy.of(null),
                CompiledIndexingPolicy.of(M.readTree("{\"includedPaths\":[{\"path\":\"/f1/?\"},{\"path\":\"/arr/[]/*\"}],"
                        + "\"excludedPaths\":[{\"path\":\"/*\"}]}")));
        BinaryItemWriter bodies = new BinaryItemWriter(64, 256);
        BinaryItemWriter frames = new BinaryItemWriter(64, 256);
        int inPlace = 0;
        for (int i = 0; i < 4_000; i++) {
            ObjectNode doc = document(rnd, g, i);
            CompiledIndexingPolicy policy = policies.get(rnd.nextInt(policies.size()));
            long lsn = 1 + rnd.nextInt(1 << 30);
            long ts = rnd.nextInt(2_000_000_000);
            byte[] rid = ascii(24, rnd);
            String etag = new String(ascii(36, rnd), StandardCharsets.US_ASCII);
            int room = StoredItems.trailerLength(rid.length, SELF.length, etag.length());
            try {
                ItemTermRecorder bodyTerms = new ItemTermRecorder(policy);
                byte[] body = bodies.write(doc, bodyTerms);
                ItemTermRecorder frameTerms = new ItemTermRecorder(policy);
                int extra = rnd.nextInt(8) == 0 ? rnd.nextInt(3) - 1 : 0; // a wrong room: finished by a copy
                byte[] frame = frames.write(StoredItems.FRAME_HEADER, doc, frameTerms, room + extra);
                assertTrue(StoredItems.isFrame(frame));
                assertFalse(StoredItems.isFrame(body));
                assertEquals(body.length, StoredItems.bodyLength(frame));
                assertEquals(body.length, StoredItems.bodyLength(body));
                assertArrayEquals(body, Arrays.copyOfRange(frame, StoredItems.HEADER, StoredItems.HEADER + body.length));
                RecordedTerms.assertSameTerms(bodyTerms, frameTerms, StoredItems.HEADER);

                byte[] expected = StoredItems.finish(body, lsn, rid, SELF, etag, ts);
                byte[] stored = StoredItems.finishFrame(frame, lsn, rid, SELF, etag, ts);
                assertArrayEquals(expected, stored);
                if (extra == 0) {
                    assertSame(frame, stored, "an unfinished frame with the trailer's room is finished in place");
                    inPlace++;
                } else {
                    assertNotSame(frame, stored);
                }
                // finished again (a retried transaction): a copy, the first stored bytes left as they were
                byte[] again = StoredItems.finishFrame(frame, lsn + 1, rid, SELF, etag, ts + 1);
                assertNotSame(frame, again);
                assertArrayEquals(StoredItems.finish(body, lsn + 1, rid, SELF, etag, ts + 1), again);
                assertArrayEquals(expected, stored);
                assertEquals(stored.length, StoredItems.HEADER + body.length + room);
                assertEquals(ts, StoredItems.ts(stored));
            } catch (AssertionError | RuntimeException e) {
                BinaryItemRoundTripTest.failFor(seed, i, doc, e);
            }
        }
        assertTrue(inPlace > 3_000, inPlace + " frames finished in place");
    }

    /** A random typed document, now and then with long strings, wide objects and arrays around the chunk sizes. */
    private static ObjectNode document(Random rnd, TypedValueGenerator g, int i) {
        ObjectNode doc = g.document();
        doc.set("f1", rnd.nextBoolean() ? g.value(1) : TextNode.valueOf(string(rnd)));
        if (rnd.nextInt(4) == 0) {
            ArrayNode arr = doc.putArray("arr");
            for (int k = rnd.nextInt(4); k > 0; k--) {
                arr.addObject().put(string(rnd), string(rnd)).set("v", g.value(2));
            }
        }
        if (i % 500 == 0) { // entries past 64 KiB: the table widens and the values (and terms) move
            doc.putObject("wide").put("a", "y".repeat(70_000)).put("b", string(rnd));
            doc.set("f1", TextNode.valueOf(string(rnd)));
        }
        return doc;
    }

    @Test
    void stringsAreWrittenAsTheStoresUtf8() {
        long seed = Long.getLong("value.seed", new Random().nextLong());
        Random rnd = new Random(seed);
        BinaryItemWriter writer = new BinaryItemWriter(16, 8);
        BinaryItemStreamWriter stream = new BinaryItemStreamWriter(16, 8);
        for (int i = 0; i < 20_000; i++) {
            String s = string(rnd);
            try {
                byte[] expected = expectedString(s);
                assertArrayEquals(expected, writer.write(TextNode.valueOf(s)));
                stream.reset();
                stream.string(s);
                assertArrayEquals(expected, stream.toByteArray());
                ObjectNode named = M.createObjectNode().put(s, i);
                byte[] b = writer.write(named);
                assertEquals(named, BinaryItemReader.readObject(b, 0));
                assertTrue(BinaryItemReader.find(b, 0, s) > 0);
            } catch (AssertionError | RuntimeException e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", string " + i + " (" + s.length()
                        + " units): " + s + ": " + e), e);
            }
        }
    }

    /** Mostly ASCII ('?' included), of lengths around the writer's thresholds, others placed where chunks meet. */
    private static String string(Random rnd) {
        int[] lengths = {0, 1, 7, 23, 24, 25, 64, 1023, 1024, 1025, 2047, 2048, 2049, 3073};
        int n = rnd.nextInt(3) == 0 ? rnd.nextInt(3000) : lengths[rnd.nextInt(lengths.length)];
        char[] c = new char[n];
        for (int k = 0; k < n; k++) {
            c[k] = rnd.nextInt(10) == 0 ? '?' : (char) (0x20 + rnd.nextInt(0x5F));
        }
        int others = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(3);
        for (int k = 0; k < others && n > 0; k++) {
            int[] near = {0, n - 1, 1023, 1024, 2047, 2048, rnd.nextInt(n)};
            int at = Math.min(n - 1, near[rnd.nextInt(near.length)]);
            String o = OTHERS[rnd.nextInt(OTHERS.length)];
            for (int j = 0; j < o.length() && at + j < n; j++) {
                c[at + j] = o.charAt(j);
            }
        }
        return new String(c);
    }

    /**
     * Units above ASCII: Latin-1, a char whose low byte is ASCII (U+0141), 2- and 3-byte ones, a pair, lone
     * surrogates, DEL and NUL.
     */
    private static final String[] OTHERS = {"\u00e9", "\u00ff", "\u0080", "\u0100", "\u0141", "\u07ff", "\u0800",
            "\u2603", "\ufffd", "\uffff", "\ud83d\ude00", "\ud800", "\udc00", "\udbff", "\u007f", "\u0000"};

    /** {@code STRING · varint(n) · the store's UTF-8 of s}, made here unit by unit (the JDK's for well-formed text). */
    private static byte[] expectedString(String s) {
        ByteArrayOutputStream utf8 = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                utf8.writeBytes(s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8));
                i++;
            } else if (Character.isSurrogate(c)) { // lone: its 3-byte form, which the JDK replaces by '?'
                utf8.write(0xE0 | (c >>> 12));
                utf8.write(0x80 | ((c >>> 6) & 0x3F));
                utf8.write(0x80 | (c & 0x3F));
            } else {
                utf8.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(BinaryItemFormat.STRING);
        int v = utf8.size();
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
        out.writeBytes(utf8.toByteArray());
        return out.toByteArray();
    }

    private static byte[] ascii(int n, Random rnd) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('0' + rnd.nextInt(43));
        }
        return b;
    }
}
