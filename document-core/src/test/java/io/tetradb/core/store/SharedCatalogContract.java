package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two TetraDB core stores on one shared metadata store (several servers on one keyspace): a database or container
 * made through one is usable through the other at once, a deletion or a replaced indexing policy is seen by the
 * other's cached container, racing creations have one winner and never share a container number. A subclass gives
 * the shared metadata store (and the item store under both): an embedded one shared in-process in document-core's
 * build, Cassandra in cassandra-engine's {@code cluster} profile. Each test uses a database of its own.
 */
public abstract class SharedCatalogContract {
    @TempDir
    Path dirs;
    protected CoreStore a;
    protected CoreStore b;
    private String db;

    /** The metadata store both core stores share (it must say {@link MetadataStore#isShared()}). */
    protected abstract MetadataStore sharedMetadata() throws Exception;

    /** The item store under both (null: each its embedded one). */
    protected PartitionStore sharedPartitions() throws Exception {
        return null;
    }

    @BeforeEach
    void open() throws Exception {
        MetadataStore meta = sharedMetadata();
        PartitionStore partitions = sharedPartitions();
        a = CoreStore.open(StoreConfig.defaults(dirs.resolve("a")), meta, partitions);
        b = CoreStore.open(StoreConfig.defaults(dirs.resolve("b")), meta, partitions);
        db = "db" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        a.createDatabase(db, null);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private ContainerStore create(CoreStore s, String id) {
        return s.createContainer(db, id, PartitionKeyDefinition.of("/pk"), null, null, null, null);
    }

    @Test
    void aContainerCreatedOnOneIsUsableOnTheOtherAtOnce() {
        assertEquals(db, b.readDatabase(db).id());
        assertTrue(b.listDatabases().stream().anyMatch(d -> d.id().equals(db)));
        b.catalogCheckMillis(60_000); // no stamp read needed: a miss reads the store
        assertEquals(404, assertThrows(StoreException.class, () -> b.container(db, "orders")).status());
        ContainerStore onA = create(a, "orders");
        ContainerStore onB = b.container(db, "orders");
        assertEquals(onA.collId(), onB.collId());
        assertEquals(onA.definition().rid(), onB.definition().rid());
        assertEquals(List.of("orders"), b.listContainers(db).stream().map(ContainerDefinition::id).toList());
        ContainerStore back = create(b, "carts");
        assertEquals(back.collId(), a.container(db, "carts").collId());
        assertNotEquals(onA.collId(), back.collId());
    }

    @Test
    void aDeletionIsSeenByTheOthersCachedContainer() {
        create(a, "orders");
        ContainerStore cached = b.container(db, "orders");
        b.catalogCheckMillis(0); // check the stamp at every lookup (the default is once a second)
        a.deleteContainer(db, "orders");
        StoreException e = assertThrows(StoreException.class, () -> b.container(db, "orders"));
        assertEquals(404, e.status());
        assertTrue(cached.isDeleted(), "holders of the cached container look it up again");
        ContainerStore again = create(a, "orders");
        ContainerStore onB = b.container(db, "orders");
        assertEquals(again.collId(), onB.collId(), "the new container, not the deleted one");
        a.deleteDatabase(db);
        assertEquals(404, assertThrows(StoreException.class, () -> b.readDatabase(db)).status());
        assertEquals(404, assertThrows(StoreException.class, () -> b.container(db, "orders")).status());
        a.createDatabase(db, null); // for close
    }

    @Test
    void aReplacedIndexingPolicyIsSeenByTheOther() throws Exception {
        create(a, "orders");
        ContainerStore cached = b.container(db, "orders");
        b.catalogCheckMillis(0);
        JsonNode policy = new ObjectMapper().readTree("{\"indexingMode\":\"consistent\",\"automatic\":true,"
                + "\"includedPaths\":[{\"path\":\"/name/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}");
        a.replaceContainer(db, "orders", null, policy, 60);
        ContainerStore onB = b.container(db, "orders");
        assertSame(cached, onB, "the same container, its definition replaced");
        assertEquals(policy, onB.definition().indexingPolicy());
        assertEquals(60, onB.definition().defaultTimeToLive());
        // b replaces from the definition it now holds: no lost update of a's change
        b.replaceContainer(db, "orders", null, policy, 120);
        a.catalogCheckMillis(0);
        assertEquals(120, a.container(db, "orders").definition().defaultTimeToLive());
        if (a.onSharedEngine()) { // items on the shared engine too: the policy rebuilds and TTL changes go through
            a.container(db, "orders").awaitIndexRebuild(); // the contracts (PartitionIndexRebuild, SharedExpiryRebuild)
            onB.awaitIndexRebuild(); // b runs the job too once it saw the replace (every server does)
        }
    }

    @Test
    void racingCreationsHaveOneWinnerAndDistinctNumbers() throws Exception {
        int names = 6;
        AtomicInteger[] winners = new AtomicInteger[names];
        for (int i = 0; i < names; i++) {
            winners[i] = new AtomicInteger();
        }
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (CoreStore s : List.of(a, b, a, b)) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < names; i++) {
                        try {
                            create(s, "race" + i);
                            winners[i].incrementAndGet();
                        } catch (StoreException e) {
                            if (e.status() != 409) {
                                throw e;
                            }
                        }
                    }
                } catch (Throwable x) {
                    failures.add(x);
                }
            });
            threads.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
        Set<Integer> numbers = new HashSet<>();
        for (int i = 0; i < names; i++) {
            assertEquals(1, winners[i].get(), "race" + i + ": exactly one creation");
            int onA = a.container(db, "race" + i).collId();
            assertEquals(onA, b.container(db, "race" + i).collId());
            assertTrue(numbers.add(onA), "container numbers are never shared");
        }
    }
}
