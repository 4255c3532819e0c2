package io.tetradb.cosmos;

import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SelectClause;
import io.tetradb.core.query.sql.SqlQuery;

import java.util.ArrayList;
import java.util.List;

/**
 * The per-range form of a cross-partition ORDER BY query, as Cosmos DB's query plan gives it (docs/cosmos-rest.md
 * §4): each range returns {@code {_rid, orderByItems: [{item}...], payload}} rows sorted by the query's keys, under
 * a filter the SDK fills in ({@code true}, or where to resume), and the SDK k-way merges the ranges' rows by
 * {@code orderByItems} and hands out the payloads. The text is made by the core's unparser from the query's tree.
 */
final class OrderByPlan {
    /** The placeholder the SDKs replace with their filter. */
    static final String FILTER = "{documentdb-formattableorderbyquery-filter}";
    private static final String MARKER = "tetradb_orderby_filter_marker";

    record Plan(String rewrittenQuery, List<String> orderBy, List<String> expressions) {
    }

    private OrderByPlan() {
    }

    /**
     * The plan of {@code q} (which has ORDER BY and no GROUP BY, aggregate or DISTINCT), each range limited to
     * {@code perRange} (null: no OFFSET/LIMIT); null if it has no single payload expression.
     */
    static Plan of(SqlQuery q, io.tetradb.core.query.sql.OffsetLimit perRange) {
        if (q.from() == null || !q.from().joins().isEmpty() && q.select().projection() instanceof Projection.Star) {
            return null; // SELECT * over JOINs projects every alias: no single payload expression to name
        }
        String alias = q.from().source().effectiveAlias();
        if (alias == null) {
            return null;
        }
        List<Expr> items = new ArrayList<>();
        List<String> directions = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        for (OrderByItem o : q.orderBy()) {
            items.add(new Expr.ObjectLiteral(List.of(new Expr.ObjectProperty("item", o.expr()))));
            directions.add(o.descending() ? "Descending" : "Ascending");
            expressions.add(o.expr().toString());
        }
        Expr payload;
        Projection p = q.select().projection();
        if (p instanceof Projection.Star) {
            payload = new Expr.Identifier(alias);
        } else if (p instanceof Projection.Value v) {
            payload = v.expr();
        } else {
            List<Expr.ObjectProperty> props = new ArrayList<>();
            int generated = 0;
            for (Projection.SelectItem item : ((Projection.Items) p).items()) {
                String name = item.alias() != null ? item.alias() : io.tetradb.core.query.eval.QueryExecutor.inferredName(item.expr());
                props.add(new Expr.ObjectProperty(name != null ? name : "$" + (++generated), item.expr()));
            }
            payload = new Expr.ObjectLiteral(props);
        }
        List<Projection.SelectItem> select = List.of(
                new Projection.SelectItem(new Expr.PropertyAccess(new Expr.Identifier(alias), "_rid"), null),
                new Projection.SelectItem(new Expr.ArrayLiteral(items), "orderByItems"),
                new Projection.SelectItem(payload, "payload"));
        Expr filter = new Expr.Identifier(MARKER);
        Expr where = q.where() == null ? filter : new Expr.Binary(Expr.BinaryOp.AND, filter, q.where());
        SqlQuery rewritten = new SqlQuery(new SelectClause(false, q.select().top(), new Projection.Items(select)),
                q.from(), where, List.of(), q.orderBy(), perRange);
        String text = rewritten.toString().replace(MARKER, "(" + FILTER + ")");
        return new Plan(text, directions, expressions);
    }
}
