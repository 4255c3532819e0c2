/**
 * In-memory evaluation of parsed Cosmos SQL ({@link io.tetradb.core.query.sql.SqlQuery}) over the items of one
 * container: the reference semantics the planner's index-backed execution must reproduce (the property test of issue
 * #3 compares the two).
 *
 * <ul>
 * <li>{@link io.tetradb.core.query.eval.ExpressionEvaluator} evaluates one {@link io.tetradb.core.query.sql.Expr} in
 * an {@link io.tetradb.core.query.eval.Env} (alias bindings, chained for correlated subqueries) with Cosmos's
 * undefined semantics ({@code MissingNode} is undefined). Its class comment lists each operator rule and the Cosmos
 * documentation page it comes from.</li>
 * <li>{@link io.tetradb.core.query.eval.QueryExecutor#execute} runs a whole query: FROM (root, sub-path,
 * {@code x IN path}, subquery), JOINs (cross product within one item), WHERE, GROUP BY and aggregates, ORDER BY,
 * projection, DISTINCT, OFFSET/LIMIT, TOP. Its class comment lists the pipeline and the rules.</li>
 * </ul>
 *
 * <p>Decisions where the documentation is silent or TetraDB chooses (each also in the class comments):
 * <ul>
 * <li>Array literals leave out undefined elements, as object literals leave out undefined properties.</li>
 * <li>A ternary whose condition is not a boolean is undefined (IIF, by contrast, takes its third argument).</li>
 * <li>Arithmetic that yields NaN or an infinity (division by zero) gives that number inside the expression (functions
 * such as IS_FINITE_NUMBER see it), and undefined once the value leaves the expression (JSON has no such number).
 * Integer literals and integer arithmetic are exact within 64 bits and print without a fraction; arithmetic results
 * beyond 2^53 become doubles, as Cosmos numbers are.</li>
 * <li>SUM over no values is 0; AVG, MIN and MAX over no values are undefined (so {@code SELECT VALUE MAX(...)} over
 * nothing yields no result). COUNT over nothing is 0.</li>
 * <li>ORDER BY sorts by {@link io.tetradb.core.value.ValueOrder} (undefined &lt; null &lt; boolean &lt; number &lt;
 * string &lt; array &lt; object), keeping items whose sort value is undefined (first in ascending order).</li>
 * <li>The projection of a GROUP BY query is evaluated on the group's first row (aggregates over the whole group);
 * outside aggregate calls it may only reference GROUP BY expressions (compared as written, so {@code c.a} and
 * {@code c["a"]} differ), else 400.</li>
 * <li>ORDER BY together with GROUP BY or aggregates, and UDFs, are refused with a 400 naming them.</li>
 * <li>Parameters are looked up by name with or without the leading {@code @}; an unknown one is a 400.</li>
 * </ul>
 */
package io.tetradb.core.query.eval;
