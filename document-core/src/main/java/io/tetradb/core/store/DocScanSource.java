package io.tetradb.core.store;

import io.tetradb.core.query.eval.PlanExecutor;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;

import java.util.Arrays;
import java.util.List;

/**
 * Reads documents straight from the {@code DOCS} space over a list of key ranges (a container, an EPK range, or some
 * logical partitions), in key order. The position of a document is its key, which does not depend on the partition
 * map: a page's continuation stays valid when a partition splits.
 */
final class DocScanSource implements PlanExecutor.DocSource {
    /** A key range {@code [from, to)}. */
    record Range(byte[] from, byte[] to) {
    }

    private final io.tetradb.core.reads.ItemReads engine; // item-reads hook
    private final ItemCodec codec;
    private final List<Range> ranges;
    private final QueryMetrics metrics;
    private byte[] resumeAt;
    private int next;
    private KeyCursor cursor;
    /** Skips, unparsed, the items it is false for (see {@link TopLevelFields}); null: none. */
    private java.util.function.Predicate<byte[]> prefilter;

    /** {@code ranges} sorted and disjoint; {@code resumeAt} (inclusive) or null. */
    DocScanSource(io.tetradb.core.reads.ItemReads engine, ItemCodec codec, List<Range> ranges, byte[] resumeAt, QueryMetrics metrics) {
        this.engine = engine;
        this.codec = codec;
        this.ranges = ranges;
        this.resumeAt = resumeAt;
        this.metrics = metrics;
    }

    @Override
    public PlanExecutor.SourceDoc next() {
        while (true) {
            if (cursor == null && !open()) {
                return null;
            }
            if (cursor.next()) {
                io.tetradb.core.cancel.CallStop.tick(); // a scan skipping most items still stops at its deadline
                byte[] value = cursor.value();
                metrics.documentsLoaded++;
                metrics.bytesLoaded += value.length;
                if (prefilter != null && !prefilter.test(value)) {
                    continue;
                }
                return new PlanExecutor.SourceDoc(codec.parse(value), cursor.key(), value.length);
            }
            cursor.close();
            cursor = null;
        }
    }

    /** Items the predicate is false for are skipped without being parsed (the filter would reject them). */
    DocScanSource prefilter(java.util.function.Predicate<byte[]> p) {
        this.prefilter = p;
        return this;
    }

    private boolean open() {
        while (next < ranges.size()) {
            Range r = ranges.get(next++);
            byte[] from = r.from();
            if (resumeAt != null) {
                if (r.to() != null && Arrays.compareUnsigned(r.to(), resumeAt) <= 0) {
                    continue; // wholly before the resume position
                }
                if (Arrays.compareUnsigned(resumeAt, from) > 0) {
                    from = resumeAt;
                }
                resumeAt = null;
            }
            cursor = engine.items(from, r.to(), false);
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
