package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.functions.FunctionRegistry;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.FromClause;
import io.tetradb.core.query.sql.FromCollection;
import io.tetradb.core.query.sql.FromSource;
import io.tetradb.core.query.sql.JoinClause;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.query.sql.PathSegment;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.value.ValueOrder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Runs a parsed Cosmos SQL query over the items of one container, in memory: no storage, no indexes (the planner
 * will feed it candidate items). The pipeline, in Cosmos's order:
 * <ol>
 * <li>FROM: {@code FROM c} / {@code FROM root r} binds each item; {@code FROM c.children} binds the value at the path
 * (items where it is undefined are skipped); {@code FROM x IN c.arr} binds each element; each {@code JOIN} multiplies
 * the row by the values its source yields within the same item (from-clause, join). Inside a subquery the FROM root
 * names an alias of the enclosing row (correlated).</li>
 * <li>WHERE: only rows for which the condition is the boolean {@code true} are kept (where: undefined is not
 * true).</li>
 * <li>GROUP BY / aggregates: groups by the values of the GROUP BY expressions ({@code ValueOrder.compare == 0},
 * undefined groups with undefined), in key order; an aggregate call in the projection without GROUP BY makes one
 * group of all rows (so {@code SELECT VALUE COUNT(1)} over nothing is {@code [0]}).</li>
 * <li>ORDER BY: by {@link ValueOrder} per expression, ASC or DESC, stable; rows whose sort value is undefined are kept
 * and sort lowest (order-by: items where the ORDER BY property isn't defined are returned; null is the lowest
 * defined value).</li>
 * <li>Projection: {@code *} is the single FROM source's value (400 with JOIN); {@code VALUE e}; a list builds an
 * object, naming each entry by its alias, else the last property name of a path, else {@code $1}, {@code $2}, ...
 * in order; undefined values are left out, and a VALUE that is undefined yields no result (select).</li>
 * <li>DISTINCT ({@code ValueOrder.compare == 0}, first occurrence kept), OFFSET / LIMIT, TOP.</li>
 * </ol>
 * An aggregate query's projection may only reference GROUP BY expressions outside aggregate calls (400 otherwise).
 * Not supported yet (400 naming it): ORDER BY together with GROUP BY or aggregates, UDFs.
 */
