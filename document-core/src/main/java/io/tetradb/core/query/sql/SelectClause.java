package io.tetradb.core.query.sql;

/**
 * {@code SELECT [DISTINCT] [TOP n] projection}; {@code top} is a {@link Expr.NumberLiteral} or {@link Expr.Parameter},
 * or {@code null}.
 */
public record SelectClause(boolean distinct, Expr top, Projection projection) {
    public SelectClause {
        if (projection == null) {
            throw new IllegalArgumentException("projection");
        }
    }

    @Override
    public String toString() {
        return SqlUnparser.unparse(this);
    }
}
