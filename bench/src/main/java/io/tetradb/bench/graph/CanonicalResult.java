package io.tetradb.bench.graph;

import org.apache.tinkerpop.gremlin.process.traversal.Path;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A traversal result in a form that does not depend on element ids, so that TetraGraph's ({@code [pk, id]}) and
 * TinkerGraph's (numbers) results compare: a vertex by its {@code code} property, an edge by its ends' codes and
 * label, numbers with their Java type (an Integer where TinkerGraph has one must not come back as a Long).
 */
final class CanonicalResult {
    private CanonicalResult() {
    }

    /** The canonical form of every result, sorted unless the traversal's order is defined. */
    static List<String> of(List<?> results, boolean ordered) {
        List<String> out = new ArrayList<>(results.size());
        for (Object r : results) {
            out.add(form(r));
        }
        if (!ordered) {
            out.sort(null);
        }
        return out;
    }

    static String form(Object o) {
        if (o == null) {
            return "null";
        } else if (o instanceof Vertex v) {
            return "v[" + code(v) + "]";
        } else if (o instanceof Edge e) {
            return "e[" + code(e.outVertex()) + "-" + e.label() + "->" + code(e.inVertex()) + "]";
        } else if (o instanceof Property<?> p) {
            return "p[" + p.key() + "=" + form(p.value()) + "]";
        } else if (o instanceof Path p) {
            return form(p.objects());
        } else if (o instanceof Map<?, ?> m) {
            Map<String, String> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(form(k), form(v)));
            return sorted.toString();
        } else if (o instanceof List<?> l) {
            List<String> parts = new ArrayList<>(l.size());
            l.forEach(x -> parts.add(form(x)));
            return parts.toString();
        } else if (o instanceof Collection<?> c) {
            List<String> parts = new ArrayList<>(c.size());
            c.forEach(x -> parts.add(form(x)));
            parts.sort(null);
            return parts.toString();
        } else if (o instanceof Number n) {
            return n + ":" + n.getClass().getSimpleName();
        }
        return o.toString();
    }

    private static String code(Element e) {
        Iterator<? extends Property<Object>> p = e.properties("code");
        return p.hasNext() ? String.valueOf(p.next().value()) : e.label();
    }
}
