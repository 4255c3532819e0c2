package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.ArrayList;
import java.util.List;

/**
 * A container's indexing policy, ready to answer "is the scalar at this path indexed?". Cosmos DB's rules: the most
 * precise matching path wins (at equal precision an exclusion wins); {@code id} and {@code _ts} are always indexed
 * (unless the policy says {@code "systemPathsIndexed": false}, this store's own extension: see {@link #SYSTEM_PATHS});
 * mode {@code none} (or {@code automatic: false}) indexes nothing. Composite indexes ({@link #composites()}) hold every
 * item whatever the included and excluded paths say, as in Cosmos DB.
 */
public final class CompiledIndexingPolicy {
    private static final List<String> ID = List.of("id");
    private static final List<String> TS = List.of("_ts");
    /**
     * The policy property (not Cosmos DB's; absent = true) that turns off the indexing of {@code id} and {@code _ts}
     * that Cosmos DB does whatever the paths say. The Mongo face sets it false: a MongoDB collection indexes
     * {@code _id} and the user's indexes only (as Cosmos DB's API for MongoDB does), and its {@code id} (the encoded
     * {@code _id}, found by the item key) and {@code _ts} entries were two of an insert's four index keys that no
     * Mongo query reads. Without them a seek on those paths plans as a scan, and ORDER BY on them is refused as on
     * any excluded path; an explicitly included {@code /id/?} or {@code /_ts/?} path still indexes them.
     */
    public static final String SYSTEM_PATHS = "systemPathsIndexed";

    private final boolean enabled;
    private final List<PathPattern> included;
    private final List<PathPattern> excluded;
    private final List<CompositeIndex> composites;
    /** For {@link #both}: a second policy that must index a path too. */
    private final CompiledIndexingPolicy also;
    /** An included {@code /*}: no walk can be cut short (the default policy, on every write). */
    private final boolean includesRoot;
    /** {@code id} and {@code _ts} indexed whatever the paths say (Cosmos DB's rule; see {@link #SYSTEM_PATHS}). */
    private final boolean systemPaths;

    private CompiledIndexingPolicy(boolean enabled, List<PathPattern> included, List<PathPattern> excluded,
                                   List<CompositeIndex> composites) {
        this(enabled, included, excluded, composites, null, true);
    }

    private CompiledIndexingPolicy(boolean enabled, List<PathPattern> included, List<PathPattern> excluded,
                                   List<CompositeIndex> composites, CompiledIndexingPolicy also,
                                   boolean systemPaths) {
        this.enabled = enabled;
        this.systemPaths = systemPaths;
        this.included = included;
        this.excluded = excluded;
        this.composites = enabled ? composites : List.of(); // declared but not maintained when indexing is off
        this.also = also;
        this.includesRoot = included.stream().anyMatch(p -> p.segments().isEmpty());
        this.includedFirst = java.util.Set.copyOf(included.stream().filter(p -> !p.segments().isEmpty())
                .map(p -> p.segments().get(0)).toList());
    }

    /** The first segments of the included patterns: what {@link #mayIndexUnder} asks of a top-level name. */
    private final java.util.Set<String> includedFirst;

    /**
     * The paths and composite indexes that both policies index: during a rebuild from one to the other every item
     * has entries there (under one policy or the other), so queries may seek on them.
     */
    public static CompiledIndexingPolicy both(CompiledIndexingPolicy a, CompiledIndexingPolicy b) {
        List<CompositeIndex> common = a.composites.stream().filter(b.composites::contains).toList();
        return new CompiledIndexingPolicy(a.enabled && b.enabled, a.included, a.excluded, common, b, a.systemPaths);
    }

    /** The Cosmos default: every path ({@code /*}), except {@code /"_etag"/?}. */
    public static CompiledIndexingPolicy defaults() {
        return new CompiledIndexingPolicy(true, List.of(PathPattern.parse("/*")),
                List.of(PathPattern.parse("/\"_etag\"/?")), List.of());
    }

