package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.functions.FunctionRegistry;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.plan.Pipeline;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.value.ValueOrder;
import io.tetradb.core.value.JsonLength;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs a {@link Pipeline} over the documents an access path yields. Two modes:
 * <ul>
 * <li>{@link #page streaming}: rows go straight from the source to the page, in source order, and the page ends with
 * a {@link Resume} position (the source key of the last document used, how many of its rows were used, how many
 * results the query has produced so far), so the next page starts there without re-running anything. Used when
 * there is nothing to group, de-duplicate or sort, or the source already yields the ORDER BY order.</li>
 * <li>{@link #all materialised}: every row is read, then grouped (aggregates folded row by row, no rows kept),
 * sorted (bounded to the result window when it can be), de-duplicated and windowed.</li>
 * </ul>
 */
public final class PlanExecutor {

    /** A document the access path produced: the item, the key it was found at, its stored size. */
    public record SourceDoc(ObjectNode item, byte[] position, int storedBytes) {
    }

    /** Documents in the access path's order. */
    public interface DocSource extends AutoCloseable {
        /** The next document, or null when there are no more. */
        SourceDoc next();

        @Override
        void close();
    }

    /**
     * Where a streamed query stopped: the first {@code rowsDone} rows of the documents at {@code position} (re-read
     * on resume) were used; {@code produced} results (before OFFSET) were produced up to there.
     */
    public record Resume(byte[] position, int rowsDone, long produced) {
    }

    /** One page of a streamed query; {@code next} null when the query is complete. */
    public record Page(List<JsonNode> results, Resume next) {
    }

    private final ExpressionEvaluator eval;
    private final QueryExecutor rows;
    private final FunctionContext base;

    public PlanExecutor(Map<String, JsonNode> params, FunctionContext ctx) {
        this.base = ctx;
        this.eval = new ExpressionEvaluator(params, ctx, FunctionRegistry.standard());
        this.rows = eval.executor();
    }

    /** The result window {@code [start, end)} the pipeline's OFFSET/LIMIT/TOP select (end: MAX_VALUE if open). */
    public long[] window(Pipeline p) {
        long start = 0;
        long end = Long.MAX_VALUE;
        for (LogicalPlan.Slice s : p.slices()) {
            long offset = s.offset() == null ? 0 : rows.count(s.offset(), "OFFSET");
            long limit = s.limit() == null ? Long.MAX_VALUE : rows.count(s.limit(), s.offset() == null ? "TOP" : "LIMIT");
            start = Math.min(end, saturatedAdd(start, offset));
            end = Math.min(end, saturatedAdd(start, limit));
        }
        return new long[] {start, end};
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    /**
     * The next page of a streaming pipeline (see {@link Pipeline#streams}): at most {@code maxItems} results and
     * about {@code maxBytes} (always at least one result), starting at {@code resume} (null: the beginning; the
     * source must already start at its position).
     */
    public Page page(Pipeline p, DocSource source, Resume resume, int maxItems, long maxBytes) {
        long[] window = window(p);
        long produced = resume == null ? 0 : resume.produced();
        List<JsonNode> out = new ArrayList<>();
        if (produced >= window[1]) {
            return new Page(out, null);
        }
        boolean wholeItems = p.projection() instanceof Projection.Star && p.bindsWholeItem();
        long bytes = 0;
        // rows are counted per position: several documents may share one (a run the source re-sorts)
        byte[] position = null;
        int rowsAtPosition = 0;
        for (SourceDoc d = source.next(); d != null; d = source.next()) {
            if (!Arrays.equals(d.position(), position)) {
                position = d.position();
                rowsAtPosition = 0;
            }
            boolean resuming = resume != null && Arrays.equals(position, resume.position());
            for (Env row : rows(p, d)) {
                rowsAtPosition++;
                if (resuming && rowsAtPosition <= resume.rowsDone()) {
                    continue; // returned by an earlier page
                }
                JsonNode v = rows.project(p.projection(), p.project().starAlias(), row);
                if (v.isMissingNode()) {
                    continue;
                }
                if (produced++ < window[0]) {
                    continue;
                }
                out.add(v);
                bytes += wholeItems ? d.storedBytes() : JsonLength.of(v);
                if (produced >= window[1]) {
                    return new Page(out, null);
                }
                if (out.size() >= maxItems || bytes >= maxBytes) {
                    return new Page(out, new Resume(position, rowsAtPosition, produced));
                }
            }
        }
        return new Page(out, null);
    }

    /** Every result of the pipeline, in order, after grouping, sorting, DISTINCT and the window. */
    public List<JsonNode> all(Pipeline p, DocSource source) {
        long[] window = window(p);
        List<JsonNode> results = p.aggregate() != null ? aggregate(p, source) : sortAndProject(p, source, window);
        if (p.distinct()) {
            TreeSet<JsonNode> seen = new TreeSet<>(ValueOrder.INSTANCE);
            List<JsonNode> unique = new ArrayList<>();
            QueryMemory memory = new QueryMemory();
            for (JsonNode r : results) {
                if (seen.add(r)) {
                    memory.hold(JsonLength.of(r)); // QueryMemory
                    unique.add(r);
                }
            }
            results = unique;
        }
        int from = (int) Math.min(window[0], results.size());
        int to = (int) Math.min(results.size(), window[1]);
        return from == 0 && to == results.size() ? results : new ArrayList<>(results.subList(from, Math.max(from, to)));
    }

    /** The rows one document yields: each unwind's bindings, kept where the filter is true. */
    List<Env> rows(Pipeline p, SourceDoc d) {
        Env env = Env.empty();
        if (base != null) {
            JsonNode rid = d.item().get("_rid");
            env = env.withFunctionContext(rid != null && rid.isTextual() ? base.withItemRid(rid.textValue()) : base);
        }
        List<Env> current = List.of(env.bind(LogicalPlan.ITEM, d.item()));
        for (LogicalPlan.Unwind u : p.unwinds()) {
            List<Env> next = new ArrayList<>(current.size());
            for (Env row : current) {
                JsonNode v = eval.evaluate(u.source(), row);
                if (u.iterate()) {
                    if (v.isArray()) {
                        for (JsonNode e : v) {
                            io.tetradb.core.cancel.CallStop.tick(); // JOINs over large arrays multiply rows
                            next.add(row.bind(u.alias(), e));
                        }
                    }
                } else if (!v.isMissingNode()) {
                    next.add(row.bind(u.alias(), v));
                }
            }
            current = next;
            if (current.isEmpty()) {
                return current;
            }
        }
        if (p.filter() == null) {
            return current;
        }
        List<Env> kept = new ArrayList<>(current.size());
        for (Env row : current) {
            if (eval.isTrue(p.filter(), row)) {
                kept.add(row);
            }
        }
        return kept;
    }

    // ---------------------------------------------------------------------------------------------------- sort

    private record Keyed(List<JsonNode> key, Env row) {
    }

    private List<JsonNode> sortAndProject(Pipeline p, DocSource source, long[] window) {
        QueryMemory memory = new QueryMemory();
        List<OrderByItem> sort = p.sort();
        Comparator<Keyed> order = (a, b) -> {
            for (int i = 0; i < sort.size(); i++) {
                int c = ValueOrder.compareValues(a.key().get(i), b.key().get(i));
                if (c != 0) {
                    return sort.get(i).descending() ? -c : c;
                }
            }
            return 0;
        };
        // only the first `end` rows can be results, unless a projection may drop rows or DISTINCT merge them
        boolean bounded = !sort.isEmpty() && !p.distinct() && window[1] < 1_000_000
                && !(p.projection() instanceof Projection.Value);
        long keep = window[1];
        List<Keyed> keyed = new ArrayList<>();
        for (SourceDoc d = source.next(); d != null; d = source.next()) {
            for (Env row : rows(p, d)) {
                List<JsonNode> key = new ArrayList<>(sort.size());
                for (OrderByItem o : sort) {
                    key.add(eval.evaluate(o.expr(), row));
                }
                keyed.add(new Keyed(key, row));
            }
            if (!bounded) {
                memory.hold(d.storedBytes()); // the rows hold the document (QueryMemory); a TOP n sort keeps n
            }
            if (bounded && keyed.size() > 2 * keep + 1024) {
                keyed.sort(order); // stable: among equal keys the earlier rows stay first
                keyed.subList((int) keep, keyed.size()).clear();
            }
        }
        if (!sort.isEmpty()) {
            keyed.sort(order);
        }
        List<JsonNode> out = new ArrayList<>(keyed.size());
        for (Keyed k : keyed) {
            JsonNode v = rows.project(p.projection(), p.project().starAlias(), k.row());
            if (!v.isMissingNode()) {
                out.add(v);
            }
        }
        return out;
    }

    // ----------------------------------------------------------------------------------------------- aggregate

    private static final Comparator<List<JsonNode>> KEY_ORDER = (a, b) -> {
        for (int i = 0; i < a.size(); i++) {
            int c = ValueOrder.compareValues(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    };

    /** One group: its first row (for GROUP BY expressions and subqueries) and its folded aggregate calls. */
    private static final class Group {
        final Env first;
        final Map<Expr.FunctionCall, Aggregates.Accumulator> folded = new LinkedHashMap<>();

        Group(Env first, List<Expr.FunctionCall> calls) {
            this.first = first;
            for (Expr.FunctionCall call : calls) {
                folded.put(call, new Aggregates.Accumulator(call.normalizedName()));
            }
        }
    }

    private List<JsonNode> aggregate(Pipeline p, DocSource source) {
        LogicalPlan.Aggregate a = p.aggregate();
        Projection projection = a.projection();
        if (projection instanceof Projection.Star) {
            throw new StoreException(Status.BAD_REQUEST, "'SELECT *' is not valid with GROUP BY or aggregates.");
        }
        List<Expr> outputs = projection instanceof Projection.Value v ? List.of(v.expr())
                : ((Projection.Items) projection).items().stream().map(Projection.SelectItem::expr).toList();
        for (Expr e : outputs) {
            QueryExecutor.checkGrouped(e, a.keys());
        }
        for (Expr e : a.keys()) {
            if (e instanceof Expr.Subquery || ExpressionEvaluator.containsAggregate(e)) {
                throw new StoreException(Status.BAD_REQUEST, "GROUP BY does not allow subqueries or aggregates: " + e);
            }
        }
        List<Expr.FunctionCall> calls = new ArrayList<>();
        outputs.forEach(e -> aggregateCalls(e, calls));
        TreeMap<List<JsonNode>, Group> groups = new TreeMap<>(KEY_ORDER);
        QueryMemory memory = new QueryMemory();
        for (SourceDoc d = source.next(); d != null; d = source.next()) {
            for (Env row : rows(p, d)) {
                List<JsonNode> key = new ArrayList<>(a.keys().size());
                for (Expr e : a.keys()) {
                    key.add(eval.evaluate(e, row));
                }
                Group g = groups.get(key);
                if (g == null) {
                    g = new Group(row, calls);
                    groups.put(key, g);
                    memory.hold(d.storedBytes()); // a group keeps its first row (QueryMemory)
                }
                for (Map.Entry<Expr.FunctionCall, Aggregates.Accumulator> f : g.folded.entrySet()) {
                    JsonNode v = eval.evaluate(f.getKey().args().get(0), row);
                    if (!v.isMissingNode()) {
                        f.getValue().add(v);
                    }
                }
            }
        }
        if (groups.isEmpty() && a.keys().isEmpty()) {
            Env empty = base == null ? Env.empty() : Env.empty().withFunctionContext(base);
            groups.put(List.of(), new Group(empty, calls));
        }
        List<JsonNode> out = new ArrayList<>(groups.size());
        for (Group g : groups.values()) {
            Map<Expr.FunctionCall, JsonNode> values = new LinkedHashMap<>();
            g.folded.forEach((call, acc) -> values.put(call, acc.result()));
            JsonNode v = rows.project(projection, null, g.first.withAggregates(values));
            if (!v.isMissingNode()) {
                out.add(v);
            }
        }
        return out;
    }

    /** The aggregate calls of an output expression (not inside subqueries), checked as Cosmos checks them. */
    private static void aggregateCalls(Expr e, List<Expr.FunctionCall> out) {
        if (e instanceof Expr.FunctionCall f) {
            if (!f.udf() && ExpressionEvaluator.AGGREGATES.contains(f.normalizedName())) {
                if (f.args().size() != 1) {
                    throw new StoreException(Status.BAD_REQUEST, "The function '" + f.normalizedName()
                            + "' takes 1 argument(s), but " + f.args().size() + " were given.");
                }
                if (ExpressionEvaluator.containsAggregate(f.args().get(0))) {
                    throw new StoreException(Status.BAD_REQUEST, "Aggregate functions cannot be nested.");
                }
                if (!out.contains(f)) {
                    out.add(f);
                }
                return;
            }
        }
        Expr.children(e).forEach(x -> aggregateCalls(x, out));
    }
}
