package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The candidates of a query, read lazily page by page from the core (its continuation tokens carry the position, so
 * a cursor left open holds no storage resources). Pages start at 101 items and grow to 1,000. Counts what was read
 * for explain and request charges.
 */
public final class DocStream implements Iterator<StoredDoc>, HeldBytes {
    private final ContainerStore container;
    private final PartitionKeyValue partition;
    private final LogicalPlan plan;
    private final ArrayDeque<JsonNode> buffer = new ArrayDeque<>();
    private String continuation;
    private boolean exhausted;
    /** The document a point read found, until it is taken. */
    private StoredDoc point;
    private int pageSize = 101;
    /** The stored size of the buffered page's documents, on average (what the core read for the page). */
    private long bytesPerBufferedDoc;
    private double requestCharge;
    private long documentsLoaded;
    private long indexHits;
    private String access;

    /** The core id of the one document to read directly (an {@code _id} equality), or null to run {@link #plan}. */
    private final String pointId;

    DocStream(ContainerStore container, PartitionKeyValue partition, LogicalPlan plan) {
        this(container, partition, plan, null);
    }

    private DocStream(ContainerStore container, PartitionKeyValue partition, LogicalPlan plan, String pointId) {
        this.container = container;
        this.partition = partition;
        this.plan = plan;
        this.pointId = pointId;
    }

    /** A point read of one id: no planning, one storage read (the filter's {@code _id} equality). */
    static DocStream point(ContainerStore container, PartitionKeyValue partition, String id) {
        return new DocStream(container, partition, null, id);
    }

    /** A transaction whose own writes this stream shows in place of the stored versions, or null. */
    private io.tetradb.mongo.txn.Transaction overlay;
    private MongoCollection overlaid;
    private java.util.Iterator<StoredDoc> overlayInserts;
    private final java.util.Set<String> overlaySeen = new java.util.HashSet<>();
    private StoredDoc lookahead;

    /** Shows {@code txn}'s buffered writes of {@code coll}: its versions, minus its deletions, plus its inserts. */
    DocStream overlay(io.tetradb.mongo.txn.Transaction txn, MongoCollection coll) {
        this.overlay = txn;
        this.overlaid = coll;
        return this;
    }

    @Override
    public boolean hasNext() {
        if (overlay == null) {
            return rawHasNext();
        }
        while (lookahead == null) {
            if (rawHasNext()) {
                StoredDoc d = rawNext();
                io.tetradb.mongo.txn.Transaction.Pending p = overlay.pending(overlaid, d.partition(), d.id());
                overlaySeen.add(d.id());
                lookahead = p == null ? d : p.doc() == null ? null
                        : new StoredDoc(p.view(), d.id(), d.etag(), d.partition());
                continue;
            }
            if (overlayInserts == null) {
                overlayInserts = overlay.inserted(overlaid).iterator();
            }
            if (!overlayInserts.hasNext()) {
                return false;
            }
            StoredDoc d = overlayInserts.next();
            if (!overlaySeen.contains(d.id()) && (pointId == null || pointId.equals(d.id()))
                    && (partition == null || partition.equals(d.partition()))) {
                lookahead = d;
            }
        }
        return true;
    }

    private boolean rawHasNext() {
        if (pointId != null && !exhausted) {
            exhausted = true;
            access = "primary key lookup (_id)";
            try {
                io.tetradb.core.store.ItemResult r = container.read(partition, pointId, null);
                requestCharge += r.requestCharge();
                documentsLoaded++;
                // a binary item straight from its typed tree to BSON: no JSON text in between
                point = new StoredDoc(io.tetradb.mongo.bson.DocumentMapper.fromStored(container.codec(), r.stored()),
                        pointId, r.etag(), partition);
            } catch (io.tetradb.core.StoreException e) {
                if (e.status() != io.tetradb.core.Status.NOT_FOUND) {
                    throw e;
                }
            }
        }
        while (buffer.isEmpty() && !exhausted) {
            io.tetradb.mongo.command.Interruption.check(); // a killed command reads no further page
            ContainerQuery.Page page;
            try {
                page = container.queryPage(plan, Map.of(), partition, null, continuation, pageSize,
                        8L * 1024 * 1024);
            } catch (io.tetradb.core.cancel.CallStoppedException stopped) { // killed or out of time inside the page
                throw io.tetradb.mongo.command.MongoErrors.of(stopped);
            }
            buffer.addAll(page.results());
            bytesPerBufferedDoc = page.bytesLoaded() / Math.max(1, page.documentsLoaded());
            continuation = page.continuation();
            exhausted = continuation == null;
            requestCharge += page.requestCharge();
            documentsLoaded += page.documentsLoaded();
            indexHits += page.indexHits();
            if (access == null) {
                access = page.access();
            }
            pageSize = Math.min(1000, pageSize * 2);
        }
        return point != null || !buffer.isEmpty();
    }

    @Override
    public StoredDoc next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        if (overlay != null) {
            StoredDoc d = lookahead;
            lookahead = null;
            return d;
        }
        return rawNext();
    }

    private StoredDoc rawNext() {
        if (point != null) {
            StoredDoc d = point;
            point = null;
            return d;
        }
        JsonNode item = buffer.poll();
        return new StoredDoc(io.tetradb.mongo.bson.DocumentMapper.fromItem(item), item.path("id").asText(),
                item.path("_etag").asText(null), container.partitionKeyOf(item));
    }

    /** The documents of the page in hand, not yet taken: what a cursor over this stream holds between batches. */
    @Override
    public long heldBytes() {
        return buffer.size() * bytesPerBufferedDoc;
    }

    /** RU spent so far; reading it resets the count (each command charges what it read). */
    public double takeRequestCharge() {
        double c = requestCharge;
        requestCharge = 0;
        return c;
    }

    public long documentsLoaded() {
        return documentsLoaded;
    }

    public long indexHits() {
        return indexHits;
    }

    /** The access path the core chose (e.g. "index seek on /links/target ..." or "scan"), after the first read. */
    public String access() {
        rawHasNext();
        return access;
    }
}