    /** From the policy's JSON as Cosmos shows it; a missing policy is the default. */
    public static CompiledIndexingPolicy of(JsonNode policy) {
        if (policy == null || policy.isNull() || policy.isMissingNode()) {
            return defaults();
        }
        String mode = policy.path("indexingMode").asText("consistent").toLowerCase();
        if (!mode.equals("consistent") && !mode.equals("none") && !mode.equals("lazy")) {
            throw new StoreException(Status.BAD_REQUEST, "indexingMode must be consistent or none, not " + mode);
        }
        boolean enabled = !mode.equals("none") && policy.path("automatic").asBoolean(true);
        List<PathPattern> included = paths(policy.path("includedPaths"));
        List<PathPattern> excluded = paths(policy.path("excludedPaths"));
        List<CompositeIndex> composites = CompositeIndexes.parse(policy.path("compositeIndexes"));
        if (enabled && !policy.has("includedPaths")) {
            included = List.of(PathPattern.parse("/*"));
        }
        if (enabled && included.stream().noneMatch(p -> p.segments().isEmpty() && p.wildcard())
                && excluded.stream().noneMatch(p -> p.segments().isEmpty() && p.wildcard())) {
            throw new StoreException(Status.BAD_REQUEST,
                    "an indexing policy must include or exclude the root path /*");
        }
        JsonNode systemPaths = policy.path(SYSTEM_PATHS);
        if (!systemPaths.isMissingNode() && !systemPaths.isBoolean()) {
            throw new StoreException(Status.BAD_REQUEST, SYSTEM_PATHS + " must be true or false");
        }
        return new CompiledIndexingPolicy(enabled, included, excluded, composites, null,
                systemPaths.asBoolean(true));
    }

    private static List<PathPattern> paths(JsonNode array) {
        List<PathPattern> out = new ArrayList<>();
        for (JsonNode p : array) {
            out.add(PathPattern.parse(p.isTextual() ? p.asText() : p.path("path").asText(null)));
        }
        return List.copyOf(out);
    }

    /** Whether the policy indexes anything at all. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * The composite indexes whose entries the store maintains (none when indexing is off), in policy order, each
     * once. Every item has exactly one entry in each, under the path id of {@link CompositeIndex#name()}.
     */
    public List<CompositeIndex> composites() {
        return composites;
    }

    /**
     * False when no path that starts with {@code prefix} can be indexed (no included pattern agrees with it on their
     * common segments), so a walk over an item may skip the value there: with a narrow policy most of an item is never
     * looked at. True is only a "maybe" ({@link #indexes} decides).
     */
    public boolean mayIndexUnder(List<String> prefix) {
        if (!enabled) {
            return false;
        }
        if (includesRoot) {
            return true;
        }
        if (prefix.size() == 1) { // a top-level name (every field of every write): one set lookup, same answer
            String name = prefix.get(0);
            return systemPaths && (name.equals("id") || name.equals("_ts")) || includedFirst.contains(name);
        }
        if (systemPaths && (startsAlike(prefix, ID) || startsAlike(prefix, TS))) {
            return true;
        }
        for (PathPattern p : included) {
            if (startsAlike(prefix, p.segments())) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code a} and {@code b} are equal on their first min(|a|, |b|) segments. */
    private static boolean startsAlike(List<String> a, List<String> b) {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            if (!a.get(i).equals(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the scalar at {@code path} (concrete segments, {@code []} for array elements) is indexed. */
    public boolean indexes(List<String> path) {
        if (!enabled || also != null && !also.indexes(path)) {
            return false;
        }
        if (systemPaths && path.size() == 1 && ("id".equals(path.get(0)) || "_ts".equals(path.get(0)))) { // graph-load
            return true;
        }
        int best = -1;
        boolean include = false;
        for (PathPattern p : included) {
            if (p.precision() > best && p.matches(path)) {
                best = p.precision();
                include = true;
            }
        }
        for (PathPattern p : excluded) {
            if (p.precision() >= best && p.matches(path)) {
                best = p.precision();
                include = false;
            }
        }
        return include;
    }
}
