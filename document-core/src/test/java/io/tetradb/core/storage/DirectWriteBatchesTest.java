package io.tetradb.core.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.tetradb.core.storage.WriteBatchFamilies.bytes;
import static io.tetradb.core.storage.WriteBatchFamilies.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * batch-path: the batches built with direct-buffer puts ({@link DirectWriteBatches}, the engine's default) hold
 * byte for byte the representation {@link WriteBatchEncoder} builds and RocksDB's own {@code WriteBatch} does, for
 * write sets built one after another on one thread (the staging buffer reused) with keys and values larger than the
 * staging buffer; and the engine reads back what either setting wrote.
 */
class DirectWriteBatchesTest {
    @Test
    void buildsTheSameBytesAsTheEncoderAndRocksDb(@TempDir Path dir) throws Exception {
        try (WriteBatchFamilies families = new WriteBatchFamilies(dir)) {
            Random r = new Random(23);
            int staged = 0;
            int unstaged = 0;
            for (int round = 0; round < 300; round++) {
                WriteSet ws = new WriteSet();
                int n = r.nextInt(60);
                for (int i = 0; i < n; i++) {
                    Space space = Space.values()[r.nextInt(Space.values().length)];
                    // now and then a key or a value past the staging buffer (the array puts' path)
                    byte[] key = bytes(r, round % 29 == 0 ? DirectWriteBatches.STAGING_BYTES + 2_000 : 60);
                    switch (r.nextInt(4)) {
                        case 0, 1 -> {
                            byte[] value = bytes(r, round % 7 == 0 ? 90_000 : 1_300);
                            ws.put(space, key, value);
                            if (key.length + value.length <= DirectWriteBatches.STAGING_BYTES) {
                                staged++;
                            } else {
                                unstaged++;
                            }
                        }
                        case 2 -> ws.delete(space, key);
                        default -> ws.deleteRange(space, key, bytes(r, 40));
                    }
                }
                try (WriteBatch expected = families.rocksDbsOwn(ws);
                     WriteBatch direct = filled(ws, families)) {
                    assertArrayEquals(expected.data(), direct.data(), "round " + round);
                    assertArrayEquals(WriteBatchEncoder.encode(ws.writes(), families.ids), direct.data(),
                            "round " + round);
                    assertEquals(n, direct.count());
                    assertEquals(WriteBatchEncoder.size(ws.writes(), families.ids), direct.data().length);
                }
            }
            assertEquals(true, staged > 1_000 && unstaged > 10, staged + " staged, " + unstaged + " not");
        }
    }

    /** A batch reserved at the write set's size and filled as the engine fills a kept one. */
    private static WriteBatch filled(WriteSet ws, WriteBatchFamilies families) throws RocksDBException {
        WriteBatch batch = new WriteBatch(WriteBatchEncoder.size(ws.writes(), families.ids));
        try {
            DirectWriteBatches.fill(batch, ws.writes(), families.bySpace);
            return batch;
        } catch (RocksDBException | RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    @Test
    void eitherSettingWritesWhatTheOtherReads(@TempDir Path dir) {
        Random r = new Random(5);
        byte[] big = new byte[DirectWriteBatches.STAGING_BYTES * 3];
        r.nextBytes(big);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            values.add(bytes(r, 2_000));
        }
        String was = System.getProperty("tetradb.rocks.writeBatch");
        try {
            System.setProperty("tetradb.rocks.writeBatch", "encoded");
            try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
                WriteSet ws = new WriteSet();
                for (int i = 0; i < 100; i++) {
                    ws.put(Space.DOCS, utf8("k" + (1000 + i)), values.get(i));
                }
                engine.apply(ws.put(Space.META, utf8("big-encoded"), big));
            }
            System.clearProperty("tetradb.rocks.writeBatch"); // the default: direct
            try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
                WriteSet ws = new WriteSet();
                for (int i = 100; i < 200; i++) {
                    ws.put(Space.DOCS, utf8("k" + (1000 + i)), values.get(i));
                }
                engine.apply(ws.put(Space.META, utf8("big-direct"), big).delete(Space.DOCS, utf8("k1000"))
                        .deleteRange(Space.DOCS, utf8("k1001"), utf8("k1003")));
            }
            System.setProperty("tetradb.rocks.writeBatch", "encoded");
            try (RocksEngine engine = RocksEngine.open(dir, Durability.SYNC, 8L << 20)) {
                for (int i = 0; i < 3; i++) {
                    assertNull(engine.get(Space.DOCS, utf8("k" + (1000 + i))));
                }
                for (int i = 3; i < 200; i++) {
                    assertArrayEquals(values.get(i), engine.get(Space.DOCS, utf8("k" + (1000 + i))), "item " + i);
                }
                assertArrayEquals(big, engine.get(Space.META, utf8("big-encoded")));
                assertArrayEquals(big, engine.get(Space.META, utf8("big-direct")));
            }
            System.setProperty("tetradb.rocks.writeBatch", "heap");
            assertThrows(IllegalArgumentException.class, () -> RocksEngine.open(dir, Durability.SYNC, 8L << 20));
        } finally {
            if (was == null) {
                System.clearProperty("tetradb.rocks.writeBatch");
            } else {
                System.setProperty("tetradb.rocks.writeBatch", was);
            }
        }
    }
}
