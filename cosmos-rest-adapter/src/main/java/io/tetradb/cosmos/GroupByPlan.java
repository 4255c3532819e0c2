package io.tetradb.cosmos;

import io.tetradb.core.query.eval.ExpressionEvaluator;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SelectClause;
import io.tetradb.core.query.sql.SqlQuery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-range form of a cross-partition GROUP BY query, as Cosmos DB's query plan gives it (docs/cosmos-rest.md
 * §4): each range returns one row per group, {@code {"groupByItems": [{"item": key}...], "payload": {alias: value
 * or {"item": partial}}}}, and the SDK merges the groups of all ranges, combining the partial aggregates (the same
 * partial forms as {@link AggregatePlan}).
 */
final class GroupByPlan {
    /** {@code aliasTypes}: every select alias in order, with its aggregate ("Count", ...) or null for a key. */
    /** {@code valueAggregate}: for {@code SELECT VALUE AGG(...) ... GROUP BY}, the plan's aggregate; else null. */
    record Plan(String rewrittenQuery, List<String> expressions, Map<String, String> aliasTypes,
                List<Expr> selectedKeys, String valueAggregate) {
        /** Whether every GROUP BY expression is in the select list (then the groups' rows are distinct already). */
        boolean keysSelected(List<Expr> groupBy) {
            return new java.util.HashSet<>(selectedKeys).containsAll(groupBy);
        }
    }

    private GroupByPlan() {
    }

    /**
     * The plan of {@code q}: GROUP BY (or none: aggregates over everything, {@code SELECT COUNT(1) AS n}), a select
     * list of keys and single aggregates, no ORDER BY/DISTINCT/TOP/OFFSET; null for another query.
     */
    static Plan of(SqlQuery q) {
        if (q.select().projection() instanceof Projection.Value v && !q.groupBy().isEmpty() && q.from() != null
                && q.orderBy().isEmpty() && !q.select().distinct() && q.select().top() == null
                && q.offsetLimit() == null) {
            return ofValue(q, v.expr());
        }
        if (!(q.select().projection() instanceof Projection.Items items) || q.from() == null
                || !q.orderBy().isEmpty() || q.select().distinct() || q.select().top() != null
                || q.offsetLimit() != null) {
            return null;
        }
        Map<String, String> aliasTypes = new LinkedHashMap<>();
        List<Expr.ObjectProperty> payload = new ArrayList<>();
        List<Expr> selectedKeys = new ArrayList<>();
        for (Projection.SelectItem item : items.items()) {
            String alias = item.alias() != null ? item.alias() : item.expr() instanceof Expr.PropertyAccess pa
                    ? pa.name() : null;
            if (alias == null || aliasTypes.containsKey(alias)) {
                return null;
            }
            Expr e = item.expr();
            if (e instanceof Expr.FunctionCall f && !f.udf()
                    && ExpressionEvaluator.hasAggregateCall(e) && f.args().stream()
                    .noneMatch(ExpressionEvaluator::hasAggregateCall)) {
                String name = f.name().toUpperCase(Locale.ROOT);
                Expr partial = AggregatePlan.partial(name, f);
                if (partial == null) {
                    return null;
                }
                aliasTypes.put(alias, AggregatePlan.kind(name));
                payload.add(new Expr.ObjectProperty(alias, new Expr.ObjectLiteral(List.of(
                        new Expr.ObjectProperty("item", partial)))));
            } else if (!ExpressionEvaluator.hasAggregateCall(e) && q.groupBy().contains(e)) { // a key
                aliasTypes.put(alias, null);
                selectedKeys.add(e);
                payload.add(new Expr.ObjectProperty(alias, e));
            } else {
                return null;
            }
        }
        return new Plan(rewritten(q, new Expr.ObjectLiteral(payload)), expressions(q), aliasTypes, selectedKeys, null);
    }

    /**
     * {@code SELECT VALUE key} or {@code SELECT VALUE AGG(...)} with GROUP BY: the payload is the key itself, or
     * {@code [{"item": partial}]} with the plan's one aggregate (azure-cosmos' {@code SelectValueAggregateValues}).
     */
    private static Plan ofValue(SqlQuery q, Expr value) {
        Expr payload;
        String aggregate = null;
        List<Expr> selectedKeys = new ArrayList<>();
        if (value instanceof Expr.FunctionCall f && !f.udf() && ExpressionEvaluator.hasAggregateCall(value)
                && f.args().stream().noneMatch(ExpressionEvaluator::hasAggregateCall)) {
            String name = f.name().toUpperCase(Locale.ROOT);
            Expr partial = AggregatePlan.partial(name, f);
            if (partial == null) {
                return null;
            }
            aggregate = AggregatePlan.kind(name);
            payload = new Expr.ArrayLiteral(List.of(new Expr.ObjectLiteral(List.of(
                    new Expr.ObjectProperty("item", partial)))));
        } else if (!ExpressionEvaluator.hasAggregateCall(value) && q.groupBy().contains(value)) {
            payload = value;
            selectedKeys.add(value);
        } else {
            return null;
        }
        return new Plan(rewritten(q, payload), expressions(q), new LinkedHashMap<>(), selectedKeys, aggregate);
    }

    /** The GROUP BY expressions as the plan names them. */
    private static List<String> expressions(SqlQuery q) {
        List<String> expressions = new ArrayList<>();
        for (Expr g : q.groupBy()) {
            expressions.add(g.toString());
        }
        return expressions;
    }

    /** {@code SELECT [{"item": key}, …] AS groupByItems, <payload> AS payload … GROUP BY …}: what each range runs. */
    private static String rewritten(SqlQuery q, Expr payload) {
        List<Expr> keys = new ArrayList<>();
        for (Expr g : q.groupBy()) {
            keys.add(new Expr.ObjectLiteral(List.of(new Expr.ObjectProperty("item", g))));
        }
        List<Projection.SelectItem> select = List.of(
                new Projection.SelectItem(new Expr.ArrayLiteral(keys), "groupByItems"),
                new Projection.SelectItem(payload, "payload"));
        return new SqlQuery(new SelectClause(false, null, new Projection.Items(select)), q.from(),
                q.where(), q.groupBy(), List.of(), null).toString();
    }
}
