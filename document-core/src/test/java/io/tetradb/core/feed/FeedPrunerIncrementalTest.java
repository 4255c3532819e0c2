package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pruner's passes read only what was written since the previous pass, and remove what a full pass removes. */
class FeedPrunerIncrementalTest extends ManualPrunerStores {
    CosmosContainer open(String name) {
        return open(name, null);
    }

    /**
     * The same container in two stores: the first pruned by incremental passes (client 0), the second not tracking
     * items (client 1), so its passes take the item-read path, as every pass did before: the records both keep must be
     * the same.
     */
    List<CosmosContainer> incrementalAndFull(String name, Duration retention) {
        CosmosContainer incremental = open(name, retention);
        System.setProperty("tetradb.feed.prunerTrackedItems", "0");
        try {
            return List.of(incremental, open("full-" + name, retention));
        } finally {
            System.clearProperty("tetradb.feed.prunerTrackedItems");
        }
    }

    /** Creates items {@code i<from>} to {@code i<to - 1>} (version 0) in each of {@code containers}, over 7 keys. */
    static void createItems(List<CosmosContainer> containers, int from, int to) {
        for (CosmosContainer x : containers) {
            for (int i = from; i < to; i++) {
                x.createItem(item("i" + i, "p" + (i % 7), 0));
            }
        }
    }

