package io.tetradb.cosmos;

import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.FromClause;
import io.tetradb.core.query.sql.FromCollection;
import io.tetradb.core.query.sql.FromSource;
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
    /** The name under which a subquery source carries its item's {@code _rid} to the ORDER BY row. */
    private static final String CARRIED_RID = "tetradb_rid";

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
        FromClause from = q.from();
        Expr rid = new Expr.PropertyAccess(new Expr.Identifier(alias), "_rid");
        if (from.source().collection() instanceof FromCollection.Subquery sub
                && !selectsWholeItems(sub.query())) {
            // the SDK needs each row's _rid (its continuation names it): the subquery carries its item's along
            SqlQuery inner = sub.query();
            if (!(inner.select().projection() instanceof Projection.Items innerItems)
                    || !(inner.from().source().collection() instanceof FromCollection.Path path)
                    || !path.segments().isEmpty() || inner.from().source().iterate() || namesWholeRow(q, alias)) {
                return null;
            }
            List<Projection.SelectItem> withRid = new ArrayList<>(innerItems.items());
            withRid.add(new Projection.SelectItem(new Expr.PropertyAccess(
                    new Expr.Identifier(inner.from().source().effectiveAlias()), "_rid"), CARRIED_RID));
            SqlQuery carried = new SqlQuery(new SelectClause(inner.select().distinct(), inner.select().top(),
                    new Projection.Items(withRid)), inner.from(), inner.where(), inner.groupBy(), inner.orderBy(),
                    inner.offsetLimit());
            from = new FromClause(new FromSource(new FromCollection.Subquery(carried), from.source().alias(), false),
                    from.joins());
            rid = new Expr.PropertyAccess(new Expr.Identifier(alias), CARRIED_RID);
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
                new Projection.SelectItem(rid, "_rid"),
                new Projection.SelectItem(new Expr.ArrayLiteral(items), "orderByItems"),
                new Projection.SelectItem(payload, "payload"));
        Expr filter = new Expr.Identifier(MARKER);
        Expr where = q.where() == null ? filter : new Expr.Binary(Expr.BinaryOp.AND, filter, q.where());
        SqlQuery rewritten = new SqlQuery(new SelectClause(false, q.select().top(), new Projection.Items(select)),
                from, where, List.of(), q.orderBy(), perRange);
        String text = rewritten.toString().replace(MARKER, "(" + FILTER + ")");
        return new Plan(text, directions, expressions);
    }

    /** Whether the subquery's rows are its items ({@code SELECT *}, {@code SELECT VALUE c}): they have a _rid. */
    private static boolean selectsWholeItems(SqlQuery inner) {
        Projection p = inner.select().projection();
        String innerAlias = inner.from() == null ? null : inner.from().source().effectiveAlias();
        boolean item = inner.from() != null && inner.from().joins().isEmpty()
                && inner.from().source().collection() instanceof FromCollection.Path path
                && path.segments().isEmpty() && !inner.from().source().iterate();
        return item && (p instanceof Projection.Star
                || p instanceof Projection.Value v && v.expr().equals(new Expr.Identifier(innerAlias)));
    }

    /** Whether the query hands out the source's whole row (which must not show the carried _rid). */
    private static boolean namesWholeRow(SqlQuery q, String alias) {
        Expr whole = new Expr.Identifier(alias);
        Projection p = q.select().projection();
        if (p instanceof Projection.Star) {
            return true;
        }
        if (p instanceof Projection.Value v) {
            return v.expr().equals(whole);
        }
        return ((Projection.Items) p).items().stream().anyMatch(i -> i.expr().equals(whole));
    }
}
