package io.tetradb.core.partition;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.ArrayList;
import java.util.List;

/**
 * A container's partition key: one path ({@code /deviceId}, nested {@code /a/b}) hashed with Cosmos hash V2, or up to
 * three paths (hierarchical, MultiHash). Serialised as Cosmos shows it: {@code {"paths":[...],"kind":"Hash","version":2}}.
 */
public record PartitionKeyDefinition(List<String> paths, String kind, int version) {
    public static final int MAX_LEVELS = 3;

    public PartitionKeyDefinition {
        if (paths == null || paths.isEmpty()) {
            throw new StoreException(Status.BAD_REQUEST, "a partition key definition needs at least one path");
        }
        if (paths.size() > MAX_LEVELS) {
            throw new StoreException(Status.BAD_REQUEST,
                    "a hierarchical partition key has at most " + MAX_LEVELS + " paths, got " + paths.size());
        }
        for (String p : paths) {
            segments(p);
        }
        paths = List.copyOf(paths);
        if (kind == null) {
            kind = paths.size() > 1 ? "MultiHash" : "Hash";
        }
        if (version == 0) {
            version = 2;
        }
    }

    public static PartitionKeyDefinition of(String... paths) {
        return new PartitionKeyDefinition(List.of(paths), null, 2);
    }

    @JsonIgnore
    public int levels() {
        return paths.size();
    }

    /** The partition key value of an item: one component per path, {@link MissingNode} where the path is absent. */
    public PartitionKeyValue extract(JsonNode item) {
        List<JsonNode> components = new ArrayList<>(paths.size());
        for (int level = 0; level < paths.size(); level++) {
            String path = paths.get(level);
            JsonNode node = item;
            for (String segment : segmentsOf(level)) {
                node = node.isObject() ? node.path(segment) : MissingNode.getInstance();
            }
            if (node.isContainerNode()) {
                throw new StoreException(Status.BAD_REQUEST, "the partition key value at " + path
                        + " must be a string, number, boolean or null, not " + node.getNodeType().name().toLowerCase());
            }
            components.add(node);
        }
        return PartitionKeyValue.of(components);
    }

    /**
     * Whether {@code item} belongs to the logical partition {@code pk}; the same answer as
     * {@code extract(item).equals(pk)} without encoding and hashing the item's key.
     */
    public boolean matches(JsonNode item, PartitionKeyValue pk) {
        if (pk.levels() != paths.size()) {
            return false;
        }
        for (int level = 0; level < paths.size(); level++) {
            JsonNode node = item;
            for (String segment : segmentsOf(level)) {
                node = node.isObject() ? node.path(segment) : MissingNode.getInstance();
            }
            if (!sameComponent(node, pk.components().get(level))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameComponent(JsonNode a, JsonNode b) {
        if (a.isMissingNode() || a.isNull() || a.isBoolean() || a.isTextual()) {
            return a.getNodeType() == b.getNodeType() && a.equals(b);
        }
        if (a.isNumber() && b.isNumber()) {
            return Double.doubleToLongBits(a.doubleValue()) == Double.doubleToLongBits(b.doubleValue());
        }
        return false;
    }

    /** Parsed paths, shared by every definition: there are few distinct ones. */
    private static final java.util.Map<String, List<String>> SEGMENTS = new java.util.concurrent.ConcurrentHashMap<>();

    private List<String> segmentsOf(int level) {
        return SEGMENTS.computeIfAbsent(paths.get(level), PartitionKeyDefinition::segments);
    }

    /** The property names along a path; {@code /a/b} → [a, b]. */
    public static List<String> segments(String path) {
        if (path == null || path.length() < 2 || path.charAt(0) != '/' || path.endsWith("/")) {
            throw new StoreException(Status.BAD_REQUEST, "invalid partition key path '" + path
                    + "': it must look like /property or /property/nested");
        }
        List<String> segments = new ArrayList<>();
        for (String s : path.substring(1).split("/")) {
            if (s.isEmpty()) {
                throw new StoreException(Status.BAD_REQUEST, "invalid partition key path '" + path + "'");
            }
            if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
                s = s.substring(1, s.length() - 1);
            }
            segments.add(s);
        }
        return segments;
    }

    /** True when {@code path} (a JSON pointer such as {@code /a/b}) is, or contains, a partition key path. */
    public boolean touches(String pointer) {
        for (String p : paths) {
            if (p.equals(pointer) || p.startsWith(pointer + "/")) {
                return true;
            }
        }
        return false;
    }
}
