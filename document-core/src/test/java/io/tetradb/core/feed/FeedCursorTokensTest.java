package io.tetradb.core.feed;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cursors as bounded tokens: inline when small, a stored copy's id when large, readable by another server. */
class FeedCursorTokensTest {
    private static final long HOUR = 3_600_000L;
    @TempDir
    Path dir;
    private RocksEngine engine;
    private MetadataStore metadata;

    @BeforeEach
    void open() {
        engine = RocksEngine.open(dir, Durability.SYNC, 8 << 20);
        metadata = new EmbeddedMetadataStore(engine);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    private static FeedCursor cursor(int partitions) {
        FeedCursor c = FeedCursor.beginning();
        for (int i = 0; i < partitions; i++) {
            c.advance(("partition-key-number-" + i).getBytes(StandardCharsets.UTF_8), 1000L + i);
        }
        c.resumeAt("partition-key-number-7".getBytes(StandardCharsets.UTF_8));
        return c;
    }

    private int stored() {
        return metadata.list(new byte[]{FeedCursorTokens.META_PREFIX}).size();
    }

    @Test
    void aSmallCursorTravelsInlineAndAWriteIsNotNeeded() {
        FeedCursorTokens tokens = new FeedCursorTokens(metadata, 2 * HOUR);
        FeedCursor small = cursor(10);
        byte[] token = tokens.encode(small, 0);
        assertEquals(1 + small.encode().length, token.length);
        assertEquals(small, new FeedCursorTokens(metadata, 2 * HOUR).decode(token, 0));
        assertEquals(0, stored());
    }

    @Test
    void aLargeCursorIsStoredOnceUnderItsHashAndAnotherServerReadsIt() {
        FeedCursorTokens a = new FeedCursorTokens(metadata, 2 * HOUR);
        FeedCursor large = cursor(5_000); // ~150 KB
        assertTrue(large.encode().length > 100_000);
        byte[] token = a.encode(large, 0);
        assertEquals(17, token.length);
        assertEquals(1, stored());
        assertEquals(large, new FeedCursorTokens(metadata, 2 * HOUR).decode(token, HOUR)); // server B
        // the same cursor again (a caught-up reader): the same token, no second copy
        assertEquals(java.util.Arrays.toString(token), java.util.Arrays.toString(a.encode(large, 10)));
        assertEquals(1, stored());
        FeedCursor next = large.copy();
        next.advance("partition-key-number-3".getBytes(StandardCharsets.UTF_8), 99_999);
        byte[] other = a.encode(next, 20);
        assertEquals(2, stored());
        assertEquals(next, new FeedCursorTokens(metadata, 2 * HOUR).decode(other, 30));
    }

    @Test
    void aStoredCursorExpiresUnlessHandedOutAgainAndTheSweepRemovesIt() {
        FeedCursorTokens a = new FeedCursorTokens(metadata, 2 * HOUR);
        FeedCursor large = cursor(2_000);
        byte[] token = a.encode(large, 0);
        a.encode(large, HOUR + 1); // past half its lifetime: renewed to 3 h
        assertEquals(0, a.sweep(2 * HOUR + 1));
        assertEquals(large, new FeedCursorTokens(metadata, 2 * HOUR).decode(token, 2 * HOUR + 1));
        assertThrows(FeedCursorTokens.Expired.class,
                () -> new FeedCursorTokens(metadata, 2 * HOUR).decode(token, 3 * HOUR + 1));
        assertEquals(1, a.sweep(3 * HOUR + 1));
        assertEquals(0, stored());
        assertThrows(FeedCursorTokens.Expired.class,
                () -> new FeedCursorTokens(metadata, 2 * HOUR).decode(token, 0)); // gone: never written here
    }

    @Test
    void anythingElseIsRefused() {
        FeedCursorTokens t = new FeedCursorTokens(metadata, HOUR);
        assertThrows(IllegalArgumentException.class, () -> t.decode(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> t.decode(new byte[]{9, 1, 2}));
        assertThrows(IllegalArgumentException.class, () -> t.decode(new byte[]{2, 1, 2}));
        assertThrows(IllegalArgumentException.class, () -> t.decode(new byte[]{1, 'C', 1, 5}));
    }
}
