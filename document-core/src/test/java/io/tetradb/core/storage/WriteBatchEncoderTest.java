package io.tetradb.core.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.WriteBatch;

import java.nio.file.Path;
import java.util.Random;

import static io.tetradb.core.storage.WriteBatchFamilies.bytes;
import static io.tetradb.core.storage.WriteBatchFamilies.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The engine's one-array write batch is byte for byte what RocksDB's own {@code WriteBatch} builds for the same
 * writes, and what it writes is read back (and survives a reopen, i.e. a WAL replay) as written.
 */
class WriteBatchEncoderTest {
    @Test
    void encodesExactlyAsRocksDbsWriteBatchDoes(@TempDir Path dir) throws Exception {
        try (WriteBatchFamilies families = new WriteBatchFamilies(dir)) {
            assertEquals(140, families.ids[4]);
            Random r = new Random(17);
            for (int round = 0; round < 200; round++) {
                WriteSet ws = new WriteSet();
                int n = r.nextInt(40);
                for (int i = 0; i < n; i++) {
                    Space space = Space.values()[r.nextInt(Space.values().length)];
                    byte[] key = bytes(r, round % 3 == 0 ? 400 : 40);
                    switch (r.nextInt(3)) {
                        case 0 -> ws.put(space, key, bytes(r, round % 5 == 0 ? 70_000 : 300));
                        case 1 -> ws.delete(space, key);
                        default -> ws.deleteRange(space, key, bytes(r, 40));
                    }
                }
                try (WriteBatch expected = families.rocksDbsOwn(ws)) {
                    assertArrayEquals(expected.data(), WriteBatchEncoder.encode(ws.writes(), families.ids),
                            "round " + round);
                    assertEquals(n, expected.count());
                }
            }
        }
    }

    @Test
    void writesThroughTheEngineReadBackAndSurviveReopen(@TempDir Path dir) {
        byte[] big = new byte[200_000];
        new Random(3).nextBytes(big);
        try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
            engine.apply(new WriteSet()
                    .put(Space.DOCS, utf8("a"), utf8("1"))
                    .put(Space.DOCS, utf8("b"), big)
                    .put(Space.META, utf8("m"), new byte[0])
                    .put(Space.INDEX, utf8("i1"), new byte[0])
                    .put(Space.INDEX, utf8("i2"), new byte[0])
                    .put(Space.FEED, utf8("f"), utf8("rec")));
            engine.apply(new WriteSet()
                    .delete(Space.DOCS, utf8("a"))
                    .deleteRange(Space.INDEX, utf8("i1"), utf8("i2"))
                    .put(Space.ADJACENCY, utf8("x"), utf8("y")));
        }
        try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
            assertNull(engine.get(Space.DOCS, utf8("a")));
            assertArrayEquals(big, engine.get(Space.DOCS, utf8("b")));
            assertArrayEquals(new byte[0], engine.get(Space.META, utf8("m")));
            assertNull(engine.get(Space.INDEX, utf8("i1")));
            assertArrayEquals(new byte[0], engine.get(Space.INDEX, utf8("i2")));
            assertArrayEquals(utf8("rec"), engine.get(Space.FEED, utf8("f")));
            assertArrayEquals(utf8("y"), engine.get(Space.ADJACENCY, utf8("x")));
        }
    }
}
