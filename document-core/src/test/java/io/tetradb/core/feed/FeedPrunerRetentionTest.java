package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * retention-due: in a container whose feed keeps all versions for a retention (every Mongo collection), creates cost
 * the pruner nothing once a pass found nothing to remove, and a pass held back by the retention comes back exactly
 * when its first held record leaves it, removing what has left it and nothing within it.
 */
class FeedPrunerRetentionTest extends ManualPrunerStores {
    static final Duration RETENTION = Duration.ofMinutes(1);

    CosmosContainer open(String name) {
        return open(name, RETENTION);
    }

    static ObjectNode item(String id, int v) {
        return M.createObjectNode().put("id", id).put("pk", "p" + Math.floorMod(id.hashCode(), 3)).put("v", v);
    }

    static PartitionKey pk(String id) {
        return new PartitionKey("p" + Math.floorMod(id.hashCode(), 3));
    }

    ChangeFeeds feeds() {
        return clients.get(clients.size() - 1).coreStore().changeFeeds();
    }

    ChangeFeed feed() {
        return feeds().all().iterator().next();
    }

    /** The container's stored records, whole (with their commit times), in sequence order. */
    List<ChangeRecord> stored() {
        List<ChangeRecord> out = new ArrayList<>();
        try (KeyCursor c = feeds().engine().cursor(Space.FEED, FeedKeys.record(feed().collId(), 0),
                FeedKeys.record(feed().collId(), Long.MAX_VALUE), false)) {
            while (c.next()) {
                out.addAll(ChangeRuns.decode(FeedKeys.seqOf(c.key()), c.value()));
            }
        }
        return out;
    }

    static TreeSet<Long> seqs(List<ChangeRecord> records) {
        TreeSet<Long> out = new TreeSet<>();
        records.forEach(r -> out.add(r.seq()));
        return out;
    }

    /**
     * What a pruner that knew everything leaves at {@code cutoff} (now − retention): every record but tombstones and
     * superseded versions committed before it (one writer: commit times ascend with the numbers).
     */
    static TreeSet<Long> expected(List<ChangeRecord> log, long cutoff) {
        Map<String, Long> newest = new HashMap<>();
        for (ChangeRecord r : log) {
            newest.put(r.id(), r.seq());
        }
        TreeSet<Long> out = new TreeSet<>();
        for (ChangeRecord r : log) {
            boolean prunable = r.operationType() == ChangeRecord.OperationType.DELETE || newest.get(r.id()) != r.seq();
            if (!(prunable && r.crtsMillis() < cutoff)) {
                out.add(r.seq());
            }
        }
        return out;
    }

    /** Returns once the clock has moved past {@code millis}: records written after differ in commit time. */
    static long after(long millis) {
        long now;
        while ((now = System.currentTimeMillis()) <= millis) {
            Thread.onSpinWait();
        }
        return now;
    }

    @Test
    void createsKeepNoNotesAndMakeNoPassOnceAPassFoundNothingPendingWithinTheRetention() {
        CosmosContainer c = open("a");
        for (int i = 0; i < 100; i++) {
            c.createItem(item("i" + i, 0));
        }
        FeedPruner pruner = feeds().pruner();
        long now = System.currentTimeMillis();
        assertEquals(0, pruner.pruneOnce(now), "creates within the retention: nothing to remove");
        assertEquals(100, pruner.recordsTold(), "the first pass took the notes it had");
        for (int i = 100; i < 400; i++) {
            c.createItem(item("i" + i, 0));
        }
        for (int b = 0; b < 10; b++) { // folded runs of creates
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p" + (b % 3)));
            for (int i = 0; i < 20; i++) {
                String id = "b" + b + "." + i;
                batch.createItemOperation(M.createObjectNode().put("id", id).put("pk", "p" + (b % 3)).put("v", 0));
            }
            c.executeCosmosBatch(batch);
        }
        assertEquals(0, feed().notes().size(), "500 creates after a pass that held only live versions: no note");
        assertEquals(0, feed().superseded.get(), "the container is not marked for a pass");
        assertEquals(0, pruner.pruneOnce(now + 1000), "no pass");
        assertEquals(0, pruner.pruneOnce(now + 10 * RETENTION.toMillis()), "none even long after: nothing to remove");
        assertEquals(0, pruner.recordsRead(), "no record read");
        assertEquals(100, pruner.recordsTold(), "no item registered");

        c.upsertItem(item("i7", 1)); // a replace marks the container; the pass reads the creates it skipped, once
        c.deleteItem("i8", pk("i8"), null);
        long later = System.currentTimeMillis() + 2 * RETENTION.toMillis();
        assertEquals(1 + 2, pruner.pruneOnce(later), "i7's first version, i8's version and its tombstone");
        assertEquals(500, pruner.recordsRead(), "the skipped creates read once");
        assertEquals(100 + 2, pruner.recordsTold());
        assertEquals(0, pruner.itemReads(), "no item read: nothing predates this run");
        assertEquals(seqs(stored()).size(), 600 - 1, "one record per live item");
    }

