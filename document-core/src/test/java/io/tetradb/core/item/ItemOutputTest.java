package io.tetradb.core.item;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * core-read: the tree writer and the event writer share one output class ({@link ItemOutput}); over random typed
 * items (every scalar type, NaN and -0.0, big numbers, lone surrogates, long strings with '?' and non-Latin-1 chars
 * around the JDK fast path's length, objects past 8 and past 64 KiB, nesting 200 deep) both give the same bytes,
 * whether the event writer is handed the tree or driven field by field, and the bytes are those the writers wrote
 * before they shared it (a CRC-32 over every item's encoding, recorded from the code before the change).
 */
class ItemOutputTest {
    /** CRC-32 of the 12,000 encodings below, computed with the writers as they were before ItemOutput. */
    private static final long DIGEST_BEFORE_SHARING = 43121404L;

    @Test
    void bothWritersWriteTheSameBytesAsBefore() {
        long seed = 0x0CE5L;
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        BinaryItemWriter tree = new BinaryItemWriter(64, 512);
        BinaryItemStreamWriter events = new BinaryItemStreamWriter(16, 512);
        CRC32 digest = new CRC32();
        for (int i = 0; i < 12_000; i++) {
            ObjectNode doc = document(g, rnd, i);
            try {
                byte[] expected = tree.write(doc);
                digest.update(expected);
                events.reset();
                events.value(doc);
                assertArrayEquals(expected, events.toByteArray());
                events.reset();
                BinaryItemStreamWriterTest.drive(doc, events);
                assertArrayEquals(expected, events.toByteArray());
            } catch (AssertionError | RuntimeException e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", document " + i + ": " + e), e);
            }
        }
        assertEquals(DIGEST_BEFORE_SHARING, digest.getValue(), "the encodings changed");
    }

    private static ObjectNode document(TypedValueGenerator g, Random rnd, int i) {
        ObjectNode doc = g.document();
        switch (i % 8) {
            case 1 -> {
                for (int f = 0; f < 9 + rnd.nextInt(40); f++) {
                    doc.set(f % 3 == 0 ? g.string() : "wide" + f, g.value(1));
                }
            }
            case 2 -> {
                ObjectNode inner = doc.putObject("deep");
                for (int d = 0; d < 200; d++) {
                    inner = d % 2 == 0 ? inner.putObject("d" + d) : inner.putArray("a").addObject();
                }
                inner.set("leaf", g.value(1));
            }
            case 3 -> {
                ArrayNode a = doc.putArray("long");
                for (int s = 0; s < 6; s++) {
                    a.add(longString(rnd));
                }
                doc.put(longString(rnd), longString(rnd));
            }
            case 4 -> {
                if (i % 400 == 4) { // an object past 64 KiB: u32 offsets
                    ObjectNode big = doc.putObject("big");
                    for (int f = 0; f < 40; f++) {
                        big.put("k" + f, "x".repeat(2000) + f);
                    }
                }
            }
            default -> {
            }
        }
        return doc;
    }

    /** 20-40 chars: ASCII with or without '?', Latin-1, wider chars, lone and paired surrogates. */
    private static String longString(Random rnd) {
        int n = 20 + rnd.nextInt(21);
        StringBuilder sb = new StringBuilder(n);
        int kind = rnd.nextInt(5);
        for (int c = 0; c < n; c++) {
            sb.append(switch (kind) {
                case 0 -> (char) ('a' + rnd.nextInt(26));
                case 1 -> rnd.nextInt(10) == 0 ? '?' : (char) ('A' + rnd.nextInt(26));
                case 2 -> (char) (0x20 + rnd.nextInt(0xE0));
                case 3 -> rnd.nextInt(8) == 0 ? '\uD83D' : 'q';
                default -> (char) rnd.nextInt(0x10000);
            });
        }
        return sb.toString();
    }
}
