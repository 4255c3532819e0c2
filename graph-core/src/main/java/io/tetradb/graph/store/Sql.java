package io.tetradb.graph.store;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Cosmos SQL query text and its named parameters ({@code @p0}, {@code @p1}, ...), built up clause by clause. */
public final class Sql {
    private final StringBuilder where = new StringBuilder();
    private final Map<String, Object> parameters = new LinkedHashMap<>();
    private final String select;
    /** What follows the WHERE clause ({@code GROUP BY ...}), or "". */
    private String tail = "";

    public Sql(String select) {
        this.select = select;
    }

    /** Binds a value and returns its parameter name. */
    public String param(Object value) {
        String name = "@p" + parameters.size();
        parameters.put(name, value);
        return name;
    }

    /** ANDs a condition to the WHERE clause. */
    public Sql and(String condition) {
        if (!where.isEmpty()) {
            where.append(" AND ");
        }
        where.append(condition);
        return this;
    }

    /** The same conditions and parameters under another SELECT (e.g. a COUNT). */
    public Sql withSelect(String otherSelect) {
        Sql copy = new Sql(otherSelect);
        copy.where.append(where);
        copy.parameters.putAll(parameters);
        return copy;
    }

    /** The same query with a clause after the WHERE clause (e.g. {@code GROUP BY c.label}). */
    public Sql withTail(String clause) {
        Sql copy = withSelect(select);
        copy.tail = " " + clause;
        return copy;
    }

    public String text() {
        return (where.isEmpty() ? select : select + " WHERE " + where) + tail;
    }

    public Map<String, Object> parameters() {
        return parameters;
    }

    @Override
    public String toString() {
        return text() + (parameters.isEmpty() ? "" : " " + parameters);
    }
}
