package io.tetradb.core.query.sql;

/** {@code expr [ASC|DESC]}; ascending unless {@code descending}. */
public record OrderByItem(Expr expr, boolean descending) {
}
