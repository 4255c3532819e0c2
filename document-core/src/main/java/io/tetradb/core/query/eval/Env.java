package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.query.functions.FunctionContext;

import java.util.List;

/**
 * The bindings one row of a query sees: FROM/JOIN aliases to their values, chained to the enclosing row for correlated
 * subqueries. Immutable; {@link #bind} returns a new environment. {@code group} is set while evaluating the projection
 * of an aggregate query: the rows of the current group, over which aggregate calls (COUNT, SUM, ...) are computed.
 */
public final class Env {
    private static final Env EMPTY = new Env(null, null, null, null, null);

    private final Env parent;
    private final String name;
    private final JsonNode value;
    private final FunctionContext functionContext;
    private final List<Env> group;
    private final java.util.Map<io.tetradb.core.query.sql.Expr.FunctionCall, JsonNode> aggregates;

    private Env(Env parent, String name, JsonNode value, FunctionContext functionContext, List<Env> group) {
        this(parent, name, value, functionContext, group, null);
    }

    private Env(Env parent, String name, JsonNode value, FunctionContext functionContext, List<Env> group,
                java.util.Map<io.tetradb.core.query.sql.Expr.FunctionCall, JsonNode> aggregates) {
        this.parent = parent;
        this.name = name;
        this.value = value;
        this.functionContext = functionContext;
        this.group = group;
        this.aggregates = aggregates;
    }

    /** No bindings. */
    public static Env empty() {
        return EMPTY;
    }

    /** This environment with {@code alias} bound to {@code v} (hiding an outer binding of the same name). */
    public Env bind(String alias, JsonNode v) {
        return new Env(this, alias, v, functionContext, null);
    }

    /** This environment evaluating functions with {@code ctx} (per item, for {@code DocumentId}). */
    public Env withFunctionContext(FunctionContext ctx) {
        return new Env(this, null, null, ctx, null);
    }

    /** This environment as the representative row of an aggregate group. */
    Env withGroup(List<Env> rows) {
        return new Env(this, null, null, functionContext, rows);
    }

    /** This environment as a group's representative row whose aggregate calls are already folded. */
    Env withAggregates(java.util.Map<io.tetradb.core.query.sql.Expr.FunctionCall, JsonNode> values) {
        return new Env(this, null, null, functionContext, null, values);
    }

    /** The folded value of an aggregate call, or null when this row carries none. */
    JsonNode aggregate(io.tetradb.core.query.sql.Expr.FunctionCall call) {
        return aggregates == null ? null : aggregates.get(call);
    }

    /** The value bound to {@code alias}, or null when it is not bound. */
    public JsonNode lookup(String alias) {
        for (Env e = this; e != null; e = e.parent) {
            if (e.name != null && e.name.equals(alias)) {
                return e.value;
            }
        }
        return null;
    }

    /** The function context of this row, or null for the query's own. */
    FunctionContext functionContext() {
        return functionContext;
    }

    /** The rows of the aggregate group being projected, or null outside an aggregate projection. */
    List<Env> group() {
        return group;
    }
}
