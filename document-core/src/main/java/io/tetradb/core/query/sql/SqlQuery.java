package io.tetradb.core.query.sql;

import java.util.List;

/**
 * One parsed Cosmos SQL query: {@code SELECT ... [FROM ...] [WHERE ...] [GROUP BY ...] [ORDER BY ...]
 * [OFFSET n LIMIT m]}. Absent clauses are {@code null} (lists: empty). {@link #toString()} unparses to query text
 * that parses back to an equal tree.
 */
public record SqlQuery(SelectClause select, FromClause from, Expr where, List<Expr> groupBy, List<OrderByItem> orderBy,
                       OffsetLimit offsetLimit) {
    public SqlQuery {
        if (select == null) {
            throw new IllegalArgumentException("select");
        }
        groupBy = groupBy == null ? List.of() : List.copyOf(groupBy);
        orderBy = orderBy == null ? List.of() : List.copyOf(orderBy);
    }

    @Override
    public String toString() {
        return SqlUnparser.unparse(this);
    }
}
