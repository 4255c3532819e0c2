package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.query.eval.ExpressionEvaluator;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.FromCollection;
import io.tetradb.core.query.sql.OffsetLimit;
import io.tetradb.core.query.sql.SqlQuery;

import java.util.Map;

/**
 * Which queries the SDKs can run over several partition key ranges with this server's pass-through plan. The SDK
 * sends the query as written to every range and concatenates the pages, which is exact for a filter/projection/JOIN
 * and for {@code TOP n} once the plan names n (each range answers at most n, the SDK keeps n). ORDER BY gets the
 * plan's rewritten per-range query ({@link OrderByPlan}) that the SDK merges, and so does {@code SELECT VALUE} of
 * one aggregate ({@link AggregatePlan}); DISTINCT is de-duplicated by the SDK over the ranges' distinct rows;
 * OFFSET/LIMIT runs as {@code OFFSET 0 LIMIT offset+limit} per range and the SDK skips and takes; GROUP BY of keys
 * and single aggregates returns per-range groups ({@link GroupByPlan}) that the SDK merges. Other aggregate shapes,
 * GROUP BY with ORDER BY/DISTINCT/TOP/OFFSET and DISTINCT with ORDER BY would need more rewritten partial results
 * (docs/cosmos-rest.md §4), which this server does not produce: such a query is refused (400, naming the ways out)
 * rather than answered wrong. With a partition key every query runs whole; over one range the merge forms are used
 * all the same (a split may come under the query), and a shape without one runs whole while the range is alone.
 */
final class CrossRangeQueries {
    private CrossRangeQueries() {
    }

    /**
     * What the plan tells the SDK: {@code TOP n}'s n, the ORDER BY or aggregate form, DISTINCT, OFFSET/LIMIT (each
     * null when absent), and the query each range runs ("" for the query as written).
     */
    record Merge(Integer top, OrderByPlan.Plan orderBy, AggregatePlan.Plan aggregate, GroupByPlan.Plan groupBy,
                 boolean distinct, Integer offset, Integer limit, String rewrittenQuery) {
        static final Merge WHOLE = new Merge(null, null, null, null, false, null, null, "");
    }

    /** How the SDK merges {@code q} over several ranges; 400 for a query it cannot merge with this server's plan. */
    static Merge plan(SqlQuery q, Map<String, JsonNode> params, int ranges) {
        AggregatePlan.Plan aggregate = AggregatePlan.of(q);
        if (aggregate != null) {
            return new Merge(null, null, aggregate, null, false, null, null, aggregate.rewrittenQuery());
        }
        GroupByPlan.Plan groupBy = GroupByPlan.of(q);
        if (groupBy != null) {
            return new Merge(null, null, null, groupBy, false, null, null, groupBy.rewrittenQuery());
        }
        String needs = null;
        if (!q.groupBy().isEmpty()) {
            needs = "GROUP BY other than of keys and single aggregates (or with ORDER BY, DISTINCT, TOP, OFFSET)";
        } else if (ExpressionEvaluator.hasAggregateCall(q.select().projection())) {
            needs = "an aggregate other than SELECT VALUE of one";
        } else if (q.select().distinct() && (!q.orderBy().isEmpty() || q.offsetLimit() != null)) {
            needs = "DISTINCT with ORDER BY or OFFSET/LIMIT";
        } else if (q.from() == null || q.from().source().collection() instanceof FromCollection.Subquery) {
            needs = "a query without a container source";
        }
        Integer offset = null;
        Integer limit = null;
        OffsetLimit perRange = null;
        if (needs == null && q.offsetLimit() != null) { // each range returns its first offset + limit
            offset = integer(q.offsetLimit().offset(), params, "OFFSET");
            limit = integer(q.offsetLimit().limit(), params, "LIMIT");
            perRange = new OffsetLimit(number(0), number((long) offset + limit));
        }
        OrderByPlan.Plan orderBy = null;
        if (needs == null && !q.orderBy().isEmpty()) {
            orderBy = OrderByPlan.of(q, perRange);
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
        Integer top = q.select().top() == null ? null : integer(q.select().top(), params, "TOP");
        String rewritten = orderBy != null ? orderBy.rewrittenQuery() : perRange != null
                ? new SqlQuery(q.select(), q.from(), q.where(), q.groupBy(), q.orderBy(), perRange).toString() : "";
        return new Merge(top, orderBy, null, null, q.select().distinct(), offset, limit, rewritten);
    }

    private static Expr number(long n) {
        return new Expr.NumberLiteral(n, n);
    }

    private static int integer(Expr e, Map<String, JsonNode> params, String what) {
        JsonNode n = e instanceof Expr.Parameter p ? parameter(params, p.name())
                : e instanceof Expr.NumberLiteral l && l.exact() != null
                ? com.fasterxml.jackson.databind.node.LongNode.valueOf(l.exact()) : null;
        if (n == null || !n.canConvertToInt() || n.asInt() < 0) {
            throw CosmosError.badRequest(what + " must be a non-negative integer.");
        }
        return n.asInt();
    }

    private static JsonNode parameter(Map<String, JsonNode> params, String name) {
        JsonNode v = params.get(name);
        return v != null ? v : params.get("@" + name);
    }

}
