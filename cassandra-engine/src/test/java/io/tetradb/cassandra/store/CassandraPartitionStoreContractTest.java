package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionStoreContract;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The logical-partition storage contract ({@link PartitionStoreContract}, the suite the embedded engine passes in
 * document-core) on a real 3-node Cassandra 5.0 cluster (separate JVMs, {@link TestCluster}, replication factor 3, QUORUM /
 * SERIAL), and what is Cassandra's own: token slices covering every partition once, change-record pruning, and a node
 * killed with SIGKILL while acknowledged writes stay readable and new applies still succeed at QUORUM (last).
 * Runs with {@code mvn -Pcluster -pl cassandra-engine verify}.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CassandraPartitionStoreContractTest extends PartitionStoreContract {
    static CqlSession session;
    static CassandraPartitionStore cassandra;

    @BeforeAll
    static void start() {
        session = TestCluster.session();
        cassandra = CassandraPartitionStore.open(session, "tetradb_contract", 3,
                CassandraPartitionStore.Consistency.QUORUM);
    }

    @AfterAll
    static void restartKilledNode() {
        TestCluster.restartStopped(); // the cluster is shared with the other classes of this JVM
    }

    @Override
    protected PartitionStore openStore() {
        return cassandra; // one keyspace for every test; each test has a container of its own
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ChangeRecord record(LogicalPartition p, long seq, long lsn) {
        return new ChangeRecord(seq, ChangeRecord.OperationType.CREATE, lsn, 0, 1L, false, p.key(), "doc", null, null);
    }

    @Test
    @Order(1)
    void slicesCoverTheRingAndHoldEachPartitionOnce() {
        List<LogicalPartition> written = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            LogicalPartition p = partition("slice-" + i);
            assertTrue(store.apply(PartitionWrite.builder(p, 0, 1).put("id", bytes("v"))
                    .stats(new PartitionStats(1, 1, 1)).build()).applied());
            written.add(p);
        }
        List<Slice> slices = cassandra.slices();
        assertTrue(slices.size() >= 3 * 16, "16 tokens per node: " + slices.size());
        Set<LogicalPartition> seen = new HashSet<>();
        for (Slice s : slices) {
            for (PartitionVersion pv : cassandra.partitions(container, s)) {
                assertTrue(seen.add(pv.partition()), pv.partition() + " in two slices");
                assertTrue(s.contains(cassandra.token(pv.partition())));
                assertEquals(1, pv.version());
            }
        }
        assertEquals(new HashSet<>(written), seen, "every written partition in exactly one slice");
    }

    @Test
    @Order(2)
    void changeRecordsArePrunedThroughAnLsn() {
        LogicalPartition p = partition("prune");
        assertTrue(store.apply(PartitionWrite.builder(p, 0, 3).put("doc", bytes("v")).change(record(p, 11, 1))
                .change(record(p, 12, 2)).change(record(p, 13, 3)).build()).applied());
        cassandra.pruneChanges(p, 2);
        List<ChangeRecord> left = store.changes(p, 0, 100);
        assertEquals(List.of(3L), left.stream().map(ChangeRecord::lsn).toList());
        assertEquals(13, left.get(0).seq());
    }

    /** The contract's race, ten times over (once, 23 of 24 versions were reported won: an unknown outcome). */
    @RepeatedTest(10)
    @Order(3)
    void racingWritersWinEachVersionExactlyOnceTenTimes() throws Exception {
        racingWritersWinEachVersionExactlyOnce();
    }

    private static ChangeRecord change(LogicalPartition p, long lsn, String id) {
        return new ChangeRecord(lsn, ChangeRecord.OperationType.REPLACE, lsn, 0, 1L, false, p.key(), id, null, null);
    }

    private static PartitionWrite write(LogicalPartition p, long expected, long next, String id, String value) {
        return PartitionWrite.builder(p, expected, next).put(id, bytes(value)).change(change(p, next, id))
                .stats(new PartitionStats(1, 1, next)).build();
    }

    /** A store whose session loses the answer of a batch when told to ({@link AnswerDroppingSession}). */
    private static AnswerDroppingSession dropping;
    private static CassandraPartitionStore droppingStore;

    private static CassandraPartitionStore droppingStore() {
        if (droppingStore == null) {
            dropping = new AnswerDroppingSession(session);
            droppingStore = CassandraPartitionStore.open(dropping, "tetradb_contract", 3,
                    CassandraPartitionStore.Consistency.QUORUM);
        }
        return droppingStore;
    }

    @Test
    @Order(4)
    void anAppliedBatchWhoseAnswerWasLostIsReportedAppliedAfterAnotherWriterMovedOn() {
        CassandraPartitionStore ours = droppingStore();
        LogicalPartition p = partition("lost-answer");
        assertTrue(store.apply(write(p, 0, 1, "a", "v1")).applied());
        // ours (1 -> 2) applies, its answer is lost (a CAS write timeout), and another server's write (2 -> 3) lands
        // before we settle: the partition's version and static txid are now the other writer's
        dropping.dropNextBatch(AnswerDroppingSession.Drop.AFTER_APPLYING,
                () -> assertTrue(store.apply(write(p, 2, 3, "b", "theirs")).applied()));
        assertTrue(ours.apply(write(p, 1, 2, "a", "ours")).applied(), "a write that happened is reported applied");
        assertEquals(3, store.version(p));
        assertArrayEquals(bytes("ours"), store.read(p, "a"));
        assertArrayEquals(bytes("theirs"), store.read(p, "b"));
        assertEquals(3, store.changes(p, 0, 10).size(), "one change record per applied write, none twice");
    }

    @Test
    @Order(5)
    void aBatchThatNeverAppliedIsReportedNotAppliedWhenAnotherWriterTookItsVersion() {
        CassandraPartitionStore ours = droppingStore();
        LogicalPartition p = partition("lost-race");
        assertTrue(store.apply(write(p, 0, 1, "a", "v1")).applied());
        dropping.dropNextBatch(AnswerDroppingSession.Drop.BEFORE_SENDING,
                () -> assertTrue(store.apply(write(p, 1, 2, "a", "theirs")).applied()));
        assertFalse(ours.apply(write(p, 1, 2, "a", "ours")).applied());
        assertArrayEquals(bytes("theirs"), store.read(p, "a"));
        assertEquals(2, store.changes(p, 0, 10).size());
    }

    @Test
    @Order(6)
    void aBatchWhoseAnswerWasLostAndThatNobodyRacedIsAppliedOnce() {
        CassandraPartitionStore ours = droppingStore();
        LogicalPartition p = partition("alone");
        dropping.dropNextBatch(AnswerDroppingSession.Drop.AFTER_APPLYING, () -> { });
        assertTrue(ours.apply(write(p, 0, 1, "a", "ours")).applied());
        assertEquals(1, store.version(p));
        assertEquals(1, store.changes(p, 0, 10).size(), "not sent again once its mark was found");
        // a batch never sent is sent again (no mark, still at the version it expects) and applies once
        dropping.dropNextBatch(AnswerDroppingSession.Drop.BEFORE_SENDING, () -> { });
        assertTrue(ours.apply(write(p, 1, 2, "b", "ours")).applied());
        assertEquals(2, store.version(p));
        assertEquals(2, store.changes(p, 0, 10).size());
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: node 3 stays down until the class ends
    void withOneNodeKilledAcknowledgedWritesStayAndQuorumAppliesGoOn() {
        List<LogicalPartition> before = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            LogicalPartition p = partition("kill-" + i);
            assertTrue(store.apply(PartitionWrite.builder(p, 0, 1).put("doc", bytes("v1-" + i))
                    .change(record(p, i, 1)).stats(new PartitionStats(1, 1, 1)).build()).applied());
            before.add(p);
        }
        TestCluster.cluster().kill(3);
        for (int i = 0; i < before.size(); i++) {
            LogicalPartition p = before.get(i);
            assertArrayEquals(bytes("v1-" + i), store.read(p, "doc"));
            assertTrue(store.apply(PartitionWrite.builder(p, 1, 2).put("doc", bytes("v2-" + i)).build()).applied(),
                    "an apply at QUORUM/SERIAL with two of three nodes");
            assertFalse(store.apply(PartitionWrite.builder(p, 1, 2).put("doc", bytes("stale")).build()).applied());
            assertArrayEquals(bytes("v2-" + i), store.read(p, "doc"));
            assertEquals(2, store.version(p));
        }
    }
}
