package io.tetradb.core.query.sql;

/** {@code OFFSET n LIMIT m}; each is a {@link Expr.NumberLiteral} (a non-negative integer) or a {@link Expr.Parameter}. */
public record OffsetLimit(Expr offset, Expr limit) {
}
