package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The change feed of two TetraDB servers on one shared engine (issue 20), through the document API: both write, one
 * reads the feed from the beginning with a continuation, the other resumes that continuation after a restart. A
 * change's position is its logical partition's lsn, decided by the engine's conditional apply, so no change is lost
 * or repeated, each partition's changes come in lsn order, and {@code _lsn} is the same on every server. A subclass
 * gives the shared stores: an embedded pair presented as shared in document-core's build, a Cassandra keyspace in
 * cassandra-engine's {@code cluster} profile.
 */
public abstract class SharedFeedContract {
    private static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dirs;
    private MetadataStore meta;
    private PartitionStore partitions;
    private final List<CosmosClient> clients = new ArrayList<>();
    private String db;

    /** The directory of this test's servers (and of an embedded shared store). */
    protected Path dirs() {
        return dirs;
    }

    protected abstract MetadataStore sharedMetadata() throws Exception;

    protected abstract PartitionStore sharedPartitions() throws Exception;

    /** True when the container deletion's own metadata write removes the item rows (one embedded engine for both). */
    protected boolean deletionRemovesItemRows() {
        return false;
    }

    @BeforeEach
    void stores() throws Exception {
        meta = sharedMetadata();
        partitions = sharedPartitions();
        db = "feed" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
    }

    @AfterEach
    void closeClients() {
        clients.forEach(CosmosClient::close);
    }

    /** A server: its own data directory, the shared stores. */
    private CosmosClient server(String name) {
        CosmosClient c = new CosmosClientBuilder().dataDirectory(dirs.resolve(name)).storage(meta, partitions)
                .buildClient();
        clients.add(c);
        return c;
    }

    private static void write(CosmosContainer c, String id, String pk, int n, Map<String, String> last) {
        c.upsertItem(M.createObjectNode().put("id", id).put("pk", pk).put("n", n));
        last.put(pk + "/" + id, Integer.toString(n));
    }

