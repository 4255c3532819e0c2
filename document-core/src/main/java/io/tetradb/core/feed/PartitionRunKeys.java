package io.tetradb.core.feed;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which partition index keys go with a set of change records being removed. A key stands for a run of one
 * transaction's records ({@link FeedKeys#runCount}), so it goes with the last of them: with the records removed
 * together here when every other record of its run is gone already (one read of the run's record keys, which are
 * consecutive), else it stays for the records left. Records without a key (written before the index) have none.
 * feed-images: a record's version-image key ({@link ChangeRecord#PREVIOUS_AT_LSN}) is deleted with the record.
 */
public final class PartitionRunKeys {
    private final StorageEngine engine;
    private final int collId;
    /** The records being removed: their keys in the sequence, and each one's logical partition. */
    private final Set<Long> doomed = new HashSet<>();
    private final List<byte[]> partitions = new ArrayList<>();
    private final List<Long> seqs = new ArrayList<>();

    public PartitionRunKeys(StorageEngine engine, int collId) {
        this.engine = engine;
        this.collId = collId;
    }

    /** Record {@code seq} of logical partition {@code logicalPartition} ({@code EPK · pk}) is removed. */
    public void add(byte[] logicalPartition, long seq) {
        if (doomed.add(seq)) {
            partitions.add(logicalPartition);
            seqs.add(seq);
        }
    }

    public int size() {
        return doomed.size();
    }

    /** Adds the deletes of the records and of the partition index keys that go with them to {@code ws}. */
    public void deleteInto(WriteSet ws) {
        byte[] runPartition = null; // the run found last: records of one run are mostly removed together
        long runFirst = 0;
        long runLast = -1;
        deleteRecords(ws);
        java.util.Map<java.nio.ByteBuffer, byte[]> carried = new java.util.HashMap<>();
        for (int i = 0; i < seqs.size(); i++) {
            long seq = seqs.get(i);
            byte[] lp = partitions.get(i);
            if (seq >= runFirst && seq <= runLast && java.util.Arrays.equals(lp, runPartition)) {
                continue; // its run is decided already
            }
            byte[] key = FeedKeys.partitionRecord(collId, lp, seq);
            byte[] value = engine.get(Space.FEED, key); // a run ending here: every key of the layout before runs
            if (value == null) {
                try (KeyCursor c = engine.cursor(Space.FEED, key, FeedKeys.partitionRecord(collId, lp, -1L), false)) {
                    if (!c.next()) {
                        continue; // no key at or after it: the record predates the index
                    }
                    key = c.key();
                    value = c.value();
                }
            }
            int count = FeedKeys.runCount(value);
            long last = FeedKeys.seqOfPartitionRecord(key);
            long first = last - count + 1;
            if (seq < first) {
                continue; // the next key is a later run's: this record has no key of its own
            }
            runPartition = lp;
            runFirst = first;
            runLast = last;
            if (count == 1 || runGone(first, last)) {
                ws.delete(Space.FEED, key);
                keepCarried(lp, FeedKeys.carriedStats(value), carried);
            }
        }
        carriedIntoRecords(carried, ws);
    }

    /** core-stats: of the statistics the deleted keys carried, each partition's newest (by lsn). */
    private static void keepCarried(byte[] lp, byte[] stats, java.util.Map<java.nio.ByteBuffer, byte[]> carried) {
        if (stats != null) {
            carried.merge(java.nio.ByteBuffer.wrap(lp), stats,
                    (a, b) -> StoredPartitionStats.lsn(a) >= StoredPartitionStats.lsn(b) ? a : b);
        }
    }

    /**
     * core-stats: statistics carried by a deleted partition index key and newer than the partition's META record go
     * into the record, in the same write as the delete ({@link StoredPartitionStats}), so the deleted key was not the
     * only holder of the partition's statistics. A record written meanwhile by a writer is newer still, and so is the
     * index key it wrote with it; no record at all (a container being deleted) is left so.
     */
    private void carriedIntoRecords(java.util.Map<java.nio.ByteBuffer, byte[]> carried, WriteSet ws) {
        for (java.util.Map.Entry<java.nio.ByteBuffer, byte[]> e : carried.entrySet()) {
            byte[] lp = e.getKey().array();
            byte[] recordKey = java.nio.ByteBuffer.allocate(5 + lp.length).put(STATS_RECORD).putInt(collId).put(lp)
                    .array();
            byte[] record = engine.get(Space.META, recordKey);
            if (record != null && StoredPartitionStats.lsn(record) < StoredPartitionStats.lsn(e.getValue())) {
                ws.put(Space.META, recordKey, e.getValue());
            }
        }
    }

    /** META {@code 04 · collId · EPK · pk}: a logical partition's statistics record. */
    private static final byte STATS_RECORD = 0x04;

    /**
     * The record deletes: a record under its own key is deleted; a member of a folded run ({@link ChangeRuns}, under
     * the run's last number: the first key at or after its own) is taken out of the run's value, and the key goes
     * with the last member left. Writers never write an existing record key again, so the rewrite races no one.
     */
    private void deleteRecords(WriteSet ws) {
        List<Long> ordered = new ArrayList<>(doomed);
        ordered.sort(Long::compare);
        long handledUpTo = Long.MIN_VALUE; // the last run key decided: its doomed members went with it
        for (long seq : ordered) {
            if (seq <= handledUpTo) {
                continue;
            }
            byte[] key = FeedKeys.record(collId, seq);
            byte[] value = engine.get(Space.FEED, key);
            if (value == null) {
                try (KeyCursor c = engine.cursor(Space.FEED, key, FeedKeys.record(collId, Long.MAX_VALUE), false)) {
                    if (!c.next()) {
                        continue;
                    }
                    key = c.key();
                    value = c.value();
                }
            }
            long keySeq = FeedKeys.seqOf(key);
            if (!ChangeRuns.isRun(value)) {
                if (keySeq == seq) {
                    ws.delete(Space.FEED, key);
                    byte[] image = ChangeRecord.versionImageKeyOf(collId, value); // feed-images: owned, goes with it
                    if (image != null) {
                        ws.delete(Space.FEED, image);
                    }
                }
                continue; // else gone already: the key found is a later record's
            }
            handledUpTo = keySeq;
            List<byte[]> images = new ArrayList<>(0);
            byte[] left = ChangeRuns.without(keySeq, value, doomed, collId, images);
            for (byte[] image : images) {
                ws.delete(Space.FEED, image);
            }
            if (left == null) {
                ws.delete(Space.FEED, key);
            } else if (left.length != value.length) {
                ws.put(Space.FEED, key, left);
            }
        }
    }

    /** Whether every record of {@code [first, last]} is gone or being removed now. */
    private boolean runGone(long first, long last) {
        try (KeyCursor c = engine.cursor(Space.FEED, FeedKeys.record(collId, first), FeedKeys.record(collId, last + 1),
                false)) {
            while (c.next()) {
                for (long seq : ChangeRuns.seqs(FeedKeys.seqOf(c.key()), c.value())) {
                    if (seq >= first && seq <= last && !doomed.contains(seq)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    public void clear() {
        doomed.clear();
        partitions.clear();
        seqs.clear();
    }
}
