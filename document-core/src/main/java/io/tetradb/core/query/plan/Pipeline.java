package io.tetradb.core.query.plan;

import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.query.sql.Projection;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link LogicalPlan} taken apart into the stages the executor runs, in order: the unwinds (FROM, JOINs), the
 * filter, then either the sort and the per-row projection or the grouped aggregation, DISTINCT, and the result
 * window. Every front end produces plans of this shape; {@link #of} refuses others.
 */
public record Pipeline(List<LogicalPlan.Unwind> unwinds, Expr filter, List<OrderByItem> sort,
                       LogicalPlan.Aggregate aggregate, LogicalPlan.Project project, boolean distinct,
                       List<LogicalPlan.Slice> slices) {

    public static Pipeline of(LogicalPlan plan) {
        List<LogicalPlan.Slice> slices = new ArrayList<>();
        while (plan instanceof LogicalPlan.Slice s) {
            slices.add(s);
            plan = s.input();
        }
        Collections.reverse(slices); // innermost first: the order they apply in
        boolean distinct = false;
        if (plan instanceof LogicalPlan.Distinct d) {
            distinct = true;
            plan = d.input();
        }
        LogicalPlan.Aggregate aggregate = null;
        LogicalPlan.Project project = null;
        List<OrderByItem> sort = List.of();
        if (plan instanceof LogicalPlan.Aggregate a) {
            aggregate = a;
            plan = a.input();
        } else if (plan instanceof LogicalPlan.Project p) {
            project = p;
            plan = p.input();
            if (plan instanceof LogicalPlan.Sort s) {
                sort = s.keys();
                plan = s.input();
            }
        } else {
            throw new IllegalArgumentException("a plan ends in a projection or an aggregation: " + plan);
        }
        Expr filter = null;
        if (plan instanceof LogicalPlan.Filter f) {
            filter = f.condition();
            plan = f.input();
        }
        List<LogicalPlan.Unwind> unwinds = new ArrayList<>();
        while (plan instanceof LogicalPlan.Unwind u) {
            unwinds.add(u);
            plan = u.input();
        }
        if (!(plan instanceof LogicalPlan.Scan)) {
            throw new IllegalArgumentException("a plan starts with a scan: " + plan);
        }
        Collections.reverse(unwinds);
        return new Pipeline(List.copyOf(unwinds), filter, sort, aggregate, project, distinct, List.copyOf(slices));
    }

    /** The alias bound by the first unwind: the item itself for {@code FROM c}. */
    public String rootAlias() {
        return unwinds.get(0).alias();
    }

    /** Whether the first unwind binds the whole item ({@code FROM c}, not {@code FROM c.children} or {@code IN}). */
    public boolean bindsWholeItem() {
        LogicalPlan.Unwind first = unwinds.get(0);
        return !first.iterate() && first.source() instanceof Expr.Identifier id && id.name().equals(LogicalPlan.ITEM);
    }

    /** Whether results can be produced row by row in source order (no grouping, DISTINCT or sort to do). */
    public boolean streams(boolean sortedBySource) {
        return aggregate == null && !distinct && (sort.isEmpty() || sortedBySource);
    }

    /** The projection per row, or null for an aggregation. */
    public Projection projection() {
        return project == null ? null : project.projection();
    }
}