    static ObjectNode item(String id, String pk, int v) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("v", v);
    }

    FeedPruner pruner(int client) {
        return clients.get(client).coreStore().changeFeeds().pruner();
    }

    /** Every container's remaining record numbers, by container id. */
    TreeMap<Integer, List<Long>> records(int client) {
        ChangeFeeds feeds = clients.get(client).coreStore().changeFeeds();
        TreeMap<Integer, List<Long>> out = new TreeMap<>();
        for (ChangeFeed feed : feeds.all()) {
            List<Long> seqs = new ArrayList<>();
            try (KeyCursor c = feeds.engine().cursor(Space.FEED, FeedKeys.record(feed.collId(), 0),
                    FeedKeys.record(feed.collId(), Long.MAX_VALUE), false)) {
                while (c.next()) {
                    for (long seq : ChangeRuns.seqs(FeedKeys.seqOf(c.key()), c.value())) { // a key may hold a run
                        seqs.add(seq);
                    }
                }
            }
            out.put(feed.collId(), seqs);
        }
        return out;
    }

    @Test
    void aSecondPassReadsOnlyTheRecordsWrittenSinceTheFirst() {
        System.setProperty("tetradb.feed.prunerNotes", "0"); // no notes: the passes read every new record
        CosmosContainer c = open("a");
        for (int i = 0; i < 1000; i++) {
            c.createItem(item("i" + i, "p" + (i % 7), 0));
        }
        for (int i = 0; i < 100; i++) {
            c.upsertItem(item("i" + i, "p" + (i % 7), 1));
        }
        FeedPruner pruner = pruner(0);
        assertEquals(100, pruner.pruneOnce(), "the first versions of the 100 replaced items");
        long read = pruner.recordsRead();
        long itemReads = pruner.itemReads();
        assertTrue(read >= 1100, "the first pass after opening reads the whole feed: " + read);

        for (int i = 0; i < 10; i++) {
            c.upsertItem(item("i" + (500 + i), "p" + ((500 + i) % 7), 2)); // replaces of records the first pass kept
        }
        for (int i = 0; i < 5; i++) {
            c.deleteItem("i" + (600 + i), new PartitionKey("p" + ((600 + i) % 7)), null);
        }
        for (int i = 0; i < 3; i++) {
            c.createItem(item("n" + i, "p0", 0));
        }
        assertEquals(10 + 5 + 5, pruner.pruneOnce(), "10 replaced versions, 5 deleted items' versions, 5 tombstones");
        assertEquals(18, pruner.recordsRead() - read, "the second pass reads the 18 new records only");
        assertEquals(0, pruner.itemReads() - itemReads, "and reads no item");
        assertEquals(0, pruner.pruneOnce(), "nothing left to prune");
        assertEquals(1000 + 3 - 5, records(0).firstEntry().getValue().size(), "one record per live item");
    }

    @Test
    void aPassReadsNoRecordTheCommitPathToldItOf() {
        CosmosContainer c = open("a");
        for (int i = 0; i < 1000; i++) {
            c.createItem(item("i" + i, "p" + (i % 7), 0));
        }
        for (int i = 0; i < 100; i++) {
            c.upsertItem(item("i" + i, "p" + (i % 7), 1));
        }
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p3"));
        for (int i = 0; i < 5; i++) {
            batch.upsertItemOperation(item("b" + i, "p3", 0)); // one folded run of 5 records
        }
        c.executeCosmosBatch(batch);
        FeedPruner pruner = pruner(0);
        assertEquals(100, pruner.pruneOnce(), "the first versions of the 100 replaced items");
        assertEquals(0, pruner.recordsRead(), "a container made in this run: every record was told, none read");
        assertEquals(0, pruner.itemReads(), "and no item read: nothing predates the notes");
        assertEquals(1105, pruner.recordsTold());

        for (int i = 0; i < 10; i++) {
            c.upsertItem(item("i" + (500 + i), "p" + ((500 + i) % 7), 2));
        }
        for (int i = 0; i < 5; i++) {
            c.deleteItem("i" + (600 + i), new PartitionKey("p" + ((600 + i) % 7)), null);
        }
        batch = CosmosBatch.createCosmosBatch(new PartitionKey("p3"));
        batch.upsertItemOperation(item("b1", "p3", 1)); // removes one member of the folded run
        batch.deleteItemOperation("b2");
        c.executeCosmosBatch(batch);
        assertEquals(10 + 5 + 5 + 2 + 1, pruner.pruneOnce(),
                "10 + 5 replaced or deleted versions and 5 tombstones; b1's and b2's first versions, b2's tombstone");
        assertEquals(0, pruner.recordsRead());
        assertEquals(0, pruner.itemReads());
        assertEquals(1105 + 17, pruner.recordsTold());
        assertEquals(0, pruner.pruneOnce(), "nothing left to prune");
        List<Long> left = records(0).firstEntry().getValue();
        assertEquals(1000 + 5 - 5 - 1, left.size(), "one record per live item");
        assertTrue(left.contains(1101L) && left.contains(1104L) && left.contains(1105L) && !left.contains(1102L),
                "the run's other members stay in its rewritten value: " + left.subList(left.size() - 20, left.size()));
    }

    /** Notes queued over the store's open containers. */
    int notesQueued(int client) {
        int n = 0;
        for (ChangeFeed feed : clients.get(client).coreStore().changeFeeds().all()) {
            n += feed.notes() == null ? 0 : feed.notes().size();
        }
        return n;
    }

    @Test
    void createsWithNothingToPruneKeepNoNotesAndALaterReplaceStillRemovesWhatAFullPassRemoves() {
        List<CosmosContainer> both = incrementalAndFull("a", null);
        createItems(both, 0, 100);
        FeedPruner pruner = pruner(0);
        assertEquals(0, pruner.pruneOnce(), "creates only: nothing to remove");
        assertEquals(100, pruner.recordsTold(), "the first pass after opening took the notes it had");
        createItems(both, 100, 400);
        for (CosmosContainer x : both) {
            for (int b = 0; b < 10; b++) { // folded runs of creates
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p" + b));
                for (int i = 0; i < 20; i++) {
                    batch.createItemOperation(item("b" + b + "." + i, "p" + b, 0));
                }
                x.executeCosmosBatch(batch);
            }
        }
        assertEquals(0, notesQueued(0), "creates after the pass, with nothing replaced or deleted: no note kept");
        assertEquals(0, pruner.pruneOnce(), "and no pass to make");
        assertEquals(0, pruner.recordsRead());
        assertEquals(100, pruner.recordsTold(), "no item registered");

        for (CosmosContainer x : both) {
            for (int i = 150; i < 170; i++) { // replaces of items created without notes
                x.upsertItem(item("i" + i, "p" + (i % 7), 1));
            }
            for (int b = 0; b < 5; b++) { // deletes of members of the runs
                x.deleteItem("b" + b + ".3", new PartitionKey("p" + b), null);
            }
            for (int i = 0; i < 3; i++) {
                x.createItem(item("n" + i, "p0", 0)); // after a replace: noted
            }
        }
        assertEquals(20 + 5 + 5, pruner.pruneOnce(), "20 replaced versions, 5 deleted items' versions, 5 tombstones");
        assertEquals(300 + 200, pruner.recordsRead(), "the creates without notes are read once, when a pass is due");
        assertEquals(100 + 28, pruner.recordsTold(), "the records from the first replace on were told");
        assertEquals(0, pruner.itemReads(), "no item read: the container was noted from its birth until the skips");
        assertEquals(0, pruner.pruneOnce(), "nothing left to prune");
        assertEquals(30, pruner(1).pruneOnce(), "one full pass, with item reads, removes the same");
        assertEquals(records(1).firstEntry().getValue(), records(0).firstEntry().getValue(),
                "the same records as the item-read path's");
        assertEquals(100 + 300 + 200 + 3 - 5, records(0).firstEntry().getValue().size(), "one record per live item");
    }

    /**
     * Bulk-loads items {@code i<from>} to {@code i<to - 1>} (version 0) into client {@code client}'s container, over
     * 7 keys, in chunks of one transaction per key.
     */
    void bulkCreate(int client, int from, int to) {
        io.tetradb.core.store.ContainerStore store = clients.get(client).coreStore().container("db", "c");
        try (io.tetradb.core.bulk.BulkLoad bulk = store.beginBulkLoad()) {
            for (int chunkFrom = from; chunkFrom < to; chunkFrom += 140) {
                for (int k = 0; k < 7; k++) {
                    List<io.tetradb.core.store.ItemOperation> ops = new ArrayList<>();
                    for (int i = chunkFrom; i < Math.min(to, chunkFrom + 140); i++) {
                        if (i % 7 == k) {
                            ops.add(io.tetradb.core.store.ItemOperation.create(item("i" + i, "p" + k, 0)));
                        }
                    }
                    if (!ops.isEmpty()) {
                        assertTrue(bulk.write(io.tetradb.core.partition.PartitionKeyValue.of(
                                io.tetradb.core.partition.PartitionKeyValue.component("p" + k)), ops).stream()
                                .allMatch(io.tetradb.core.store.ItemResult::isSuccess));
                    }
                }
                bulk.commit();
            }
        }
    }

    /** Replaces 20 items and deletes 5 of {@code i<from>…}, then creates 3 (after a replace: noted). */
    static void replaceAndDelete(CosmosContainer x, int from) {
        for (int i = from; i < from + 20; i++) {
            x.upsertItem(item("i" + i, "p" + (i % 7), 1));
        }
        for (int i = from + 100; i < from + 105; i++) {
            x.deleteItem("i" + i, new PartitionKey("p" + (i % 7)), null);
        }
        for (int i = 0; i < 3; i++) {
            x.createItem(item("n" + from + "." + i, "p0", 0));
        }
    }

    @Test
    void aBulkLoadsCreatesKeepNoNotesAndAPassLeavesThemUnreadUntilAReplaceOrDeleteFollows() {
        List<CosmosContainer> both = incrementalAndFull("a", null);
        for (int client = 0; client < 2; client++) {
            bulkCreate(client, 0, 1000);
        }
        FeedPruner pruner = pruner(0);
        assertEquals(0, notesQueued(0), "a bulk chunk's creates keep no note");
        assertEquals(0, pruner.pruneOnce(), "creates only: nothing to remove");
        assertEquals(0, pruner.recordsRead(), "a container made in this run: its creates supersede nothing, unread");
        assertEquals(0, pruner.recordsTold());
        bulkCreate(0, 1000, 1300); // a second load
        bulkCreate(1, 1000, 1300);
        assertEquals(0, pruner.pruneOnce());
        assertEquals(0, pruner.recordsRead() + pruner.recordsTold() + pruner.itemReads());

        for (CosmosContainer x : both) {
            replaceAndDelete(x, 500);
        }
        assertEquals(20 + 5 + 5, pruner.pruneOnce(), "20 replaced versions, 5 deleted items' versions, 5 tombstones");
        assertEquals(1300, pruner.recordsRead(), "the bulk-loaded creates read once, when a pass has work");
        assertEquals(28, pruner.recordsTold(), "the records from the first replace on were told");
        assertEquals(0, pruner.itemReads(), "no item read: every record of the container was made in this run");

        for (int client = 0; client < 2; client++) { // a load after replaces: its creates keep no note either
            bulkCreate(client, 2000, 2400);
        }
        assertEquals(0, notesQueued(0));
        for (CosmosContainer x : both) {
            replaceAndDelete(x, 2100);
        }
        assertEquals(30, pruner.pruneOnce());
        assertEquals(1300 + 400, pruner.recordsRead(), "the second load's creates read once");
        assertEquals(0, pruner.pruneOnce(), "nothing left to prune");
        assertEquals(60, pruner(1).pruneOnce(), "one full pass, with item reads, removes the same");
        assertEquals(records(1).firstEntry().getValue(), records(0).firstEntry().getValue(),
                "the same records as the item-read path's");
        assertEquals(1700 + 6 - 10, records(0).firstEntry().getValue().size(), "one record per live item");
    }

    @Test
    void afterARestartABulkLoadsUnreadCreatesAreReadAndWhatTheyLeftIsRemoved() {
        List<CosmosContainer> both = incrementalAndFull("a", null);
        for (int client = 0; client < 2; client++) {
            bulkCreate(client, 0, 700);
        }
        assertEquals(0, pruner(0).pruneOnce());
        assertEquals(0, pruner(0).recordsRead(), "left unread");
        for (CosmosContainer x : both) {
            replaceAndDelete(x, 300); // superseded while nothing remembers the creates
        }
        clients.remove(0).close(); // the notes are lost, as in a crash
        CosmosContainer reopened = open("a");
        clients.add(0, clients.remove(clients.size() - 1)); // client 0 again; the full-pass store stays client 1
        assertEquals(30, pruner(0).pruneOnce(), "the first pass after opening reads the whole feed");
        assertEquals(30, pruner(1).pruneOnce());
        assertEquals(records(1).firstEntry().getValue(), records(0).firstEntry().getValue());
        replaceAndDelete(reopened, 500);
        replaceAndDelete(both.get(1), 500);
        assertEquals(30, pruner(0).pruneOnce());
        assertEquals(30, pruner(1).pruneOnce());
        assertEquals(records(1).firstEntry().getValue(), records(0).firstEntry().getValue());
    }

    @Test
    void whenTheNotesOverflowAPassReadsTheRecordsItMissedAndRemovesWhatAFullPassRemoves() {
        System.setProperty("tetradb.feed.prunerNotes", "64");
        List<CosmosContainer> both = incrementalAndFull("a", null);
        createItems(both, 0, 300);
        for (CosmosContainer x : both) {
            for (int i = 0; i < 30; i++) {
                x.upsertItem(item("i" + i, "p" + (i % 7), 1));
            }
        }
        FeedPruner pruner = pruner(0);
        assertEquals(30, pruner.pruneOnce());
        assertTrue(pruner.recordsRead() >= 300, "64 notes at most: the records were read " + pruner.recordsRead());
        assertEquals(330, pruner.recordsRead() + pruner.recordsTold(),
                "each record read or told, once: the read stops where the notes begin again");
        long read = pruner.recordsRead();
        for (CosmosContainer x : both) {
            for (int i = 0; i < 20; i++) {
                x.upsertItem(item("i" + (100 + i), "p" + ((100 + i) % 7), 2));
            }
            x.deleteItem("i200", new PartitionKey("p" + (200 % 7)), null);
        }
        assertEquals(22, pruner.pruneOnce());
        assertEquals(read, pruner.recordsRead(), "21 notes fit: none read");
        assertEquals(52, pruner(1).pruneOnce());
        assertEquals(records(1).firstEntry().getValue(), records(0).firstEntry().getValue(),
                "the same records as the item-read path's");
    }

    @Test
    void withARetentionHeldRecordsAreDecidedLaterWithoutBeingReadAgain() {
        CosmosContainer c = open("a", Duration.ofMinutes(1));
        for (int i = 0; i < 100; i++) {
            c.createItem(item("i" + i, "p" + (i % 3), 0));
        }
        for (int i = 0; i < 40; i++) {
            c.upsertItem(item("i" + i, "p" + (i % 3), 1));
        }
        c.deleteItem("i99", new PartitionKey("p0"), null);
        FeedPruner pruner = pruner(0);
        long now = System.currentTimeMillis();
        assertEquals(0, pruner.pruneOnce(now), "all within the retention");
        assertEquals(0, pruner.pruneOnce(now + 1000));
        assertEquals(40 + 2, pruner.pruneOnce(now + 3 * 60_000), "40 replaced versions, i99's version and tombstone");
        assertEquals(0, pruner.recordsRead(), "held in memory, not read again");
        assertEquals(141, pruner.recordsTold());
        assertEquals(99, records(0).firstEntry().getValue().size());
    }

    @Test
    void aFillingQueueWakesTheBackgroundPrunerWithNothingToRemove() throws InterruptedException {
        System.setProperty("tetradb.feed.pruneIntervalMillis", "3600000"); // it would not pass within the test
        System.setProperty("tetradb.feed.prunerNotes", "200");
        CosmosContainer c = open("a");
        for (int i = 0; i < 150; i++) { // half of the queue is 100: past it, the writer wakes the pruner
            c.createItem(item("i" + i, "p" + (i % 7), 0));
        }
        FeedPruner pruner = pruner(0);
        long deadline = System.nanoTime() + TestTime.patience(Duration.ofSeconds(60)).toNanos();
        while (pruner.recordsTold() < 100 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(pruner.recordsTold() >= 100, "the pruner took the notes: " + pruner.recordsTold());
        assertEquals(0, pruner.recordsRead());
    }

    @Test
    void afterARestartTheFirstPassReadsTheWholeFeedOnceThenPassesAreIncrementalAgain() {
        CosmosContainer c = open("a");
        for (int i = 0; i < 200; i++) {
            c.createItem(item("i" + i, "p" + (i % 5), 0));
        }
        c.upsertItem(item("i0", "p0", 1));
        assertEquals(1, pruner(0).pruneOnce());
        c.upsertItem(item("i1", "p1", 1)); // superseded while nothing remembers it
        clients.remove(0).close();

        c = open("a");
        assertEquals(1, pruner(0).pruneOnce(), "the first version of i1");
        assertEquals(201, pruner(0).recordsRead(), "the whole feed once");
        assertEquals(200, pruner(0).itemReads(), "one item read per record that looks live");
        c.upsertItem(item("i2", "p2", 1));
        c.deleteItem("i3", new PartitionKey("p3"), null);
        assertEquals(3, pruner(0).pruneOnce(), "i2's first version, i3's version and its tombstone");
        assertEquals(201, pruner(0).recordsRead(), "then none: the new records were told");
        assertEquals(2, pruner(0).recordsTold());
        assertEquals(200, pruner(0).itemReads());
        assertEquals(199, records(0).firstEntry().getValue().size());
    }

    @Test
    void incrementalPassesRemoveWhatOneFullPassRemovesOnRandomWorkloads() {
        for (long seed = 1; seed <= 4; seed++) {
            compareWithAFullPass(seed, null);
        }
    }

    @Test
    void withARetentionTooRecordsAreHeldUntilTheyLeaveItThenRemovedAsAFullPassRemovesThem() {
        for (long seed = 5; seed <= 6; seed++) {
            compareWithAFullPass(seed, Duration.ofMinutes(1));
        }
    }

    /**
     * The same random workload on two stores: one pruned by incremental passes along the way, the other (not tracking
     * items: the item-read path, as every pass was before) by one full pass at the end; the same records remain.
     */
    void compareWithAFullPass(long seed, Duration retention) {
        clients.forEach(CosmosClient::close);
        clients.clear();
        List<CosmosContainer> both = incrementalAndFull("inc" + seed, retention);
        Random random = new Random(seed);
        long removed = 0;
        for (int step = 0; step < 1500; step++) {
            int op = random.nextInt(10);
            String id = "i" + random.nextInt(60);
            String pk = "p" + random.nextInt(3);
            int v = random.nextInt(1000);
            for (CosmosContainer c : both) {
                apply(c, op, id, pk, v);
            }
            if (random.nextInt(40) == 0) {
                removed += pruner(0).pruneOnce();
            }
        }
        if (retention != null) {
            assertEquals(0, removed, "seed " + seed + ": everything is still within the retention");
        }
        long later = System.currentTimeMillis() + (retention == null ? 0 : 2 * retention.toMillis());
        removed += pruner(0).pruneOnce(later);
        long fullRemoved = pruner(1).pruneOnce(later);
        assertEquals(records(1), records(0), "seed " + seed + ": the same records remain");
        assertEquals(fullRemoved, removed, "seed " + seed);
        assertTrue(removed > 0, "seed " + seed);
        assertTrue(pruner(1).itemReads() > 0, "the full store really took the item-read path");
        assertEquals(0, pruner(0).pruneOnce(later), "seed " + seed);
    }

    /** One random change; failures (409, 404) change nothing and write no record, in both stores alike. */
    static void apply(CosmosContainer c, int op, String id, String pk, int v) {
        try {
            switch (op) {
                case 0, 1 -> c.createItem(item(id, pk, v));
                case 2, 3, 4 -> c.upsertItem(item(id, pk, v));
                case 5 -> c.replaceItem(item(id, pk, v), id, new PartitionKey(pk), null);
                case 6, 7 -> c.deleteItem(id, new PartitionKey(pk), null);
                default -> {
                    CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
                    batch.upsertItemOperation(item(id, pk, v));
                    batch.upsertItemOperation(item(id + "b", pk, v));
                    batch.deleteItemOperation(id + "c");
                    c.executeCosmosBatch(batch); // fails as a whole when i..c is absent
                }
            }
        } catch (RuntimeException expectedSometimes) {
            // the same failure in both stores
        }
    }

}
