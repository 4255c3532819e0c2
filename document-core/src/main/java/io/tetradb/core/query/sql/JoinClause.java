package io.tetradb.core.query.sql;

/** {@code JOIN source}: an intra-document join (a cross product with the values the source yields). */
public record JoinClause(FromSource source) {
}
