package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.query.eval.ExpressionEvaluator;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.FromCollection;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SqlQuery;

import java.util.Map;

/**
 * Which queries the SDKs can run over several partition key ranges with this server's pass-through plan. The SDK
 * sends the query as written to every range and concatenates the pages, which is exact for a filter/projection/JOIN
 * and for {@code TOP n} once the plan names n (each range answers at most n, the SDK keeps n). ORDER BY gets the
 * plan's rewritten per-range query ({@link OrderByPlan}) that the SDK merges, and so does {@code SELECT VALUE} of
 * one aggregate ({@link AggregatePlan}). GROUP BY, other aggregates, DISTINCT and OFFSET/LIMIT would need more
 * rewritten partial results and the SDK's merge (docs/cosmos-rest.md §4), which this server does not produce: such a
 * query is refused (400, naming the ways out) rather than answered wrong. With a partition key, or with one range,
 * every query runs whole.
 */
final class CrossRangeQueries {
    private CrossRangeQueries() {
    }

    /** What the plan tells the SDK: {@code TOP n}'s n (or null), the ORDER BY form (or null). */
    record Merge(Integer top, OrderByPlan.Plan orderBy, AggregatePlan.Plan aggregate) {
        static final Merge WHOLE = new Merge(null, null, null);

        String rewrittenQuery() {
            return orderBy != null ? orderBy.rewrittenQuery() : aggregate != null ? aggregate.rewrittenQuery() : "";
        }
    }

    /** How the SDK merges {@code q} over several ranges; 400 for a query it cannot merge with this server's plan. */
    static Merge plan(SqlQuery q, Map<String, JsonNode> params, int ranges) {
        String needs = null;
        OrderByPlan.Plan orderBy = null;
        AggregatePlan.Plan aggregate = AggregatePlan.of(q);
        if (aggregate != null) {
            return new Merge(null, null, aggregate);
        }
        if (!q.groupBy().isEmpty()) {
            needs = "GROUP BY";
        } else if (hasAggregate(q.select().projection())) {
            needs = "an aggregate";
        } else if (q.select().distinct()) {
            needs = "DISTINCT";
        } else if (q.offsetLimit() != null) {
            needs = "OFFSET/LIMIT";
        } else if (q.from() == null || q.from().source().collection() instanceof FromCollection.Subquery) {
            needs = "a query without a container source";
        } else if (!q.orderBy().isEmpty()) {
            orderBy = OrderByPlan.of(q);
            if (orderBy == null) {
                needs = "ORDER BY over JOINs with SELECT *";
            }
        }
        if (needs != null) {
            throw CosmosError.badRequest("The cross partition query with " + needs + " cannot be served over the "
                    + ranges + " partition key ranges of this container: this server does not produce the "
                    + "rewritten per-range plan the SDK needs to merge it. Set a partition key on the query, or run "
                    + "the server with one partition key range (the default, without physical partition ranges).");
        }
        Expr top = q.select().top();
        if (top == null) {
            return new Merge(null, orderBy, null);
        }
        JsonNode n = top instanceof Expr.Parameter p ? parameter(params, p.name())
                : top instanceof Expr.NumberLiteral l && l.exact() != null
                ? com.fasterxml.jackson.databind.node.LongNode.valueOf(l.exact()) : null;
        if (n == null || !n.canConvertToInt() || n.asInt() < 0) {
            throw CosmosError.badRequest("TOP must be a non-negative integer.");
        }
        return new Merge(n.asInt(), orderBy, null);
    }

    private static JsonNode parameter(Map<String, JsonNode> params, String name) {
        JsonNode v = params.get(name);
        return v != null ? v : params.get("@" + name);
    }

    private static boolean hasAggregate(Projection p) {
        if (p instanceof Projection.Value v) {
            return ExpressionEvaluator.hasAggregateCall(v.expr());
        }
        if (p instanceof Projection.Items items) {
            return items.items().stream().anyMatch(i -> ExpressionEvaluator.hasAggregateCall(i.expr()));
        }
        return false;
    }
}
