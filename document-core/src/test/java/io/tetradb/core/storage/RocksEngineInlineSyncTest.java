package io.tetradb.core.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * pw-keys (session 19): under SYNC a writer alone writes with RocksDB's own sync, one call, and runs no separate
 * WAL sync; writers with others waiting, and every writer with {@code -Dtetradb.wal.inlineSync=false}, still do.
 */
class RocksEngineInlineSyncTest {
    @Test
    void aWriterAloneSyncsInTheWriteByDefault(@TempDir Path dir) {
        try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
            for (int i = 0; i < 20; i++) {
                engine.awaitDurable(engine.applyDeferred(put("alone-" + i), false));
            }
            assertEquals(0, engine.separateWalSyncs(), "every lone write synced in its own call");
            for (int i = 0; i < 5; i++) {
                engine.awaitDurable(engine.applyDeferred(put("queued-" + i), true));
            }
            assertEquals(5, engine.separateWalSyncs(), "writers with others waiting share a separate sync");
        }
        try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
            assertArrayEquals(bytes("alone-19"), engine.get(Space.DOCS, bytes("alone-19")));
            assertArrayEquals(bytes("queued-4"), engine.get(Space.DOCS, bytes("queued-4")));
        }
    }

    @Test
    void theSeparateSyncStaysAvailable(@TempDir Path dir) {
        String was = System.getProperty("tetradb.wal.inlineSync");
        System.setProperty("tetradb.wal.inlineSync", "false");
        try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
            for (int i = 0; i < 7; i++) {
                engine.awaitDurable(engine.applyDeferred(put("k" + i), false));
            }
            assertEquals(7, engine.separateWalSyncs());
        } finally {
            if (was == null) {
                System.clearProperty("tetradb.wal.inlineSync");
            } else {
                System.setProperty("tetradb.wal.inlineSync", was);
            }
        }
    }

    private static WriteSet put(String key) {
        return new WriteSet().put(Space.DOCS, bytes(key), bytes(key));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
