package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mongo-frames: {@link MessageFrames} cuts a byte stream into its messages however the stream is split into reads —
 * at every byte boundary, in runs of every small size, in random pieces, from reads it keeps and reads it copies — each
 * message handed on as a heap buffer over an array of exactly its length, nothing of the reads held afterwards. A
 * declared length under the header or over the limit closes the connection after the messages before it.
 */
class MessageFramesTest {
    private static final int LIMIT = 48_000_000;

    /** A message of {@code length} bytes: a wire header declaring it, then bytes that differ from message to message. */
    private static byte[] message(int length, int seed) {
        byte[] m = new byte[length];
        new Random(seed).nextBytes(m);
        ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(0, length).putInt(12, 2013);
        return m;
    }

    /** Five messages: the header alone, a small command, ones past the kept-read size and past a copy piece. */
    private static List<byte[]> messages() {
        return List.of(message(16, 1), message(61, 2), message(MessageFrames.KEPT_READ_BYTES + 777, 3),
                message(17, 4), message(MessageFrames.COPY_PIECE_BYTES + 3_001, 5));
    }

    private static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    /**
     * Feeds {@code stream} cut at {@code cuts} (ascending positions) and returns what came out; reads are direct
     * buffers (every third a heap one, as the TLS handler's), every other one with three times its length of room (so
     * it is copied rather than kept), and none may stay referenced once the outputs are released.
     */
    private static List<byte[]> feed(byte[] stream, int[] cuts, boolean[] open) {
        EmbeddedChannel ch = new EmbeddedChannel(new MessageFrames(LIMIT));
        List<ByteBuf> reads = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : stream.length;
            if (to == from && i < cuts.length) {
                continue;
            }
            int room = i % 2 == 0 ? Math.max(1, to - from) : 3 * (to - from) + 1;
            ByteBuf read = i % 3 == 2 ? Unpooled.buffer(room) : Unpooled.directBuffer(room); // heap: as TLS hands on
            read.writeBytes(stream, from, to - from);
            from = to;
            if (!ch.isOpen()) { // closed: the rest of the stream is never read
                read.release();
                continue;
            }
            reads.add(read);
            ch.writeInbound(read);
        }
        List<byte[]> out = new ArrayList<>();
        for (Object m; (m = ch.readInbound()) != null; ) {
            ByteBuf b = (ByteBuf) m;
            assertTrue(b.hasArray() && b.arrayOffset() == 0 && b.readerIndex() == 0
                    && b.readableBytes() == b.array().length, "a heap buffer over exactly its message's array");
            out.add(b.array());
            b.release();
        }
        open[0] = ch.isOpen();
        ch.finishAndReleaseAll();
        for (ByteBuf r : reads) {
            assertEquals(0, r.refCnt(), "a read still referenced");
        }
        return out;
    }

    private static void assertMessages(List<byte[]> expected, List<byte[]> actual, String how) {
        assertEquals(expected.size(), actual.size(), how);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), how + ", message " + i);
        }
    }

    @Test
    void everySplitOfTheStreamGivesItsMessages() {
        List<byte[]> messages = messages();
        byte[] stream = concat(messages);
        boolean[] open = new boolean[1];
        for (int at = 0; at <= stream.length; at++) { // two reads, cut at every byte boundary
            assertMessages(messages, feed(stream, new int[] {at}, open), "cut at " + at);
            assertTrue(open[0]);
        }
        for (int size = 1; size <= 40; size++) { // reads of every small size, one byte alone first
            int[] cuts = new int[stream.length / size];
            for (int i = 0; i < cuts.length; i++) {
                cuts[i] = (i + 1) * size;
            }
            assertMessages(messages, feed(stream, cuts, open), "reads of " + size);
        }
        Random random = new Random(19);
        for (int round = 0; round < 2_000; round++) { // random reads, small and large
            int[] cuts = random.ints(1 + random.nextInt(12), 0, stream.length + 1).sorted().toArray();
            assertMessages(messages, feed(stream, cuts, open), "cuts " + Arrays.toString(cuts));
        }
    }

    @Test
    void aLengthUnderTheHeaderOrOverTheLimitClosesAfterTheMessagesBeforeIt() {
        byte[] before = message(40, 7);
        for (int declared : new int[] {LIMIT + 1, Integer.MAX_VALUE, 15, 4, 0, -1, Integer.MIN_VALUE}) {
            byte[] bad = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(declared).putInt(9).putInt(0)
                    .putInt(2013).array();
            byte[] stream = concat(List.of(before, bad, message(30, 8)));
            for (int at = 0; at <= stream.length; at++) {
                boolean[] open = new boolean[1];
                assertMessages(List.of(before), feed(stream, new int[] {at}, open), declared + " cut at " + at);
                assertFalse(open[0], declared + " cut at " + at + ": closed");
            }
        }
        // the limit itself is a length: the connection waits for its body (nothing allocated for it yet)
        byte[] header = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(LIMIT).putInt(9).putInt(0)
                .putInt(2013).array();
        boolean[] open = new boolean[1];
        assertMessages(List.of(before), feed(concat(List.of(before, header)), new int[] {43}, open), "limit");
        assertTrue(open[0]);
    }
}
