package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.plan.IndexSeek;
import io.tetradb.core.query.plan.IndexSeekPlanner;
import io.tetradb.core.query.plan.Pipeline;
import io.tetradb.core.query.sql.OrderByItem;
import io.tetradb.core.storage.Space;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.KeyRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Chooses how a query page finds its items: from the filter's sargable conjuncts (index seeks), the ORDER BY and the
 * composite indexes that could serve it (index-ordered reads), and ids inside known logical partitions (point
 * lookups and key ranges). Candidates are compared by counting their index entries, up to a probe limit.
 */
final class AccessPlanner {
    /** Beyond this many entries a seek counts as "large": comparing candidates stays cheap. */
    static final int SELECTIVITY_PROBE = 1000;

    private final ContainerStore container;

    AccessPlanner(ContainerStore container) {
        this.container = container;
    }

    /**
     * The access path of a page: for the first page the best one (a point lookup or key range by id inside known
     * logical partitions, a composite index or an index-ordered read serving the ORDER BY, the most selective seek,
     * or a scan); for a later page the one its continuation names ({@code resumeAccess}), so the plan never changes
     * under a paging client. Checks Cosmos DB's ORDER BY rules on the way (400).
     */
    AccessPath choose(Pipeline p, Map<String, List<String>> aliases, Map<String, JsonNode> params, PartitionKeyValue pk,
                      List<PartitionKeyValue> partitions, CompiledIndexingPolicy policy, String resumeAccess) {
        // a page resumes the seek its first page chose, even if the path turned multikey since (a concurrent write)
        java.util.function.Predicate<String> singleValued = resumeAccess != null ? path -> true
                : path -> !container.paths().isMultikey(path);
        List<IndexSeek> candidates = IndexSeekPlanner.candidates(p.filter(), aliases, policy, params, singleValued);
        checkOrderBy(p, aliases);
        IndexSeek orderedCandidate = orderedCandidate(p, aliases, candidates);
        // inside known logical partitions, an id equality is a point lookup and an id prefix or range a key range
        AccessPath.IdKeys ids = partitions == null ? null : idKeys(p.filter(), aliases, params);
        AccessPath byId = ids == null ? null : new AccessPath(null, false, false, null, ids);
        boolean lookup = ids != null && !ids.prefix() && ids.range() == null;
        // a few ids sorted in memory beat an index-ordered read from the partition's start
        boolean smallRange = resumeAccess == null && ids != null && ids.range() != null
                && smallIdRange(partitions, ids);
        if (resumeAccess == null && (lookup || smallRange) && p.sort().size() <= 1) {
            return byId; // chosen whatever else could serve the sort: no composite index to look for
        }
        AccessPath composite = compositeFor(p, aliases, params, pk, policy);
        if (p.sort().size() > 1 && composite == null && container.indexingPolicy().enabled()) {
            throw new StoreException(Status.BAD_REQUEST, "The order by query does not have a corresponding composite "
                    + "index that it can be served from. Add a composite index on "
                    + p.sort().stream().map(o -> o.expr() + (o.descending() ? " DESC" : " ASC")).toList()
                    + " (or with every direction inverted) to the indexing policy.");
        }
        AccessPath access;
        if (resumeAccess != null) {
            access = composite != null && composite.id().equals(resumeAccess) ? composite
                    : byId != null && byId.id().equals(resumeAccess) ? byId
                    : fromToken(resumeAccess, candidates, orderedCandidate, p);
        } else if (byId != null && (lookup || smallRange || composite == null && orderedCandidate == null)) {
            access = byId;
        } else {
            access = mostSelective(candidates, orderedCandidate, composite, p);
        }
        return access;
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

    private AccessPath mostSelective(List<IndexSeek> candidates, IndexSeek ordered, AccessPath composite,
                                     Pipeline p) {
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
            return small == null || smallCount * 4 > SELECTIVITY_PROBE ? composite : new AccessPath(small, false, false);
        }
        if (candidates.isEmpty()) {
            return AccessPath.SCAN;
        }
        boolean reverse = !p.sort().isEmpty() && p.sort().get(0).descending();
        if (ordered != null && candidates.size() == 1) {
            return new AccessPath(ordered, true, reverse);
        }
        if (candidates.size() == 1) {
            return new AccessPath(candidates.get(0), false, false); // nothing to compare it with: no count
        }
        IndexSeek best = null;
        long bestCount = Long.MAX_VALUE;
        // equalities first, and each later candidate counted only as far as the best so far: a selective seek
        // makes comparing the others cheap
        List<IndexSeek> byKind = new ArrayList<>(candidates);
        byKind.sort((a, b) -> Boolean.compare(!IndexSeekPlanner.isEquality(a), !IndexSeekPlanner.isEquality(b)));
        for (IndexSeek seek : byKind) {
            long count = countEntries(seek, bestCount >= SELECTIVITY_PROBE ? SELECTIVITY_PROBE : (int) bestCount + 1);
            if (count < bestCount || count == bestCount && IndexSeekPlanner.isEquality(seek)
                    && !IndexSeekPlanner.isEquality(best)) {
                best = seek;
                bestCount = count;
            }
        }
        if (ordered != null && (best == ordered || bestCount >= SELECTIVITY_PROBE)) {
            // the ordered read stops once the page is full; a small seek plus an in-memory sort beats it otherwise
            return new AccessPath(ordered, true, reverse);
        }
        return new AccessPath(best, false, false);
    }

