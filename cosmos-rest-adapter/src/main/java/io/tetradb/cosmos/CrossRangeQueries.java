package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.query.eval.ExpressionEvaluator;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.FromClause;
import io.tetradb.core.query.sql.FromCollection;
import io.tetradb.core.query.sql.OffsetLimit;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SelectClause;
import io.tetradb.core.query.sql.SqlQuery;

import java.util.Map;

/**
 * How the SDKs merge a query over several partition key ranges, in the forms of Cosmos DB's query plan
 * (docs/cosmos-rest.md §4; azure-cosmos' {@code PipelinedDocumentQueryExecutionContext}: the ranges' rows, then
 * aggregate, DISTINCT, GROUP BY, OFFSET, LIMIT, TOP on the client). The SDK sends the query as written to every
 * range and concatenates the pages, which is exact for a filter/projection/JOIN and for {@code TOP n} once the plan
 * names n. ORDER BY gets the plan's rewritten per-range query ({@link OrderByPlan}) that the SDK merges, and so does
 * {@code SELECT VALUE} of one aggregate ({@link AggregatePlan}); DISTINCT is de-duplicated by the SDK over the ranges'
 * rows (with ORDER BY too: the per-range rows carry {@code _rid}, so only the SDK de-duplicates them); OFFSET/LIMIT
 * runs as {@code OFFSET 0 LIMIT offset+limit} per range and the SDK skips and takes; GROUP BY returns per-range
 * groups ({@link GroupByPlan}) that the SDK merges, then applies TOP/OFFSET/LIMIT. A query without FROM yields the
 * same rows whatever the range, so its plan names one point of the key space (the SDK asks the first range only).
 * A subquery source whose rows are per-item (no aggregate, ORDER BY, DISTINCT, TOP, OFFSET) is split by ranges as
 * its container is. What the SDK itself cannot merge is refused with Cosmos DB's own error: aggregates composed with
 * other expressions, ORDER BY with GROUP BY (or aggregates), {@code SELECT *} over several input sets.
 */
final class CrossRangeQueries {
    /** Cosmos DB's query plan refusal of {@code SELECT VALUE COUNT(1) + 1} and the like. */
    static final String COMPOSED_AGGREGATES = "Compositions of aggregates and other expressions are not allowed.";
    /** Cosmos DB's refusal of ORDER BY with GROUP BY. */
    static final String ORDER_BY_WITH_GROUP_BY = "'ORDER BY' is not supported in presence of GROUP BY.";
    /** Cosmos DB's refusal of {@code SELECT *} over JOINs (the core gives the same answer over one range). */
    static final String STAR_OVER_JOINS = "'SELECT *' is only valid with a single input set.";

    private CrossRangeQueries() {
    }

    /**
     * What the plan tells the SDK: {@code TOP n}'s n, the ORDER BY or aggregate form, DISTINCT, OFFSET/LIMIT (each
     * null when absent), the query each range runs ("" for the query as written), and whether one point of the key
     * space (the first range) answers it all.
     */
    record Merge(Integer top, OrderByPlan.Plan orderBy, AggregatePlan.Plan aggregate, GroupByPlan.Plan groupBy,
                 boolean distinct, Integer offset, Integer limit, String rewrittenQuery, boolean firstRangeOnly,
                 String distinctCountAlias) {
        static final Merge WHOLE = new Merge(null, null, null, null, false, null, null, "", false, null);
    }

