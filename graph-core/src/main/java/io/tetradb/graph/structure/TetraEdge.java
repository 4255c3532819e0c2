package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.GraphStore;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.ValueCodec;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An edge: an item in its source vertex's logical partition that names both ends
 * ({@code _vertexId/_vertexLabel} and {@code _sink/_sinkLabel/_sinkPartition}) and holds its properties as plain
 * values. So {@code out()} never leaves the source's partition, and {@code in()} is one seek on {@code _sink}.
 */
public final class TetraEdge extends TetraElement implements Edge {
    private static final Set<String> FIELDS = Set.of(Layout.ID, Layout.LABEL, Layout.IS_EDGE, Layout.VERTEX_ID,
            Layout.VERTEX_LABEL, Layout.SINK, Layout.SINK_LABEL, Layout.SINK_PARTITION, ValueCodec.TYPES);

    TetraEdge(TetraGraph graph, Object pk, String key, String label, ObjectNode item) {
        super(graph, pk, key, label, item);
    }

    /** The ends, when known without the item (an edge made from an adjacency entry); else null. */
    private TetraVertex out;
    private TetraVertex in;
    /** The adjacency entry this edge was made from (its carried properties), or null. */
    private GraphStore.Hop hop;

    /** An edge made from an adjacency entry: no item is read until a property is asked for that it does not carry. */
    TetraEdge(TetraGraph graph, String key, String label, TetraVertex out, TetraVertex in, GraphStore.Hop hop) {
        super(graph, out.pk, key, label, null);
        this.out = out;
        this.in = in;
        if (hop.properties() != null) {
            this.hop = hop;
            seededAt = graph.store().version(out.pk, key);
        }
    }

    /**
     * The entry's carried properties as the edge's snapshot: the parsed object its hop shares (the layout fields,
     * which {@link #properties} skips, are left out; a write reads the stored item first, see {@code update}).
     */
    @Override
    ObjectNode seed() {
        GraphStore.Hop h = hop;
        hop = null;
        return h == null ? null : h.carriedProperties();
    }

    static TetraEdge create(TetraVertex out, String label, Vertex inVertex, Object... keyValues) {
        if (inVertex == null) {
            throw Graph.Exceptions.argumentCanNotBeNull("inVertex");
        }
        ElementHelper.validateLabel(label);
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        TetraGraph graph = out.graph();
        TetraVertex in = (TetraVertex) inVertex;
        if (!PendingCreates.holds(graph, out.pk, out.key)) { // a vertex this traversal's open batch holds exists
            out.item();
        }
        if (!PendingCreates.holds(graph, in.pk, in.key)) {
            in.item();
        }
        String id = IdGenerator.next();
        Object givenId = ElementHelper.getIdValue(keyValues).orElse(null);
        if (givenId != null) {
            ElementIds.Lookup lookup = ElementIds.parseForCreate(givenId, Edge.Exceptions::userSuppliedIdsOfThisTypeNotSupported);
            if (lookup.address() != null && !lookup.address().pk().equals(out.pk)) {
                throw new IllegalArgumentException("an edge lives in its source vertex's partition " + out.pk
                        + ", so its id cannot be " + givenId);
            }
            id = lookup.address() != null ? lookup.address().id() : lookup.bareId();
        }
        ObjectNode item = ElementItems.edge(graph, id, label, out.pk, out.key, out.label(), in.pk, in.key,
                in.label());
        for (int i = 0; i < keyValues.length; i += 2) {
            if (!(keyValues[i] instanceof T)) {
                String k = (String) keyValues[i];
                ElementHelper.validateProperty(k, keyValues[i + 1]);
                checkKey(graph, k);
                if (keyValues[i + 1] != null) {
                    ValueCodec.put(item, k, keyValues[i + 1]);
                }
            }
        }
        String createdId = id;
        if (!PendingCreates.offer(graph, out.pk, item,
                () -> Graph.Exceptions.edgeWithIdAlreadyExists(ElementIds.of(out.pk, createdId)))
                && !graph.store().create(item, out.pk)) {
            throw Graph.Exceptions.edgeWithIdAlreadyExists(ElementIds.of(out.pk, id));
        }
        return new TetraEdge(graph, out.pk, id, label, item);
    }

    static void checkKey(TetraGraph graph, String k) {
        if (k.equals(graph.partitionKey())) {
            throw new IllegalArgumentException("'" + k + "' is the partition key: an edge's is its source vertex's");
        }
        TetraVertex.checkKey(k);
    }

    @Override
    public Iterator<Vertex> vertices(Direction direction) {
        List<Vertex> out = new ArrayList<>(2);
        if (direction != Direction.IN) {
            out.add(outVertex());
        }
        if (direction != Direction.OUT) {
            out.add(inVertex());
        }
        return out.iterator();
    }

    @Override
    public Vertex outVertex() {
        if (out != null) {
            return new TetraVertex(graph, out.pk, out.key, out.label, null);
        }
        ObjectNode item = item();
        return new TetraVertex(graph, pk, item.get(Layout.VERTEX_ID).asText(), item.get(Layout.VERTEX_LABEL).asText(),
                null);
    }

    @Override
    public Vertex inVertex() {
        if (in != null) {
            return new TetraVertex(graph, in.pk, in.key, in.label, null);
        }
        ObjectNode item = item();
        return new TetraVertex(graph, JsonValues.scalar(item.get(Layout.SINK_PARTITION)),
                item.get(Layout.SINK).asText(), item.get(Layout.SINK_LABEL).asText(), null);
    }

    @Override
    public <V> Property<V> property(String key, V value) {
        item();
        ElementHelper.validateProperty(key, value);
        checkKey(graph, key);
        if (value == null) {
            update(item -> ValueCodec.remove(item, key));
            return Property.empty();
        }
        ValueCodec.check(value);
        update(item -> ValueCodec.put(item, key, value));
        return new TetraProperty<>(this, key, value, () -> removeProperty(key));
    }

    private void removeProperty(String key) {
        update(item -> ValueCodec.remove(item, key));
    }

    @Override
    public <V> Iterator<Property<V>> properties(String... propertyKeys) {
        ObjectNode item = item();
        if (propertyKeys.length == 1) { // has('dist', ...), values('dist'): a lookup, not a walk over every field
            String k = propertyKeys[0];
            Object value = k == null || FIELDS.contains(k) || Layout.reserved(k) || k.equals(graph.partitionKey())
                    || !item.has(k) ? null : ValueCodec.get(item, k);
            return value == null ? java.util.Collections.emptyIterator()
                    : List.<Property<V>>of(new TetraProperty<>(this, k, (V) value, () -> removeProperty(k))).iterator();
        }
        Set<String> wanted = propertyKeys.length == 0 ? null : new java.util.HashSet<>(Arrays.asList(propertyKeys));
        List<Property<V>> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            String k = it.next().getKey();
            if (!FIELDS.contains(k) && !Layout.reserved(k) && !k.equals(graph.partitionKey()) && (wanted == null || wanted.contains(k))) {
                Object value = ValueCodec.get(item, k);
                if (value != null) { // JSON null, MinKey, MaxKey (another face's values): no property
                    out.add(new TetraProperty<>(this, k, (V) value, () -> removeProperty(k)));
                }
            }
        }
        return out.iterator();
    }

    @Override
    public void remove() {
        if (!store().delete(pk, key)) {
            throw removed();
        }
    }

    @Override
    IllegalStateException removed() {
        return elementAlreadyRemoved(Edge.class, id());
    }

    @Override
    public String toString() {
        return StringFactory.edgeString(this);
    }
}
