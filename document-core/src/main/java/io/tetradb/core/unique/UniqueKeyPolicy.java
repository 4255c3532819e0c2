package io.tetradb.core.unique;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;

import java.util.ArrayList;
import java.util.List;

/**
 * A container's unique key policy as Cosmos DB defines it: {@code {"uniqueKeys": [{"paths": ["/a", "/b/c"]}, …]}},
 * at most 10 keys of at most 16 paths each. Each key is unique within a logical partition; a missing value counts as
 * null (so two items without the path collide).
 */
public final class UniqueKeyPolicy {
    public static final int MAX_KEYS = 10;
    public static final int MAX_PATHS = 16;
    public static final UniqueKeyPolicy NONE = new UniqueKeyPolicy(List.of(), List.of());

    private final List<List<String>> keys;
    private final List<List<List<String>>> segments;

    private UniqueKeyPolicy(List<List<String>> keys, List<List<List<String>>> segments) {
        this.keys = keys;
        this.segments = segments;
    }

    /** Parses and validates a policy (null or without keys: none); 400 when Cosmos DB would refuse it. */
    public static UniqueKeyPolicy of(JsonNode policy) {
        if (policy == null || policy.isNull() || policy.isMissingNode()) {
            return NONE;
        }
        JsonNode list = policy.path("uniqueKeys");
        if (list.isMissingNode() || list.isNull()) {
            return NONE;
        }
        if (!list.isArray()) {
            throw bad("uniqueKeyPolicy.uniqueKeys must be an array");
        }
        if (list.size() > MAX_KEYS) {
            throw bad("The number of unique keys " + list.size() + " exceeds the maximum of " + MAX_KEYS + ".");
        }
        List<List<String>> keys = new ArrayList<>();
        List<List<List<String>>> segments = new ArrayList<>();
        for (JsonNode k : list) {
            JsonNode paths = k.path("paths");
            if (!paths.isArray() || paths.isEmpty()) {
                throw bad("Every unique key needs a non-empty 'paths' array.");
            }
            if (paths.size() > MAX_PATHS) {
                throw bad("The number of paths " + paths.size() + " in a unique key exceeds the maximum of "
                        + MAX_PATHS + ".");
            }
            List<String> key = new ArrayList<>();
            List<List<String>> keySegments = new ArrayList<>();
            for (JsonNode p : paths) {
                if (!p.isTextual() || !p.textValue().startsWith("/") || p.textValue().length() < 2
                        || p.textValue().contains("*") || p.textValue().contains("[]")) {
                    throw bad("The unique key path " + p + " is invalid: a path starts with '/' and names one "
                            + "property, without wildcards.");
                }
                if (key.contains(p.textValue())) {
                    throw bad("The unique key path " + p + " appears twice in one unique key.");
                }
                key.add(p.textValue());
                keySegments.add(PartitionKeyDefinition.segments(p.textValue()));
            }
            keys.add(List.copyOf(key));
            segments.add(List.copyOf(keySegments));
        }
        return new UniqueKeyPolicy(List.copyOf(keys), List.copyOf(segments));
    }

    private static StoreException bad(String message) {
        return new StoreException(Status.BAD_REQUEST, message);
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** Each key's paths, as given. */
    public List<List<String>> keys() {
        return keys;
    }

    /** The values of key {@code k} in {@code item}; a missing value is null. */
    public List<JsonNode> values(int k, JsonNode item) {
        List<List<String>> paths = segments.get(k);
        List<JsonNode> out = new ArrayList<>(paths.size());
        for (List<String> path : paths) {
            JsonNode v = item;
            for (String s : path) {
                v = v.path(s);
            }
            out.add(v.isMissingNode() ? NullNode.getInstance() : v);
        }
        return out;
    }
}
