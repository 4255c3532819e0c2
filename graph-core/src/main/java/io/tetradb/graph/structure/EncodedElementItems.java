package io.tetradb.graph.structure;

import io.tetradb.core.item.BinaryItemStreamWriter;
import io.tetradb.core.store.EncodedItem;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.PropertyValues;
import io.tetradb.graph.store.ValueCodec;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Builds new vertex and edge items straight as the core's binary item format (TB1, {@link EncodedItem}) for the
 * bulk loader: the same fields and values as {@link ElementItems} builds as trees (what {@code addVertex}/{@code
 * addEdge} write), with no Jackson tree per element, so the core neither builds nor encodes one (its index terms and
 * the edge's adjacency entries come from the bytes). Only where values are the core's typed values
 * ({@link #available()}: a store writing TB1); a JSON-text store takes the trees. One instance per thread (it keeps
 * its writer's buffer).
 */
public final class EncodedElementItems {
    private final BinaryItemStreamWriter w;

    /** @param writer a writer with the core's nesting limit ({@code GraphStore.newItemWriter()}), used only here */
    public EncodedElementItems(BinaryItemStreamWriter writer) {
        this.w = writer;
    }

    /** Whether items can be encoded here: values are written as the core's typed values (a TB1 store). */
    public static boolean available() {
        return ValueCodec.typedValues();
    }

    /**
     * A vertex item {@code {id, <pk>, label, <key>: [{id, _value, <meta>...}, ...]}} from a source vertex's properties
     * (the partition key property left out by the caller); entries of one key in the order given.
     */
    public EncodedItem vertex(TetraGraph graph, Object pk, String id, String label,
                              List<? extends VertexProperty<?>> properties) {
        ElementHelper.validateLabel(label);
        TetraVertex.checkPartitionKey(graph.partitionKey(), pk);
        w.reset();
        w.startObject();
        w.name(Layout.ID);
        w.string(id);
        w.name(graph.partitionKey());
        partitionKey(pk);
        w.name(Layout.LABEL);
        w.string(label);
        for (int i = 0; i < properties.size(); i++) {
            String key = properties.get(i).key();
            if (seenBefore(properties, key, i)) {
                continue; // written with the first entry of its key
            }
            ElementHelper.validateProperty(key, properties.get(i).value());
            if (key.equals(graph.partitionKey())) {
                throw new IllegalArgumentException("'" + key + "' is the partition key: it is set with the vertex");
            }
            TetraVertex.checkKey(key);
            w.name(key);
            w.startArray();
            for (int j = i; j < properties.size(); j++) {
                VertexProperty<?> p = properties.get(j);
                if (p.key().equals(key)) {
                    entry(p);
                }
            }
            w.endArray();
        }
        w.endObject();
        return EncodedItem.of(w); // graph-warm: the writer notes a top-level system name, so the core need not look
    }

    private static boolean seenBefore(List<? extends VertexProperty<?>> properties, String key, int i) {
        for (int j = 0; j < i; j++) {
            if (properties.get(j).key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** A property entry {@code {id, _value, <meta key>: value...}}: a new id, as {@code addVertex} gives. */
    private void entry(VertexProperty<?> p) {
        ElementHelper.validateProperty(p.key(), p.value());
        w.startObject();
        w.name(Layout.ID);
        w.string(IdGenerator.next());
        w.name(Layout.VALUE);
        value(p.value());
        for (Iterator<? extends Property<?>> it = p.properties(); it.hasNext(); ) {
            Property<?> m = it.next();
            ElementHelper.validateProperty(m.key(), m.value());
            TetraVertexProperty.checkMetaKey(m.key());
            if (m.value() != null) {
                w.name(m.key());
                value(m.value());
            }
        }
        w.endObject();
    }

    /**
     * An edge item in its source's partition, {@code {id, <pk>, label, _isEdge, _vertexId, _vertexLabel, _sink,
     * _sinkLabel, _sinkPartition, <key>: value...}} with the edge's properties (key → value, in their order); null
     * property values are skipped.
     */
    public EncodedItem edge(TetraGraph graph, String id, String label, Object outPk, String outId, String outLabel,
                            Object inPk, String inId, String inLabel, Map<String, ?> properties) {
        ElementHelper.validateLabel(label);
        w.reset();
        w.startObject();
        w.name(Layout.ID);
        w.string(id);
        w.name(graph.partitionKey());
        partitionKey(outPk);
        w.name(Layout.LABEL);
        w.string(label);
        w.name(Layout.IS_EDGE);
        w.bool(true);
        w.name(Layout.VERTEX_ID);
        w.string(outId);
        w.name(Layout.VERTEX_LABEL);
        w.string(outLabel);
        w.name(Layout.SINK);
        w.string(inId);
        w.name(Layout.SINK_LABEL);
        w.string(inLabel);
        w.name(Layout.SINK_PARTITION);
        partitionKey(inPk);
        for (Map.Entry<String, ?> p : properties.entrySet()) {
            ElementHelper.validateProperty(p.getKey(), p.getValue());
            TetraEdge.checkKey(graph, p.getKey());
            if (p.getValue() != null) {
                w.name(p.getKey());
                value(p.getValue());
            }
        }
        w.endObject();
        return EncodedItem.of(w); // graph-warm: the writer notes a top-level system name, so the core need not look
    }

    /** A partition key value as {@link JsonValues#scalar(Object)} makes it (integral numbers as Int64). */
    private void partitionKey(Object pk) {
        if (pk instanceof String s) {
            w.string(s);
        } else {
            w.value(JsonValues.scalar(pk));
        }
    }

    /** A property value as {@link PropertyValues#toNode} makes it, the common types without a node. */
    private void value(Object v) {
        if (v instanceof String s) {
            w.string(s);
        } else if (v instanceof Integer i) {
            w.int32(i);
        } else if (v instanceof Long l) {
            w.int64(l);
        } else if (v instanceof Double d) {
            w.float64(d);
        } else if (v instanceof Boolean b) {
            w.bool(b);
        } else {
            w.value(PropertyValues.toNode(v)); // refuses what the graph cannot store, as the tree path does
        }
    }
}
