package io.tetradb.core.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.index.PathPattern;
import io.tetradb.core.query.eval.Env;
import io.tetradb.core.query.eval.ExpressionEvaluator;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.FromCollection;
import io.tetradb.core.query.sql.FromSource;
import io.tetradb.core.query.sql.JoinClause;
import io.tetradb.core.query.sql.PathSegment;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.value.KeyRange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Picks an index seek for a query: one conjunct of its WHERE clause that an index can answer. Recognised:
 * {@code p = v}, {@code p IN (v, ...)}, {@code ARRAY_CONTAINS(p, v)}, {@code p < v} (and {@code <= > >=}),
 * {@code p BETWEEN a AND b} and case-sensitive {@code STARTSWITH(p, v)}, where {@code p} is a property path from the
 * root alias or from a {@code JOIN x IN root.path} alias and {@code v} a literal or parameter. Equality is preferred
 * to ranges. The path must be indexed by the policy for exactly the shape the predicate reads.
 *
 * <p>Why the result is a superset: an item satisfies the WHERE clause only if it satisfies every conjunct, and an item
 * satisfying the chosen conjunct has an index entry for that scalar. Strings are indexed by their first
 * {@link IndexTerms#MAX_STRING_CHARS} characters, so string bounds are cut the same way and lower bounds made
 * inclusive.
 */
public final class IndexSeekPlanner {
    private IndexSeekPlanner() {
    }

    /** The seek to use without statistics (equality before ranges), or null when the container must be scanned. */
    public static IndexSeek choose(SqlQuery query, CompiledIndexingPolicy policy, Map<String, JsonNode> parameters) {
        IndexSeek best = null;
        for (IndexSeek seek : candidates(query, policy, parameters)) {
            if (best == null || isEquality(seek) && !isEquality(best)) {
                best = seek;
            }
        }
        return best;
    }

    /** Every seek the WHERE clause allows, one per sargable conjunct; the caller picks the most selective. */
    public static List<IndexSeek> candidates(SqlQuery query, CompiledIndexingPolicy policy,
                                             Map<String, JsonNode> parameters) {
        if (query.where() == null || query.from() == null) {
            return List.of();
        }
        return candidates(query.where(), aliases(query), policy, parameters);
    }

    /**
     * Every seek the filter {@code where} allows, where {@code aliases} maps each row alias to the concrete path it
     * ranges over (the item: the empty path; {@code JOIN x IN c.a}: {@code [a, []]}).
     */
    public static List<IndexSeek> candidates(Expr where, Map<String, List<String>> aliases,
                                             CompiledIndexingPolicy policy, Map<String, JsonNode> parameters) {
        return candidates(where, aliases, policy, parameters, path -> false);
    }

    /**
     * As {@link #candidates(Expr, Map, CompiledIndexingPolicy, Map)}, where {@code singleValued} tells the flat index
     * paths under which no item ever had more than one entry (never reached through an array): there two
     * {@code SEEK_HINT} ranges on the path also make one seek of both bounds, as plain predicates do.
     */
    public static List<IndexSeek> candidates(Expr where, Map<String, List<String>> aliases,
                                             CompiledIndexingPolicy policy, Map<String, JsonNode> parameters,
                                             java.util.function.Predicate<String> singleValued) {
        if (where == null || aliases == null || !policy.enabled()) {
            return List.of();
        }
        List<Expr> conjuncts = new ArrayList<>();
        flattenAnd(where, conjuncts);
        List<IndexSeek> out = new ArrayList<>();
        List<IndexSeek> ranges = new ArrayList<>();
        for (Expr conjunct : conjuncts) {
            if (conjunct instanceof Expr.Subquery sq && sq.kind() == Expr.SubqueryKind.EXISTS) {
                out.addAll(existsCandidates(sq.query(), aliases, policy, parameters));
                continue;
            }
            IndexSeek seek = seek(conjunct, aliases, policy, parameters);
            if (seek != null) {
                out.add(seek);
                if (seek.direct() && seek.ranges().size() == 1
                        && (!isSeekHint(conjunct) || singleValued.test(seek.path()))) {
                    ranges.add(seek);
                }
            }
        }
        out.addAll(0, boundedRanges(ranges));
        return out;
    }

    /**
     * {@code c.n >= a AND c.n < b} as one seek of both bounds: on a path with one value per item (no array element
     * path) an item satisfies both only if its entry lies in both ranges. {@code SEEK_HINT}s only on paths that are
     * not multikey: their multikey meaning lets different array elements satisfy each bound (MongoDB's
     * {@code {a: {$gt: 1, $lt: 5}}} matches {@code {a: [0, 9]}}).
     */
    private static List<IndexSeek> boundedRanges(List<IndexSeek> ranges) {
        Map<String, IndexSeek> byPath = new java.util.LinkedHashMap<>();
        Map<String, Integer> count = new java.util.HashMap<>();
        for (IndexSeek s : ranges) {
            count.merge(s.path(), 1, Integer::sum);
            byPath.merge(s.path(), s, (a, b) -> new IndexSeek(a.path(),
                    List.of(a.ranges().get(0).intersect(b.ranges().get(0))), a.predicate() + " AND " + b.predicate(),
                    a.concrete()));
        }
        return byPath.values().stream().filter(s -> count.get(s.path()) > 1).toList();
    }

    private static boolean isSeekHint(Expr e) {
        return e instanceof Expr.FunctionCall f && !f.udf()
                && f.normalizedName().equals(io.tetradb.core.query.functions.SeekHintFunctions.SEEK_HINT);
    }

    /**
     * The seeks of {@code EXISTS(SELECT VALUE x FROM x IN c.path WHERE ...)} (how the graph face tests one entry of a
     * multi-valued property): an item has an element satisfying the inner filter only if it has an index entry,
     * under {@code path/[]/...}, for each sargable conjunct of that filter. Only plain row-returning subqueries
     * qualify (an aggregate returns a row even when no element matches).
     */
    private static List<IndexSeek> existsCandidates(SqlQuery q, Map<String, List<String>> aliases,
                                                    CompiledIndexingPolicy policy, Map<String, JsonNode> parameters) {
        if (q.from() == null || q.where() == null || !q.from().joins().isEmpty() || !q.groupBy().isEmpty()
                || !(q.select().projection() instanceof Projection.Star
                || q.select().projection() instanceof Projection.Value v && (v.expr() instanceof Expr.Identifier
                || v.expr() instanceof Expr.PropertyAccess || v.expr() instanceof Expr.IndexAccess))) {
            return List.of();
        }
        FromSource s = q.from().source();
        if (!s.iterate() || !(s.collection() instanceof FromCollection.Path p) || !aliases.containsKey(p.root())) {
            return List.of();
        }
        List<String> path = new ArrayList<>(aliases.get(p.root()));
        for (PathSegment seg : p.segments()) {
            if (!(seg instanceof PathSegment.Property prop)) {
                return List.of();
            }
            path.add(prop.name());
        }
        path.add(PathPattern.ARRAY);
        Map<String, List<String>> inner = new HashMap<>(aliases);
        inner.put(s.effectiveAlias(), List.copyOf(path));
        return candidates(q.where(), inner, policy, parameters);
    }

    public static boolean isEquality(IndexSeek s) {
        return s.predicate().startsWith("=");
    }

    /**
     * Alias → concrete path segments ({@code []} for array elements): the root alias of {@code FROM c} and the
     * aliases of {@code JOIN x IN c.path}. Null when the FROM clause has another shape.
     */
    public static Map<String, List<String>> aliases(Pipeline p) {
        if (!p.bindsWholeItem()) {
            return null;
        }
        Map<String, List<String>> out = new HashMap<>();
        out.put(p.rootAlias(), List.of());
        for (LogicalPlan.Unwind u : p.unwinds().subList(1, p.unwinds().size())) {
            List<String> path = u.iterate() ? path(u.source(), out) : null;
            if (path != null) {
                List<String> element = new ArrayList<>(path);
                element.add(PathPattern.ARRAY);
                out.put(u.alias(), List.copyOf(element));
            } else {
                out.remove(u.alias()); // hides an outer alias of the same name
            }
        }
        return out;
    }

    static Map<String, List<String>> aliases(SqlQuery query) {
        FromSource root = query.from().source();
        if (root.iterate() || !(root.collection() instanceof FromCollection.Path p) || !p.segments().isEmpty()) {
            return null;
        }
        Map<String, List<String>> out = new HashMap<>();
        out.put(root.effectiveAlias(), List.of());
        for (JoinClause join : query.from().joins()) {
            FromSource s = join.source();
            if (!s.iterate() || !(s.collection() instanceof FromCollection.Path jp) || !out.containsKey(jp.root())) {
                continue;
            }
            List<String> path = new ArrayList<>(out.get(jp.root()));
            boolean ok = true;
            for (PathSegment seg : jp.segments()) {
                if (seg instanceof PathSegment.Property prop) {
                    path.add(prop.name());
                } else {
                    ok = false;
                }
            }
            if (ok) {
                path.add(PathPattern.ARRAY);
                out.put(s.alias(), List.copyOf(path));
            }
        }
        return out;
    }

    /** The conjuncts of a filter ({@code a AND b AND c} → a, b, c). */
    public static void flattenConjuncts(Expr e, List<Expr> out) {
        flattenAnd(e, out);
    }

    static void flattenAnd(Expr e, List<Expr> out) {
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
            flattenAnd(b.left(), out);
            flattenAnd(b.right(), out);
        } else {
            out.add(e);
        }
    }

    private static IndexSeek seek(Expr e, Map<String, List<String>> aliases, CompiledIndexingPolicy policy,
                                  Map<String, JsonNode> params) {
        if (e instanceof Expr.Binary b) {
            Expr.BinaryOp op = b.op();
            List<String> path = path(b.left(), aliases);
            JsonNode value = constant(b.right(), params);
            if (path == null || value == null) {
                path = path(b.right(), aliases);
                value = constant(b.left(), params);
                op = flip(op);
            }
            if (path == null || value == null || op == null || !scalar(value) || !policy.indexes(path)) {
                return null;
            }
            return switch (op) {
                case EQUAL -> seek(path, List.of(KeyRange.equalTo(bound(value))), "= " + e);
                case GREATER, GREATER_OR_EQUAL -> seek(path, List.of(lower(value, op == Expr.BinaryOp.GREATER)),
                        "range " + e);
                case LESS -> seek(path, List.of(KeyRange.lessThan(value)), "range " + e);
                case LESS_OR_EQUAL -> seek(path, List.of(KeyRange.atMost(value)), "range " + e);
                default -> null;
            };
        }
        if (e instanceof Expr.In in && !in.negated()) {
            List<String> path = path(in.target(), aliases);
            if (path == null || !policy.indexes(path)) {
                return null;
            }
            List<KeyRange> ranges = new ArrayList<>();
            for (Expr v : in.values()) {
                JsonNode value = constant(v, params);
                if (value == null) {
                    return null;
                }
                if (scalar(value)) {
                    ranges.add(KeyRange.equalTo(bound(value)));
                }
            }
            return seek(path, ranges, "= " + e);
        }
        if (e instanceof Expr.Between bt && !bt.negated()) {
            List<String> path = path(bt.target(), aliases);
            JsonNode lo = constant(bt.low(), params);
            JsonNode hi = constant(bt.high(), params);
            if (path == null || lo == null || hi == null || !scalar(lo) || !policy.indexes(path)
                    || lo.getNodeType() != hi.getNodeType()) {
                return null;
            }
            return seek(path, List.of(KeyRange.between(bound(lo), hi)), "range " + e);
        }
        if (e instanceof Expr.FunctionCall f && !f.udf()) {
            String name = f.normalizedName();
            if (name.equals(io.tetradb.core.query.functions.SeekHintFunctions.SEEK_HINT) && f.args().size() == 1) {
                // always true when evaluated: a face re-checks its own semantics on what the seek finds
                return seek(f.args().get(0), aliases, policy, params);
            }
            if (name.equals("STARTSWITH") && (f.args().size() == 2 || isFalse(f.args().get(2), params))) {
                List<String> path = path(f.args().get(0), aliases);
                JsonNode prefix = constant(f.args().get(1), params);
                if (path != null && prefix != null && prefix.isTextual() && policy.indexes(path)) {
                    return seek(path, List.of(KeyRange.startsWith(bound(prefix).textValue())),
                            "prefix " + e);
                }
            }
            if (name.equals("ARRAY_CONTAINS") && (f.args().size() == 2 || isFalse(f.args().get(2), params))) {
                List<String> array = path(f.args().get(0), aliases);
                JsonNode value = constant(f.args().get(1), params);
                if (array != null && value != null && scalar(value)) {
                    List<String> elements = new ArrayList<>(array);
                    elements.add(PathPattern.ARRAY);
                    if (policy.indexes(elements)) {
                        return seek(elements, List.of(KeyRange.equalTo(bound(value))), "= " + e);
                    }
                }
            }
        }
        return null;
    }

    /** The concrete path a property expression reads ({@code []} for JOIN elements), or null for other shapes. */
    public static List<String> pathOf(Expr e, Map<String, List<String>> aliases) {
        return path(e, aliases);
    }

    /** The concrete path a property expression reads, or null when it is not alias.prop.prop... */
    static List<String> path(Expr e, Map<String, List<String>> aliases) {
        List<String> names = new ArrayList<>();
        Expr cur = e;
        while (true) {
            if (cur instanceof Expr.PropertyAccess p) {
                names.add(0, p.name());
                cur = p.target();
            } else if (cur instanceof Expr.IndexAccess ia && ia.index() instanceof Expr.StringLiteral s) {
                names.add(0, s.value());
                cur = ia.target();
            } else if (cur instanceof Expr.Identifier id && aliases.containsKey(id.name())) {
                List<String> out = new ArrayList<>(aliases.get(id.name()));
                out.addAll(names);
                return out.isEmpty() ? null : out;
            } else {
                return null;
            }
        }
    }

    private static IndexSeek seek(List<String> concrete, List<KeyRange> ranges, String predicate) {
        return new IndexSeek(flat(concrete), ranges, predicate, List.copyOf(concrete));
    }

    /** The index path of a concrete path: array markers dropped, names escaped. */
    private static String flat(List<String> concrete) {
        StringBuilder sb = new StringBuilder();
        for (String s : concrete) {
            if (!s.equals(PathPattern.ARRAY)) {
                sb.append('/').append(IndexTerms.escape(s));
            }
        }
        return sb.toString();
    }

    /**
     * The value of a constant operand (a literal, a parameter, a negated number), as the evaluator sees it; null for
     * anything else, or for a parameter that is not given (the executor reports that one).
     */
    public static JsonNode constant(Expr e, Map<String, JsonNode> params) {
        boolean isConstant = e instanceof Expr.StringLiteral || e instanceof Expr.NumberLiteral
                || e instanceof Expr.BooleanLiteral || e instanceof Expr.NullLiteral || e instanceof Expr.Parameter
                || e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEGATE && u.operand() instanceof Expr.NumberLiteral;
        if (!isConstant) {
            return null;
        }
        try {
            JsonNode v = new ExpressionEvaluator(params, FunctionContext.forQuery(java.time.Clock.systemUTC()), null)
                    .evaluate(e, Env.empty());
            return v.isMissingNode() ? null : v;
        } catch (io.tetradb.core.StoreException missingParameter) {
            return null;
        }
    }

    private static boolean scalar(JsonNode v) {
        return v.isValueNode() && !v.isBinary() && !v.isPojo()
                && !(v.isNumber() && Double.isNaN(v.doubleValue()));
    }

    private static boolean isFalse(Expr e, Map<String, JsonNode> params) {
        JsonNode v = constant(e, params);
        return v != null && v.isBoolean() && !v.booleanValue();
    }

    /** A value as the index holds it: strings cut to their indexed prefix. */
    private static JsonNode bound(JsonNode v) {
        return IndexTerms.bounded(v);
    }

    /** A lower bound that also finds long strings whose indexed prefix equals the (cut) bound. */
    private static KeyRange lower(JsonNode v, boolean exclusive) {
        if (v.isTextual()) {
            return KeyRange.atLeast(bound(v));
        }
        return exclusive ? KeyRange.greaterThan(v) : KeyRange.atLeast(v);
    }

    private static Expr.BinaryOp flip(Expr.BinaryOp op) {
        return switch (op) {
            case EQUAL -> Expr.BinaryOp.EQUAL;
            case LESS -> Expr.BinaryOp.GREATER;
            case LESS_OR_EQUAL -> Expr.BinaryOp.GREATER_OR_EQUAL;
            case GREATER -> Expr.BinaryOp.LESS;
            case GREATER_OR_EQUAL -> Expr.BinaryOp.LESS_OR_EQUAL;
            default -> null;
        };
    }
}
