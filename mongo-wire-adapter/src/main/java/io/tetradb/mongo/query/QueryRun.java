package io.tetradb.mongo.query;

import io.tetradb.mongo.store.DocStream;
import io.tetradb.mongo.store.StoredDoc;
import org.bson.BsonDocument;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The documents of a find, in order: the core's candidates, kept by the exact matcher, sorted (in memory, by
 * MongoDB's rules) when a sort is given, then skip and limit, then the projection. Without a sort it streams: a
 * cursor holds only the core's continuation and the documents of the batch in hand.
 */
public final class QueryRun implements Iterator<BsonDocument>, io.tetradb.mongo.store.HeldBytes {
    private final DocStream candidates;
    private final FilterMatcher matcher;
    private final Projector projector;
    private Iterator<StoredDoc> source;
    private final long limit;
    private long skip;
    private long returned;
    private long examined;
    private StoredDoc next;
    /** A sorted run's documents not yet returned, in BSON bytes (estimated): held between a cursor's batches. */
    private long sortedBytes;
    private boolean sorted;

    public QueryRun(DocStream candidates, FilterMatcher matcher, SortSpec sort, long skip, long limit,
                    Projector projector) {
        this.candidates = candidates;
        this.matcher = matcher;
        this.projector = projector;
        this.skip = skip;
        this.limit = limit <= 0 ? Long.MAX_VALUE : limit;
        if (sort != null && sort.natural() < 0) {
            // {$natural: -1} (a sort or a hint): the collection's order reversed, so every match is held
            List<StoredDoc> all = new ArrayList<>();
            MemoryBudget budget = new MemoryBudget("sort");
            while (candidates.hasNext()) {
                StoredDoc d = candidates.next();
                examined++;
                if (matcher.test(d.doc())) {
                    budget.add(d.doc());
                    all.add(d);
                }
            }
            java.util.Collections.reverse(all);
            holdSorted(all);
        } else if (sort != null && !sort.isEmpty()) {
            // with a limit only the first skip + limit in sort order are kept (a bounded heap, the worst on top)
            long keep = limit > 0 && skip + limit < Integer.MAX_VALUE ? skip + limit : Long.MAX_VALUE;
            java.util.Comparator<StoredDoc> order = (a, b) -> sort.compare(a.doc(), b.doc());
            java.util.PriorityQueue<StoredDoc> heap = keep == Long.MAX_VALUE ? null
                    : new java.util.PriorityQueue<>(order.reversed());
            List<StoredDoc> all = new ArrayList<>();
            MemoryBudget budget = new MemoryBudget("sort");
            while (candidates.hasNext()) {
                StoredDoc d = candidates.next();
                examined++;
                if (!matcher.test(d.doc())) {
                    continue;
                }
                if (heap == null) {
                    budget.add(d.doc());
                    all.add(d);
                } else if (heap.size() < keep) {
                    heap.add(d);
                } else if (order.compare(d, heap.peek()) < 0) {
                    heap.poll();
                    heap.add(d);
                }
            }
            if (heap != null) {
                all.addAll(heap);
            }
            all.sort(order); // MongoDB leaves the order of equal sort keys unspecified too
            holdSorted(all);
        } else {
            this.source = new Iterator<>() {
                private StoredDoc pending;

                @Override
                public boolean hasNext() {
                    while (pending == null && candidates.hasNext()) {
                        StoredDoc d = candidates.next();
                        examined++;
                        if (matcher.test(d.doc())) {
                            pending = d;
                        }
                    }
                    return pending != null;
                }

                @Override
                public StoredDoc next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    StoredDoc d = pending;
                    pending = null;
                    return d;
                }
            };
        }
    }

    private void holdSorted(List<StoredDoc> all) {
        sorted = true;
        for (StoredDoc d : all) {
            sortedBytes += io.tetradb.mongo.store.MongoCollection.approxSize(d.doc());
        }
        this.source = all.iterator();
    }

    @Override
    public long heldBytes() {
        return sortedBytes + candidates.heldBytes();
    }

    /** The next matching document as stored (before projection), or null at the end. */
    public StoredDoc nextStored() {
        if (!hasNext()) {
            return null;
        }
        StoredDoc d = next;
        next = null;
        returned++;
        return d;
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (returned >= limit) {
            return false;
        }
        while (source.hasNext()) {
            StoredDoc d = source.next();
            if (sorted) {
                sortedBytes -= io.tetradb.mongo.store.MongoCollection.approxSize(d.doc());
            }
            if (skip > 0) {
                skip--;
                continue;
            }
            next = d;
            return true;
        }
        return false;
    }

    @Override
    public BsonDocument next() {
        StoredDoc d = nextStored();
        if (d == null) {
            throw new NoSuchElementException();
        }
        return projector == null ? d.doc() : projector.apply(d.doc());
    }

    public DocStream candidates() {
        return candidates;
    }

    public long examined() {
        return examined;
    }

    public long returned() {
        return returned;
    }
}