    /** How the SDK merges {@code q} over several ranges; 400 for a query it cannot merge. */
    static Merge plan(SqlQuery q, Map<String, JsonNode> params, int ranges) {
        if (q.from() == null) { // the same rows from every range: the first one answers
            return new Merge(null, null, null, null, false, null, null, "", true, null);
        }
        Merge distinctCount = distinctCount(q);
        if (distinctCount != null) {
            return distinctCount;
        }
        if (!perItem(q.from())) {
            throw refused(q, ranges, "a subquery source that aggregates, sorts, de-duplicates or pages");
        }
        Integer top = q.select().top() == null ? null : integer(q.select().top(), params, "TOP");
        Integer offset = null;
        Integer limit = null;
        if (q.offsetLimit() != null) {
            offset = integer(q.offsetLimit().offset(), params, "OFFSET");
            limit = integer(q.offsetLimit().limit(), params, "LIMIT");
        }
        if (!q.groupBy().isEmpty() || ExpressionEvaluator.hasAggregateCall(q.select().projection())) {
            return aggregated(q, ranges, top, offset, limit);
        }
        if (!q.from().joins().isEmpty() && q.select().projection() instanceof Projection.Star) {
            throw CosmosError.badRequest(STAR_OVER_JOINS);
        }
        boolean distinct = q.select().distinct();
        if (distinct && top != null && offset == null) {
            // azure-cosmos' TOP over de-duplicated pages stops early (its page size is n before DISTINCT drops
            // rows): TOP n of distinct rows is OFFSET 0 LIMIT n, which it takes until n rows are out
            offset = 0;
            limit = top;
            top = null;
        }
        // per range: its first offset + limit rows; with ORDER BY and DISTINCT the per-range rows are not
        // de-duplicated (they carry _rid), so each range must give all of its rows and the SDK keeps what it needs
        OffsetLimit perRange = offset == null || distinct && !q.orderBy().isEmpty() ? null
                : new OffsetLimit(number(0), number((long) offset + limit));
        if (!q.orderBy().isEmpty()) {
            SqlQuery sorted = distinct ? new SqlQuery(new SelectClause(false, null, q.select().projection()),
                    q.from(), q.where(), q.groupBy(), q.orderBy(), null) : q;
            OrderByPlan.Plan orderBy = OrderByPlan.of(sorted, perRange);
            if (orderBy == null) {
                throw refused(q, ranges, "ORDER BY over a source without a name or over a subquery whose rows are "
                        + "neither whole items nor objects of one container item");
            }
            return new Merge(top, orderBy, null, null, distinct, offset, limit, orderBy.rewrittenQuery(), false, null);
        }
        String rewritten = perRange != null
                ? new SqlQuery(q.select(), q.from(), q.where(), q.groupBy(), q.orderBy(), perRange).toString() : "";
        return new Merge(top, null, null, null, distinct, offset, limit, rewritten, false, null);
    }

    /**
     * {@code SELECT VALUE COUNT(1) FROM (SELECT DISTINCT ... FROM c ...)} (or {@code SELECT COUNT(1) AS n ...}):
     * Cosmos DB's {@code dCountInfo} form. Each range runs the inner DISTINCT query, the SDK de-duplicates the rows
     * of all ranges and counts them; null for another query.
     */
    private static Merge distinctCount(SqlQuery q) {
        if (!(q.from().source().collection() instanceof FromCollection.Subquery sub) || !q.from().joins().isEmpty()
                || q.where() != null || !q.groupBy().isEmpty() || !q.orderBy().isEmpty() || q.offsetLimit() != null
                || q.select().top() != null || q.select().distinct()) {
            return null;
        }
        Expr count;
        String alias;
        if (q.select().projection() instanceof Projection.Value v) {
            count = v.expr();
            alias = "";
        } else if (q.select().projection() instanceof Projection.Items items && items.items().size() == 1) {
            count = items.items().get(0).expr();
            alias = items.items().get(0).alias() == null ? "" : items.items().get(0).alias();
        } else {
            return null;
        }
        SqlQuery inner = sub.query();
        boolean countsRows = count instanceof Expr.FunctionCall f && !f.udf()
                && f.normalizedName().equals("COUNT") && f.args().size() == 1
                && (f.args().get(0) instanceof Expr.NumberLiteral || f.args().get(0) instanceof Expr.StringLiteral);
        if (!countsRows || !inner.select().distinct() || inner.from() == null || !perItem(inner.from())
                || !inner.groupBy().isEmpty() || ExpressionEvaluator.hasAggregateCall(inner.select().projection())
                || !inner.orderBy().isEmpty() || inner.select().top() != null || inner.offsetLimit() != null
                || inner.select().projection() instanceof Projection.Star && !inner.from().joins().isEmpty()) {
            return null;
        }
        return new Merge(null, null, null, null, true, null, null, inner.toString(), false, alias);
    }

