package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.GraphStore;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;

import java.util.List;
import java.util.function.Consumer;

/**
 * A vertex or an edge: its address ({@code pk}, {@code id}), its label, and a snapshot of its item. The snapshot is
 * read lazily and read again when its item may have been written since it was taken (see
 * {@link GraphStore#version}), so two objects for the same element never disagree; a read-only traversal reads each
 * item at most once per object.
 */
abstract class TetraElement implements Element {
    protected final TetraGraph graph;
    protected final Object pk;
    protected final String key;
    protected String label;
    private ObjectNode item;
    private long seen = -1;

    TetraElement(TetraGraph graph, Object pk, String key, String label, ObjectNode item) {
        this.graph = graph;
        this.pk = pk;
        this.key = key;
        this.label = label;
        this.item = item;
        this.seen = item == null ? -1 : graph.store().version(pk, key);
    }

    /** The id, made once: traversals hash and compare it often ({@code dedup()}, bulking). */
    private List<Object> id;

    @Override
    public List<Object> id() {
        List<Object> i = id;
        if (i == null) {
            i = ElementIds.of(pk, key);
            id = i;
        }
        return i;
    }

    public Object partitionKeyValue() {
        return pk;
    }

    /** The element's id inside its logical partition. */
    public String itemId() {
        return key;
    }

    /**
     * An item's label; TinkerPop's default label when it has none (a document another face wrote into the graph's
     * container).
     */
    static String labelOf(ObjectNode item, boolean vertex) {
        com.fasterxml.jackson.databind.JsonNode l = item.get(io.tetradb.graph.store.Layout.LABEL);
        if (l != null && l.isTextual()) {
            return l.textValue();
        }
        return vertex ? org.apache.tinkerpop.gremlin.structure.Vertex.DEFAULT_LABEL
                : org.apache.tinkerpop.gremlin.structure.Edge.DEFAULT_LABEL;
    }

    @Override
    public String label() {
        if (label == null) {
            label = labelOf(item(), this instanceof org.apache.tinkerpop.gremlin.structure.Vertex);
        }
        return label;
    }

    @Override
    public TetraGraph graph() {
        return graph;
    }

    GraphStore store() {
        return graph.store();
    }

    /** The current item; throws if the element was removed. */
    ObjectNode item() {
        long now = store().version(pk, key);
        if (item == null && seededAt == now) {
            ObjectNode seed = seed(); // an edge made from an adjacency entry carrying its properties
            seededAt = -2;
            if (seed != null) {
                item = seed;
                seen = now;
                return item;
            }
        }
        if (item == null || seen != now) {
            ObjectNode fresh = store().read(pk, key);
            if (fresh == null) {
                if (item != null && PendingCreates.holds(graph, pk, key)) { // created, its write held for a batch
                    seen = now;
                    return item;
                }
                throw removed();
            }
            item = fresh;
            seen = now;
        }
        return item;
    }

    /** True when {@link #item()} would read the item (no snapshot, or one that may be stale, and no seed). */
    boolean needsItem() {
        return needsItem(store().version(pk, key));
    }

    /** {@link #needsItem()} at the element's write count {@code now} (read by the caller). */
    boolean needsItem(long now) {
        return (item == null || seen != now) && !(item == null && seededAt == now);
    }

    /** Takes {@code read} as the snapshot, read when the element's write count was {@code version}. */
    void prime(ObjectNode read, long version) {
        item = read;
        seen = version;
    }

    /**
     * Applies a change to the current item and writes it back, if no one else wrote the item meanwhile (its etag);
     * else reads it again and re-applies the change, so concurrent writers to one element lose nothing.
     */
    void update(Consumer<ObjectNode> change) {
        for (int attempt = 0; ; attempt++) {
            ObjectNode base = item();
            if (!base.has(io.tetradb.graph.store.Layout.ETAG)) { // a seed: write over the stored item's etag only
                item = null;
                seen = -1;
                base = item();
            }
            ObjectNode current = base.deepCopy();
            change.accept(current);
            if (store().replace(current, pk)) {
                item = current;
                seen = store().version(pk, key);
                return;
            }
            if (attempt == 100) {
                throw new IllegalStateException("gave up writing " + id() + " after 100 concurrent changes");
            }
            seen = -1; // read it again
        }
    }

    /** The write count of this element's stripe when {@link #seed()} was known current; -2: no seed. */
    long seededAt = -2;

    /** An item known without reading it (as current as {@link #seededAt}), or null. */
    ObjectNode seed() {
        return null;
    }

    abstract IllegalStateException removed();

    static IllegalStateException elementAlreadyRemoved(Class<?> kind, Object id) {
        return new IllegalStateException(String.format("%s with id %s was removed.", kind.getSimpleName(), id));
    }

    @Override
    public boolean equals(Object o) {
        return ElementHelper.areEqual(this, o);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode(this);
    }
}
