package io.tetradb.graph.process.traversal.query;

import io.tetradb.graph.store.Sql;
import io.tetradb.graph.structure.ElementFinder;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.structure.T;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Turns the {@link HasContainer}s folded into a graph step into a Cosmos SQL query, so the core routes it to the
 * partitions a partition-key predicate allows and seeks an index for the rest.
 *
 * <p>The SQL is a <em>pre-filter</em>: every element the containers accept must pass it (the step tests the
 * containers again on what comes back, so TinkerPop's semantics stay exact). A container is translated only when
 * that holds: {@code eq} and {@code within} on the label, the partition key or a property, and {@code lt/lte/gt/gte}
 * on a property, with strings, booleans and finite primitive numbers; the rest is left to the in-memory test.
 * {@link #exact()} says whether the SQL alone decides (strings and booleans only), which is when {@code count()}
 * may be answered by the core.
 */
public final class HasToSql {
    private final Sql sql;
    private final List<HasContainer> translated = new ArrayList<>();
    private boolean exact = true;

    public HasToSql(boolean vertices, String partitionKey, Object defaultPartition, List<HasContainer> containers) {
        this.sql = ElementFinder.select(vertices);
        for (HasContainer c : containers) {
            String condition = condition(vertices, partitionKey, defaultPartition, c);
            if (condition == null) {
                exact = false;
            } else {
                sql.and(condition);
                translated.add(c);
            }
        }
    }

    public Sql sql() {
        return sql;
    }

    /** The containers the SQL expresses. */
    public List<HasContainer> translated() {
        return translated;
    }

    /** True if the SQL selects exactly what the containers accept. */
    public boolean exact() {
        return exact;
    }

    private String condition(boolean vertices, String pkName, Object defaultPartition, HasContainer c) {
        String key = c.getKey();
        BiPredicate<?, ?> bp = c.getBiPredicate();
        Object value = c.getValue();
        if (key == null || key.equals(T.id.getAccessor())) {
            return null;
        }
        if (key.equals(T.label.getAccessor())) {
            // an item without a label (another face's document) is a vertex (an edge) of the default label: a
            // query for that label cannot ask c.label
            String defaultLabel = vertices ? org.apache.tinkerpop.gremlin.structure.Vertex.DEFAULT_LABEL
                    : org.apache.tinkerpop.gremlin.structure.Edge.DEFAULT_LABEL;
            return containsValue(value, defaultLabel) ? null : membership("c.label", bp, value, true);
        }
        if (key.startsWith("~")) {
            return null;
        }
        if (key.equals(pkName)) {
            // an edge shows no partition key property; a vertex in the default partition hides it
            boolean shown = vertices && !(defaultPartition != null && containsValue(value, defaultPartition));
            String m = membership("c[" + quote(key) + "]", bp, value, shown);
            if (m == null || !shown) {
                exact = false;
            }
            return m;
        }
        if (key.equals(ElementFinder.ID_FIELD) || key.startsWith("_")) {
            return null;
        }
        String target = vertices ? "p._value" : "c[" + quote(key) + "]";
        String cond = membership(target, bp, value, isExactValue(value));
        if (cond == null) {
            cond = range(target, bp, value);
            exact = false;
        }
        if (cond == null) {
            return null;
        }
        return vertices ? "EXISTS(SELECT VALUE p FROM p IN c[" + quote(key) + "] WHERE " + cond + ")" : cond;
    }

    private static boolean containsValue(Object predicateValue, Object v) {
        return predicateValue instanceof Collection<?> c ? c.contains(v) : v.equals(predicateValue);
    }

    /** {@code eq} or {@code within}; marks the result inexact unless {@code exactValues}. */
    private String membership(String target, BiPredicate<?, ?> bp, Object value, boolean exactValues) {
        if (bp == Compare.eq && foldable(value)) {
            if (!exactValues) {
                exact = false;
            }
            return target + " = " + sql.param(value);
        }
        if (bp == Contains.within && value instanceof Collection<?> values && !values.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (Object v : values) {
                if (!foldable(v)) {
                    return null;
                }
                if (!isExactValue(v)) {
                    exact = false;
                }
                names.add(sql.param(v));
            }
            if (!exactValues) {
                exact = false;
            }
            return target + " IN (" + String.join(", ", names) + ")";
        }
        return null;
    }

    private String range(String target, BiPredicate<?, ?> bp, Object value) {
        if (!foldable(value) || value instanceof Boolean) {
            return null;
        }
        String op = bp == Compare.lt ? "<" : bp == Compare.lte ? "<=" : bp == Compare.gt ? ">" : bp == Compare.gte
                ? ">=" : null;
        return op == null ? null : target + " " + op + " " + sql.param(value);
    }

    /** Values whose SQL comparison never rejects an element TinkerPop accepts. */
    private static boolean foldable(Object v) {
        if (v instanceof String || v instanceof Boolean) {
            return true;
        }
        if (v instanceof Double d) {
            return Double.isFinite(d);
        }
        if (v instanceof Float f) {
            return Float.isFinite(f);
        }
        return v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte;
    }

    /** Strings and booleans compare in SQL exactly as in Gremlin; numbers may also match other stored types. */
    private static boolean isExactValue(Object v) {
        return v instanceof String || v instanceof Boolean;
    }

    static String quote(String key) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : key.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                b.append('\\').append(ch);
            } else if (ch < 0x20) {
                b.append(String.format("\\u%04x", (int) ch));
            } else {
                b.append(ch);
            }
        }
        return b.append('"').toString();
    }

}
