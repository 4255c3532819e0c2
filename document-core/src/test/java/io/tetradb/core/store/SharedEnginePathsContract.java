package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core's paths that used to read or write the local engine, on shared stores (issue 20). Graph adjacency: two core stores (two servers) with their metadata and items in one
 * shared metadata store and one shared partition store. Enabling adjacency on a container that already holds edges
 * backfills their entries through the partition contract (more edges in one partition than one backfill apply
 * takes); out-entries are read from the vertex's partition and in-entries across the container; the other server,
 * loading the container after, keeps entries for the edges it writes; replaces and deletes move them; the check
 * recomputes them from the items through the contract. A subclass gives the shared stores: embedded ones presented
 * as another engine here ({@code SharedEnginePathsEmbeddedTest}), Cassandra in cassandra-engine's cluster profile.
 */
public abstract class SharedEnginePathsContract {
    @TempDir
    Path dirs;
    protected CoreStore a;
    protected CoreStore b;
    private String db;
    /** Both stores' time: the TTL test moves it instead of sleeping. */
    protected final MovableClock clock = new MovableClock();

    /** A clock a test moves forward. */
    protected static final class MovableClock extends java.time.Clock {
        private final java.util.concurrent.atomic.AtomicLong offset = new java.util.concurrent.atomic.AtomicLong();

        void advance(java.time.Duration d) {
            offset.addAndGet(d.toMillis());
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public java.time.Instant instant() {
            return java.time.Instant.ofEpochMilli(System.currentTimeMillis() + offset.get());
        }
    }

    protected abstract MetadataStore sharedMetadata() throws Exception;

    protected abstract PartitionStore sharedPartitions() throws Exception;

    @BeforeEach
    void open() throws Exception {
        MetadataStore meta = sharedMetadata();
        PartitionStore partitions = sharedPartitions();
        a = CoreStore.open(StoreConfig.defaults(dirs.resolve("a")).withClock(clock), meta, partitions);
        b = CoreStore.open(StoreConfig.defaults(dirs.resolve("b")).withClock(clock), meta, partitions);
        db = "db" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        a.createDatabase(db, null);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(PartitionKeyValue.component(v));
    }

    private static ObjectNode edge(String id, String label, String pk, String from, String toPk, String to) {
        return GraphAdjacencyTest.edge(id, label, pk, from, toPk, to);
    }

    private static List<String> entries(GraphAdjacency g, String pk, String vertex, byte dir) {
        return GraphAdjacencyTest.entries(g, pk, vertex, dir);
    }

