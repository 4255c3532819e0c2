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
 *
 * <p>A vertex property is a list of entries {@code [{id, _value}]} in Cosmos DB's Gremlin layout, but a plain field
 * in a document another face wrote (Mongo, Cosmos SQL, Tables), which the graph shows as a single property. An item
 * holds a field in one layout or the other, so the containers on vertex properties give two queries: {@link #sql()}
 * for the list layout and {@link #plainSql()} for plain fields (both keep their index seeks; an {@code OR} of the two
 * would not), whose results are disjoint. An item mixing both layouts among the properties one traversal tests (a
 * vertex some of whose properties another face rewrote as plain fields) is found by neither.
 */
public final class HasToSql {
    private final Sql sql;
    private final Sql plainSql;
    private final List<HasContainer> translated = new ArrayList<>();
    private boolean exact = true;
    /** Whether a condition on a vertex property was translated (then the plain-field query is needed). */
    private boolean onVertexProperty;

    public HasToSql(boolean vertices, String partitionKey, Object defaultPartition, List<HasContainer> containers) {
        this.sql = ElementFinder.select(vertices);
        for (HasContainer c : containers) {
            String condition = condition(vertices, partitionKey, defaultPartition, c, sql, false);
            if (condition == null) {
                exact = false;
            } else {
                sql.and(condition);
                translated.add(c);
            }
        }
        if (onVertexProperty) {
            boolean exactLists = exact;
            plainSql = ElementFinder.select(true);
            for (HasContainer c : containers) {
                String condition = condition(true, partitionKey, defaultPartition, c, plainSql, true);
                if (condition != null) {
                    plainSql.and(condition);
                }
            }
            exact = exactLists; // the same containers, the same exactness
        } else {
            plainSql = null;
        }
    }

    /** The query of the list layout (and of everything else: labels, the partition key, edges). */
    public Sql sql() {
        return sql;
    }

    /** The query of vertices whose tested properties are plain fields (another face's documents), or null. */
    public Sql plainSql() {
        return plainSql;
    }

    /** The containers the SQL expresses. */
    public List<HasContainer> translated() {
        return translated;
    }

    /** True if the SQL selects exactly what the containers accept. */
    public boolean exact() {
        return exact;
    }

    private String condition(boolean vertices, String pkName, Object defaultPartition, HasContainer c, Sql sql,
                             boolean plainFields) {
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
            return containsValue(value, defaultLabel) ? null : membership(sql, "c.label", bp, value, true);
        }
        if (key.startsWith("~")) {
            return null;
        }
        if (key.equals(pkName)) {
            // an edge shows no partition key property; a vertex in the default partition hides it
            boolean shown = vertices && !(defaultPartition != null && containsValue(value, defaultPartition));
            String m = membership(sql, "c[" + quote(key) + "]", bp, value, shown);
            if (m == null || !shown) {
                exact = false;
            }
            return m;
        }
        if (key.equals(ElementFinder.ID_FIELD) || key.startsWith("_")) {
            return null;
        }
        boolean entries = vertices && !plainFields;
        String target = entries ? "p._value" : "c[" + quote(key) + "]";
        String cond = membership(sql, target, bp, value, isExactValue(value));
        if (cond == null) {
            cond = range(sql, target, bp, value);
            exact = false;
        }
        if (cond == null) {
            return null;
        }
        onVertexProperty |= vertices;
        return entries ? "EXISTS(SELECT VALUE p FROM p IN c[" + quote(key) + "] WHERE " + cond + ")" : cond;
    }

    private static boolean containsValue(Object predicateValue, Object v) {
        return predicateValue instanceof Collection<?> c ? c.contains(v) : v.equals(predicateValue);
    }

    /** {@code eq} or {@code within}; marks the result inexact unless {@code exactValues}. */
    private String membership(Sql sql, String target, BiPredicate<?, ?> bp, Object value, boolean exactValues) {
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

    private String range(Sql sql, String target, BiPredicate<?, ?> bp, Object value) {
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
