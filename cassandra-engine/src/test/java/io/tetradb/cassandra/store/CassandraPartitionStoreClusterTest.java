package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.cassandra.cluster.NodeClasspath;
import io.tetradb.cassandra.cluster.Ports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The logical-partition storage contract on a real 3-node Cassandra 5.0 cluster (separate JVMs on 127.0.0.1-3,
 * replication factor 3, QUORUM / SERIAL): conditional atomic applies with exactly one winner under races, id-ranged
 * scans in order, change records atomic with their writes, token slices covering every partition once, and a node
 * killed with SIGKILL while acknowledged writes stay readable and new applies still succeed at QUORUM.
 * Runs with {@code mvn -Pcluster -pl cassandra-engine verify}.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CassandraPartitionStoreClusterTest {
    static final int CONTAINER = 7;

    LocalCluster cluster;
    CqlSession session;
    CassandraPartitionStore store;

    @BeforeAll
    void start() {
        Path dir = Path.of(System.getProperty("tetradb.cassandra.clusterDir", "target/cluster"))
                .resolve("contract-" + System.nanoTime());
        NodeClasspath cp = NodeClasspath.build(Path.of(System.getProperty("tetradb.cassandra.nodeProject", "node")));
        cluster = LocalCluster.start(dir, 3, cp, Ports.DEFAULT, "384m", 240);
        session = Sessions.open(cluster.contactPoints());
        store = CassandraPartitionStore.open(session, "tetradb_contract", 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @AfterAll
    void stop() {
        if (session != null) {
            session.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static LogicalPartition lp(String key) {
        return new LogicalPartition(CONTAINER, key.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @Order(1)
    void anApplyIsConditionalOnTheVersionAndAllOrNothing() {
        LogicalPartition p = lp("cond");
        assertEquals(0, store.version(p));
        ApplyResult first = store.apply(p, 0, 1, List.of(new Mutation.Put("a", bytes("A1")),
                new Mutation.Put("b", bytes("B1"))), List.of(new Change(1, bytes("c1"))));
        assertTrue(first.applied());
        assertEquals(1, store.version(p));
        // a writer that read version 0 again is refused, and none of its writes exist
        ApplyResult stale = store.apply(p, 0, 2, List.of(new Mutation.Put("a", bytes("LOST")),
                new Mutation.Put("z", bytes("LOST"))), List.of(new Change(2, bytes("lost"))));
        assertFalse(stale.applied());
        assertEquals(1, stale.version());
        assertArrayEquals(bytes("A1"), store.read(p, "a").orElseThrow());
        assertTrue(store.read(p, "z").isEmpty());
        assertEquals(1, store.changes(p, 0, 100).size());
        // the right version applies: a replace, a delete and a put at once
        assertTrue(store.apply(p, 1, 2, List.of(new Mutation.Put("a", bytes("A2")), new Mutation.Delete("b"),
                new Mutation.Put("c", bytes("C2"))), List.of(new Change(2, bytes("c2")))).applied());
        assertArrayEquals(bytes("A2"), store.read(p, "a").orElseThrow());
        assertTrue(store.read(p, "b").isEmpty());
        assertEquals(List.of(1L, 2L), store.changes(p, 0, 100).stream().map(Change::lsn).toList());
        assertEquals(List.of(2L), store.changes(p, 1, 100).stream().map(Change::lsn).toList());
        store.pruneChanges(p, 1);
        assertEquals(List.of(2L), store.changes(p, 0, 100).stream().map(Change::lsn).toList());
    }

    @Test
    @Order(2)
    void racingWritersOfOnePartitionHaveExactlyOneWinnerPerVersion() throws Exception {
        LogicalPartition p = lp("race");
        int writers = 4;
        int roundsEach = 6;
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                results.add(pool.submit((Callable<List<Long>>) () -> {
                    List<Long> won = new ArrayList<>();
                    while (won.size() < roundsEach) {
                        long v = store.version(p);
                        ApplyResult r = store.apply(p, v, v + 1,
                                List.of(new Mutation.Put("w" + writer + "-" + won.size(), bytes("x")),
                                        new Mutation.Put("counter", bytes(Long.toString(v + 1)))),
                                List.of(new Change(v + 1, bytes("w" + writer))));
                        if (r.applied()) {
                            won.add(v + 1);
                        } else {
                            refused.incrementAndGet();
                            // as a client that got 412 re-reads later: writers that retry at once collide again
                            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextInt(1, 20));
                        }
                    }
                    return won;
                }));
            }
            Set<Long> versions = new HashSet<>();
            for (Future<List<Long>> f : results) {
                for (long v : f.get()) {
                    assertTrue(versions.add(v), "version " + v + " was won twice");
                }
            }
            long total = (long) writers * roundsEach;
            assertEquals(total, versions.size());
            assertEquals(total, store.version(p));
            assertArrayEquals(bytes(Long.toString(total)), store.read(p, "counter").orElseThrow());
            // one change record per won version, in order, and every writer's items
            assertEquals(total, store.changes(p, 0, 10_000).size());
            assertEquals(total + 1, store.scan(p, null, null, 10_000).size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(3)
    void scansReturnItemsOfOnePartitionInIdOrderWithinBounds() {
        LogicalPartition p = lp("scan");
        List<Mutation> puts = new ArrayList<>();
        for (String id : List.of("m", "b", "x", "a", "k", "c")) {
            puts.add(new Mutation.Put(id, bytes(id.toUpperCase())));
        }
        assertTrue(store.apply(p, 0, 1, puts, List.of()).applied());
        assertEquals(List.of("a", "b", "c", "k", "m", "x"),
                store.scan(p, null, null, 100).stream().map(StoredItem::id).toList());
        assertEquals(List.of("b", "c", "k"), store.scan(p, "b", "m", 100).stream().map(StoredItem::id).toList());
        assertEquals(List.of("k", "m"), store.scan(p, "d", null, 2).stream().map(StoredItem::id).toList());
    }

    @Test
    @Order(4)
    void slicesCoverTheRingAndHoldEachPartitionOnce() {
        List<LogicalPartition> written = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            LogicalPartition p = lp("slice-" + i);
            assertTrue(store.apply(p, 0, 1, List.of(new Mutation.Put("id", bytes("v"))), List.of()).applied());
            written.add(p);
        }
        List<Slice> slices = store.slices();
        assertTrue(slices.size() >= 3 * 16, "16 tokens per node: " + slices.size());
        Set<LogicalPartition> seen = new HashSet<>();
        for (Slice s : slices) {
            for (PartitionVersion pv : store.partitions(CONTAINER, s)) {
                assertTrue(seen.add(pv.partition()), pv.partition() + " in two slices");
                assertTrue(s.contains(store.token(pv.partition())));
            }
        }
        assertTrue(seen.containsAll(written), "every written partition is in a slice");
    }

    @Test
    @Order(5)
    void withOneNodeKilledAcknowledgedWritesStayAndQuorumAppliesGoOn() {
        List<LogicalPartition> before = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            LogicalPartition p = lp("kill-" + i);
            assertTrue(store.apply(p, 0, 1, List.of(new Mutation.Put("doc", bytes("v1-" + i))),
                    List.of(new Change(1, bytes("c")))).applied());
            before.add(p);
        }
        cluster.kill(3);
        for (int i = 0; i < before.size(); i++) {
            LogicalPartition p = before.get(i);
            assertArrayEquals(bytes("v1-" + i), store.read(p, "doc").orElseThrow());
            ApplyResult r = store.apply(p, 1, 2, List.of(new Mutation.Put("doc", bytes("v2-" + i))),
                    List.of(new Change(2, bytes("c"))));
            assertTrue(r.applied(), "an apply at QUORUM/SERIAL with two of three nodes");
            assertFalse(store.apply(p, 1, 2, List.of(new Mutation.Put("doc", bytes("stale"))), List.of()).applied());
            assertArrayEquals(bytes("v2-" + i), store.read(p, "doc").orElseThrow());
        }
    }
}
