package io.tetradb.core.feed;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FeedCursorTest {

    @Test
    void encodesEachPartitionsLsnAndTheResumePoint() {
        FeedCursor c = FeedCursor.beginning();
        c.advance(new byte[]{(byte) 0xF0, 1}, 300_000_000_000L);
        c.advance(new byte[]{1, 2, 3}, 7);
        c.advance(new byte[]{1, 2, 3}, 5); // never backwards
        c.resumeAt(new byte[]{1, 2, 3});
        FeedCursor back = FeedCursor.decode(c.encode());
        assertEquals(c, back);
        assertEquals(7, back.lsn(new byte[]{1, 2, 3}));
        assertEquals(300_000_000_000L, back.lsn(new byte[]{(byte) 0xF0, 1}));
        assertEquals(0, back.lsn(new byte[]{9}));
        assertArrayEquals(new byte[]{1, 2, 3}, back.resume());
        assertNull(FeedCursor.decode(FeedCursor.beginning().encode()).resume());
        assertEquals(2 + 1 + 3 + 1 + (1 + 3 + 1) + (1 + 2 + 6), c.encode().length, "varints: a few bytes per entry");
    }

    @Test
    void refusesWhatItDidNotWrite() {
        assertThrows(IllegalArgumentException.class, () -> FeedCursor.decode(new byte[]{'X', 1, 0, 0}));
        byte[] ok = FeedCursor.beginning().encode();
        assertThrows(IllegalArgumentException.class, () -> FeedCursor.decode(java.util.Arrays.copyOf(ok, ok.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> FeedCursor.decode(java.util.Arrays.copyOf(ok, ok.length + 1)));
    }
}
