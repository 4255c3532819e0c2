package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.Sql;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

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
        String label = item.path(Layout.LABEL).asText(null);
        return item.has(Layout.IS_EDGE)
                ? new TetraEdge(graph, pk, id, label, item)
                : new TetraVertex(graph, pk, id, label, item);
    }

    public Iterator<Edge> edges(TetraVertex v, Direction direction, String... labels) {
        List<Iterator<Element>> parts = new ArrayList<>(2);
        if (direction != Direction.IN) {
            Sql out = select(false);
            out.and("c._vertexId = " + out.param(v.key));
            parts.add(query(withLabels(out, labels), v.pk));
        }
        if (direction != Direction.OUT) {
            Sql in = new Sql("SELECT * FROM c");
            in.and("c._sink = " + in.param(v.key)).and("c._sinkPartition = " + in.param(v.pk));
            parts.add(query(withLabels(in, labels), null));
        }
        return IteratorUtils.cast(parts.size() == 1 ? parts.get(0) : IteratorUtils.concat(parts.get(0), parts.get(1)));
    }

    /** The other ends of a vertex's edges, without reading them (an edge knows their id, partition and label). */
    public Iterator<Vertex> adjacent(TetraVertex v, Direction direction, String... labels) {
        List<Iterator<Vertex>> parts = new ArrayList<>(2);
        if (direction != Direction.IN) {
            parts.add(IteratorUtils.map(edges(v, Direction.OUT, labels), Edge::inVertex));
        }
        if (direction != Direction.OUT) {
            parts.add(IteratorUtils.map(edges(v, Direction.IN, labels), Edge::outVertex));
        }
        return parts.size() == 1 ? parts.get(0) : IteratorUtils.concat(parts.get(0), parts.get(1));
    }

    private static Sql withLabels(Sql sql, String... labels) {
        if (labels.length == 1) {
            sql.and("c.label = " + sql.param(labels[0]));
        } else if (labels.length > 1) {
            List<String> names = new ArrayList<>();
            for (String l : labels) {
                names.add(sql.param(l));
            }
            sql.and("c.label IN (" + String.join(", ", names) + ")");
        }
        return sql;
    }
}
