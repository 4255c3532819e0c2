package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.eval.PlanExecutor;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.plan.IndexSeekPlanner;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.plan.PartitionRouter;
import io.tetradb.core.query.plan.Pipeline;
import io.tetradb.core.value.JsonLength;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Plans and runs one page of a query over a container: routes it to the logical partitions its filter pins, picks
 * the access path (full or partition scan, the most selective index seek, or an index-ordered read that serves the
 * ORDER BY and stops after the page), runs the pipeline, and returns the page with its continuation and what it cost.
 */
public final class ContainerQuery {
    /** One page of results with its metrics; {@code continuation} null on the last page. */
    public record Page(List<JsonNode> results, String continuation, long documentsLoaded, long bytesLoaded,
                       long indexHits, double requestCharge, String access, long elapsedNanos,
                       java.util.function.Supplier<String> indexMetrics,
                       java.util.function.Supplier<ObjectNode> explain) {
    }

    /** The page with its charge at a consistency level's factor (see {@link RequestCharge#atFactor}). */
    static Page atFactor(Page p, int factor) {
        if (factor == 1) {
            return p;
        }
        return new Page(p.results(), p.continuation(), p.documentsLoaded(), p.bytesLoaded(), p.indexHits(),
                RequestCharge.atFactor(p.requestCharge(), factor), p.access(), p.elapsedNanos(), p.indexMetrics(),
                p.explain());
    }

    private final ContainerStore container;

    ContainerQuery(ContainerStore container) {
        this.container = container;
    }

    Page page(LogicalPlan plan, Map<String, JsonNode> params, PartitionKeyValue pk, EpkRange range, String token,
              int maxItems, long maxBytes) {
        long started = System.nanoTime();
        while (true) {
            CompiledIndexingPolicy policy = container.seekablePolicy();
            Page page = page(plan, params, pk, range, token, maxItems, maxBytes, policy, started);
            // a policy change that started while the page read the index may have moved entries under it: again
            if (container.seekablePolicy() == policy || page.access().startsWith("scan")) {
                return page;
            }
        }
    }

    private Page page(LogicalPlan plan, Map<String, JsonNode> params, PartitionKeyValue pk, EpkRange range,
                      String token, int maxItems, long maxBytes, CompiledIndexingPolicy policy, long started) {
        Pipeline p = Pipeline.of(plan);
        Map<String, List<String>> aliases = IndexSeekPlanner.aliases(p);
        List<PartitionKeyValue> partitions = pk != null ? List.of(pk)
                : PartitionRouter.route(p.filter(), aliases, container.definition().partitionKey(), params);
        if (partitions == null && pk == null) {
            List<JsonNode> prefix = PartitionRouter.prefix(p.filter(), aliases, container.definition().partitionKey(),
                    params);
            if (prefix != null) {
                range = intersect(range, EpkRange.prefixOf(PartitionKeyValue.of(prefix).epk()));
            }
        }
        EpkRange inRange = range;
        if (partitions != null && range != null) {
            partitions = partitions.stream().filter(x -> inRange.contains(x.epk())).toList();
        }
        // only continuations need the fingerprint: unparsing the plan for every page is a visible cost of small queries
        EpkRange fingerprintRange = range;
        java.util.function.IntSupplier fingerprint = () -> Objects.hash(plan.toString(), String.valueOf(params),
                pk == null ? 0 : Arrays.hashCode(pk.encoded()), String.valueOf(fingerprintRange));
        QueryToken resume = token == null ? null : QueryToken.decode(token, fingerprint.getAsInt());

        AccessPath access = new AccessPlanner(container).choose(p, aliases, params, pk, partitions, policy,
                resume == null ? null : resume.access());

        io.tetradb.core.query.functions.UdfResolver udfs = container.scripts().udfResolver();
        PlanExecutor executor = new PlanExecutor(params, FunctionContext.forQuery(Clock.systemUTC()).withUdfs(udfs));
        QueryMetrics metrics = new QueryMetrics();
        List<JsonNode> results;
        String next = null;
        if (p.streams(access.ordered() || access.composite() != null)) {
            PlanExecutor.Resume from = resume == null ? null : requirePosition(resume);
            long[] window = executor.window(p);
            long wanted = Math.min(maxItems, window[1] - (from == null ? 0 : from.produced()));
            try (PlanExecutor.DocSource source = new AccessSources(container).prefilter(TopLevelFields.prefilter(p)).source(access, partitions, range, from == null ? null
                    : from.position(), (int) Math.min(64, Math.max(1, wanted)), metrics)) {
                PlanExecutor.Page page = executor.page(p, source, from, maxItems, maxBytes);
                results = page.results();
                if (page.next() != null) {
                    next = QueryToken.at(fingerprint.getAsInt(), access.id(), page.next()).encode();
                }
            }
        } else {
            long offset = resume == null ? 0 : requireOffset(resume);
            List<JsonNode> all;
            try (PlanExecutor.DocSource source = new AccessSources(container).prefilter(TopLevelFields.prefilter(p)).source(access, partitions, range, null, 64, metrics)) {
                all = executor.all(p, source);
            }
            results = window(all, offset, maxItems, maxBytes);
            if (offset + results.size() < all.size()) {
                next = QueryToken.offset(fingerprint.getAsInt(), access.id(), offset + results.size()).encode();
            }
        }
        double charge = udfs.cpuCharge() + RequestCharge.query(metrics.bytesLoaded, metrics.indexEntries);
        String scope = partitions == null ? (range == null ? "all partitions" : "feed range " + range)
                : partitions.size() + " logical partition(s)";
        List<PartitionKeyValue> explainedPartitions = partitions;
        return new Page(results, next, metrics.documentsLoaded, metrics.bytesLoaded, metrics.indexEntries, charge,
                access.id() + ", " + scope, System.nanoTime() - started,
                () -> new AccessPlanner(container).indexMetrics(access, p, aliases, params, policy),
                () -> QueryExplain.of(plan, p, aliases, params, policy, access, explainedPartitions, scope));
    }

