package io.tetradb.core.query.plan;

import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.query.sql.Projection;

import java.util.List;

/**
 * The logical plan IR every query language compiles to: a linear pipeline of operators over the items of one
 * container. Cosmos SQL is the first front end ({@link io.tetradb.core.query.sql.SqlToPlan}); Mongo filters and
 * pipelines, OData {@code $filter} and Gremlin {@code has()} steps compile to the same nodes. Expressions are the
 * engine's expression tree ({@link Expr}), which every front end builds.
 *
 * <p>The planner decides how {@link Scan} is read (full scan, logical partitions, index seek, index-ordered scan)
 * and whether {@link Sort} is satisfied by that order; the executor runs the rest.
 */
public sealed interface LogicalPlan {

    /** The operator this one reads from (null for {@link Scan}). */
    LogicalPlan input();

    /** Each item in scope, bound to {@link #ITEM}; the planner picks the access path. */
    record Scan() implements LogicalPlan {
        @Override
        public LogicalPlan input() {
            return null;
        }
    }

    /**
     * Binds {@code alias} to the value of {@code source} per input row: the value itself (rows where it is undefined
     * are dropped), or with {@code iterate} each element of an array (a FROM source, a JOIN, {@code $unwind}).
     */
    record Unwind(LogicalPlan input, String alias, Expr source, boolean iterate) implements LogicalPlan {
    }

    /** The rows for which {@code condition} is the boolean true (undefined is not true). */
    record Filter(LogicalPlan input, Expr condition) implements LogicalPlan {
    }

    /** Orders rows by the keys (the core's value order; undefined lowest), stable. */
    record Sort(LogicalPlan input, List<OrderByItem> keys) implements LogicalPlan {
    }

    /**
     * Groups rows by {@code keys} (one group of all rows when empty) and evaluates {@code projection}, whose aggregate
     * calls (COUNT, SUM, MIN, MAX, AVG) range over the group, once per group.
     */
    record Aggregate(LogicalPlan input, List<Expr> keys, Projection projection) implements LogicalPlan {
    }

    /** Evaluates {@code projection} per row; {@code SELECT *} yields the value of {@code starAlias}. */
    record Project(LogicalPlan input, Projection projection, String starAlias) implements LogicalPlan {
    }

    /** Drops results equal (value order) to an earlier one. */
    record Distinct(LogicalPlan input) implements LogicalPlan {
    }

    /** Skips {@code offset} results and keeps at most {@code limit} (OFFSET/LIMIT, TOP; null: no bound). */
    record Slice(LogicalPlan input, Expr offset, Expr limit) implements LogicalPlan {
    }

    /** The binding name under which {@link Scan} puts the current item; no query language can spell it. */
    String ITEM = "\u0000item";
}
