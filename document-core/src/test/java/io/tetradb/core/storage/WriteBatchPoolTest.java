package io.tetradb.core.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.WriteBatch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.tetradb.core.storage.WriteBatchFamilies.bytes;
import static io.tetradb.core.storage.WriteBatchFamilies.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pw-next: the engine's kept write batches ({@link WriteBatchPool}) are reused, and a reused batch holds only the
 * write it is filled for — not the puts of a write that failed halfway through filling it, nor another thread's.
 */
class WriteBatchPoolTest {
    @Test
    void aBatchFilledHalfwayByAFailedWriteHoldsOnlyTheNextWriteWhenTakenAgain(@TempDir Path dir) throws Exception {
        try (WriteBatchFamilies families = new WriteBatchFamilies(dir); WriteBatchPool pool = new WriteBatchPool()) {
            List<WriteSet.Write> failing = new ArrayList<>(new WriteSet()
                    .put(Space.DOCS, utf8("a"), utf8("1")).put(Space.FEED, utf8("b"), utf8("2")).writes());
            failing.add(new WriteSet.Write(Space.DOCS, null, utf8("3"), null)); // the fill fails here, two puts in
            WriteBatch first = pool.take(100);
            assertThrows(NullPointerException.class, () -> DirectWriteBatches.fill(first, failing, families.bySpace));
            assertEquals(2, first.count());
            pool.giveBack(first, 100);

            WriteSet good = new WriteSet().put(Space.META, utf8("c"), utf8("4")).delete(Space.DOCS, utf8("d"));
            WriteBatch second = pool.take(100);
            assertSame(first, second, "the kept batch is reused");
            DirectWriteBatches.fill(second, good.writes(), families.bySpace);
            try (WriteBatch expected = families.rocksDbsOwn(good)) {
                assertArrayEquals(expected.data(), second.data());
            }
            pool.giveBack(second, 100);
        }
    }

    @Test
    void largeWritesGetTheirOwnBatchAndAtMostTheSlotsAreKept() {
        try (WriteBatchPool pool = new WriteBatchPool()) {
            WriteBatch big = pool.take(WriteBatchPool.MAX_KEPT_BYTES + 1);
            pool.giveBack(big, WriteBatchPool.MAX_KEPT_BYTES + 1);
            assertFalse(big.isOwningHandle(), "a large write's batch is closed, not kept");
            List<WriteBatch> taken = new ArrayList<>();
            for (int i = 0; i < WriteBatchPool.SLOTS + 3; i++) {
                taken.add(pool.take(50));
            }
            taken.forEach(b -> pool.giveBack(b, 50));
            long closed = taken.stream().filter(b -> !b.isOwningHandle()).count();
            assertEquals(3, closed, "what finds no free slot is closed");
            pool.close();
            assertTrue(taken.stream().noneMatch(WriteBatch::isOwningHandle), "closing the pool closes what it kept");
        }
    }

    /** Writers racing through one pool: each batch, as filled, is exactly its own write set's. */
    @Test
    void racingWritersEachFillABatchOfTheirOwn(@TempDir Path dir) throws Exception {
        try (WriteBatchFamilies families = new WriteBatchFamilies(dir); WriteBatchPool pool = new WriteBatchPool()) {
            int threads = 6;
            ExecutorService run = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            AtomicBoolean stop = new AtomicBoolean(); // a failed writer stops the others before the families close
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int seed = t;
                    done.add(run.submit(() -> {
                        Random r = new Random(seed);
                        start.await();
                        int reused = 0;
                        List<WriteBatch> seen = new ArrayList<>();
                        for (int i = 0; i < 2_000 && !stop.get(); i++) {
                            WriteSet ws = new WriteSet();
                            for (int k = 1 + r.nextInt(4); k > 0; k--) {
                                ws.put(Space.values()[r.nextInt(Space.values().length)], bytes(r, 40),
                                        bytes(r, i % 50 == 0 ? 70_000 : 300));
                            }
                            int size = WriteBatchEncoder.size(ws.writes(), families.ids);
                            WriteBatch b = pool.take(size);
                            if (seen.contains(b)) {
                                reused++;
                            } else {
                                seen.add(b);
                            }
                            DirectWriteBatches.fill(b, ws.writes(), families.bySpace);
                            Thread.yield(); // let another writer at the pool while this batch is out
                            try (WriteBatch expected = families.rocksDbsOwn(ws)) {
                                assertArrayEquals(expected.data(), b.data(), "writer " + seed + ", write " + i);
                            }
                            pool.giveBack(b, size);
                        }
                        return reused;
                    }));
                }
                start.countDown();
                int reused = 0;
                for (Future<Integer> f : done) {
                    reused += f.get(120, TimeUnit.SECONDS);
                }
                assertTrue(reused > 1_000, "batches were reused: " + reused);
            } finally {
                stop.set(true);
                run.shutdown();
                assertTrue(run.awaitTermination(120, TimeUnit.SECONDS));
            }
        }
    }

    /** Through the engine: racing writers' keys all read back with their values, and nothing else is there. */
    @Test
    void theEngineReadsBackExactlyWhatRacingWritersWrote(@TempDir Path dir) throws Exception {
        int threads = 4;
        int writes = 400;
        try (RocksEngine engine = RocksEngine.open(dir, Durability.ASYNC, 8L << 20)) {
            ExecutorService run = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int writer = t;
                    done.add(run.submit(() -> {
                        for (int i = 0; i < writes; i++) {
                            // each write replaces the writer's previous key by a new one: a batch replayed later would
                            // bring a deleted key back
                            WriteSet ws = new WriteSet().put(Space.DOCS, key(writer, i), utf8("v" + writer + "." + i));
                            if (i > 0) {
                                ws.delete(Space.DOCS, key(writer, i - 1));
                            }
                            engine.apply(ws);
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                run.shutdown();
                assertTrue(run.awaitTermination(120, TimeUnit.SECONDS)); // no write after the engine closes
            }
            for (int t = 0; t < threads; t++) {
                assertArrayEquals(utf8("v" + t + "." + (writes - 1)), engine.get(Space.DOCS, key(t, writes - 1)));
                assertNull(engine.get(Space.DOCS, key(t, writes - 2)));
            }
            int keys = 0;
            try (KeyCursor c = engine.cursor(Space.DOCS, new byte[]{0}, new byte[]{(byte) 0xFF}, false)) {
                while (c.next()) {
                    keys++;
                }
            }
            assertEquals(threads, keys);
        }
    }

    private static byte[] key(int writer, int i) {
        return utf8("k" + writer + "/" + i);
    }
}