    @Test
    void aHeldRecordIsRemovedExactlyWhenItLeavesTheRetentionWithoutAReplaceOrDeleteToMarkThePass() {
        CosmosContainer c = open("a");
        FeedPruner pruner = feeds().pruner();
        // phase A: creates, replaces of some, a delete
        for (int i = 0; i < 60; i++) {
            c.createItem(item("i" + i, 0));
        }
        for (int i = 0; i < 20; i++) {
            c.upsertItem(item("i" + i, 1));
        }
        c.deleteItem("i59", pk("i59"), null);
        long endA = System.currentTimeMillis();
        assertEquals(0, pruner.pruneOnce(endA), "all within the retention");
        // creates after a pass that holds pending records: still no note (the pass is due by time, not by a mark)
        after(endA);
        for (int i = 0; i < 200; i++) {
            c.createItem(item("c" + i, 0));
        }
        assertEquals(0, feed().notes().size(), "creates while records are held within the retention: no note");
        long told = pruner.recordsTold();
        assertEquals(0, pruner.pruneOnce(endA + 1000), "nothing has left the retention yet");
        assertEquals(told, pruner.recordsTold(), "and no pass was made");
        // phase B: replaces of phase A's and of the un-noted creates, a delete
        long startB = after(System.currentTimeMillis());
        for (int i = 20; i < 40; i++) {
            c.upsertItem(item("i" + i, 1));
        }
        for (int i = 0; i < 10; i++) {
            c.upsertItem(item("c" + i, 1));
        }
        c.deleteItem("i58", pk("i58"), null);
        assertEquals(0, pruner.pruneOnce(System.currentTimeMillis()), "all within the retention");
        // phase C: more replaces
        long startC = after(System.currentTimeMillis());
        for (int i = 0; i < 10; i++) {
            c.upsertItem(item("i" + i, 2));
        }
        c.deleteItem("c5", pk("c5"), null);
        assertEquals(0, pruner.pruneOnce(System.currentTimeMillis()), "all within the retention");
        assertEquals(0, feed().superseded.get(), "no mark: the next pass is due by time");
        List<ChangeRecord> log = stored();
        long r = RETENTION.toMillis();

        assertEquals(0, pruner.pruneOnce(log.get(0).crtsMillis() + r), "nothing has left the retention yet");
        assertEquals(seqs(log), seqs(stored()));
        long cutB = startB;
        pruner.pruneOnce(cutB + r);
        assertEquals(expected(log, cutB), seqs(stored()), "phase A's tombstone and superseded versions gone, no more");
        assertTrue(seqs(stored()).size() < log.size(), "the due pass removed something");
        pruner.pruneOnce(startC + r);
        assertEquals(expected(log, startC), seqs(stored()), "then phase B's, none of phase C's");
        pruner.pruneOnce(System.currentTimeMillis() + 2 * r);
        assertEquals(expected(log, Long.MAX_VALUE), seqs(stored()), "then phase C's: one record per live item");
        assertEquals(60 - 2 + 200 - 1, seqs(stored()).size());
    }

    @Test
    void afterARestartARecordThatOnlyLooksLiveIsCheckedWhenItLeavesTheRetention() {
        CosmosContainer c = open("a");
        for (int i = 0; i < 20; i++) {
            c.createItem(item("i" + i, 0));
        }
        c.deleteItem("i3", pk("i3"), null);
        List<ChangeRecord> log = stored();
        ChangeRecord tombstone = log.get(log.size() - 1);
        // a crash between two of a pass's chunks: the tombstone went, i3's create record did not
        feeds().engine().apply(new WriteSet().delete(Space.FEED, FeedKeys.record(feed().collId(), tombstone.seq())));
        clients.remove(0).close();

        open("a");
        FeedPruner pruner = feeds().pruner();
        long now = System.currentTimeMillis();
        assertEquals(0, pruner.pruneOnce(now), "within the retention");
        assertEquals(0, feed().superseded.get(), "no mark: the check is due by time");
        long itemReads = pruner.itemReads();
        assertEquals(1, pruner.pruneOnce(now + 2 * RETENTION.toMillis()), "i3's create record, its item gone");
        assertTrue(pruner.itemReads() > itemReads, "checked against the item");
        assertEquals(19, seqs(stored()).size());
    }
}
