package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.eval.PlanExecutor;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.plan.IndexSeek;
import io.tetradb.core.query.plan.IndexSeekPlanner;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.plan.PartitionRouter;
import io.tetradb.core.query.plan.Pipeline;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.storage.Space;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.KeyRange;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Plans and runs one page of a query over a container: routes it to the logical partitions its filter pins, picks
 * the access path (full or partition scan, the most selective index seek, or an index-ordered read that serves the
 * ORDER BY and stops after the page), runs the pipeline, and returns the page with its continuation and what it cost.
 */
public final class ContainerQuery {
    /** Beyond this many entries a seek counts as "large": comparing candidates stays cheap. */
    static final int SELECTIVITY_PROBE = 1000;

    /** One page of results with its metrics; {@code continuation} null on the last page. */
    public record Page(List<JsonNode> results, String continuation, long documentsLoaded, long bytesLoaded,
                       long indexHits, double requestCharge, String access, long elapsedNanos,
                       java.util.function.Supplier<String> indexMetrics) {
    }

    /**
     * A read of a composite index that serves the ORDER BY: its leading {@code equalities} components pinned by
     * equality (each combination of {@code IN} values is one encoded prefix), the sort keys next.
     */
    private record CompositeRead(CompositeIndex index, int equalities, int sortKeys, List<byte[]> prefixes,
                                 String why) {
    }

    /**
     * How the items are found. {@code seek} null: scan; {@code ordered}: the seek's value order serves the sort;
     * {@code composite}: a composite index serves it.
     */
    private record Access(IndexSeek seek, boolean ordered, boolean reverse, CompositeRead composite, IdKeys ids) {
        static final Access SCAN = new Access(null, false, false, null, null);

        Access(IndexSeek seek, boolean ordered, boolean reverse) {
            this(seek, ordered, reverse, null, null);
        }

        Access(IndexSeek seek, boolean ordered, boolean reverse, CompositeRead composite) {
            this(seek, ordered, reverse, composite, null);
        }

        String id() {
            if (ids != null) {
                return "primary key " + (ids.prefix() ? "range" : "lookup") + " (" + ids.why() + ")";
            }
            if (composite != null) {
                return "composite index read on " + composite.index().name() + " (" + composite.why() + ")"
                        + (reverse ? " backwards" : "");
            }
            if (seek == null) {
                return "scan";
            }
            return (ordered ? "index-ordered read" : "index seek") + " on " + seek.path() + " (" + seek.predicate()
                    + ")" + (ordered && reverse ? " descending" : "");
        }
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
        int fingerprint = Objects.hash(plan.toString(), String.valueOf(params),
                pk == null ? 0 : Arrays.hashCode(pk.encoded()), String.valueOf(range));
        QueryToken resume = token == null ? null : QueryToken.decode(token, fingerprint);

        List<IndexSeek> candidates = IndexSeekPlanner.candidates(p.filter(), aliases, policy, params);
        checkOrderBy(p, aliases);
        IndexSeek orderedCandidate = orderedCandidate(p, aliases, candidates);
        Access composite = compositeFor(p, aliases, params, pk, policy);
        if (p.sort().size() > 1 && composite == null && container.indexingPolicy().enabled()) {
            throw new StoreException(Status.BAD_REQUEST, "The order by query does not have a corresponding composite "
                    + "index that it can be served from. Add a composite index on "
                    + p.sort().stream().map(o -> o.expr() + (o.descending() ? " DESC" : " ASC")).toList()
                    + " (or with every direction inverted) to the indexing policy.");
        }
        // inside known logical partitions, an id equality is a point lookup and an id prefix a key range
        IdKeys ids = partitions == null ? null : idKeys(p.filter(), aliases, params);
        Access byId = ids == null ? null : new Access(null, false, false, null, ids);
        Access access;
        if (resume != null) {
            access = composite != null && composite.id().equals(resume.access()) ? composite
                    : byId != null && byId.id().equals(resume.access()) ? byId
                    : fromToken(resume.access(), candidates, orderedCandidate, p);
        } else if (byId != null && (!ids.prefix() || composite == null && orderedCandidate == null)) {
            access = byId;
        } else {
            access = choose(candidates, orderedCandidate, composite, p);
        }

