package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A TTL change on an existing container on shared stores (issue 20, {@link SharedExpiryRebuild}): two core stores
 * (two servers) on one shared metadata store and one shared partition store, one clock they both follow. A replace of
 * {@code defaultTtl} on one server is followed by the other at its catalog check, and the items' expiry entries are
 * converted through the partition contract, so both servers' purgers delete exactly what expired under the new rule:
 * TTL switched on for stored items purges them (no entries existed), a shorter TTL purges at the new time, a longer
 * one keeps items the old entries would have purged. A subclass gives the stores: embedded ones presented as shared
 * here ({@code SharedTtlChangeEmbeddedTest}), Cassandra in cassandra-engine's cluster profile.
 */
public abstract class SharedTtlChangeContract {
    private static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dirs;
    protected CoreStore a;
    protected CoreStore b;
    private String db;
    private final SharedEnginePathsContract.MovableClock clock = new SharedEnginePathsContract.MovableClock();

    protected abstract MetadataStore sharedMetadata() throws Exception;

    protected abstract PartitionStore sharedPartitions() throws Exception;

    @BeforeEach
    void open() throws Exception {
        MetadataStore meta = sharedMetadata();
        PartitionStore partitions = sharedPartitions();
        a = CoreStore.open(StoreConfig.defaults(dirs.resolve("a")).withClock(clock), meta, beforeApply(partitions));
        b = CoreStore.open(StoreConfig.defaults(dirs.resolve("b")).withClock(clock), meta, partitions);
        for (CoreStore s : List.of(a, b)) {
            s.catalogCheckMillis(50);
            s.ttlPurger().stop(); // the purges below are the only ones: their counts add up
        }
        db = "db" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        a.createDatabase(db, null);
    }

    /** Run once, on server a, just before its next apply of a write with items (another server acting meanwhile). */
    private final java.util.concurrent.atomic.AtomicReference<Runnable> beforeNextItemApply =
            new java.util.concurrent.atomic.AtomicReference<>();

