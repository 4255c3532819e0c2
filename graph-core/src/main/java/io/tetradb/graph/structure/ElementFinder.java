package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.GraphStore;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.Sql;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;

import io.tetradb.core.store.GraphAdjacency;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Every way the graph finds elements in the core: by id (point reads when the partition is known, a fan-out
 * query on {@code id} when not), all of a kind, and adjacency (out: one partition; in: the {@code _sink} index).
 */
public final class ElementFinder {
    /** The item field holding an element's id inside its partition. */
    public static final String ID_FIELD = Layout.ID;

    private final TetraGraph graph;

    public ElementFinder(TetraGraph graph) {
        this.graph = graph;
    }

    /** SQL selecting vertices or edges; callers AND their own conditions. */
    public static Sql select(boolean vertices) {
        return new Sql("SELECT * FROM c").and(vertices ? "NOT IS_DEFINED(c._isEdge)" : "c._isEdge = true");
    }

    public Iterator<Vertex> vertices(Object... ids) {
        return IteratorUtils.cast(find(true, ids));
    }

    public Iterator<Edge> edges(Object... ids) {
        return IteratorUtils.cast(find(false, ids));
    }

    private Iterator<Element> find(boolean vertices, Object[] ids) {
        if (ids == null || ids.length == 0) {
            return query(select(vertices), null);
        }
        if (ElementIds.mayBeFlattenedPair(ids)) {
            // g.V(['USA','Seattle']) arrives here as ('USA', 'Seattle'): one [pk, id] if that element exists
            Element one = read(vertices, new ElementIds.Address(ids[0], ids[1].toString()));
            if (one != null) {
                return IteratorUtils.of(one);
            }
        }
        List<Element> out = new ArrayList<>();
        for (Object id : ids) {
            ElementIds.Lookup lookup;
            try {
                lookup = ElementIds.parse(id);
            } catch (IllegalArgumentException e) {
                continue; // an id no element can have finds nothing, as in other graphs
            }
            if (lookup.address() != null) {
                Element e = read(vertices, lookup.address());
                if (e != null) {
                    out.add(e);
                }
            } else {
                Sql sql = select(vertices);
                sql.and("c.id = " + sql.param(lookup.bareId()));
                query(sql, null).forEachRemaining(out::add);
            }
        }
        return out.iterator();
    }

    /** The vertex or edge at an address, or null. */
    public Element read(boolean vertex, ElementIds.Address address) {
        ObjectNode item = graph.store().read(address.pk(), address.id());
        if (item == null || item.has(Layout.IS_EDGE) == vertex) {
            return null;
        }
        return wrap(item);
    }

    /** Runs a query of graph items and wraps each one. */
    public Iterator<Element> query(Sql sql, Object pk) {
        return IteratorUtils.map(graph.store().query(sql, pk), this::wrap);
    }

    public Element wrap(ObjectNode item) {
        Object pk = JsonValues.scalar(item.get(graph.partitionKey()));
        String id = item.get(Layout.ID).asText();
        String label = TetraElement.labelOf(item, !item.has(Layout.IS_EDGE));
        return item.has(Layout.IS_EDGE)
                ? new TetraEdge(graph, pk, id, label, item)
                : new TetraVertex(graph, pk, id, label, item);
    }

    /**
     * A vertex's edges. Each direction is one query with a single condition, which the core answers with one index
     * seek: {@code _vertexId} inside the vertex's partition for out-edges, {@code _sink} for in-edges. The planner
     * counts the index entries of every sargable condition to pick its seek, so adding low-selectivity conditions
     * ({@code _isEdge}, {@code label}, {@code _sinkPartition}) would cost more than testing them here.
     */
    public Iterator<Edge> edges(TetraVertex v, Direction direction, String... labels) {
        GraphAdjacency adjacency = graph.adjacency();
        if (adjacency != null) {
            List<Edge> out = new ArrayList<>();
            visit(adjacency, v, direction, labels, e -> out.add(edge(v, e)));
            return out.iterator();
        }
        Set<String> wanted = labels.length == 0 ? null : new HashSet<>(Arrays.asList(labels));
        List<Iterator<Element>> parts = new ArrayList<>(2);
        if (direction != Direction.IN) {
            Sql out = new Sql("SELECT * FROM c");
            out.and("c._vertexId = " + out.param(v.key));
            parts.add(edgesOnly(graph.store().query(out, v.pk), wanted, null));
        }
        if (direction != Direction.OUT) {
            Sql in = new Sql("SELECT * FROM c");
            in.and("c._sink = " + in.param(v.key));
            parts.add(edgesOnly(graph.store().query(in, null), wanted, v.pk));
        }
        return IteratorUtils.cast(parts.size() == 1 ? parts.get(0) : IteratorUtils.concat(parts.get(0), parts.get(1)));
    }

