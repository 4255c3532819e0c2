package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.ValueCodec;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;

/**
 * Builds the items of new vertices and edges in the layout of {@link Layout}: the one place that knows how an
 * element becomes an item, shared by {@code addVertex}/{@code addEdge} and the bulk loader.
 */
public final class ElementItems {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ElementItems() {
    }

    /** A vertex item without properties: {@code {id, <pk>, label}}. */
    public static ObjectNode vertex(TetraGraph graph, Object pk, String id, String label) {
        ElementHelper.validateLabel(label);
        TetraVertex.checkPartitionKey(graph.partitionKey(), pk);
        ObjectNode item = F.objectNode();
        item.put(Layout.ID, id);
        item.set(graph.partitionKey(), JsonValues.scalar(pk));
        item.put(Layout.LABEL, label);
        return item;
    }

    /**
     * Appends one vertex property entry (list cardinality: entries of a key accumulate) with its meta-properties
     * (key/value pairs). The partition key property is not a list entry: it is refused here.
     */
    public static void addVertexProperty(TetraGraph graph, ObjectNode vertexItem, String key, Object value,
                                         Object... metaKeyValues) {
        ElementHelper.validateProperty(key, value);
        if (key.equals(graph.partitionKey())) {
            throw new IllegalArgumentException("'" + key + "' is the partition key: it is set with the vertex");
        }
        TetraVertex.checkKey(key);
        ValueCodec.check(value);
        ArrayNode entries = vertexItem.get(key) instanceof ArrayNode a ? a : vertexItem.putArray(key);
        entries.add(entry(value, metaKeyValues));
    }

    /** A property entry; its id is the string given with {@code T.id} in the meta key/values, else a new id. */
    static ObjectNode entry(Object value, Object[] metaKeyValues) {
        ObjectNode entry = F.objectNode();
        Object id = ElementHelper.getIdValue(metaKeyValues).orElse(null);
        entry.put(Layout.ID, id instanceof String s ? s : IdGenerator.next());
        ValueCodec.put(entry, Layout.VALUE, value);
        TetraVertexProperty.putMeta(entry, metaKeyValues);
        return entry;
    }

    /** An edge item in its source's partition, naming both ends; properties are added with {@link #edgeProperty}. */
    public static ObjectNode edge(TetraGraph graph, String id, String label, Object outPk, String outId,
                                  String outLabel, Object inPk, String inId, String inLabel) {
        ElementHelper.validateLabel(label);
        ObjectNode item = F.objectNode();
        item.put(Layout.ID, id);
        item.set(graph.partitionKey(), JsonValues.scalar(outPk));
        item.put(Layout.LABEL, label);
        item.put(Layout.IS_EDGE, true);
        item.put(Layout.VERTEX_ID, outId);
        item.put(Layout.VERTEX_LABEL, outLabel);
        item.put(Layout.SINK, inId);
        item.put(Layout.SINK_LABEL, inLabel);
        item.set(Layout.SINK_PARTITION, JsonValues.scalar(inPk));
        return item;
    }

    /** Sets an edge property (a plain value); null values are skipped, as TinkerPop's graphs without nulls do. */
    public static void edgeProperty(TetraGraph graph, ObjectNode edgeItem, String key, Object value) {
        ElementHelper.validateProperty(key, value);
        TetraEdge.checkKey(graph, key);
        if (value != null) {
            ValueCodec.check(value);
            ValueCodec.put(edgeItem, key, value);
        }
    }

    /** A new element id (a version-7 UUID: ids sort in creation order). */
    public static String newId() {
        return IdGenerator.next();
    }
}
