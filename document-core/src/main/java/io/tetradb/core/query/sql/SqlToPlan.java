package io.tetradb.core.query.sql;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.eval.ExpressionEvaluator;
import io.tetradb.core.query.plan.LogicalPlan;

import java.util.List;

/**
 * Compiles a parsed Cosmos SQL query into the engine's {@link LogicalPlan}, in Cosmos's evaluation order:
 * FROM (and each JOIN) → WHERE → GROUP BY/aggregates or ORDER BY → projection → DISTINCT → OFFSET/LIMIT → TOP.
 * Correlated subqueries inside expressions stay expressions; the evaluator runs them per row.
 */
public final class SqlToPlan {
    private SqlToPlan() {
    }

    /**
     * The plan of a top-level query, or null for the shapes that only the in-memory interpreter runs: no FROM clause
     * (one row without an item), or a subquery as the FROM source.
     */
    public static LogicalPlan compile(SqlQuery q) {
        if (q.from() == null || q.from().source().collection() instanceof FromCollection.Subquery) {
            return null;
        }
        FromSource first = q.from().source();
        LogicalPlan plan = new LogicalPlan.Scan();
        plan = new LogicalPlan.Unwind(plan, alias(first), sourceExpr(new Expr.Identifier(LogicalPlan.ITEM), first),
                first.iterate());
        for (JoinClause join : q.from().joins()) {
            FromSource s = join.source();
            Expr source = s.collection() instanceof FromCollection.Subquery sq
                    ? new Expr.Subquery(Expr.SubqueryKind.ARRAY, sq.query())
                    : sourceExpr(null, s);
            // a JOIN over a subquery ranges over its results: ARRAY(subquery), element by element
            plan = new LogicalPlan.Unwind(plan, alias(s), source,
                    s.iterate() || s.collection() instanceof FromCollection.Subquery);
        }
        if (q.where() != null) {
            plan = new LogicalPlan.Filter(plan, q.where());
        }
        Projection projection = q.select().projection();
        if (projection instanceof Projection.Star && !q.from().joins().isEmpty()) {
            throw new StoreException(Status.BAD_REQUEST, "'SELECT *' is only valid with a single input set.");
        }
        if (!q.groupBy().isEmpty() || ExpressionEvaluator.hasAggregateCall(projection)) {
            if (!q.orderBy().isEmpty()) {
                throw new StoreException(Status.BAD_REQUEST,
                        "ORDER BY together with GROUP BY or aggregate functions is not supported.");
            }
            plan = new LogicalPlan.Aggregate(plan, q.groupBy(), projection);
        } else {
            if (!q.orderBy().isEmpty()) {
                plan = new LogicalPlan.Sort(plan, q.orderBy());
            }
            plan = new LogicalPlan.Project(plan, projection, alias(first));
        }
        if (q.select().distinct()) {
            plan = new LogicalPlan.Distinct(plan);
        }
        if (q.offsetLimit() != null) {
            plan = new LogicalPlan.Slice(plan, q.offsetLimit().offset(), q.offsetLimit().limit());
        }
        if (q.select().top() != null) {
            plan = new LogicalPlan.Slice(plan, null, q.select().top());
        }
        return plan;
    }

    private static String alias(FromSource src) {
        String alias = src.effectiveAlias();
        if (alias == null) {
            throw new StoreException(Status.BAD_REQUEST, "The FROM/JOIN source needs an alias (AS name).");
        }
        return alias;
    }

    /** The value a FROM/JOIN path names: from the item for the FROM source, else from an earlier alias. */
    private static Expr sourceExpr(Expr item, FromSource src) {
        FromCollection.Path path = (FromCollection.Path) src.collection();
        Expr e = item != null ? item : new Expr.Identifier(path.root());
        for (PathSegment s : path.segments()) {
            e = s instanceof PathSegment.Property p ? new Expr.PropertyAccess(e, p.name())
                    : new Expr.IndexAccess(e, new Expr.NumberLiteral(((PathSegment.Index) s).index()));
        }
        return e;
    }

}