public final class QueryExecutor {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Comparator<List<JsonNode>> KEY_ORDER = (a, b) -> {
        for (int i = 0; i < a.size(); i++) {
            int c = ValueOrder.compareValues(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    };

    private final ExpressionEvaluator eval;

    QueryExecutor(ExpressionEvaluator eval) {
        this.eval = eval;
    }

    /** Runs {@code query} over {@code items} with the standard built-in functions. */
    public static List<JsonNode> execute(SqlQuery query, Iterable<ObjectNode> items, Map<String, JsonNode> params,
                                         FunctionContext ctx) {
        return execute(query, items, params, ctx, FunctionRegistry.standard());
    }

    /**
     * Runs {@code query} over {@code items}; {@code params} by name with or without the {@code @}; {@code ctx} null
     * reads the system clock once for the whole query.
     */
    public static List<JsonNode> execute(SqlQuery query, Iterable<ObjectNode> items, Map<String, JsonNode> params,
                                         FunctionContext ctx, FunctionRegistry registry) {
        ExpressionEvaluator ev = new ExpressionEvaluator(params,
                ctx != null ? ctx : FunctionContext.forQuery(java.time.Clock.systemUTC()), registry);
        return ev.executor().run(query, items, Env.empty(), -1);
    }

    /**
     * Runs {@code q} with the bindings of {@code outer} visible (a correlated subquery) over {@code items} (null
     * inside a subquery, whose FROM ranges over an enclosing alias). {@code want} &gt; 0 allows stopping early once
     * that many results are known (EXISTS, scalar subqueries).
     */
    List<JsonNode> run(SqlQuery q, Iterable<ObjectNode> items, Env outer, int want) {
        Projection projection = q.select().projection();
        boolean aggregate = !q.groupBy().isEmpty() || hasAggregate(projection);
        if (want > 0 && !aggregate && q.orderBy().isEmpty() && !q.select().distinct() && q.offsetLimit() == null
                && q.select().top() == null) {
            return stream(q, items, outer, want);
        }
        List<Env> rows = new ArrayList<>();
        Consumer<Env> sink = q.where() == null ? rows::add : row -> {
            if (eval.isTrue(q.where(), row)) {
                rows.add(row);
            }
        };
        if (q.from() == null) {
            sink.accept(outer);
        } else {
            from(q.from(), items, outer, sink);
        }

        List<JsonNode> results = new ArrayList<>();
        if (aggregate) {
            if (projection instanceof Projection.Star) {
                throw new StoreException(Status.BAD_REQUEST, "'SELECT *' is not valid with GROUP BY or aggregates.");
            }
            if (!q.orderBy().isEmpty()) {
                throw new StoreException(Status.BAD_REQUEST,
                        "ORDER BY together with GROUP BY or aggregate functions is not supported.");
            }
            if (projection instanceof Projection.Value v) {
                checkGrouped(v.expr(), q.groupBy());
            } else {
                for (Projection.SelectItem item : ((Projection.Items) projection).items()) {
                    checkGrouped(item.expr(), q.groupBy());
                }
            }
            for (List<Env> group : group(q.groupBy(), rows, outer)) {
                Env rep = (group.isEmpty() ? outer : group.get(0)).withGroup(group);
                addIfDefined(results, project(q, rep));
            }
        } else {
            List<Env> ordered = q.orderBy().isEmpty() ? rows : sort(q.orderBy(), rows);
            for (Env row : ordered) {
                addIfDefined(results, project(q, row));
            }
        }

        if (q.select().distinct()) {
            TreeSet<JsonNode> seen = new TreeSet<>(ValueOrder.INSTANCE);
            List<JsonNode> unique = new ArrayList<>();
            for (JsonNode r : results) {
                if (seen.add(r)) {
                    unique.add(r);
                }
            }
            results = unique;
        }
        if (q.offsetLimit() != null) {
            long offset = count(q.offsetLimit().offset(), "OFFSET");
            long limit = count(q.offsetLimit().limit(), "LIMIT");
            results = slice(results, offset, limit);
        }
        if (q.select().top() != null) {
            results = slice(results, 0, count(q.select().top(), "TOP"));
        }
        if (want > 0 && results.size() > want) {
            results = results.subList(0, want);
        }
        return results;
    }

    /** Thrown to stop generating rows once a streaming run has all the results it wants. */
    private static final class Enough extends RuntimeException {
        Enough() {
            super(null, null, false, false);
        }
    }

    /** A query without sorting, grouping, DISTINCT or paging, stopped after {@code want} results (EXISTS). */
    private List<JsonNode> stream(SqlQuery q, Iterable<ObjectNode> items, Env outer, int want) {
        List<JsonNode> results = new ArrayList<>(want);
        Enough enough = new Enough();
        Consumer<Env> sink = row -> {
            if (q.where() == null || eval.isTrue(q.where(), row)) {
                addIfDefined(results, project(q, row));
                if (results.size() >= want) {
                    throw enough;
                }
            }
        };
        try {
            if (q.from() == null) {
                sink.accept(outer);
            } else {
                from(q.from(), items, outer, sink);
            }
        } catch (Enough e) {
            if (e != enough) {
                throw e;
            }
        }
        return results;
    }

    ExpressionEvaluator evaluator() {
        return eval;
    }

    // ------------------------------------------------------------------------------------------------------- FROM

    private void from(FromClause from, Iterable<ObjectNode> items, Env outer, Consumer<Env> sink) {
        List<JoinClause> joins = from.joins();
        source(from.source(), items, outer, row -> joins(joins, 0, row, sink));
    }

    private void joins(List<JoinClause> joins, int i, Env row, Consumer<Env> sink) {
        if (i == joins.size()) {
            sink.accept(row);
            return;
        }
        source(joins.get(i).source(), null, row, next -> joins(joins, i + 1, next, sink));
    }

    /** Emits {@code env} extended with each binding {@code src} yields. */
    private void source(FromSource src, Iterable<ObjectNode> items, Env env, Consumer<Env> out) {
        String alias = src.effectiveAlias();
        if (alias == null) {
            throw new StoreException(Status.BAD_REQUEST, "The FROM/JOIN source '" + sourceText(src)
                    + "' needs an alias (AS name).");
        }
        if (src.collection() instanceof FromCollection.Subquery sq) {
            for (JsonNode v : run(sq.query(), items, env, -1)) {
                emit(src, alias, v, env, out);
            }
            return;
        }
        FromCollection.Path path = (FromCollection.Path) src.collection();
        JsonNode bound = env.lookup(path.root());
        if (bound != null) {
            emit(src, alias, navigate(bound, path.segments()), env, out);
            return;
        }
        if (items == null) {
            throw new StoreException(Status.BAD_REQUEST, "Identifier '" + path.root() + "' could not be resolved.");
        }
        FunctionContext base = eval.functionContext();
        for (ObjectNode item : items) {
            Env itemEnv = env;
            if (base != null) {
                JsonNode rid = item.get("_rid");
                itemEnv = env.withFunctionContext(rid != null && rid.isTextual() ? base.withItemRid(rid.textValue())
                        : base);
            }
            emit(src, alias, navigate(item, path.segments()), itemEnv, out);
        }
    }

    private static void emit(FromSource src, String alias, JsonNode v, Env env, Consumer<Env> out) {
        io.tetradb.core.cancel.CallStop.tick(); // one row of the interpreter (JOINs nest these calls)
        if (src.iterate()) {
            if (v.isArray()) {
                for (JsonNode e : v) {
                    io.tetradb.core.cancel.CallStop.tick();
                    out.accept(env.bind(alias, ExpressionEvaluator.sqlView(e)));
                }
            }
        } else if (!v.isMissingNode()) {
            out.accept(env.bind(alias, v));
        }
    }

    private static JsonNode navigate(JsonNode v, List<PathSegment> segments) {
        for (PathSegment s : segments) {
            if (s instanceof PathSegment.Property p) {
                v = ExpressionEvaluator.property(v, p.name());
            } else {
                long i = ((PathSegment.Index) s).index();
                v = v.isArray() && i >= 0 && i < v.size() ? v.get((int) i) : ExpressionEvaluator.UNDEFINED;
            }
            if (v.isMissingNode()) {
                break;
            }
        }
        return v;
    }

    private static String sourceText(FromSource src) {
        return src.collection() instanceof FromCollection.Path p ? p.root() + "..." : "(subquery)";
    }

    // ---------------------------------------------------------------------------------------- group, sort, project

    private static boolean hasAggregate(Projection p) {
        if (p instanceof Projection.Value v) {
            return ExpressionEvaluator.containsAggregate(v.expr());
        }
        if (p instanceof Projection.Items items) {
            return items.items().stream().anyMatch(i -> ExpressionEvaluator.containsAggregate(i.expr()));
        }
        return false;
    }

    /**
     * 400 unless every value reference in an aggregate query's projection is inside an aggregate call or is one of
     * the GROUP BY expressions (as Cosmos refuses such select lists; TetraDB's wording of the error). Subqueries are
     * evaluated on the group's first row and are not checked.
     */
    static void checkGrouped(Expr e, List<Expr> groupBy) {
        if (groupBy.contains(e) || e instanceof Expr.Subquery || e instanceof Expr.Parameter) {
            return;
        }
        if (e instanceof Expr.FunctionCall f && !f.udf() && ExpressionEvaluator.AGGREGATES.contains(f.normalizedName())) {
            return;
        }
        if (e instanceof Expr.Identifier || e instanceof Expr.PropertyAccess || e instanceof Expr.IndexAccess) {
            throw new StoreException(Status.BAD_REQUEST, "'" + e + "' is invalid in the select list because it is "
                    + "not contained in either an aggregate function or the GROUP BY clause.");
        }
        Expr.children(e).forEach(x -> checkGrouped(x, groupBy));
    }

    private List<List<Env>> group(List<Expr> groupBy, List<Env> rows, Env outer) {
        if (groupBy.isEmpty()) {
            return List.of(rows);
        }
        for (Expr e : groupBy) {
            if (e instanceof Expr.Subquery || ExpressionEvaluator.containsAggregate(e)) {
                throw new StoreException(Status.BAD_REQUEST, "GROUP BY does not allow subqueries or aggregates: " + e);
            }
        }
        // groups come out in key order (undefined first), as the group-by page's example shows them
        TreeMap<List<JsonNode>, List<Env>> groups = new TreeMap<>(KEY_ORDER);
        for (Env row : rows) {
            List<JsonNode> key = new ArrayList<>(groupBy.size());
            for (Expr e : groupBy) {
                key.add(eval.evaluate(e, row));
            }
            List<Env> g = groups.get(key);
            if (g == null) {
                g = new ArrayList<>();
                groups.put(key, g);
            }
            g.add(row);
        }
        return new ArrayList<>(groups.values());
    }

    private List<Env> sort(List<OrderByItem> orderBy, List<Env> rows) {
        record Keyed(List<JsonNode> key, Env row) {
        }
        List<Keyed> keyed = new ArrayList<>(rows.size());
        for (Env row : rows) {
            List<JsonNode> key = new ArrayList<>(orderBy.size());
            for (OrderByItem o : orderBy) {
                key.add(eval.evaluate(o.expr(), row));
            }
            keyed.add(new Keyed(key, row));
        }
        keyed.sort((a, b) -> {
            for (int i = 0; i < orderBy.size(); i++) {
                int c = ValueOrder.compareValues(a.key().get(i), b.key().get(i));
                if (c != 0) {
                    return orderBy.get(i).descending() ? -c : c;
                }
            }
            return 0;
        });
        List<Env> out = new ArrayList<>(keyed.size());
        for (Keyed k : keyed) {
            out.add(k.row());
        }
        return out;
    }

    private JsonNode project(SqlQuery q, Env row) {
        Projection p = q.select().projection();
        if (p instanceof Projection.Star) {
            if (q.from() == null) {
                throw new StoreException(Status.BAD_REQUEST, "'SELECT *' is only valid with a FROM clause.");
            }
            if (!q.from().joins().isEmpty()) {
                throw new StoreException(Status.BAD_REQUEST, "'SELECT *' is only valid with a single input set.");
            }
        }
        return project(p, q.from() == null ? null : q.from().source().effectiveAlias(), row);
    }

    /** One row's result: {@code *} is the value of {@code starAlias}; undefined entries are left out. */
    JsonNode project(Projection p, String starAlias, Env row) {
        if (p instanceof Projection.Star) {
            JsonNode v = row.lookup(starAlias);
            return v == null ? ExpressionEvaluator.UNDEFINED : v;
        }
        if (p instanceof Projection.Value v) {
            return eval.evaluate(v.expr(), row);
        }
        ObjectNode out = NODES.objectNode();
        int generated = 0;
        for (Projection.SelectItem item : ((Projection.Items) p).items()) {
            String name = item.alias() != null ? item.alias() : inferredName(item.expr());
            if (name == null) {
                name = "$" + (++generated);
            }
            JsonNode v = eval.evaluate(item.expr(), row);
            if (!v.isMissingNode()) {
                out.set(name, v);
            }
        }
        return out;
    }

    /** The name Cosmos gives an unaliased select-list entry: the last property of a path, or the alias itself. */
    public static String inferredName(Expr e) {
        if (e instanceof Expr.PropertyAccess pa) {
            return pa.name();
        }
        if (e instanceof Expr.IndexAccess ia && ia.index() instanceof Expr.StringLiteral s) {
            return s.value();
        }
        if (e instanceof Expr.Identifier id) {
            return id.name();
        }
        return null;
    }

    private static void addIfDefined(List<JsonNode> results, JsonNode v) {
        if (!v.isMissingNode()) {
            results.add(v);
        }
    }

    long count(Expr e, String clause) {
        JsonNode v = eval.evaluate(e, Env.empty());
        if (!v.isNumber() || v.doubleValue() < 0 || v.doubleValue() != Math.rint(v.doubleValue())) {
            throw new StoreException(Status.BAD_REQUEST, clause + " requires a non-negative integer, not " + v + ".");
        }
        return v.longValue();
    }

    private static List<JsonNode> slice(List<JsonNode> list, long offset, long limit) {
        int from = (int) Math.min(offset, list.size());
        int to = (int) Math.min(list.size(), from + Math.min(limit, Integer.MAX_VALUE));
        return new ArrayList<>(list.subList(from, to));
    }
}