    private Iterator<Element> edgesOnly(Iterator<ObjectNode> items, Set<String> labels, Object sinkPartition) {
        return IteratorUtils.map(IteratorUtils.filter(items, item -> item.has(Layout.IS_EDGE)
                && (labels == null || labels.contains(item.path(Layout.LABEL).asText()))
                && (sinkPartition == null || sinkPartition.equals(JsonValues.scalar(item.get(Layout.SINK_PARTITION))))),
                this::wrap);
    }

    /** The other ends of a vertex's edges, without reading them (an edge knows their id, partition and label). */
    public Iterator<Vertex> adjacent(TetraVertex v, Direction direction, String... labels) {
        GraphAdjacency adjacency = graph.adjacency();
        if (adjacency != null) {
            List<Vertex> out = new ArrayList<>();
            visit(adjacency, v, direction, labels, e -> out.add(other(e)));
            return out.iterator();
        }
        List<Iterator<Vertex>> parts = new ArrayList<>(2);
        if (direction != Direction.IN) {
            parts.add(IteratorUtils.map(edges(v, Direction.OUT, labels), Edge::inVertex));
        }
        if (direction != Direction.OUT) {
            parts.add(IteratorUtils.map(edges(v, Direction.IN, labels), Edge::outVertex));
        }
        return parts.size() == 1 ? parts.get(0) : IteratorUtils.concat(parts.get(0), parts.get(1));
    }


    // ---- adjacency entries ----------------------------------------------------------------------------------------

    /**
     * Visits a vertex's adjacency entries: out-entries first, then in-entries (a self-loop is seen once each way, as
     * in TinkerGraph); one key-range scan per direction and label, no edge item read.
     */
    void visit(GraphAdjacency adjacency, TetraVertex v, Direction direction, String[] labels,
               Consumer<GraphStore.Hop> visitor) {
        for (byte dir : direction == Direction.OUT ? OUT_ONLY : direction == Direction.IN ? IN_ONLY : BOTH) {
            if (labels.length == 0) {
                graph.store().adjacency(adjacency, v.pk, v.key, dir, null).forEach(visitor);
            } else {
                for (int i = 0; i < labels.length; i++) {
                    if (labels[i] == null || Arrays.asList(labels).subList(0, i).contains(labels[i])) {
                        continue;
                    }
                    graph.store().adjacency(adjacency, v.pk, v.key, dir, labels[i]).forEach(visitor);
                }
            }
        }
    }

    /** How many edges a vertex has in a direction with these labels (any label if none), from entry keys only. */
    public long countEdges(TetraVertex v, Direction direction, String... labels) {
        GraphAdjacency adjacency = graph.adjacency();
        if (adjacency == null) {
            return IteratorUtils.count(edges(v, direction, labels));
        }
        long n = 0;
        for (byte dir : direction == Direction.OUT ? OUT_ONLY : direction == Direction.IN ? IN_ONLY : BOTH) {
            if (labels.length == 0) {
                n += graph.store().countAdjacent(adjacency, v.pk, v.key, dir, null);
            } else {
                for (int i = 0; i < labels.length; i++) {
                    if (labels[i] != null && !Arrays.asList(labels).subList(0, i).contains(labels[i])) {
                        n += graph.store().countAdjacent(adjacency, v.pk, v.key, dir, labels[i]);
                    }
                }
            }
        }
        return n;
    }

    private static final byte[] OUT_ONLY = {GraphAdjacency.OUT};
    private static final byte[] IN_ONLY = {GraphAdjacency.IN};
    private static final byte[] BOTH = {GraphAdjacency.OUT, GraphAdjacency.IN};

    /** The vertex at the other end of an entry, made without reading it. */
    TetraVertex other(GraphStore.Hop e) {
        return new TetraVertex(graph, e.otherPk(), e.otherId(), e.otherLabel().isEmpty() ? null : e.otherLabel(), null);
    }

    /** The edge of an entry of {@code v}, made without reading it. */
    TetraEdge edge(TetraVertex v, GraphStore.Hop e) {
        TetraVertex other = other(e);
        return e.direction() == GraphAdjacency.OUT
                ? new TetraEdge(graph, e.edgeId(), e.label(), v, other, e)
                : new TetraEdge(graph, e.edgeId(), e.label(), other, v, e);
    }
}