        PlanExecutor executor = new PlanExecutor(params, FunctionContext.forQuery(Clock.systemUTC()));
        QueryMetrics metrics = new QueryMetrics();
        List<JsonNode> results;
        String next = null;
        if (p.streams(access.ordered() || access.composite() != null)) {
            PlanExecutor.Resume from = resume == null ? null : requirePosition(resume);
            long[] window = executor.window(p);
            long wanted = Math.min(maxItems, window[1] - (from == null ? 0 : from.produced()));
            try (PlanExecutor.DocSource source = source(access, partitions, range, from == null ? null
                    : from.position(), (int) Math.min(64, Math.max(1, wanted)), metrics)) {
                PlanExecutor.Page page = executor.page(p, source, from, maxItems, maxBytes);
                results = page.results();
                if (page.next() != null) {
                    next = QueryToken.at(fingerprint, access.id(), page.next()).encode();
                }
            }
        } else {
            long offset = resume == null ? 0 : requireOffset(resume);
            List<JsonNode> all;
            try (PlanExecutor.DocSource source = source(access, partitions, range, null, 64, metrics)) {
                all = executor.all(p, source);
            }
            results = window(all, offset, maxItems, maxBytes);
            if (offset + results.size() < all.size()) {
                next = QueryToken.offset(fingerprint, access.id(), offset + results.size()).encode();
            }
        }
        double charge = RequestCharge.query(metrics.bytesLoaded)
                + RequestCharge.indexEntries((int) Math.min(Integer.MAX_VALUE, metrics.indexEntries));
        String scope = partitions == null ? (range == null ? "all partitions" : "feed range " + range)
                : partitions.size() + " logical partition(s)";
        return new Page(results, next, metrics.documentsLoaded, metrics.bytesLoaded, metrics.indexEntries, charge,
                access.id() + ", " + scope, System.nanoTime() - started,
                () -> indexMetrics(access, p, aliases, params, policy));
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
            try (PlanExecutor.DocSource source = source(Access.SCAN, pk == null ? null : List.of(pk), range, null, 64,
                    metrics)) {
                for (PlanExecutor.SourceDoc d = source.next(); d != null; d = source.next()) {
                    items.add(d.item());
                }
            }
        }
        List<JsonNode> all = io.tetradb.core.query.eval.QueryExecutor.execute(query, items, params,
                FunctionContext.forQuery(Clock.systemUTC()));
        List<JsonNode> results = window(all, offset, maxItems, maxBytes);
        String next = offset + results.size() < all.size()
                ? QueryToken.offset(fingerprint, "interpreted", offset + results.size()).encode() : null;
        return new Page(results, next, metrics.documentsLoaded, metrics.bytesLoaded, 0,
                RequestCharge.query(metrics.bytesLoaded), "scan (interpreted), "
                + (pk != null ? "1 logical partition(s)" : "all partitions"), System.nanoTime() - started,
                () -> IndexMetricsText.of(List.of(), List.of(), List.of(), List.of()));
    }

    /**
     * Cosmos DB's index metrics for this plan: the single or composite index the access path uses, and the ones that
     * would help — a single path the policy leaves out although the filter could seek on it, or a composite index
     * (equality path, sort path) when the sort is done in memory after a filter.
     */
    private String indexMetrics(Access access, Pipeline p, Map<String, List<String>> aliases,
                                Map<String, JsonNode> params, CompiledIndexingPolicy policy) {
        List<String> usedSingle = new ArrayList<>();
        List<String> usedComposite = new ArrayList<>();
        List<String> potentialSingle = new ArrayList<>();
        List<String> potentialComposite = new ArrayList<>();
        if (access.seek() != null) {
            usedSingle.add(access.seek().path() + "/?");
        }
        if (access.composite() != null) {
            usedComposite.add(IndexMetricsText.composite(access.composite().index()));
        }
        List<IndexSeek> anyPolicy = IndexSeekPlanner.candidates(p.filter(), aliases, CompiledIndexingPolicy.defaults(),
                params);
        for (IndexSeek s : anyPolicy) {
            if (!policy.indexes(s.concrete()) && !potentialSingle.contains(s.path() + "/?")) {
                potentialSingle.add(s.path() + "/?");
            }
        }
        boolean sortedInMemory = !p.sort().isEmpty() && !access.ordered() && access.composite() == null;
        if (sortedInMemory && p.sort().size() == 1) {
            List<String> sortPath = IndexSeekPlanner.pathOf(p.sort().get(0).expr(), aliases);
            for (IndexSeek s : anyPolicy) {
                if (sortPath != null && s.direct() && IndexSeekPlanner.isEquality(s) && !s.concrete().equals(sortPath)) {
                    potentialComposite.add(s.path() + " ASC, " + IndexMetricsText.path(sortPath)
                            + (p.sort().get(0).descending() ? " DESC" : " ASC"));
                    break;
                }
            }
        }
        return IndexMetricsText.of(usedSingle, potentialSingle, usedComposite, potentialComposite);
    }

    /** Results {@code [offset, ...)}: at most {@code maxItems} and about {@code maxBytes}, at least one. */
    private static List<JsonNode> window(List<JsonNode> all, long offset, int maxItems, long maxBytes) {
        int from = (int) Math.min(offset, all.size());
        int limit = (int) Math.min(all.size(), (long) from + maxItems);
        int to = from;
        long bytes = 0;
        while (to < limit && (to == from || bytes < maxBytes)) {
            bytes += all.get(to++).toString().length();
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

    /**
     * Cosmos DB's rules for ORDER BY items: each must be a property path of the FROM item (not an expression, not a
     * JOIN alias), and with a consistent indexing policy a single item's path must not be excluded from the index.
     */
    private void checkOrderBy(Pipeline p, Map<String, List<String>> aliases) {
        if (p.sort().isEmpty()) {
            return;
        }
        for (OrderByItem o : p.sort()) {
            List<String> path = aliases == null ? null : IndexSeekPlanner.pathOf(o.expr(), aliases);
            if (path != null && path.contains(io.tetradb.core.index.PathPattern.ARRAY)
                    || path == null && rootIdentifier(o.expr()) != null
                    && (aliases == null || !rootIdentifier(o.expr()).equals(p.rootAlias()))) {
                throw new StoreException(Status.BAD_REQUEST, "Order-by over correlated collections is not supported.");
            }
            if (path == null) {
                throw new StoreException(Status.BAD_REQUEST, "Unsupported ORDER BY clause. ORDER BY item expression "
                        + "could not be mapped to a document path: " + o.expr() + ".");
            }
            CompiledIndexingPolicy target = container.indexingPolicy();
            if (p.sort().size() == 1 && target.enabled() && !target.indexes(path)) {
                throw new StoreException(Status.BAD_REQUEST,
                        "The index path corresponding to the specified order-by item is excluded: " + o.expr() + ".");
            }
        }
    }

    /** The alias a property path starts from ({@code x} of {@code x.a["b"]}), or null for other expressions. */
    private static String rootIdentifier(io.tetradb.core.query.sql.Expr e) {
        while (true) {
            if (e instanceof io.tetradb.core.query.sql.Expr.PropertyAccess pa) {
                e = pa.target();
            } else if (e instanceof io.tetradb.core.query.sql.Expr.IndexAccess ia) {
                e = ia.target();
            } else {
                return e instanceof io.tetradb.core.query.sql.Expr.Identifier id ? id.name() : null;
            }
        }
    }

    // ---- choosing the access path --------------------------------------------------------------------------------

    /**
     * The candidate seek whose value order is the query's order: ORDER BY one property path of the item, and a
     * sargable predicate on that very path (it keeps only items with a scalar there, so the index holds every result).
     */
    private static IndexSeek orderedCandidate(Pipeline p, Map<String, List<String>> aliases, List<IndexSeek> candidates) {
        if (p.sort().size() != 1 || aliases == null) {
            return null;
        }
        List<String> path = IndexSeekPlanner.pathOf(p.sort().get(0).expr(), aliases);
        if (path == null || path.contains(io.tetradb.core.index.PathPattern.ARRAY)) {
            return null;
        }
        for (IndexSeek s : candidates) {
            if (s.direct() && s.concrete().equals(path)) {
                return s;
            }
        }
        return null;
    }

    private Access choose(List<IndexSeek> candidates, IndexSeek ordered, Access composite, Pipeline p) {
        if (composite != null) {
            // the composite index yields every result in order: with no selective seek it reads about one page
            IndexSeek small = null;
            long smallCount = SELECTIVITY_PROBE;
            for (IndexSeek seek : candidates) {
                if (composite.composite().why().contains(seek.predicate())) {
                    continue; // pins a leading component: the composite read already narrows to it
                }
                long count = countEntries(seek, SELECTIVITY_PROBE);
                if (count < smallCount) {
                    small = seek;
                    smallCount = count;
                }
            }
            return small == null || smallCount * 4 > SELECTIVITY_PROBE ? composite : new Access(small, false, false);
        }
        if (candidates.isEmpty()) {
            return Access.SCAN;
        }
        boolean reverse = !p.sort().isEmpty() && p.sort().get(0).descending();
        if (ordered != null && candidates.size() == 1) {
            return new Access(ordered, true, reverse);
        }
        IndexSeek best = null;
        long bestCount = Long.MAX_VALUE;
        for (IndexSeek seek : candidates) {
            long count = countEntries(seek, SELECTIVITY_PROBE);
            if (count < bestCount || count == bestCount && IndexSeekPlanner.isEquality(seek)
                    && !IndexSeekPlanner.isEquality(best)) {
                best = seek;
                bestCount = count;
            }
        }
        if (ordered != null && (best == ordered || bestCount >= SELECTIVITY_PROBE)) {
            // the ordered read stops once the page is full; a small seek plus an in-memory sort beats it otherwise
            return new Access(ordered, true, reverse);
        }
        return new Access(best, false, false);
    }

    private static Access fromToken(String id, List<IndexSeek> candidates, IndexSeek ordered, Pipeline p) {
        if (id.equals("scan")) {
            return Access.SCAN;
        }
        boolean reverse = !p.sort().isEmpty() && p.sort().get(0).descending();
        if (ordered != null && new Access(ordered, true, reverse).id().equals(id)) {
            return new Access(ordered, true, reverse);
        }
        for (IndexSeek s : candidates) {
            if (new Access(s, false, false).id().equals(id)) {
                return new Access(s, false, false);
            }
        }
        throw new StoreException(Status.BAD_REQUEST, "The continuation token is no longer valid: the container's "
                + "indexing policy changed since the first page (" + id + ").");
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

    private long countEntries(IndexSeek seek, int limit) {
        Integer pathId = container.paths().find(seek.path());
        if (pathId == null) {
            return 0;
        }
        byte[] prefix = Keys.concat(container.collIdBytes(), Keys.collId(pathId));
        long[] n = {0};
        for (KeyRange r : seek.ranges()) {
            KeyRange keys = r.withPrefix(prefix);
            container.engine().scan(Space.INDEX, keys.start(), keys.end(), kv -> ++n[0] < limit);
            if (n[0] >= limit) {
                break;
            }
        }
        return n[0];
    }

    // ---- sources -------------------------------------------------------------------------------------------------

    private PlanExecutor.DocSource source(Access access, List<PartitionKeyValue> partitions, EpkRange range,
                                          byte[] resumeAt, int firstBatch, QueryMetrics metrics) {
        byte[] collId = container.collIdBytes();
        if (access.composite() != null) {
            return compositeSource(access, partitions, range, resumeAt, firstBatch, metrics);
        }
        if (access.ids() != null) {
            return new DocScanSource(container.engine(), container.codec(), idRanges(partitions, access.ids()),
                    resumeAt, metrics);
        }
        if (access.seek() == null) {
            List<DocScanSource.Range> ranges = new ArrayList<>();
            if (partitions != null) {
                List<byte[]> prefixes = new ArrayList<>();
                for (PartitionKeyValue p : partitions) {
                    prefixes.add(Keys.concat(collId, p.epk(), p.encoded()));
                }
                prefixes.sort(Arrays::compareUnsigned);
                for (byte[] prefix : prefixes) {
                    ranges.add(new DocScanSource.Range(prefix, Keys.prefixEnd(prefix)));
                }
            } else if (range != null) {
                ranges.add(new DocScanSource.Range(Keys.concat(collId, range.min()), Keys.concat(collId, range.max())));
            } else {
                ranges.add(new DocScanSource.Range(collId, Keys.prefixEnd(collId)));
            }
            return new DocScanSource(container.engine(), container.codec(), ranges, resumeAt, metrics);
        }
        IndexSeek seek = access.seek();
        Integer pathId = container.paths().find(seek.path());
        if (pathId == null) {
            return new DocScanSource(container.engine(), container.codec(), List.of(), null, metrics); // never indexed
        }
        byte[] prefix = Keys.concat(collId, Keys.collId(pathId));
        List<String> names = seek.names();
        IndexEntrySource.EntryCheck check = access.ordered() ? directValue(names)
                : firstMatch(names, seek.ranges(), false);
        IndexEntrySource entries = new IndexEntrySource(container.engine(), container.codec(), collId, prefix,
                seek.ranges(), access.reverse(), (key, start) -> IndexKeyEncoding.skip(key, start, false),
                scope(partitions, range), check, resumeAt, firstBatch, metrics);
        return access.ordered() ? new LongStringRuns(entries, prefix.length, new boolean[] {false}, List.of(names),
                new boolean[] {access.reverse()}) : entries;
    }

    private PlanExecutor.DocSource compositeSource(Access access, List<PartitionKeyValue> partitions, EpkRange range,
                                                   byte[] resumeAt, int firstBatch, QueryMetrics metrics) {
        CompositeRead read = access.composite();
        CompositeIndex index = read.index();
        Integer pathId = container.paths().find(index.name());
        if (pathId == null) {
            return new DocScanSource(container.engine(), container.codec(), List.of(), null, metrics);
        }
        byte[] base = Keys.concat(container.collIdBytes(), Keys.collId(pathId));
        List<byte[]> prefixes = new ArrayList<>();
        for (byte[] values : read.prefixes()) {
            prefixes.add(Keys.concat(base, values));
        }
        // a position is one input's entry key: every input resumes at its own prefix followed by the same rest
        byte[] rest = null;
        if (resumeAt != null) {
            for (byte[] prefix : prefixes) {
                if (resumeAt.length >= prefix.length && Arrays.equals(resumeAt, 0, prefix.length, prefix, 0,
                        prefix.length)) {
                    rest = Arrays.copyOfRange(resumeAt, prefix.length, resumeAt.length);
                }
            }
            if (rest == null) {
                throw new StoreException(Status.BAD_REQUEST, "Invalid continuation token.");
            }
        }
        Predicate<byte[]> scope = scope(partitions, range);
        List<PlanExecutor.DocSource> inputs = new ArrayList<>();
        int[] prefixLengths = new int[prefixes.size()];
        int perInput = Math.max(4, (firstBatch + prefixes.size() - 1) / prefixes.size());
        for (int i = 0; i < prefixes.size(); i++) {
            byte[] prefix = prefixes.get(i);
            prefixLengths[i] = prefix.length;
            int first = read.equalities();
            IndexEntrySource.ValueEnd end = (key, start) -> {
                int at = start;
                for (int c = first; c < index.size(); c++) {
                    at = IndexKeyEncoding.skip(key, at, index.descending(c));
                }
                return at;
            };
            IndexEntrySource entries = new IndexEntrySource(container.engine(), container.codec(),
                    container.collIdBytes(), prefix, List.of(new KeyRange(null, null)), access.reverse(), end, scope,
                    IndexEntrySource.EntryCheck.ANY, rest == null ? null : Keys.concat(prefix, rest), perInput,
                    metrics);
            int sortKeys = read.sortKeys();
            List<List<String>> sortPaths = index.paths().subList(first, first + sortKeys);
            boolean[] stored = new boolean[sortKeys];
            boolean[] desc = new boolean[sortKeys];
            for (int j = 0; j < sortKeys; j++) {
                stored[j] = index.descending(first + j);
                desc[j] = index.descending(first + j) != access.reverse();
            }
            inputs.add(new LongStringRuns(entries, prefix.length, stored, sortPaths, desc));
        }
        return inputs.size() == 1 ? inputs.get(0) : new MergedSource(inputs, prefixLengths, access.reverse());
    }

    /** Ids pinned by the filter: {@code c.id = v}, {@code c.id IN (...)}, or a prefix by {@code STARTSWITH(c.id, p)}. */
    private record IdKeys(List<String> values, boolean prefix, String why) {
    }

    private static IdKeys idKeys(io.tetradb.core.query.sql.Expr where, Map<String, List<String>> aliases,
                                 Map<String, JsonNode> params) {
        if (where == null || aliases == null) {
            return null;
        }
        List<io.tetradb.core.query.sql.Expr> conjuncts = new ArrayList<>();
        IndexSeekPlanner.flattenConjuncts(where, conjuncts);
        IdKeys prefix = null;
        for (io.tetradb.core.query.sql.Expr e : conjuncts) {
            if (e instanceof io.tetradb.core.query.sql.Expr.Binary b
                    && b.op() == io.tetradb.core.query.sql.Expr.BinaryOp.EQUAL) {
                String v = isId(b.left(), aliases) ? text(b.right(), params)
                        : isId(b.right(), aliases) ? text(b.left(), params) : null;
                if (v != null) {
                    return new IdKeys(List.of(v), false, e.toString());
                }
            } else if (e instanceof io.tetradb.core.query.sql.Expr.In in && !in.negated() && isId(in.target(), aliases)) {
                List<String> values = new ArrayList<>();
                for (io.tetradb.core.query.sql.Expr x : in.values()) {
                    JsonNode v = IndexSeekPlanner.constant(x, params);
                    if (v == null) {
                        values = null;
                        break;
                    }
                    if (v.isTextual() && !values.contains(v.textValue())) {
                        values.add(v.textValue()); // a non-string never equals an id
                    }
                }
                if (values != null) {
                    return new IdKeys(values, false, e.toString());
                }
            } else if (e instanceof io.tetradb.core.query.sql.Expr.FunctionCall f && !f.udf()
                    && f.normalizedName().equals("STARTSWITH") && f.args().size() == 2
                    && isId(f.args().get(0), aliases)) {
                String v = text(f.args().get(1), params);
                if (v != null && prefix == null) {
                    prefix = new IdKeys(List.of(v), true, e.toString());
                }
            }
        }
        return prefix;
    }

    private static boolean isId(io.tetradb.core.query.sql.Expr e, Map<String, List<String>> aliases) {
        return List.of("id").equals(IndexSeekPlanner.pathOf(e, aliases));
    }

    private static String text(io.tetradb.core.query.sql.Expr e, Map<String, JsonNode> params) {
        JsonNode v = IndexSeekPlanner.constant(e, params);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    /** DOCS key ranges: per logical partition, the exact key of each id, or the range of an id prefix. */
    private List<DocScanSource.Range> idRanges(List<PartitionKeyValue> partitions, IdKeys ids) {
        List<DocScanSource.Range> ranges = new ArrayList<>();
        for (PartitionKeyValue p : partitions) {
            for (String id : ids.values()) {
                byte[] key = Keys.concat(container.collIdBytes(), p.epk(), p.encoded(), Keys.utf8(id));
                ranges.add(new DocScanSource.Range(key, ids.prefix() ? Keys.prefixEnd(key)
                        : Arrays.copyOf(key, key.length + 1)));
            }
        }
        ranges.sort((a, b) -> Arrays.compareUnsigned(a.from(), b.from()));
        return ranges;
    }

    /** At most this many prefixes (IN value combinations) are merged; more and the query sorts in memory. */
    private static final int MAX_MERGED_PREFIXES = 64;

    /**
     * A composite index that serves the ORDER BY: its components are some equality-pinned paths (WHERE
     * {@code c.p = v}, {@code c.p IN (...)}, or the partition key of a single-partition query) followed by the sort
     * paths, with every direction as written or every one inverted (then read backwards). Null when none does.
     */
    private Access compositeFor(Pipeline p, Map<String, List<String>> aliases, Map<String, JsonNode> params,
                                PartitionKeyValue pk, CompiledIndexingPolicy policy) {
        if (p.sort().isEmpty() || aliases == null || policy.composites().isEmpty()) {
            return null;
        }
        List<List<String>> sortPaths = new ArrayList<>();
        for (OrderByItem o : p.sort()) {
            List<String> path = IndexSeekPlanner.pathOf(o.expr(), aliases);
            if (path == null || path.contains(io.tetradb.core.index.PathPattern.ARRAY)) {
                return null;
            }
            sortPaths.add(path);
        }
        Map<List<String>, Equality> equalities = equalities(p, aliases, params, pk);
        for (CompositeIndex index : policy.composites()) {
            for (int k = index.size() - sortPaths.size(); k >= 0; k--) {
                if (!index.paths().subList(k, k + sortPaths.size()).equals(sortPaths)) {
                    continue;
                }
                boolean same = true;
                boolean inverted = true;
                for (int j = 0; j < sortPaths.size(); j++) {
                    boolean desc = p.sort().get(j).descending();
                    same &= desc == index.descending(k + j);
                    inverted &= desc != index.descending(k + j);
                }
                if (!same && !inverted) {
                    continue;
                }
                List<byte[]> prefixes = new ArrayList<>(List.of(new byte[0]));
                List<String> why = new ArrayList<>();
                for (int c = 0; c < k && prefixes != null; c++) {
                    Equality eq = equalities.get(index.paths().get(c));
                    if (eq == null || eq.values().size() * prefixes.size() > MAX_MERGED_PREFIXES) {
                        prefixes = null;
                        break;
                    }
                    why.add(eq.predicate());
                    List<byte[]> longer = new ArrayList<>();
                    for (byte[] prefix : prefixes) {
                        for (byte[] value : eq.values()) {
                            longer.add(Keys.concat(prefix, index.descending(c) ? complement(value) : value));
                        }
                    }
                    prefixes = longer;
                }
                if (prefixes != null) {
                    why.add("ORDER BY " + p.sort().stream().map(o -> o.expr() + (o.descending() ? " DESC" : ""))
                            .toList());
                    return new Access(null, false, inverted, new CompositeRead(index, k, sortPaths.size(), prefixes,
                            String.join(", ", why)));
                }
            }
        }
        return null;
    }

    /** The encoded values a path is pinned to by equality, and the predicate that pins it. */
    private record Equality(List<byte[]> values, String predicate) {
    }

    private Map<List<String>, Equality> equalities(Pipeline p, Map<String, List<String>> aliases,
                                                          Map<String, JsonNode> params, PartitionKeyValue pk) {
        Map<List<String>, Equality> out = new java.util.HashMap<>();
        // every sargable conjunct, whatever the single-path policy says: composite entries exist for every item
        for (IndexSeek s : IndexSeekPlanner.candidates(p.filter(), aliases, CompiledIndexingPolicy.defaults(), params)) {
            if (s.direct() && IndexSeekPlanner.isEquality(s) && !out.containsKey(s.concrete())) {
                List<byte[]> values = new ArrayList<>();
                s.ranges().forEach(r -> values.add(r.start()));
                out.put(s.concrete(), new Equality(values, s.predicate()));
            }
        }
        addPartitionKey(out, pk);
        return out;
    }

    private void addPartitionKey(Map<List<String>, Equality> out, PartitionKeyValue pk) {
        if (pk == null || pk.isNone()) {
            return;
        }
        List<String> paths = container.definition().partitionKey().paths();
        for (int i = 0; i < paths.size() && i < pk.components().size(); i++) {
            List<String> path = io.tetradb.core.partition.PartitionKeyDefinition.segments(paths.get(i));
            JsonNode v = pk.components().get(i);
            if (!out.containsKey(path) && v != null && !v.isMissingNode()) {
                out.put(path, new Equality(List.of(IndexKeyEncoding.encode(IndexTerms.bounded(v))),
                        "partition key " + paths.get(i)));
            }
        }
    }

    private static byte[] complement(byte[] b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) ~b[i];
        }
        return out;
    }

    /** Keeps the document keys in the query's logical partitions or feed range; null when all are in scope. */
    private Predicate<byte[]> scope(List<PartitionKeyValue> partitions, EpkRange range) {
        byte[] collId = container.collIdBytes();
        int levels = container.definition().partitionKey().levels();
        int epkBytes = 16 * levels;
        Set<ByteBuffer> allowed = null;
        if (partitions != null) {
            allowed = new HashSet<>();
            for (PartitionKeyValue p : partitions) {
                allowed.add(ByteBuffer.wrap(Keys.concat(collId, p.epk(), p.encoded())));
            }
        }
        if (allowed == null && range == null) {
            return null;
        }
        Set<ByteBuffer> inScope = allowed;
        return docKey -> {
            if (inScope != null) {
                int pkStart = collId.length + epkBytes;
                int lpEnd = pkStart + PartitionKeyValue.encodedLength(docKey, pkStart, levels);
                if (!inScope.contains(ByteBuffer.wrap(docKey, 0, lpEnd))) {
                    return false;
                }
            }
            return range == null
                    || range.contains(Arrays.copyOfRange(docKey, collId.length, collId.length + epkBytes));
        };
    }

    /**
     * An item stands at the entry of its first value (in read order) that lies in the seek's ranges: one item with
     * several matching array elements is returned once, on whichever page reads that entry.
     */
    private static IndexEntrySource.EntryCheck firstMatch(List<String> names, List<KeyRange> ranges, boolean reverse) {
        return (item, key, start, end) -> {
            byte[] first = null;
            for (JsonNode v : IndexTerms.valuesAt(item, names)) {
                byte[] enc = IndexKeyEncoding.encode(v);
                if (!inRanges(enc, ranges)) {
                    continue;
                }
                if (first == null || (reverse ? Arrays.compareUnsigned(enc, first) > 0
                        : Arrays.compareUnsigned(enc, first) < 0)) {
                    first = enc;
                }
            }
            return first != null && Arrays.equals(first, 0, first.length, key, start, end);
        };
    }

    private static boolean inRanges(byte[] enc, List<KeyRange> ranges) {
        for (KeyRange r : ranges) {
            if (r.contains(enc)) {
                return true;
            }
        }
        return false;
    }

    /**
     * For index-ordered reads: an item stands at the entry of its own scalar value at the path (not at the entries
     * of array elements, which sort elsewhere than the array itself).
     */
    private static IndexEntrySource.EntryCheck directValue(List<String> names) {
        return (item, key, start, end) -> {
            JsonNode v = item;
            for (String n : names) {
                v = v.isObject() ? v.get(n) : null;
                if (v == null) {
                    return false;
                }
            }
            if (v.isContainerNode() || v.isMissingNode()) {
                return false;
            }
            byte[] enc = IndexKeyEncoding.encode(IndexTerms.bounded(v));
            return Arrays.equals(enc, 0, enc.length, key, start, end);
        };
    }

}
