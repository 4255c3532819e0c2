package io.tetradb.graph.structure;

import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code values(k1, ..., k4)} of the vertices one hop reached, reading only those fields: vertices with a current
 * snapshot use it; the others are read together ({@code GraphStore.readValues}: an exactly cached item whole, with
 * the values it gave for the same keys last time, else the stored item in one core multi-get), without building the
 * whole vertex or taking the item read as its snapshot. The values are those {@code Vertex.values(keys)} gives, in its
 * order; a list handed out may be shared (kept with the cached item): callers only read it.
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
            List<List<Object>> read = first.store().readValues(pks, ids, keys,
                    (j, item) -> values(((TetraVertex) vertices.get(toRead.get(j))).propertiesIn(item, keys)));
            for (int j = 0; j < read.size(); j++) {
                if (read.get(j) != null) { // a missing vertex: values() below reports it as the full path does
                    out.set(toRead.get(j), read.get(j));
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
