package io.tetradb.cosmos;

import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SelectClause;
import io.tetradb.core.query.sql.SqlQuery;

import java.util.List;
import java.util.Locale;

/**
 * The per-range form of a cross-partition {@code SELECT VALUE <aggregate>(...)} query, as Cosmos DB's query plan
 * gives it (docs/cosmos-rest.md §4): each range returns its partial {@code [{"item": x}]} ({@code AVG} as
 * {@code {"sum", "count"}}, {@code MIN}/{@code MAX} as {@code {"min"|"max", "count"}}) and the SDK combines them.
 */
final class AggregatePlan {
    record Plan(String rewrittenQuery, String aggregate) {
    }

    private AggregatePlan() {
    }

    /** The plan of a {@code SELECT VALUE AGG(x)} query (no GROUP BY, ORDER BY, DISTINCT, TOP, OFFSET); else null. */
    static Plan of(SqlQuery q) {
        if (!(q.select().projection() instanceof Projection.Value v) || !(v.expr() instanceof Expr.FunctionCall f)
                || f.udf() || q.from() == null || !q.groupBy().isEmpty() || !q.orderBy().isEmpty()
                || q.select().distinct() || q.select().top() != null || q.offsetLimit() != null) {
            return null;
        }
        String name = f.name().toUpperCase(Locale.ROOT);
        Expr partial = partial(name, f);
        if (partial == null) {
            return null;
        }
        Expr item = new Expr.ArrayLiteral(List.of(new Expr.ObjectLiteral(List.of(
                new Expr.ObjectProperty("item", partial)))));
        SqlQuery rewritten = new SqlQuery(new SelectClause(false, null, new Projection.Value(item)), q.from(),
                q.where(), List.of(), List.of(), null);
        return new Plan(rewritten.toString(), kind(name));
    }

    /** The plan's name of an aggregate ({@code COUNT} → {@code Count}, {@code AVG} → {@code Average}). */
    static String kind(String name) {
        return switch (name) {
            case "COUNT" -> "Count";
            case "SUM" -> "Sum";
            case "MIN" -> "Min";
            case "MAX" -> "Max";
            case "AVG" -> "Average";
            default -> null;
        };
    }

    /** What one range returns for the aggregate call {@code f} named {@code name}; null for another function. */
    static Expr partial(String name, Expr.FunctionCall f) {
        return switch (name) {
            case "COUNT", "SUM" -> f;
            // with the count, so that a range without values tells "none" from a value
            case "MIN", "MAX" -> new Expr.ObjectLiteral(List.of(
                    new Expr.ObjectProperty(name.toLowerCase(Locale.ROOT), f),
                    new Expr.ObjectProperty("count", new Expr.FunctionCall("COUNT", false, f.args()))));
            case "AVG" -> new Expr.ObjectLiteral(List.of(
                    new Expr.ObjectProperty("sum", new Expr.FunctionCall("SUM", false, f.args())),
                    new Expr.ObjectProperty("count", new Expr.FunctionCall("COUNT", false, f.args()))));
            default -> null;
        };
    }
}
