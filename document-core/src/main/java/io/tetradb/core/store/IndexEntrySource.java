package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.query.eval.PlanExecutor;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.value.KeyRange;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads documents through index entries {@code prefix · enc(value...) · EPK · pk · id}, over value ranges in value
 * order (or backwards), fetching the documents in batches that start small (a TOP 10 reads about 10) and double.
 * The position of a document is the key of the entry it was found by, so a continuation resumes at that entry
 * whatever happened to the partition map meanwhile.
 *
 * <p>An item can have several entries in the ranges (array elements); the {@link EntryCheck} decides which one
 * stands for it, so it is returned once, also across pages.
 */
final class IndexEntrySource implements PlanExecutor.DocSource {

    /** Where the value part of an entry key ends (it starts at the prefix's end). */
    interface ValueEnd {
        int of(byte[] key, int valueStart);
    }

    /** Whether the entry {@code key[valueStart, valueEnd)} is the one that stands for {@code item}. */
    interface EntryCheck {
        boolean accept(ObjectNode item, byte[] key, int valueStart, int valueEnd);

        EntryCheck ANY = (item, key, s, e) -> true;
    }

    private record Pending(byte[] entry, byte[] docKey, int valueEnd) {
    }

    private static final int MAX_BATCH = 512;

    private final io.tetradb.core.reads.ItemReads engine; // item-reads hook
    private final ItemCodec codec;
    private final byte[] collId;
    private final byte[] prefix;
    private final List<KeyRange> ranges;
    private final boolean reverse;
    private final ValueEnd valueEnd;
    private final Predicate<byte[]> inScope;
    private final EntryCheck check;
    private final QueryMetrics metrics;
    private final ArrayDeque<PlanExecutor.SourceDoc> ready = new ArrayDeque<>();
    private byte[] resumeAt;
    private int batch;
    private int next;
    private KeyCursor cursor;
    private boolean exhausted;

    /**
     * @param ranges value ranges relative to {@code prefix}; sorted here, duplicates dropped
     * @param inScope keeps the document keys the query may return (null: all)
     * @param resumeAt the entry to start at (inclusive), or null
     * @param firstBatch how many documents the first fetch asks for
     */
    IndexEntrySource(io.tetradb.core.reads.ItemReads engine, ItemCodec codec, byte[] collId, byte[] prefix, List<KeyRange> ranges,
                     boolean reverse, ValueEnd valueEnd, Predicate<byte[]> inScope, EntryCheck check,
                     byte[] resumeAt, int firstBatch, QueryMetrics metrics) {
        this.engine = engine;
        this.codec = codec;
        this.collId = collId;
        this.prefix = prefix;
        List<KeyRange> sorted = new ArrayList<>();
        for (KeyRange r : ranges) {
            KeyRange p = r.withPrefix(prefix);
            if (!p.isEmpty() && !sorted.contains(p)) {
                sorted.add(p);
            }
        }
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.start(), b.start()));
        if (reverse) {
            java.util.Collections.reverse(sorted);
        }
        this.ranges = sorted;
        this.reverse = reverse;
        this.valueEnd = valueEnd;
        this.inScope = inScope;
        this.check = check;
        this.resumeAt = resumeAt;
        this.batch = Math.max(4, Math.min(firstBatch, MAX_BATCH));
        this.metrics = metrics;
    }

    @Override
    public PlanExecutor.SourceDoc next() {
        while (ready.isEmpty() && !exhausted) {
            fill();
        }
        return ready.poll();
    }

    /** Reads entries until a batch of documents is pending (or the ranges end), then fetches them. */
    private void fill() {
        List<Pending> pending = new ArrayList<>(batch);
        while (pending.size() < batch) {
            if (cursor == null && !open()) {
                exhausted = true;
                break;
            }
            if (!cursor.next()) {
                cursor.close();
                cursor = null;
                continue;
            }
            metrics.indexEntries++;
            io.tetradb.core.cancel.CallStop.tick(); // entries out of scope are read and dropped here
            byte[] key = cursor.key();
            int end = valueEnd.of(key, prefix.length);
            byte[] docKey = new byte[collId.length + key.length - end];
            System.arraycopy(collId, 0, docKey, 0, collId.length);
            System.arraycopy(key, end, docKey, collId.length, key.length - end);
            if (inScope == null || inScope.test(docKey)) {
                pending.add(new Pending(key, docKey, end));
            }
        }
        if (pending.isEmpty()) {
            return;
        }
        List<byte[]> keys = new ArrayList<>(pending.size());
        pending.forEach(p -> keys.add(p.docKey()));
        List<byte[]> docs = engine.items(keys);
        for (int i = 0; i < pending.size(); i++) {
            byte[] stored = docs.get(i);
            if (stored == null) {
                continue; // deleted since the entry was read: a later read agrees
            }
            metrics.documentsLoaded++;
            metrics.bytesLoaded += stored.length;
            Pending p = pending.get(i);
            ObjectNode item = codec.parseVersion(p.docKey(), stored);
            if (check.accept(item, p.entry(), prefix.length, p.valueEnd())) {
                ready.add(new PlanExecutor.SourceDoc(item, p.entry(), stored.length));
            }
        }
        batch = Math.min(MAX_BATCH, batch * 2);
    }

    private boolean open() {
        while (next < ranges.size()) {
            KeyRange r = ranges.get(next++);
            byte[] from = r.start();
            byte[] to = r.end();
            if (resumeAt != null) {
                if (!reverse) {
                    if (to != null && Arrays.compareUnsigned(to, resumeAt) <= 0) {
                        continue;
                    }
                    if (Arrays.compareUnsigned(resumeAt, from) > 0) {
                        from = resumeAt;
                    }
                } else {
                    if (Arrays.compareUnsigned(from, resumeAt) > 0) {
                        continue;
                    }
                    byte[] after = Arrays.copyOf(resumeAt, resumeAt.length + 1); // the least key above resumeAt
                    if (to == null || Arrays.compareUnsigned(after, to) < 0) {
                        to = after;
                    }
                }
                resumeAt = null;
            }
            cursor = engine.entries(from, to, reverse);
            return true;
        }
        return false;
    }

    @Override
    public void close() {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
    }
}