    /**
     * A query the plan IR does not express yet (no FROM clause, or a subquery as the FROM source): the in-memory
     * interpreter runs it over every item in scope, and pages are offsets into its result.
     */
    Page interpreted(io.tetradb.core.query.sql.SqlQuery query, Map<String, JsonNode> params, PartitionKeyValue pk,
                     EpkRange range, String token, int maxItems, long maxBytes) {
        long started = System.nanoTime();
        int fingerprint = Objects.hash(query.toString(), String.valueOf(params),
                pk == null ? 0 : Arrays.hashCode(pk.encoded()), String.valueOf(range));
        long offset = token == null ? 0 : requireOffset(QueryToken.decode(token, fingerprint));
        QueryMetrics metrics = new QueryMetrics();
        List<ObjectNode> items = new ArrayList<>();
        if (query.from() != null) {
            try (PlanExecutor.DocSource source = new AccessSources(container).source(AccessPath.SCAN, pk == null ? null : List.of(pk), range, null, 64,
                    metrics)) {
                for (PlanExecutor.SourceDoc d = source.next(); d != null; d = source.next()) {
                    items.add(d.item());
                }
            }
        }
        io.tetradb.core.query.functions.UdfResolver udfs = container.scripts().udfResolver();
        List<JsonNode> all = io.tetradb.core.query.eval.QueryExecutor.execute(query, items, params,
                FunctionContext.forQuery(Clock.systemUTC()).withUdfs(udfs));
        List<JsonNode> results = window(all, offset, maxItems, maxBytes);
        String next = offset + results.size() < all.size()
                ? QueryToken.offset(fingerprint, "interpreted", offset + results.size()).encode() : null;
        return new Page(results, next, metrics.documentsLoaded, metrics.bytesLoaded, 0,
                RequestCharge.query(metrics.bytesLoaded) + udfs.cpuCharge(), "scan (interpreted), "
                + (pk != null ? "1 logical partition(s)" : "all partitions"), System.nanoTime() - started,
                () -> IndexMetricsText.of(List.of(), List.of(), List.of(), List.of()),
                () -> com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                        .put("plan", "interpreted in memory (no FROM clause, or a subquery as the FROM source)")
                        .put("accessPath", "scan"));
    }

    /** Results {@code [offset, ...)}: at most {@code maxItems} and about {@code maxBytes}, at least one. */
    private static List<JsonNode> window(List<JsonNode> all, long offset, int maxItems, long maxBytes) {
        int from = (int) Math.min(offset, all.size());
        int limit = (int) Math.min(all.size(), (long) from + maxItems);
        int to = from;
        long bytes = 0;
        while (to < limit && (to == from || bytes < maxBytes)) {
            bytes += JsonLength.of(all.get(to++));
        }
        return new ArrayList<>(all.subList(from, to));
    }

    /** The EPKs in both ranges (null: unbounded); an empty intersection is an empty range. */
    static EpkRange intersect(EpkRange a, EpkRange b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        byte[] min = EpkRange.compare(a.min(), b.min()) >= 0 ? a.min() : b.min();
        byte[] max = EpkRange.compare(a.max(), b.max()) <= 0 ? a.max() : b.max();
        return EpkRange.compare(min, max) < 0 ? new EpkRange(min, max) : new EpkRange(min, min);
    }

    private static PlanExecutor.Resume requirePosition(QueryToken t) {
        if (t.position() == null) {
            throw new StoreException(Status.BAD_REQUEST, "Invalid continuation token.");
        }
        return t.resume();
    }

    private static long requireOffset(QueryToken t) {
        if (t.position() != null) {
            throw new StoreException(Status.BAD_REQUEST, "Invalid continuation token.");
        }
        return t.offset();
    }
}