    /** Reads every page of the feed from {@code o}; returns the last continuation. */
    private static String drain(CosmosContainer c, CosmosChangeFeedRequestOptions o, List<JsonNode> out) {
        String token = null;
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(o.setMaxItemCount(5), JsonNode.class).iterableByPage()) {
            out.addAll(page.getResults());
            token = page.getContinuationToken();
        }
        return token;
    }

    /** Each id once, at the value last written; each partition's changes in increasing {@code _lsn}. */
    private static void assertLatestOncePerItemInPartitionOrder(List<JsonNode> changes, Map<String, String> expected) {
        Map<String, String> seen = new HashMap<>();
        Map<String, Long> lsnOfPartition = new HashMap<>();
        for (JsonNode n : changes) {
            String id = n.get("pk").asText() + "/" + n.get("id").asText();
            assertTrue(seen.put(id, n.get("n").asText()) == null, "each item once: " + id);
            long lsn = n.get("_lsn").asLong();
            Long before = lsnOfPartition.put(n.get("pk").asText(), lsn);
            assertTrue(before == null || before < lsn, "lsn order within partition " + n.get("pk") + ": " + before
                    + " then " + lsn);
        }
        assertEquals(expected, seen);
    }

    @Test
    void aContinuationResumesOnTheOtherServerAfterARestartWithNoChangeLost() {
        CosmosClient a = server("a");
        CosmosClient b = server("b");
        a.createDatabase(db);
        a.getDatabase(db).createContainer("orders", "/pk");
        CosmosContainer onA = a.getDatabase(db).getContainer("orders");
        CosmosContainer onB = b.getDatabase(db).getContainer("orders");
        Map<String, String> first = new HashMap<>();
        for (int i = 0; i < 40; i++) { // both servers write the same partitions and items, alternately
            write(i % 2 == 0 ? onA : onB, "i" + (i % 15), "p" + (i % 15 % 4), i, first);
        }
        List<JsonNode> read = new ArrayList<>();
        String token = drain(onA, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()), read);
        assertNotNull(token);
        assertLatestOncePerItemInPartitionOrder(read, first);

        Map<String, String> second = new HashMap<>();
        for (int i = 40; i < 70; i++) { // more from both, some items new
            write(i % 3 == 0 ? onA : onB, "i" + (i % 22), "p" + (i % 22 % 5), i, second);
        }
        // b restarts: a new process on its own directory, nothing of the feed in memory
        clients.remove(b);
        b.close();
        CosmosClient b2 = server("b");
        CosmosContainer again = b2.getDatabase(db).getContainer("orders");
        List<JsonNode> resumed = new ArrayList<>();
        String next = drain(again, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), resumed);
        assertLatestOncePerItemInPartitionOrder(resumed, second);

        // what one server reports as an item's _lsn the other reports too, and the feed's continuation is caught up
        for (JsonNode n : resumed) {
            JsonNode viaA = onA.readItem(n.get("id").asText(), new PartitionKey(n.get("pk").asText()), JsonNode.class)
                    .getItem();
            assertEquals(n.get("_etag"), viaA.get("_etag"));
        }
        List<JsonNode> none = new ArrayList<>();
        drain(onA, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(next), none);
        assertEquals(List.of(), none, "nothing new after the resumed reader's continuation, on the other server");
    }

    /**
     * The processor's lease holds its position; on a shared engine that is a cursor with an lsn per changed logical
     * partition (~30 bytes each), inline the 2 MB item limit at ~60,000 partitions. A large one is stored in the
     * metadata as the faces' tokens are (FeedCursorTokens) and the lease holds its id; another server's processor
     * resumes it exactly.
     */
    @Test
    void aProcessorsLeaseStaysBoundedWithManyChangedPartitionsAndResumesOnTheOtherServer() throws Exception {
        CosmosClient a = server("a");
        CosmosClient b = server("b");
        a.createDatabase(db);
        a.getDatabase(db).createContainer("orders", "/pk");
        a.getDatabase(db).createContainer("leases", "/id");
        CosmosContainer onA = a.getDatabase(db).getContainer("orders");
        CosmosContainer onB = b.getDatabase(db).getContainer("orders");
        int partitions = 300;
        for (int i = 0; i < partitions; i++) { // one item in each of 300 logical partitions, through both servers
            (i % 2 == 0 ? onA : onB).createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + i));
        }
        Map<String, java.util.concurrent.atomic.AtomicInteger> delivered = new java.util.concurrent.ConcurrentHashMap<>();
        ChangeFeedProcessor first = processor("host-a", onA, a.getDatabase(db).getContainer("leases"), delivered);
        first.start();
        ChangeFeedProcessorTest.await("all " + partitions + " delivered", () -> delivered.size() == partitions);
        first.stop(); // releases its leases with the handled position
        List<JsonNode> leaseDocs = new ArrayList<>();
        a.getDatabase(db).getContainer("leases").queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(),
                JsonNode.class).forEach(leaseDocs::add);
        assertTrue(!leaseDocs.isEmpty());
        for (JsonNode lease : leaseDocs) {
            String token = lease.get("ContinuationToken").asText();
            assertTrue(token.length() < 1_000, "a bounded continuation in the lease: " + token.length() + " chars");
        }
        for (int i = partitions; i < partitions + 5; i++) { // 5 more, some in old partitions
            onB.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 7)));
        }
        Map<String, java.util.concurrent.atomic.AtomicInteger> later = new java.util.concurrent.ConcurrentHashMap<>();
        ChangeFeedProcessor second = processor("host-b", onB, b.getDatabase(db).getContainer("leases"), later);
        second.start();
        ChangeFeedProcessorTest.await("the 5 later items delivered", () -> later.size() == 5);
        second.stop();
        assertEquals(java.util.Set.of("i300", "i301", "i302", "i303", "i304"), later.keySet(),
                "exactly the later changes: the stored cursor was read on the other server");
        later.values().forEach(n -> assertEquals(1, n.get()));
    }

    private static ChangeFeedProcessor processor(String host, CosmosContainer feed, CosmosContainer leases,
                                                 Map<String, java.util.concurrent.atomic.AtomicInteger> deliveries) {
        return new ChangeFeedProcessorBuilder().hostName(host).feedContainer(feed).leaseContainer(leases)
                .options(ChangeFeedProcessorTest.fastOptions())
                .handleChanges(changes -> changes.forEach(n -> deliveries.computeIfAbsent(n.get("id").asText(),
                        i -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet()))
                .buildChangeFeedProcessor();
    }

    @Test
    void fromNowOnOneServerSeesTheOthersWritesAndOnlyThose() {
        CosmosClient a = server("a");
        CosmosClient b = server("b");
        a.createDatabase(db);
        a.getDatabase(db).createContainer("events", "/pk");
        CosmosContainer onA = a.getDatabase(db).getContainer("events");
        CosmosContainer onB = b.getDatabase(db).getContainer("events");
        Map<String, String> before = new HashMap<>();
        for (int i = 0; i < 12; i++) {
            write(onA, "old" + i, "p" + (i % 3), i, before);
        }
        List<JsonNode> nothing = new ArrayList<>();
        String token = drain(onB, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange()),
                nothing);
        assertEquals(List.of(), nothing);
        Map<String, String> after = new HashMap<>();
        for (int i = 0; i < 9; i++) {
            write(onA, "new" + i, "p" + (i % 4), 100 + i, after);
        }
        write(onA, "old1", "p1", 200, after);
        List<JsonNode> seen = new ArrayList<>();
        drain(onB, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), seen);
        assertLatestOncePerItemInPartitionOrder(seen, after);
    }

    /**
     * Issue 20: a deleted container's rows leave the item engine, by a background job that a restart resumes: the
     * deletion leaves a marker; here the first server stops before its job runs (passes by hand only), and the next
     * server's pass removes every partition of the container, and nothing of the other container.
     */
    @Test
    void aDeletedContainersRowsAreRemovedByTheNextServerAfterARestart() {
        System.setProperty("tetradb.containerDrops.manual", "true");
        CosmosClient a;
        int gone;
        int kept;
        try {
            a = server("a");
            a.createDatabase(db);
            a.getDatabase(db).createContainer("gone", "/pk");
            a.getDatabase(db).createContainer("kept", "/pk");
            CosmosContainer g = a.getDatabase(db).getContainer("gone");
            CosmosContainer k = a.getDatabase(db).getContainer("kept");
            Map<String, String> written = new HashMap<>();
            for (int i = 0; i < 20; i++) {
                write(g, "i" + i, "p" + (i % 5), i, written);
                write(k, "i" + i, "p" + (i % 3), i, written);
            }
            gone = a.coreStore().container(db, "gone").definition().collId();
            kept = a.coreStore().container(db, "kept").definition().collId();
            assertEquals(5, partitions.partitions(gone, null, null).size());
            g.delete();
            assertEquals(1, meta.list(new byte[]{0x3C}).size(), "the deletion left its marker");
            if (!deletionRemovesItemRows()) {
                assertEquals(5, partitions.partitions(gone, null, null).size(), "no pass has run yet");
            }
            clients.remove(a);
            a.close();
        } finally {
            System.clearProperty("tetradb.containerDrops.manual");
        }
        CosmosClient b = server("b");
        b.coreStore().dropDeletedContainersNow(); // the open's own pass may have done it first: either way, done now
        assertEquals(List.of(), partitions.partitions(gone, null, null));
        assertEquals(3, partitions.partitions(kept, null, null).size());
        assertEquals(20, b.getDatabase(db).getContainer("kept").queryItems("SELECT * FROM c",
                new CosmosQueryRequestOptions(), JsonNode.class).stream().count());
        System.setProperty("tetradb.containerDrops.graceMillis", "0");
        try {
            b.coreStore().dropDeletedContainersNow(); // past the grace: the last pass removes the marker
        } finally {
            System.clearProperty("tetradb.containerDrops.graceMillis");
        }
        assertEquals(0, b.coreStore().dropDeletedContainersNow(), "the marker is gone with the rows");
    }

    /**
     * A server that still has a deleted container cached (its catalog check not due yet) writes into it after the
     * deletion and after a drop pass: the marker outlives the deletion by a grace period, and the next pass removes
     * those late rows too (before: left behind, unreachable).
     */
    @Test
    void aLateWriteByAServerThatStillHadTheContainerCachedIsDroppedByTheNextPass() {
        System.setProperty("tetradb.containerDrops.manual", "true");
        try {
            CosmosClient a = server("a");
            CosmosClient b = server("b");
            b.coreStore().catalogCheckMillis(3_600_000); // b will not notice the deletion in this test
            a.createDatabase(db);
            a.getDatabase(db).createContainer("old", "/pk");
            CosmosContainer onB = b.getDatabase(db).getContainer("old");
            write(onB, "i0", "p0", 0, new HashMap<>());
            int collId = a.coreStore().container(db, "old").definition().collId();
            a.getDatabase(db).getContainer("old").delete();
            a.coreStore().dropDeletedContainersNow();
            assertEquals(List.of(), partitions.partitions(collId, null, null));
            write(onB, "late1", "p1", 1, new HashMap<>()); // b's cache still has it
            assertEquals(1, partitions.partitions(collId, null, null).size(), "the late write landed");
            assertEquals(1, a.coreStore().dropDeletedContainersNow(), "the marker is still there, in its grace");
            assertEquals(List.of(), partitions.partitions(collId, null, null), "and the late rows went");
        } finally {
            System.clearProperty("tetradb.containerDrops.manual");
        }
    }

    /**
     * The feed pruner on a shared engine: superseded records and tombstones go through the contract (a latest-version
     * container: at once), whichever server wrote them; a second server's pass finds nothing left to do; the feed
     * from the beginning still shows each live item at its latest version.
     */
    @Test
    void thePrunerRemovesSupersededRecordsAndTombstonesThroughTheContract() {
        CosmosClient a = server("a");
        CosmosClient b = server("b");
        a.createDatabase(db);
        a.getDatabase(db).createContainer("pruned", "/pk");
        CosmosContainer onA = a.getDatabase(db).getContainer("pruned");
        CosmosContainer onB = b.getDatabase(db).getContainer("pruned");
        Map<String, String> live = new HashMap<>();
        for (int i = 0; i < 5; i++) {
            write(i % 2 == 0 ? onA : onB, "x", "p0", i, live);
        }
        write(onB, "y", "p1", 10, live);
        write(onA, "z", "p1", 11, new HashMap<>());
        onB.deleteItem("z", new PartitionKey("p1"), new CosmosItemRequestOptions());
        int collId = a.coreStore().container(db, "pruned").definition().collId();
        assertEquals(8, records(collId), "5 of x, 1 of y, create and delete of z");
        assertEquals(6, a.coreStore().changeFeeds().pruner().pruneOnce(), "4 superseded of x, z's two");
        assertEquals(2, records(collId), "the latest record of each live item");
        assertEquals(0, b.coreStore().changeFeeds().pruner().pruneOnce(), "the other server finds nothing to do");
        List<JsonNode> read = new ArrayList<>();
        drain(onB, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange()), read);
        assertLatestOncePerItemInPartitionOrder(read, live);
    }

    /**
     * The feed policy is in the shared metadata (issue 20): a server that loaded the container before another set an
     * all-versions retention writes records with their images (after its next catalog check), so the all-versions
     * feed read on the first shows the second's create, replace and delete whole; neither server opened a RocksDB
     * directory of its own.
     */
    @Test
    void aFeedPolicySetOnOneServerIsFollowedByTheOthersWritersWithNoLocalDirectory() {
        CosmosClient a = server("a");
        CosmosClient b = server("b");
        b.coreStore().catalogCheckMillis(0); // the catalog stamp at every lookup: no waiting in the test
        a.createDatabase(db);
        a.getDatabase(db).createContainer("audit", "/pk");
        CosmosContainer onA = a.getDatabase(db).getContainer("audit");
        CosmosContainer onB = b.getDatabase(db).getContainer("audit");
        write(onB, "before", "p0", 0, new HashMap<>()); // b has the container loaded, latest version only
        a.coreStore().container(db, "audit").changeFeed().setPolicy(
                new io.tetradb.core.feed.ChangeFeedPolicy(java.time.Duration.ofMinutes(10)));
        List<JsonNode> none = new ArrayList<>();
        String token = drain(onA, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                .allVersionsAndDeletes(), none);
        b.coreStore().container(db, "audit"); // a lookup, as every face request makes: b's catalog check
        write(onB, "x", "p1", 1, new HashMap<>());
        write(onB, "x", "p1", 2, new HashMap<>());
        onB.deleteItem("x", new PartitionKey("p1"), new CosmosItemRequestOptions());
        List<JsonNode> all = new ArrayList<>();
        drain(onA, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), all);
        assertEquals(3, all.size(), all.toString());
        assertEquals(1, all.get(0).get("current").get("n").asInt(), all.toString());
        assertEquals(2, all.get(1).get("current").get("n").asInt());
        assertEquals(1, all.get(1).get("previous").get("n").asInt(), "the image before, kept by the other server");
        assertEquals("delete", all.get(2).get("metadata").get("operationType").asText());
        assertEquals(2, all.get(2).get("previous").get("n").asInt());
        for (String server : List.of("a", "b")) {
            assertTrue(!java.nio.file.Files.exists(dirs.resolve(server).resolve("CURRENT")),
                    "no RocksDB directory of " + server);
        }
    }

    private int records(int collId) {
        int n = 0;
        for (io.tetradb.core.storage.partition.PartitionVersion pv : partitions.partitions(collId, null, null)) {
            n += partitions.changes(pv.partition(), 0, 1000).size();
        }
        return n;
    }
}