    @Test
    void entriesAreBackfilledWrittenAndReadThroughTheContracts() {
        ContainerStore onA = a.createContainer(db, "g", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        int many = AdjacencyContractPath.BACKFILL_EDGES_PER_APPLY * 2 + 5;
        List<ItemOperation> ops = new ArrayList<>();
        for (int i = 0; i < many; i++) {
            ops.add(ItemOperation.create(edge(String.format("e%03d", i), "road", "A", "a", "B", "b" + i)));
        }
        for (List<ItemOperation> chunk : List.of(ops.subList(0, 90), ops.subList(90, many))) {
            onA.executeBatch(pk("A"), chunk).forEach(r -> assertTrue(r.status() < 300, "status " + r.status()));
        }
        onA.execute(pk("C"), ItemOperation.create(edge("c0", "rail", "C", "c", "B", "b0").put("w", 1)));
        onA.execute(pk("A"), ItemOperation.create(vertexItem("a", "A"))); // not an edge

        GraphAdjacency ga = onA.enableGraphAdjacency(); // backfilled through conditional applies
        assertEquals(many, ga.count(pk("A"), "a", GraphAdjacency.OUT, null));
        assertEquals("1:road:B/b0:e000:town:", entries(ga, "A", "a", GraphAdjacency.OUT).get(0));
        assertEquals(List.of("2:rail:C/c:c0:city:{\"w\":1}", "2:road:A/a:e000:city:"),
                entries(ga, "B", "b0", GraphAdjacency.IN));
        assertEquals(List.of("1:rail:B/b0:c0:town:{\"w\":1}"), entries(ga, "C", "c", (byte) 0));

        // the other server loads the container after the mark: its writes keep entries too
        ContainerStore onB = b.container(db, "g");
        GraphAdjacency gb = onB.graphAdjacency();
        assertNotNull(gb, "the mark is in the shared metadata");
        onB.execute(pk("D"), ItemOperation.create(edge("d0", "air", "D", "d", "B", "b0")));
        assertEquals(List.of("2:air:D/d:d0:city:", "2:rail:C/c:c0:city:{\"w\":1}", "2:road:A/a:e000:city:"),
                entries(ga, "B", "b0", GraphAdjacency.IN));
        onB.execute(pk("B"), ItemOperation.create(edge("x0", "air", "B", "b0", "C", "c")));
        assertEquals(List.of("1:rail:B/b0:c0:town:{\"w\":1}", "2:air:B/b0:x0:city:"),
                entries(gb, "C", "c", (byte) 0)); // both directions: out from c's partition, then in across
        assertEquals(List.of("1:air:C/c:x0:town:", "2:air:D/d:d0:city:", "2:rail:C/c:c0:city:{\"w\":1}",
                "2:road:A/a:e000:city:"), entries(ga, "B", "b0", (byte) 0));

        // replace and delete through either server move the entries
        onB.execute(pk("C"), ItemOperation.replace("c0", edge("c0", "rail", "C", "c", "B", "b0").put("w", 2), null));
        onA.execute(pk("A"), ItemOperation.delete("e000", null));
        onB.execute(pk("D"), ItemOperation.replace("d0", vertexItem("d0", "D"), null)); // no longer an edge
        assertEquals(List.of("2:rail:C/c:c0:city:{\"w\":2}"), entries(ga, "B", "b0", GraphAdjacency.IN));
        assertEquals(List.of("1:air:C/c:x0:town:"), entries(ga, "B", "b0", GraphAdjacency.OUT));
        assertEquals(many - 1, gb.count(pk("A"), "a", GraphAdjacency.OUT, "road"));
        assertEquals(1, ga.count(pk("B"), "b1", GraphAdjacency.IN, "road"));
        assertEquals(0, ga.count(pk("B"), "b1", GraphAdjacency.IN, "rail"));

        GraphAdjacency.Check check = gb.check();
        assertTrue(check.consistent(), check.toString());
        assertEquals(2L * (many + 1), check.stored()); // (many - 1) road edges, c0 and x0: two entries each
    }

    /**
     * A server that loaded the container before another enabled adjacency follows the mark at its next catalog check
     * (before: it wrote edges without entries until it reloaded the container).
     */
    @Test
    void aServerThatLoadedTheContainerBeforeAdjacencyWasEnabledKeepsEntriesAfterItsCatalogCheck() {
        ContainerStore onA = a.createContainer(db, "g2", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        ContainerStore onB = b.container(db, "g2");
        assertEquals(null, onB.graphAdjacency());
        b.catalogCheckMillis(0); // the stamp at every lookup: no waiting in the test
        GraphAdjacency ga = onA.enableGraphAdjacency();
        b.container(db, "g2"); // a lookup, as every face request makes: b's catalog check
        assertNotNull(onB.graphAdjacency(), "b follows the mark another server set");
        onB.execute(pk("D"), ItemOperation.create(edge("d0", "air", "D", "d", "B", "b0")));
        assertEquals(List.of("2:air:D/d:d0:city:"), entries(ga, "B", "b0", GraphAdjacency.IN));
        assertEquals(List.of("1:air:B/b0:d0:town:"), entries(ga, "D", "d", GraphAdjacency.OUT));
    }

    /**
     * A request that looked the container up before another server enabled adjacency, and writes an edge after that
     * server's backfill passed the edge's partition, keeps the edge's entries: the backfill marked the partition
     * (AdjacencyPartitionMarks) and the write reads the mark with the partition's epoch (before: an edge without
     * entries, as this server's container object said "no adjacency").
     */
    @Test
    void aWriteThroughAContainerObjectOlderThanTheMarkKeepsEntriesInABackfilledPartition() {
        ContainerStore onA = a.createContainer(db, "g3", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        ContainerStore onB = b.container(db, "g3"); // b's object, from before the mark
        b.catalogCheckMillis(3_600_000); // b follows no mark meanwhile (no catalog check): its object stays stale
        onA.execute(pk("D"), ItemOperation.create(edge("d0", "air", "D", "d", "B", "b0")));
        a.catalogCheckMillis(0); // no wait for other servers' checks before the backfill, in the test
        GraphAdjacency ga = onA.enableGraphAdjacency();
        assertEquals(null, onB.graphAdjacency(), "b has not followed the mark");
        onB.execute(pk("D"), ItemOperation.create(edge("d1", "air", "D", "d", "B", "b1")));
        assertEquals(List.of("1:air:B/b0:d0:town:", "1:air:B/b1:d1:town:"), entries(ga, "D", "d", GraphAdjacency.OUT));
        assertEquals(List.of("2:air:D/d:d1:city:"), entries(ga, "B", "b1", GraphAdjacency.IN));
        assertNotNull(onB.graphAdjacency(), "the partition's mark made b's object keep entries from then on");
    }

    /**
     * The same stale request writing the first item of a partition created after the backfill listed the partitions
     * (no partition mark to find): an edge makes it read the container's mark in the metadata and keep the edge's
     * entries; an item that is not an edge reads nothing (b's object stays without adjacency). Before: the edge had no
     * entries (the case README's "Not covered" named).
     */
    @Test
    void aFirstEdgeOfANewPartitionThroughAContainerObjectOlderThanTheMarkKeepsEntries() {
        ContainerStore onA = a.createContainer(db, "g5", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        ContainerStore onB = b.container(db, "g5"); // b's object, from before the mark
        b.catalogCheckMillis(3_600_000); // b follows no mark meanwhile: its object stays stale
        onA.execute(pk("D"), ItemOperation.create(edge("d0", "air", "D", "d", "B", "b0")));
        a.catalogCheckMillis(0);
        GraphAdjacency ga = onA.enableGraphAdjacency(); // backfills D, the only partition
        onB.execute(pk("F"), ItemOperation.create(vertexItem("f", "F"))); // a new partition, not an edge
        assertEquals(null, onB.graphAdjacency(), "a vertex needs no entries: no mark read");
        onB.execute(pk("E"), ItemOperation.create(edge("e0", "air", "E", "e", "B", "b1"))); // a new partition's edge
        assertEquals(List.of("1:air:B/b1:e0:town:"), entries(ga, "E", "e", GraphAdjacency.OUT));
        assertEquals(List.of("2:air:E/e:e0:city:"), entries(ga, "B", "b1", GraphAdjacency.IN));
        assertNotNull(onB.graphAdjacency(), "the container's mark made b's object keep entries from then on");
        GraphAdjacency.Check check = ga.check();
        assertTrue(check.consistent(), check.toString());
    }

    /** Physical partitions' sizes, recounted when a server loads a container, come from the partition contract. */
    @Test
    void physicalPartitionSizesAreRecountedThroughTheContract() {
        // b's TTL purger lists (loads) every container when the catalog changes: a load while a still writes would
        // recount the sizes half-way (the cluster run at load 45 counted 11 of 12); b loads it below, after the writes
        b.ttlPurger().stop();
        ContainerStore onA = a.createContainer(db, "sized", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        for (int i = 0; i < 12; i++) {
            onA.execute(pk("p" + (i % 4)), ItemOperation.create(vertexItem("v" + i, "p" + (i % 4))));
        }
        ContainerStore onB = b.container(db, "sized"); // loaded here after the writes: recounted at its load
        long items = 0;
        long bytes = 0;
        long partitions = 0;
        for (io.tetradb.core.partition.PhysicalPartition p : onB.partitionMap().partitions()) {
            items += p.items();
            bytes += p.bytes();
            partitions += p.logicalPartitions();
        }
        assertEquals(12, items);
        assertEquals(4, partitions);
        assertTrue(bytes > 0);
    }

    /**
     * TTL on shared stores: a container created with a default TTL keeps its expiry entries beside the items; both
     * servers purge at once (listing the entries across partitions through the contract) and every expired item is
     * deleted exactly once (a purge that lost its partition's race writes nothing), the item that never expires stays,
     * and no expiry entry is left.
     */
    @Test
    void expiredItemsArePurgedOnceWhileBothServersPurge() throws Exception {
        ContainerStore onA = a.createContainer(db, "expiring", PartitionKeyDefinition.of("/pk"), null, 3600, null, null);
        int expiring = 40;
        for (int i = 0; i < expiring; i++) {
            onA.execute(pk("p" + (i % 5)), ItemOperation.create(vertexItem("i" + i, "p" + (i % 5))));
        }
        onA.execute(pk("p0"), ItemOperation.create(vertexItem("keep", "p0").put("ttl", -1)));
        ContainerStore onB = b.container(db, "expiring");
        assertTrue(a.ttlPurger().isRunning() && b.ttlPurger().isRunning(), "each server runs its purger");
        a.ttlPurger().stop(); // the rounds below are the only purges: their counts add up
        b.ttlPurger().stop();
        clock.advance(java.time.Duration.ofHours(2));
        long later = clock.millis();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Callable<Integer> purgeA = () -> purgeAll(onA, later);
            java.util.concurrent.Callable<Integer> purgeB = () -> purgeAll(onB, later);
            int purged = 0;
            for (java.util.concurrent.Future<Integer> f : pool.invokeAll(List.of(purgeA, purgeB))) {
                purged += f.get();
            }
            purged += purgeAll(onA, later); // what a lost race left for a later round
            assertEquals(expiring, purged, "each expired item purged exactly once");
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < expiring; i++) {
            String id = "i" + i;
            PartitionKeyValue p = pk("p" + (i % 5));
            assertEquals(404, org.junit.jupiter.api.Assertions.assertThrows(io.tetradb.core.StoreException.class,
                    () -> onB.read(p, id, null)).status(), id);
        }
        assertEquals(200, onB.read(pk("p0"), "keep", null).status());
        int collId = onA.collId();
        assertEquals(List.of(), a.partitions().seekDerived(collId, io.tetradb.core.storage.Space.META,
                ExpiryIndex.prefix(collId), ExpiryIndex.prefix(collId + 1), 100), "no expiry entry left");
    }

    private static int purgeAll(ContainerStore c, long now) {
        int n = 0;
        for (int round = 0; round < 20; round++) {
            int k = c.purgeExpired(now, 1000);
            n += k;
            if (k == 0) {
                return n;
            }
        }
        return n;
    }

    private static ObjectNode vertexItem(String id, String pk) {
        return new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("id", id).put("pk", pk)
                .put("label", "city");
    }
}
