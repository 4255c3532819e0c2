package io.tetradb.core.storage.meta;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metadata contract ({@link MetadataStore}), one suite for every engine: the embedded one in document-core's
 * build, Cassandra in cassandra-engine's {@code cluster} profile. Each test writes under a key prefix of its own
 * ({@code 70 · random}: a byte the core's META layout does not use), so a subclass may share one store between tests.
 */
public abstract class MetadataStoreContract {
    protected MetadataStore store;
    private byte[] prefix;

    /** The store under test (fresh or shared). */
    protected abstract MetadataStore openStore() throws Exception;

    /** Called after each test with the store {@link #openStore()} gave. */
    protected void closeStore(MetadataStore store) throws Exception {
        store.close();
    }

    @BeforeEach
    void open() throws Exception {
        store = openStore();
        prefix = ByteBuffer.allocate(5).put((byte) 0x70).putInt(ThreadLocalRandom.current().nextInt()).array();
    }

    @AfterEach
    void close() throws Exception {
        closeStore(store);
    }

    protected byte[] key(String name) {
        return key(name.getBytes(StandardCharsets.UTF_8));
    }

    private byte[] key(byte[] rest) {
        return ByteBuffer.allocate(prefix.length + rest.length).put(prefix).put(rest).array();
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(MetaEntry e) {
        return new String(e.value(), StandardCharsets.UTF_8);
    }

    @Test
    void createIfAbsentCreatesOnceAndKeepsTheFirstValue() {
        assertNull(store.get(key("db")));
        assertTrue(store.apply(new MetaWrite().create(key("db"), bytes("first"))));
        MetaEntry e = store.get(key("db"));
        assertEquals("first", text(e));
        assertEquals(MetaVersion.of(bytes("first")), e.version());
        assertFalse(store.apply(new MetaWrite().create(key("db"), bytes("second"))));
        assertEquals("first", text(store.get(key("db"))));
    }

    @Test
    void replaceAndDeleteApplyOnlyAtTheVersionRead() {
        store.apply(new MetaWrite().create(key("c"), bytes("v1")));
        long v1 = store.get(key("c")).version();
        assertTrue(store.apply(new MetaWrite().replace(key("c"), v1, bytes("v2"))));
        long v2 = store.get(key("c")).version();
        assertNotEquals(v1, v2);
        assertFalse(store.apply(new MetaWrite().replace(key("c"), v1, bytes("stale"))), "stale version");
        assertFalse(store.apply(new MetaWrite().replace(key("absent"), v1, bytes("x"))), "absent key");
        assertNull(store.get(key("absent")));
        assertFalse(store.apply(new MetaWrite().deleteIf(key("c"), v1)));
        assertEquals("v2", text(store.get(key("c"))));
        assertTrue(store.apply(new MetaWrite().deleteIf(key("c"), v2)));
        assertNull(store.get(key("c")));
        assertTrue(store.apply(new MetaWrite().delete(key("c"))), "an unconditional delete of nothing");
    }

    @Test
    void aWriteWithOneFailedConditionWritesNothing() {
        store.apply(new MetaWrite().create(key("counter"), bytes("1")).create(key("other"), bytes("o")));
        long stale = MetaVersion.of(bytes("0"));
        assertFalse(store.apply(new MetaWrite().create(key("new"), bytes("n")).put(key("other"), bytes("changed"))
                .delete(key("counter")).replace(key("counter"), stale, bytes("2"))));
        assertNull(store.get(key("new")));
        assertEquals("o", text(store.get(key("other"))));
        assertEquals("1", text(store.get(key("counter"))));
        MetaEntry counter = store.get(key("counter"));
        assertTrue(store.apply(new MetaWrite().create(key("new"), bytes("n")).put(key("other"), bytes("changed"))
                .replace(key("counter"), counter.version(), bytes("2"))));
        assertEquals("n", text(store.get(key("new"))));
        assertEquals("changed", text(store.get(key("other"))));
        assertEquals("2", text(store.get(key("counter"))));
    }

    @Test
    void requireHoldsAWriteToAnEntryItDidNotChange() {
        store.apply(new MetaWrite().create(key("database"), bytes("d1")));
        MetaEntry db = store.get(key("database"));
        store.apply(new MetaWrite().deleteIf(key("database"), db.version()));
        assertFalse(store.apply(new MetaWrite().require(db).create(key("container"), bytes("c"))));
        assertNull(store.get(key("container")));
        assertNull(store.get(key("database")), "require writes nothing");
        store.apply(new MetaWrite().create(key("database"), bytes("d1")));
        assertTrue(store.apply(new MetaWrite().require(store.get(key("database"))).create(key("container"), bytes("c"))));
        assertEquals("d1", text(store.get(key("database"))));
    }

    @Test
    void listsByPrefixAndRangeInUnsignedByteOrder() {
        List<byte[]> keys = List.of(key(new byte[]{0x01}), key(new byte[]{0x01, 0x00}), key(new byte[]{0x01, (byte) 0x80}),
                key(new byte[]{0x02}), key(new byte[]{(byte) 0x90}), key(new byte[]{(byte) 0xFF, 0x01}));
        MetaWrite w = new MetaWrite();
        for (int i = keys.size() - 1; i >= 0; i--) {
            w.put(keys.get(i), bytes("v" + i));
        }
        assertTrue(store.apply(w));
        List<MetaEntry> all = store.list(prefix);
        assertEquals(keys.size(), all.size());
        for (int i = 0; i < keys.size(); i++) {
            assertArrayEquals(keys.get(i), all.get(i).key());
            assertEquals("v" + i, text(all.get(i)));
            assertEquals(MetaVersion.of(bytes("v" + i)), all.get(i).version());
        }
        assertEquals(3, store.list(key(new byte[]{0x01})).size(), "a prefix holds its extensions");
        assertEquals(List.of("v2", "v3"), store.list(keys.get(2), keys.get(4)).stream().map(MetadataStoreContract::text)
                .toList(), "[from, to)");
        assertTrue(store.apply(new MetaWrite().deleteRange(keys.get(1), keys.get(4))));
        assertEquals(List.of("v0", "v4", "v5"), store.list(prefix).stream().map(MetadataStoreContract::text).toList());
    }

    @Test
    void theCatalogStampChangesWithCatalogChangesOnly() {
        long before = store.catalogStamp();
        assertTrue(store.apply(new MetaWrite().put(key("path"), bytes("1"))));
        assertEquals(before, store.catalogStamp(), "not a catalog change");
        assertTrue(store.apply(new MetaWrite().put(key("container"), bytes("def")).catalogChange()));
        long after = store.catalogStamp();
        assertNotEquals(before, after);
        assertFalse(store.apply(new MetaWrite().create(key("container"), bytes("again")).catalogChange()));
        assertEquals(after, store.catalogStamp(), "a write not applied changes nothing");
    }

    @Test
    void racingWritersEachWinExactlyOnce() throws Exception {
        int threads = 4;
        int rounds = 10;
        store.apply(new MetaWrite().create(key("n"), bytes("0")));
        AtomicInteger created = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    if (store.apply(new MetaWrite().create(key("once"), bytes(Thread.currentThread().getName())))) {
                        created.incrementAndGet();
                    }
                    for (int i = 0; i < rounds; i++) {
                        while (true) { // read, add one, compare-and-set: a lost race reads again
                            MetaEntry e = store.get(key("n"));
                            long n = Long.parseLong(text(e));
                            if (store.apply(new MetaWrite().replace(key("n"), e.version(), bytes(Long.toString(n + 1))))) {
                                break;
                            }
                        }
                    }
                } catch (Throwable x) {
                    failures.add(x);
                }
            });
            workers.add(w);
            w.start();
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(1, created.get(), "exactly one creator");
        assertEquals(Integer.toString(threads * rounds), text(store.get(key("n"))), "no increment lost or doubled");
    }
}
