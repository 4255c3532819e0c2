package io.tetradb.graph.load;

import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.star.StarGraph;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A source element's properties as the loader reads them, in TinkerPop's order. Issue 18, graph-load5: a
 * {@link StarGraph} element (what Gryo, GraphSON and GraphBinary readers give) keeps its properties in plain maps,
 * but its public {@code properties()} is a stream ({@code flatMap}/{@code map}) behind an iterator, per element — a
 * fresh JVM's C2 spent ≈ 2 s compiling that adapter during the first loads. These read the maps themselves (a
 * {@link VarHandle} on the protected fields; same entries, same order); any other element, or a TinkerPop whose
 * fields differ, goes through the public API.
 */
final class SourceProperties {
    /** {@code StarGraph.StarVertex.vertexProperties}: key → the vertex's properties of that key; null if absent. */
    private static final VarHandle VERTEX_PROPERTIES =
            field(StarGraph.StarVertex.class, "vertexProperties", Map.class);
    /** {@code StarGraph.edgeProperties}: edge id → key → value; null if absent. */
    private static final VarHandle EDGE_PROPERTIES = field(StarGraph.class, "edgeProperties", Map.class);

    private SourceProperties() {
    }

    private static VarHandle field(Class<?> owner, String name, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another TinkerPop layout or a module that does not open it: the public API then
        }
    }

    /** Adds {@code v}'s vertex properties to {@code into}, as {@code v.properties()} would give them. */
    @SuppressWarnings("unchecked")
    static void ofVertex(Vertex v, List<VertexProperty<?>> into) {
        if (VERTEX_PROPERTIES != null && v instanceof StarGraph.StarVertex star) {
            Map<String, List<VertexProperty<?>>> byKey = (Map<String, List<VertexProperty<?>>>) VERTEX_PROPERTIES.get(star);
            if (byKey != null) {
                for (List<VertexProperty<?>> ofKey : byKey.values()) {
                    into.addAll(ofKey);
                }
            }
            return;
        }
        for (Iterator<VertexProperty<Object>> it = v.properties(); it.hasNext(); ) {
            into.add(it.next());
        }
    }

    /** {@code e}'s properties as key → value, in {@code e.properties()}'s order (a map the caller only reads). */
    @SuppressWarnings("unchecked")
    static Map<String, ?> ofEdge(Edge e) {
        if (EDGE_PROPERTIES != null && e instanceof StarGraph.StarEdge && e.graph() instanceof StarGraph g) {
            Map<Object, Map<String, Object>> all = (Map<Object, Map<String, Object>>) EDGE_PROPERTIES.get(g);
            Map<String, Object> own = all == null ? null : all.get(e.id());
            return own == null ? Map.of() : own;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Property<Object>> it = e.properties(); it.hasNext(); ) {
            Property<Object> p = it.next();
            out.put(p.key(), p.value());
        }
        return out;
    }
}