    private PartitionStore beforeApply(PartitionStore inner) {
        return (PartitionStore) java.lang.reflect.Proxy.newProxyInstance(PartitionStore.class.getClassLoader(),
                new Class<?>[]{PartitionStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("apply") && args[0] instanceof PartitionWrite w
                            && !w.items().isEmpty()) {
                        Runnable r = beforeNextItemApply.getAndSet(null);
                        if (r != null) {
                            r.run();
                        }
                    }
                    try {
                        return method.invoke(inner, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(PartitionKeyValue.component(v));
    }

    private static ObjectNode item(String id, String pk) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("v", 1);
    }

    /** Writes {@code n} items through both servers, in four partitions. */
    private void write(ContainerStore onA, ContainerStore onB, int n) {
        for (int i = 0; i < n; i++) {
            (i % 2 == 0 ? onA : onB).execute(pk("p" + (i % 4)), ItemOperation.create(item("i" + i, "p" + (i % 4))));
        }
    }

    /** Replaces the default TTL on {@code s} and waits (bounded) until the conversion's record is gone. */
    private void replaceTtl(CoreStore s, Integer ttl) throws InterruptedException {
        ContainerStore c = s.container(db, "c");
        s.replaceContainer(db, "c", null, c.definition().indexingPolicy(), ttl);
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(60)).toNanos();
        while (s.metadata().get(SharedExpiryRebuild.recordKey(c.collId())) != null && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertNull(s.metadata().get(SharedExpiryRebuild.recordKey(c.collId())), "the conversion ended");
    }

    private int purgeBoth(ContainerStore onA, ContainerStore onB) {
        int n = 0;
        for (int round = 0; round < 20; round++) {
            int k = onA.purgeExpired(clock.millis(), 1000) + onB.purgeExpired(clock.millis(), 1000);
            n += k;
            if (k == 0) {
                return n;
            }
        }
        return n;
    }

    private int entries(ContainerStore c) {
        int collId = c.collId();
        return a.partitions().seekDerived(collId, Space.META, ExpiryIndex.prefix(collId),
                ExpiryIndex.prefix(collId + 1), 10_000).size();
    }

    private ContainerStore following(CoreStore s, Integer ttl) throws InterruptedException {
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(30)).toNanos();
        while (!java.util.Objects.equals(s.container(db, "c").definition().defaultTimeToLive(), ttl)
                && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        ContainerStore c = s.container(db, "c");
        assertEquals(ttl, c.definition().defaultTimeToLive());
        return c;
    }

    @Test
    void ttlSwitchedOnForStoredItemsPurgesThemThroughBothServers() throws Exception {
        ContainerStore onA = a.createContainer(db, "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        ContainerStore onB = b.container(db, "c");
        write(onA, onB, 20);
        onA.execute(pk("p0"), ItemOperation.create(item("keep", "p0").put("ttl", -1)));
        assertEquals(0, entries(onA));
        replaceTtl(a, 60);
        onB = following(b, 60);
        assertEquals(20, entries(onA), "an entry per item that can expire, written by the conversion");
        clock.advance(Duration.ofSeconds(120));
        assertEquals(20, purgeBoth(a.container(db, "c"), onB), "each expired item purged exactly once");
        ContainerStore readB = onB;
        assertEquals(404, assertThrows(StoreException.class, () -> readB.read(pk("p1"), "i1", null)).status());
        assertEquals(200, onB.read(pk("p0"), "keep", null).status());
        assertEquals(0, entries(onA));
    }

    @Test
    void aShorterTtlPurgesAtTheNewTimeALongerOneKeepsWhatTheOldWouldHavePurged() throws Exception {
        ContainerStore onA = a.createContainer(db, "c", PartitionKeyDefinition.of("/pk"), null, 3600, null, null);
        ContainerStore onB = b.container(db, "c");
        write(onA, onB, 12);
        replaceTtl(b, 60); // shorter, on the other server
        onA = following(a, 60);
        clock.advance(Duration.ofSeconds(30));
        onA.execute(pk("p0"), ItemOperation.create(item("late", "p0"))); // written after: expires 30 s later
        assertEquals(13, entries(onA), "one entry per item, at the new rule's time");
        clock.advance(Duration.ofSeconds(40)); // 70 s after the first writes
        assertEquals(12, purgeBoth(onA, following(b, 60)));
        assertEquals(200, onA.read(pk("p0"), "late", null).status());

        replaceTtl(a, 7200); // longer: the entry at "late"'s old time must not purge it
        ContainerStore readB = following(b, 7200);
        clock.advance(Duration.ofSeconds(600));
        assertEquals(0, purgeBoth(onA, readB));
        assertEquals(200, readB.read(pk("p0"), "late", null).status());
        clock.advance(Duration.ofSeconds(7200));
        assertEquals(1, purgeBoth(onA, readB));
        assertEquals(0, entries(onA));
    }

    @Test
    void aDateFieldExpiryAddedOnOneServerPurgesOnBothAndItsRemovalStopsIt() throws Exception {
        ContainerStore onA = a.createContainer(db, "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        ContainerStore onB = b.container(db, "c");
        long t0 = clock.millis();
        for (int i = 0; i < 8; i++) {
            ObjectNode it = item("d" + i, "p" + (i % 4));
            it.putObject("at").put("$date", t0 + i * 100_000L); // 100 s apart: the clock also runs in real time
            (i % 2 == 0 ? onA : onB).execute(pk("p" + (i % 4)), ItemOperation.create(it));
        }
        onA.execute(pk("p0"), ItemOperation.create(item("plain", "p0").put("at", "not a date")));
        onA.setDateFieldExpiry("at_1", List.of("at"), 60L);
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(60)).toNanos();
        while (a.metadata().get(SharedExpiryRebuild.recordKey(onA.collId())) != null && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertEquals(8, entries(onA), "an entry per dated item, written by the conversion");
        long waitB = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(30)).toNanos();
        while (!b.container(db, "c").expiryRule().active() && System.nanoTime() < waitB) {
            Thread.sleep(20);
        }
        onB = b.container(db, "c");
        clock.advance(Duration.ofSeconds(510)); // d0..d4 past their date + 60 s, d5 not (560 s)
        assertEquals(5, purgeBoth(onA, onB));
        assertEquals(200, onB.read(pk("p1"), "d5", null).status());
        onB.setDateFieldExpiry("at_1", List.of(), null); // removed on the other server
        until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(60)).toNanos();
        while (a.metadata().get(SharedExpiryRebuild.recordKey(onA.collId())) != null && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertEquals(0, entries(onA), "the conversion removed the entries");
        clock.advance(Duration.ofDays(1));
        assertEquals(0, purgeBoth(onA, onB));
    }
    /**
     * A stale writer: server a's transaction reads its partition's version and expiry rule (no TTL), then server b
     * switches a TTL on and its conversion converts that partition, then a applies its create. The conversion bumps
     * the version, so the create is refused (449, nothing written) and its retry — on a, which follows the change as
     * its next request's lookup does — writes the item with its entry under the new rule: both items are purged.
     * Before (the conversion kept the version) the create applied without an entry, and the item was hidden at its
     * time but never purged (1 of 2).
     */
    @Test
    void aStaleWritersCreateAfterTheConversionIsRefusedAndItsRetryWritesTheNewRulesEntry() throws Exception {
        ContainerStore onA = a.createContainer(db, "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        onA.execute(pk("p0"), ItemOperation.create(item("x", "p0")));
        beforeNextItemApply.set(() -> {
            try {
                replaceTtl(b, 60); // b changes the rule and converts p0 while a's create waits to apply
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        List<Integer> attempts = new java.util.ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                ContainerStore c = attempt == 0 ? a.container(db, "c") : following(a, 60); // a request's lookup
                c.execute(pk("p0"), ItemOperation.create(item("s", "p0")));
                attempts.add(201);
                break;
            } catch (StoreException e) {
                if (!PartitionRaceRetry.lostRace(e)) {
                    throw e;
                }
                attempts.add(e.status());
            }
        }
        assertEquals(List.of(449, 201), attempts, "the stale create refused once, then written");
        ContainerStore onB = following(b, 60);
        assertEquals(2, entries(onA), "both items' entries under the new rule");
        clock.advance(Duration.ofSeconds(120));
        assertEquals(2, purgeBoth(following(a, 60), onB), "both items purged");
        assertEquals(0, entries(onA));
    }

    /**
     * A server whose catalog lags the change by more than the conversion's two-check wait: server a keeps the
     * container without a TTL cached (an hour between its catalog checks) while server b switches a TTL on and converts
     * partition p0. Then a, still on the old rule, replaces p0's stored item and creates another in it; both apply (a
     * read the converted partition's version) and write their entries under the rule the partition recorded
     * ({@link PartitionExpiryRules}), so b's purger deletes both at the new rule's time. Before, a wrote none (its rule
     * had no TTL): the created item had no entry and the replaced one kept the conversion's entry at its old time, so
     * after the replace both were hidden by b at their time but only one entry was left (1 of 2).
     */
    @Test
    void aServerWhoseCatalogLagsTheConversionWritesItsEntriesUnderThePartitionsRule() throws Exception {
        ContainerStore onA = a.createContainer(db, "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        onA.execute(pk("p0"), ItemOperation.create(item("x", "p0")));
        a.catalogCheckMillis(3_600_000); // a keeps the container as it is for the whole test
        replaceTtl(b, 60);
        ContainerStore onB = following(b, 60);
        assertEquals(1, entries(onA), "the conversion wrote x's entry");
        ContainerStore stale = a.container(db, "c");
        assertNull(stale.definition().defaultTimeToLive(), "a still follows the old rule (no TTL)");
        clock.advance(Duration.ofSeconds(30)); // the replace moves x's expiry 30 s on
        stale.execute(pk("p0"), ItemOperation.replace("x", item("x", "p0").put("v", 2), null));
        stale.execute(pk("p0"), ItemOperation.create(item("s", "p0")));
        assertEquals(2, entries(onA), "x's entry moved and s's written, under the partition's rule");
        clock.advance(Duration.ofSeconds(45)); // 75 s after x's first write, 45 s after a's writes
        assertEquals(0, purgeBoth(stale, onB), "nothing purged at x's old time");
        assertEquals(200, onB.read(pk("p0"), "x", null).status());
        clock.advance(Duration.ofSeconds(30));
        assertEquals(2, purgeBoth(stale, onB), "both purged at the new rule's time");
        assertEquals(0, entries(onA));
    }
}