    private static AccessPath fromToken(String id, List<IndexSeek> candidates, IndexSeek ordered, Pipeline p) {
        if (id.equals("scan")) {
            return AccessPath.SCAN;
        }
        boolean reverse = !p.sort().isEmpty() && p.sort().get(0).descending();
        if (ordered != null && new AccessPath(ordered, true, reverse).id().equals(id)) {
            return new AccessPath(ordered, true, reverse);
        }
        for (IndexSeek s : candidates) {
            if (new AccessPath(s, false, false).id().equals(id)) {
                return new AccessPath(s, false, false);
            }
        }
        throw new StoreException(Status.BAD_REQUEST, "The continuation token is no longer valid: the container's "
                + "indexing policy changed since the first page (" + id + ").");
    }

    /**
     * Whether an id range holds few enough documents ({@code SELECTIVITY_PROBE / 4}, as for seeks against a composite
     * read) that reading them all and sorting beats an ordered read. Counts keys only: no value is read.
     */
    private boolean smallIdRange(List<PartitionKeyValue> partitions, AccessPath.IdKeys ids) {
        int limit = SELECTIVITY_PROBE / 4;
        int n = 0;
        for (DocScanSource.Range r : new AccessSources(container).idRanges(partitions, ids)) {
            try (io.tetradb.core.storage.KeyCursor cursor = container.reads().items(r.from(), r.to(),
                    false)) {
                while (cursor.next()) {
                    if (++n > limit) {
                        return false;
                    }
                }
            }
        }
        return true;
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
            container.reads().scanEntries(keys.start(), keys.end(), kv -> ++n[0] < limit);
            if (n[0] >= limit) {
                break;
            }
        }
        return n[0];
    }

    private static AccessPath.IdKeys idKeys(io.tetradb.core.query.sql.Expr where, Map<String, List<String>> aliases,
                                 Map<String, JsonNode> params) {
        if (where == null || aliases == null) {
            return null;
        }
        List<io.tetradb.core.query.sql.Expr> conjuncts = new ArrayList<>();
        IndexSeekPlanner.flattenConjuncts(where, conjuncts);
        AccessPath.IdKeys prefix = null;
        IdBounds bounds = new IdBounds();
        for (io.tetradb.core.query.sql.Expr e : conjuncts) {
            bounds.add(e, aliases, params);
            if (e instanceof io.tetradb.core.query.sql.Expr.Binary b
                    && b.op() == io.tetradb.core.query.sql.Expr.BinaryOp.EQUAL) {
                String v = isId(b.left(), aliases) ? text(b.right(), params)
                        : isId(b.right(), aliases) ? text(b.left(), params) : null;
                if (v != null) {
                    return new AccessPath.IdKeys(List.of(v), false, e.toString());
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
                    return new AccessPath.IdKeys(values, false, e.toString());
                }
            } else if (e instanceof io.tetradb.core.query.sql.Expr.FunctionCall f && !f.udf()
                    && f.normalizedName().equals("STARTSWITH") && f.args().size() == 2
                    && isId(f.args().get(0), aliases)) {
                String v = text(f.args().get(1), params);
                if (v != null && prefix == null) {
                    prefix = new AccessPath.IdKeys(List.of(v), true, e.toString());
                }
            }
        }
        return prefix != null ? prefix : bounds.keys();
    }

    /**
     * The bounds of {@code c.id} a filter's conjuncts set ({@code c.id >= 'a'}, {@code 'b' > c.id}, ...), the
     * tightest of each side. Bounds with chars ≥ U+D800 are left to the filter: there the key order (UTF-8 bytes)
     * and SQL's string order (UTF-16 units) can disagree.
     */
    private static final class IdBounds {
        private String from;
        private boolean fromInclusive;
        private String to;
        private boolean toInclusive;
        private final List<String> why = new ArrayList<>();

        void add(io.tetradb.core.query.sql.Expr e, Map<String, List<String>> aliases, Map<String, JsonNode> params) {
            if (!(e instanceof io.tetradb.core.query.sql.Expr.Binary b)) {
                return;
            }
            io.tetradb.core.query.sql.Expr.BinaryOp op = b.op();
            String v;
            if (isId(b.left(), aliases)) {
                v = text(b.right(), params);
            } else if (isId(b.right(), aliases)) {
                v = text(b.left(), params);
                op = flipped(op);
            } else {
                return;
            }
            if (v == null || op == null || !keyOrderSafe(v)) {
                return;
            }
            switch (op) {
                case GREATER, GREATER_OR_EQUAL -> {
                    boolean inclusive = op == io.tetradb.core.query.sql.Expr.BinaryOp.GREATER_OR_EQUAL;
                    int c = from == null ? 1 : v.compareTo(from);
                    if (c > 0 || c == 0 && !inclusive) {
                        from = v;
                        fromInclusive = inclusive;
                    }
                }
                case LESS, LESS_OR_EQUAL -> {
                    boolean inclusive = op == io.tetradb.core.query.sql.Expr.BinaryOp.LESS_OR_EQUAL;
                    int c = to == null ? -1 : v.compareTo(to);
                    if (c < 0 || c == 0 && !inclusive) {
                        to = v;
                        toInclusive = inclusive;
                    }
                }
                default -> {
                    return;
                }
            }
            why.add(e.toString());
        }

        AccessPath.IdKeys keys() {
            return why.isEmpty() ? null : new AccessPath.IdKeys(List.of(), false, String.join(" AND ", why),
                    new AccessPath.IdRange(from, fromInclusive, to, toInclusive));
        }

        /** The comparison with its sides swapped ({@code 'a' < c.id} is {@code c.id > 'a'}); null for others. */
        private static io.tetradb.core.query.sql.Expr.BinaryOp flipped(io.tetradb.core.query.sql.Expr.BinaryOp op) {
            return switch (op) {
                case LESS -> io.tetradb.core.query.sql.Expr.BinaryOp.GREATER;
                case LESS_OR_EQUAL -> io.tetradb.core.query.sql.Expr.BinaryOp.GREATER_OR_EQUAL;
                case GREATER -> io.tetradb.core.query.sql.Expr.BinaryOp.LESS;
                case GREATER_OR_EQUAL -> io.tetradb.core.query.sql.Expr.BinaryOp.LESS_OR_EQUAL;
                default -> null;
            };
        }

        /** No char ≥ U+D800: below it UTF-8 bytes and UTF-16 units order strings alike, against any other string. */
        static boolean keyOrderSafe(String s) {
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) >= '\uD800') {
                    return false;
                }
            }
            return true;
        }
    }

    private static boolean isId(io.tetradb.core.query.sql.Expr e, Map<String, List<String>> aliases) {
        return List.of("id").equals(IndexSeekPlanner.pathOf(e, aliases));
    }

    private static String text(io.tetradb.core.query.sql.Expr e, Map<String, JsonNode> params) {
        JsonNode v = IndexSeekPlanner.constant(e, params);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    /** At most this many prefixes (IN value combinations) are merged; more and the query sorts in memory. */
    private static final int MAX_MERGED_PREFIXES = 64;

    /**
     * A composite index that serves the ORDER BY: its components are some equality-pinned paths (WHERE
     * {@code c.p = v}, {@code c.p IN (...)}, or the partition key of a single-partition query) followed by the sort
     * paths, with every direction as written or every one inverted (then read backwards). Null when none does.
     */
    private AccessPath compositeFor(Pipeline p, Map<String, List<String>> aliases, Map<String, JsonNode> params,
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
                    return new AccessPath(null, false, inverted, new AccessPath.CompositeRead(index, k, sortPaths.size(), prefixes,
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

    /**
     * Cosmos DB's index metrics for this plan: the single or composite index the access path uses, and the ones that
     * would help — a single path the policy leaves out although the filter could seek on it, or a composite index
     * (equality path, sort path) when the sort is done in memory after a filter.
     */
    String indexMetrics(AccessPath access, Pipeline p, Map<String, List<String>> aliases,
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
}