    /** GROUP BY or aggregates: per-range partials, then the SDK's TOP/OFFSET/LIMIT over the merged groups. */
    private static Merge aggregated(SqlQuery q, int ranges, Integer top, Integer offset, Integer limit) {
        if (!q.orderBy().isEmpty()) {
            throw CosmosError.badRequest(ORDER_BY_WITH_GROUP_BY);
        }
        if (composesAggregates(q.select().projection())) {
            throw CosmosError.badRequest(COMPOSED_AGGREGATES);
        }
        // each range returns all of its groups (or its one partial); TOP, OFFSET and LIMIT apply to merged rows
        SqlQuery whole = new SqlQuery(new SelectClause(false, null, q.select().projection()), q.from(), q.where(),
                q.groupBy(), q.orderBy(), null);
        AggregatePlan.Plan aggregate = AggregatePlan.of(whole);
        if (aggregate != null) { // one row: DISTINCT changes nothing
            return new Merge(top, null, aggregate, null, false, offset, limit, aggregate.rewrittenQuery(), false, null);
        }
        GroupByPlan.Plan groupBy = GroupByPlan.of(whole);
        if (groupBy == null) {
            throw refused(q, ranges, "GROUP BY of other than keys named in the select list and single aggregates");
        }
        // the SDK de-duplicates the ranges' partial rows before it merges groups (azure-cosmos 4.81.0), which would
        // drop a group's partial; DISTINCT is only served where it changes nothing: every key is in the select list
        if (q.select().distinct() && !groupBy.keysSelected(q.groupBy())) {
            throw refused(q, ranges, "DISTINCT over groups whose keys are not all selected");
        }
        return new Merge(top, null, null, groupBy, false, offset, limit, groupBy.rewrittenQuery(), false, null);
    }

    /** Whether an aggregate sits inside another expression ({@code COUNT(1) + 1}, {@code {"n": COUNT(1)}}). */
    static boolean composesAggregates(Projection p) {
        if (p instanceof Projection.Value v) {
            return composed(v.expr());
        }
        if (p instanceof Projection.Items items) {
            return items.items().stream().anyMatch(i -> composed(i.expr()));
        }
        return false;
    }

    private static boolean composed(Expr e) {
        if (!ExpressionEvaluator.hasAggregateCall(e)) {
            return false;
        }
        if (e instanceof Expr.FunctionCall f && !f.udf() && AggregatePlan.kind(f.normalizedName()) != null) {
            return f.args().stream().anyMatch(ExpressionEvaluator::hasAggregateCall); // COUNT(MAX(x))
        }
        return true;
    }

    /** Whether every row of {@code from} comes from one item, so that the ranges split the rows as they split items. */
    static boolean perItem(FromClause from) {
        if (from.source().collection() instanceof FromCollection.Subquery s) {
            SqlQuery inner = s.query();
            return inner.from() != null && perItem(inner.from()) && inner.groupBy().isEmpty()
                    && !ExpressionEvaluator.hasAggregateCall(inner.select().projection())
                    && inner.orderBy().isEmpty() && !inner.select().distinct() && inner.select().top() == null
                    && inner.offsetLimit() == null;
        }
        return true; // a path of the container; JOINs iterate inside each row
    }

    private static CosmosError refused(SqlQuery q, int ranges, String needs) {
        return CosmosError.badRequest("The cross partition query with " + needs + " cannot be served over the "
                + ranges + " partition key ranges of this container: the SDK cannot merge the ranges' results of "
                + "such a query. Set a partition key on the query.");
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
