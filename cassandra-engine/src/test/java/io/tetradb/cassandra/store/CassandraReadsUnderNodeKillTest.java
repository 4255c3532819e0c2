package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.core.storage.StorageUnavailableException;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionWrite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node killed (SIGKILL) under a read load, once with the stores' reads unmarked (the driver's default: a read whose
 * connection is lost fails, a 503 to the faces) and once marked idempotent ({@link IdempotentReads}: the driver sends
 * it to the next node itself). Sixteen readers read items, versions and partition scans of 40 partitions while node 3
 * is killed; phases end on counts of reads, not on time. Printed per run: the 503s before and after the kill.
 * With the reads marked, no read may fail and every read returns what was written; unmarked, the 503s are counted
 * only (how many reads are in flight on the killed node's connections depends on the moment).
 */
@Tag("cluster")
class CassandraReadsUnderNodeKillTest {
    private static final int READERS = 16;
    private static final int READS_BEFORE = 400;
    private static final int READS_AFTER = 1_200;

    @AfterAll
    static void restartKilledNode() {
        TestCluster.restartStopped(); // the cluster is shared with the other classes of this JVM
    }

    @Test
    void readsMarkedIdempotentGoOnWithoutA503WhenANodeIsKilledUnderThem() throws Exception {
        CqlSession session = TestCluster.session();
        LocalCluster cluster = TestCluster.cluster(); // kept: cluster() would restart a killed node itself
        CassandraPartitionStore unmarked;
        System.setProperty(IdempotentReads.PROPERTY, "false");
        try {
            unmarked = CassandraPartitionStore.open(session, "tetradb_reads_kill", 3,
                    CassandraPartitionStore.Consistency.QUORUM);
        } finally {
            System.clearProperty(IdempotentReads.PROPERTY);
        }
        CassandraPartitionStore marked = CassandraPartitionStore.open(session, "tetradb_reads_kill", 3,
                CassandraPartitionStore.Consistency.QUORUM);
        List<LogicalPartition> partitions = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            LogicalPartition p = new LogicalPartition(7, bytes("p" + i));
            assertTrue(marked.apply(PartitionWrite.builder(p, 0, 1).put("doc", bytes("v-" + i))
                    .stats(new PartitionStats(1, 1, 1)).build()).applied());
            partitions.add(p);
        }

        Counts before = kill(cluster, unmarked, partitions);
        System.out.printf("READS-UNDER-KILL unmarked: 503 before the kill %d of %d, after %d of %d; first: %s%n",
                before.unavailableBefore.get(), before.readsBefore.get(), before.unavailableAfter.get(),
                before.readsAfter.get(), before.firstUnavailable);
        assertEquals(0, before.wrong.get(), "every read answered returns what was written");
        assertTrue(before.other.isEmpty(), "no failure but 503s: " + before.other);

        cluster.restart(3, 900); // a loaded 2-core machine may take minutes (bounded, not timed)
        awaitAllNodesUpInTheDriver(session);
        Counts after = kill(cluster, marked, partitions);
        System.out.printf("READS-UNDER-KILL marked idempotent: 503 before the kill %d of %d, after %d of %d; first: %s%n",
                after.unavailableBefore.get(), after.readsBefore.get(), after.unavailableAfter.get(),
                after.readsAfter.get(), after.firstUnavailable);
        assertEquals(0, after.wrong.get(), "every read answered returns what was written");
        assertTrue(after.other.isEmpty(), "no other failure: " + after.other);
        assertEquals(0, after.unavailableBefore.get() + after.unavailableAfter.get(),
                "a read marked idempotent is sent to another node, not failed: " + after.firstUnavailable);
        // with two of three nodes, the store still serves and applies at QUORUM / SERIAL
        assertArrayEquals(bytes("v-0"), marked.read(partitions.get(0), "doc"));
        assertTrue(marked.apply(PartitionWrite.builder(partitions.get(0), 1, 2).put("doc", bytes("v2")).build())
                .applied());
    }

    /** What the readers saw, split at the kill. */
    private static final class Counts {
        final AtomicInteger readsBefore = new AtomicInteger();
        final AtomicInteger readsAfter = new AtomicInteger();
        final AtomicInteger unavailableBefore = new AtomicInteger();
        final AtomicInteger unavailableAfter = new AtomicInteger();
        final AtomicInteger wrong = new AtomicInteger();
        final ConcurrentHashMap<String, String> other = new ConcurrentHashMap<>();
        volatile String firstUnavailable = "none";
    }

    /** Readers on {@code store}; node 3 killed after {@link #READS_BEFORE} reads, then {@link #READS_AFTER} more. */
    private static Counts kill(LocalCluster cluster, CassandraPartitionStore store, List<LogicalPartition> partitions)
            throws InterruptedException {
        Counts c = new Counts();
        AtomicBoolean killed = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < READERS; t++) {
            Thread r = new Thread(() -> {
                while (!stop.get()) {
                    int i = ThreadLocalRandom.current().nextInt(partitions.size());
                    LogicalPartition p = partitions.get(i);
                    try {
                        switch (ThreadLocalRandom.current().nextInt(3)) {
                            case 0 -> {
                                byte[] v = store.read(p, "doc");
                                if (v == null || !new String(v, StandardCharsets.UTF_8).startsWith("v")) {
                                    c.wrong.incrementAndGet();
                                }
                            }
                            case 1 -> {
                                if (store.version(p) < 1) {
                                    c.wrong.incrementAndGet();
                                }
                            }
                            default -> {
                                if (store.scan(p, null, null, 10).size() != 1) {
                                    c.wrong.incrementAndGet();
                                }
                            }
                        }
                    } catch (StorageUnavailableException e) {
                        boolean afterKill = killed.get(); // when it ended: one in flight at the kill is after
                        (afterKill ? c.unavailableAfter : c.unavailableBefore).incrementAndGet();
                        if ("none".equals(c.firstUnavailable)) {
                            c.firstUnavailable = e.getMessage();
                        }
                    } catch (RuntimeException e) {
                        c.other.putIfAbsent(e.getClass().getName(), String.valueOf(e.getMessage()));
                    }
                    (killed.get() ? c.readsAfter : c.readsBefore).incrementAndGet();
                }
            }, "reader-" + t);
            r.setDaemon(true);
            r.start();
            readers.add(r);
        }
        try {
            awaitCount(c.readsBefore, READS_BEFORE);
            killed.set(true);
            cluster.kill(3);
            assertFalse(cluster.isRunning(3), "node 3's process is gone");
            awaitCount(c.readsAfter, READS_AFTER);
        } finally {
            stop.set(true);
            for (Thread r : readers) {
                r.join(120_000);
            }
        }
        return c;
    }

    private static void awaitCount(AtomicInteger count, int target) throws InterruptedException {
        long deadline = System.nanoTime() + 600_000_000_000L; // a bound on a stuck run, not a timing assertion
        while (count.get() < target) {
            assertTrue(System.nanoTime() < deadline, "readers stalled at " + count.get() + " of " + target);
            Thread.sleep(20);
        }
    }

    /** The driver has reconnected to every node (so the next kill meets reads in flight on node 3 again). */
    private static void awaitAllNodesUpInTheDriver(CqlSession session) throws InterruptedException {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (true) {
            boolean up = true;
            for (Node n : session.getMetadata().getNodes().values()) {
                up &= n.getState() == NodeState.UP && n.getOpenConnections() > 0;
            }
            if (up) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the driver did not reconnect to every node");
            Thread.sleep(200);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
