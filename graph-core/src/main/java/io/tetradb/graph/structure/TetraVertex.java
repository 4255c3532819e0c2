package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.ValueCodec;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A vertex: the item {@code {id, <pk>, label, <key>: [{id, _value, <meta>...}, ...]}} in the logical partition of
 * its partition key value. Every property key holds a list of entries (list cardinality, meta-properties).
 */
public final class TetraVertex extends TetraElement implements Vertex {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    TetraVertex(TetraGraph graph, Object pk, String key, String label, ObjectNode item) {
        super(graph, pk, key, label, item);
    }

    /** {@code graph.addVertex(keyValues)}: the partition key property is required unless the graph has a default. */
    public static TetraVertex create(TetraGraph graph, Object... keyValues) {
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        String label = ElementHelper.getLabelValue(keyValues).orElse(Vertex.DEFAULT_LABEL);
        ElementHelper.validateLabel(label);
        String pkName = graph.partitionKey();
        Object pk = null;
        for (int i = 0; i < keyValues.length; i += 2) {
            if (pkName.equals(keyValues[i])) {
                if (pk != null && !pk.equals(keyValues[i + 1])) {
                    throw new IllegalArgumentException("a vertex has one partition key value ('" + pkName + "')");
                }
                pk = checkPartitionKey(pkName, keyValues[i + 1]);
            }
        }
        String id = null;
        Object givenId = ElementHelper.getIdValue(keyValues).orElse(null);
        if (givenId != null) {
            ElementIds.Lookup lookup = ElementIds.parseForCreate(givenId, Vertex.Exceptions::userSuppliedIdsOfThisTypeNotSupported);
            if (lookup.address() != null) {
                if (pk != null && !pk.equals(lookup.address().pk())) {
                    throw new IllegalArgumentException("the id " + givenId + " names partition "
                            + lookup.address().pk() + " but '" + pkName + "' is " + pk);
                }
                pk = lookup.address().pk();
                id = lookup.address().id();
            } else {
                id = lookup.bareId();
            }
        }
        if (pk == null) {
            pk = graph.defaultPartition();
            if (pk == null) {
                throw new IllegalArgumentException("a vertex needs its partition key property '" + pkName
                        + "' (e.g. g.addV('person').property('" + pkName + "', 'USA')), or an id [pk, id]");
            }
        }
        if (id == null) {
            id = IdGenerator.next();
        }
        ObjectNode item = ElementItems.vertex(graph, pk, id, label);
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i] instanceof T || pkName.equals(keyValues[i])) {
                continue;
            }
            String key = (String) keyValues[i];
            ElementHelper.validateProperty(key, keyValues[i + 1]);
            checkKey(key);
            if (keyValues[i + 1] != null) {
                ArrayNode entries = item.get(key) instanceof ArrayNode a ? a : item.putArray(key);
                entries.add(ElementItems.entry(keyValues[i + 1], new Object[0]));
            }
        }
        Object createdPk = pk;
        String createdId = id;
        if (!PendingCreates.offer(graph, pk, item,
                () -> Graph.Exceptions.vertexWithIdAlreadyExists(ElementIds.of(createdPk, createdId)))
                && !graph.store().create(item, pk)) {
            throw Graph.Exceptions.vertexWithIdAlreadyExists(ElementIds.of(pk, id));
        }
        return new TetraVertex(graph, pk, id, label, item);
    }

    static Object checkPartitionKey(String name, Object value) {
        if (!ElementIds.isPartitionKeyValue(value)) {
            throw new IllegalArgumentException("the partition key '" + name + "' must be a string, number or boolean, not "
                    + (value == null ? "null" : value.getClass().getSimpleName()));
        }
        return value;
    }

    static void checkKey(String key) {
        if (Layout.reserved(key)) {
            throw new IllegalArgumentException("'" + key + "' is a reserved name in TetraGraph items and cannot be a "
                    + "property key");
        }
    }

    boolean hidesPartitionKey() {
        return pk.equals(graph.defaultPartition());
    }

    @Override
    public <V> VertexProperty<V> property(VertexProperty.Cardinality cardinality, String key, V value,
                                          Object... keyValues) {
        item();
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        ElementHelper.validateProperty(key, value);
        if (key.equals(graph.partitionKey())) {
            if (pk.equals(value)) {
                return (VertexProperty<V>) partitionKeyProperty();
            }
            throw new IllegalArgumentException("the partition key '" + key + "' of a vertex cannot change (it is "
                    + pk + "); create a new vertex instead");
        }
        checkKey(key);
        Object vpId = ElementHelper.getIdValue(keyValues).orElse(null);
        if (vpId != null && !(vpId instanceof String)) {
            throw VertexProperty.Exceptions.userSuppliedIdsOfThisTypeNotSupported();
        }
        VertexProperty.Cardinality card = cardinality == null
                ? graph.features().vertex().getCardinality(key) : cardinality;
        if (value == null) {
            if (card == VertexProperty.Cardinality.single) {
                update(item -> item.remove(key));
            }
            return VertexProperty.empty();
        }
        ValueCodec.check(value);
        ObjectNode[] result = new ObjectNode[1];
        update(item -> {
            ArrayNode entries = entries(item, key, true);
            if (card == VertexProperty.Cardinality.set) {
                for (JsonNode e : entries) {
                    if (Objects.equals(ValueCodec.get((ObjectNode) e, Layout.VALUE), value)) {
                        TetraVertexProperty.putMeta((ObjectNode) e, keyValues);
                        result[0] = (ObjectNode) e;
                        return;
                    }
                }
            } else if (card == VertexProperty.Cardinality.single) {
                entries.removeAll();
            }
            result[0] = ElementItems.entry(value, keyValues);
            entries.add(result[0]);
            item.set(key, entries);
        });
        return new TetraVertexProperty<>(this, key, result[0]);
    }

    @Override
    public <V> VertexProperty<V> property(String key) {
        Iterator<VertexProperty<V>> it = properties(key);
        if (!it.hasNext()) {
            return VertexProperty.empty();
        }
        VertexProperty<V> first = it.next();
        if (it.hasNext()) {
            throw Vertex.Exceptions.multiplePropertiesExistForProvidedKey(key);
        }
        return first;
    }

    private VertexProperty<Object> partitionKeyProperty() {
        ObjectNode entry = F.objectNode();
        entry.put(Layout.ID, graph.partitionKey() + ":" + pk + "/" + key);
        entry.set(Layout.VALUE, JsonValues.scalar(pk));
        return new TetraVertexProperty<>(this, graph.partitionKey(), entry, true);
    }

    @Override
    public <V> Iterator<VertexProperty<V>> properties(String... propertyKeys) {
        return this.<V>propertiesIn(item(), propertyKeys).iterator();
    }

    /**
     * The vertex properties {@code properties(propertyKeys)} gives, taken from {@code item}: the vertex's item, or a
     * partial read of it holding at least those keys' fields ({@link PartialValues}).
     */
    <V> List<VertexProperty<V>> propertiesIn(ObjectNode item, String... propertyKeys) {
        List<VertexProperty<V>> out = new ArrayList<>();
        String pkName = graph.partitionKey();
        if (propertyKeys.length > 0 && propertyKeys.length <= 4) {
            // the usual values('a', 'b'): look the keys up instead of walking every field
            for (int i = 0; i < propertyKeys.length; i++) {
                String k = propertyKeys[i];
                if (k == null || Arrays.asList(propertyKeys).subList(0, i).contains(k)) {
                    continue;
                }
                JsonNode f = item.get(k);
                if (f == null) {
                    continue;
                }
                if (k.equals(pkName)) {
                    if (!hidesPartitionKey()) {
                        out.add((VertexProperty<V>) (VertexProperty<?>) partitionKeyProperty());
                    }
                } else if (!Layout.reserved(k)) {
                    addProperties(out, k, f);
                }
            }
            return out;
        }
        Set<String> wanted = propertyKeys.length == 0 ? null : new java.util.HashSet<>(Arrays.asList(propertyKeys));
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            if (wanted != null && !wanted.contains(k)) {
                continue;
            }
            if (k.equals(pkName)) {
                if (!hidesPartitionKey()) {
                    out.add((VertexProperty<V>) (VertexProperty<?>) partitionKeyProperty());
                }
            } else if (!Layout.reserved(k)) {
                addProperties(out, k, f.getValue());
            }
        }
        return out;
    }

    /** The vertex properties of field {@code k}: its entries, or its plain value (another face's field) as one. */
    private <V> void addProperties(List<VertexProperty<V>> out, String k, JsonNode field) {
        if (Layout.isEntries(field)) {
            for (JsonNode e : field) {
                out.add(new TetraVertexProperty<>(this, k, (ObjectNode) e));
            }
        } else {
            ObjectNode entry = plainEntry(k, field);
            if (ValueCodec.get(entry, Layout.VALUE) != null) { // JSON null, MinKey, MaxKey: no property
                out.add(new TetraVertexProperty<>(this, k, entry));
            }
        }
    }

    /** A plain field as the entry it becomes when written through the graph: {@code {id: <vertex id>/<key>, _value}}. */
    ObjectNode plainEntry(String k, JsonNode field) {
        ObjectNode entry = F.objectNode();
        entry.put(Layout.ID, key + "/" + k);
        entry.set(Layout.VALUE, field);
        return entry;
    }

    /**
     * The entry array of {@code k} in {@code item}: its entries; a plain field (another face's value) as an array of
     * its one entry, which {@code forWrite} puts into the item (a copy being changed; never a shared snapshot); a
     * missing field a new, empty array (not set in the item).
     */
    ArrayNode entries(ObjectNode item, String k, boolean forWrite) {
        JsonNode field = item.get(k);
        if (field == null) {
            return F.arrayNode();
        }
        if (Layout.isEntries(field)) {
            return (ArrayNode) field;
        }
        ArrayNode entries = F.arrayNode();
        if (!field.isNull()) {
            entries.add(plainEntry(k, field));
        }
        if (forWrite) {
            item.set(k, entries);
        }
        return entries;
    }

    @Override
    public Edge addEdge(String label, Vertex inVertex, Object... keyValues) {
        return TetraEdge.create(this, label, inVertex, keyValues);
    }

    @Override
    public Iterator<Edge> edges(Direction direction, String... edgeLabels) {
        return graph.finder().edges(this, direction, edgeLabels);
    }

    @Override
    public Iterator<Vertex> vertices(Direction direction, String... edgeLabels) {
        return graph.finder().adjacent(this, direction, edgeLabels);
    }

    @Override
    public void remove() {
        item();
        List<Edge> edges = IteratorUtils.list(edges(Direction.BOTH));
        for (Edge e : edges) {
            TetraEdge t = (TetraEdge) e;
            store().delete(t.pk, t.key);
        }
        store().delete(pk, key);
    }

    @Override
    IllegalStateException removed() {
        return elementAlreadyRemoved(Vertex.class, id());
    }

    @Override
    public String toString() {
        return StringFactory.vertexString(this);
    }
}
