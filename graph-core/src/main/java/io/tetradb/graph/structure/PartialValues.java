package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code values(k1, ..., k4)} of the vertices one hop reached, reading only those fields: vertices with a current
 * snapshot use it; the others are read together ({@code GraphStore.readFields}: an exactly cached item whole, else
 * just the asked fields of the stored binary item, in one core multi-get), without building the whole vertex or
 * taking the partial item as its snapshot. The values are those {@code Vertex.values(keys)} gives, in its order.
 */
public final class PartialValues {
    private PartialValues() {
    }

    /** Per vertex (in order), its values of {@code keys}. */
    public static List<List<Object>> of(List<? extends Vertex> vertices, String[] keys) {
        List<List<Object>> out = new ArrayList<>(vertices.size());
        List<Integer> toRead = new ArrayList<>();
        List<Object> pks = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < vertices.size(); i++) {
            out.add(null);
            if (vertices.get(i) instanceof TetraVertex t && t.needsItem()) {
                toRead.add(i);
                pks.add(t.pk);
                ids.add(t.key);
            }
        }
        if (!toRead.isEmpty()) {
            TetraVertex first = (TetraVertex) vertices.get(toRead.get(0));
            List<ObjectNode> items = first.store().readFields(pks, ids, Arrays.asList(keys));
            for (int j = 0; j < items.size(); j++) {
                ObjectNode item = items.get(j);
                if (item != null) { // a missing vertex: values() below reports it as the full path does
                    out.set(toRead.get(j), values(((TetraVertex) vertices.get(toRead.get(j))).propertiesIn(item, keys)));
                }
            }
        }
        for (int i = 0; i < vertices.size(); i++) {
            if (out.get(i) == null) {
                List<Object> values = new ArrayList<>(keys.length);
                vertices.get(i).values(keys).forEachRemaining(values::add);
                out.set(i, values);
            }
        }
        return out;
    }

    private static List<Object> values(List<VertexProperty<Object>> properties) {
        List<Object> out = new ArrayList<>(properties.size());
        for (VertexProperty<Object> p : properties) {
            out.add(p.value());
        }
        return out;
    }
}
