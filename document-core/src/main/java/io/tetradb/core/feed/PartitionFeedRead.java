package io.tetradb.core.feed;

import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One change-feed page of a partition key scope (one logical partition, or a hierarchical key prefix) read through
 * the partition index ({@code collId · 'P' · EPK · pk · seq}, a key per run of a transaction's records) instead of the container's whole sequence: it looks at
 * the scope's records only, so a reader of one key of a busy container reads (and waits for) its own changes. Pages
 * mean what the sequence scan's mean: changes after {@code request.after()} in feed order, the position of the last
 * record looked at, at most {@link ChangeFeed#MAX_SCANNED_PER_PAGE} records looked at.
 */
final class PartitionFeedRead {
    /** Records fetched per multi-get. */
    private static final int BATCH = 256;

    private final ChangeFeed feed;
    private final ChangeFeedRequest request;
    private final Predicate<ChangeRecord> inScope;
    private final long stable;
    private final StorageEngine engine;
    /** The last number of the run each listed record belongs to (records that end their run are not in it). */
    private final Map<Long, Long> runLast = new HashMap<>();
    /** Run keys read that held their run folded: a member missing there is pruned, not under its own key. */
    private final Set<Long> foldedRuns = new HashSet<>();

    PartitionFeedRead(ChangeFeed feed, ChangeFeedRequest request, Predicate<ChangeRecord> inScope, long stable) {
        this.feed = feed;
        this.request = request;
        this.inScope = inScope;
        this.stable = stable;
        this.engine = feed.feeds().engine();
    }

    ChangeFeedPage read() {
        List<Long> seqs = sequence(request.after());
        return page(seqs, seqs.size() >= ChangeFeed.MAX_SCANNED_PER_PAGE);
    }

    /**
     * The page of the scope's record numbers {@code seqs} (ascending, after {@code request.after()}, every one of the
     * scope's records up to the last of them); {@code more}: the scope may hold records beyond the last.
     */
    ChangeFeedPage page(List<Long> seqs, boolean more) {
        long after = request.after();
        boolean latest = request.mode() == ChangeFeedMode.LATEST_VERSION;
        List<ChangeFeedPage.Change> out = new ArrayList<>();
        List<ChangeRecord> candidates = new ArrayList<>(); // latest: creates/replaces; all versions: every record
        long position = after;
        boolean caughtUp = true;
        int scanned = 0;
        pages:
        for (int from = 0; from < seqs.size(); from += BATCH) {
            List<Long> batch = seqs.subList(from, Math.min(seqs.size(), from + BATCH));
            Map<Long, ChangeRecord> records = fetch(batch);
            for (long seq : batch) {
                position = seq;
                ChangeRecord r = records.get(seq);
                if (r == null) {
                    continue; // pruned after its index key was listed
                }
                feed.countRead();
                if (r.crtsMillis() < request.notBeforeMillis()) {
                    continue;
                }
                if (inScope.test(r) && (!latest || r.operationType() != ChangeRecord.OperationType.DELETE)) {
                    candidates.add(r);
                }
                if (candidates.size() >= request.maxItems() || ++scanned >= ChangeFeed.MAX_SCANNED_PER_PAGE) {
                    caughtUp = false;
                    break pages;
                }
            }
        }
        if (more) {
            caughtUp = false; // more of the scope's records may follow the ones listed
        }
        if (caughtUp) {
            position = stable;
        }
        if (latest) {
            feed.latestItems(candidates, out);
        } else {
            feed.allVersionsChanges(candidates, out); // feed-images: images the records refer to
        }
        return new ChangeFeedPage(out, position, caughtUp);
    }

    /**
     * The scope's record numbers in (after, stable], ascending, at most {@link ChangeFeed#MAX_SCANNED_PER_PAGE}. One
     * logical partition's keys are in number order: one seek. A key prefix spans several logical partitions, each in
     * number order: its keys are listed and merged (the smallest numbers of the union are among each partition's
     * smallest, so none is missed).
     */
    private List<Long> sequence(long after) {
        PartitionKeyValue pk = request.partitionKey();
        List<Long> out = new ArrayList<>();
        if (pk.levels() == feed.levels() || pk.isNone()) {
            byte[] lp = new byte[pk.epk().length + pk.encoded().length];
            System.arraycopy(pk.epk(), 0, lp, 0, pk.epk().length);
            System.arraycopy(pk.encoded(), 0, lp, pk.epk().length, pk.encoded().length);
            try (KeyCursor c = engine.cursor(Space.FEED, FeedKeys.partitionRecord(feed.collId(), lp, after + 1),
                    FeedKeys.partitionRecord(feed.collId(), lp, stable + 1), false)) {
                while (out.size() < ChangeFeed.MAX_SCANNED_PER_PAGE && c.next()) {
                    addRun(c, after, out);
                }
            }
            return out.size() > ChangeFeed.MAX_SCANNED_PER_PAGE ? out.subList(0, ChangeFeed.MAX_SCANNED_PER_PAGE) : out;
        }
        byte[] start = FeedKeys.partitionPrefix(feed.collId(), pk.epk());
        byte[] end = prefixEnd(start);
        try (KeyCursor c = engine.cursor(Space.FEED, start, end, false)) {
            while (c.next()) {
                addRun(c, after, out);
            }
        }
        out.sort(Long::compare);
        return out.size() > ChangeFeed.MAX_SCANNED_PER_PAGE ? out.subList(0, ChangeFeed.MAX_SCANNED_PER_PAGE) : out;
    }

    /**
     * The record numbers in (after, stable] of the partition index key under {@code c}: the run of records it stands
     * for ({@link FeedKeys#runCount}), ascending. A run is one transaction's, whose numbers are released together, so
     * it is never partly beyond the stable position.
     */
    void addRun(KeyCursor c, long after, List<Long> out) {
        long last = FeedKeys.seqOfPartitionRecord(c.key());
        long first = last - FeedKeys.runCount(c.value()) + 1;
        for (long seq = Math.max(first, after + 1); seq <= last && seq <= stable; seq++) {
            out.add(seq);
            if (seq != last) {
                runLast.put(seq, last);
            }
        }
    }

    /**
     * The records numbered {@code seqs} that are still stored. A run's records are read with one get of its last
     * number's key: folded into it ({@link ChangeRuns}), or — a run written with a key per record — that key holds the
     * last one only, and the others are read by their own keys.
     */
    private Map<Long, ChangeRecord> fetch(List<Long> seqs) {
        Map<Long, ChangeRecord> out = new HashMap<>(seqs.size() * 2);
        Set<Long> keySeqs = new LinkedHashSet<>();
        for (long seq : seqs) {
            keySeqs.add(runLast.getOrDefault(seq, seq));
        }
        List<Long> ordered = new ArrayList<>(keySeqs);
        List<ChangeRecord> found = new ArrayList<>();
        read(ordered, found);
        for (ChangeRecord r : found) {
            out.put(r.seq(), r);
        }
        List<Long> missing = new ArrayList<>();
        for (long seq : seqs) {
            if (!out.containsKey(seq) && !keySeqs.contains(seq) && !foldedRuns.contains(runLast.get(seq))) {
                missing.add(seq); // a run of separate record keys (core-batch's layout): its own key
            }
        }
        if (!missing.isEmpty()) {
            found.clear();
            read(missing, found);
            for (ChangeRecord r : found) {
                out.put(r.seq(), r);
            }
        }
        return out;
    }

    /** Reads the record keys numbered {@code keySeqs} in one multi-get, every record they hold into {@code out}. */
    private void read(List<Long> keySeqs, List<ChangeRecord> out) {
        List<byte[]> keys = new ArrayList<>(keySeqs.size());
        for (long seq : keySeqs) {
            keys.add(FeedKeys.record(feed.collId(), seq));
        }
        List<byte[]> values = engine.multiGet(Space.FEED, keys);
        for (int i = 0; i < keys.size(); i++) {
            byte[] v = values.get(i);
            if (v != null) {
                if (ChangeRuns.isRun(v)) {
                    foldedRuns.add(keySeqs.get(i));
                }
                ChangeRuns.decode(keySeqs.get(i), v, Long.MIN_VALUE, Long.MAX_VALUE, out);
            }
        }
    }

    private static byte[] prefixEnd(byte[] prefix) {
        byte[] end = Arrays.copyOf(prefix, prefix.length);
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        throw new IllegalArgumentException("no end after an all-0xFF prefix");
    }
}
