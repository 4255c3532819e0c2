package io.tetradb.core.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.SqlQuery;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Routes a query to logical partitions when its WHERE clause pins the partition key: a conjunct
 * {@code c.<key path> = v} or {@code c.<key path> IN (v, ...)} for every level of the key. Every item the query keeps
 * then lives in one of those partitions, so the others are never read.
 */
public final class PartitionRouter {
    private PartitionRouter() {
    }

    /** The logical partitions the query can touch, or null when it may touch any (fan-out). */
    public static List<PartitionKeyValue> route(SqlQuery query, PartitionKeyDefinition key, Map<String, JsonNode> params) {
        if (query.where() == null || query.from() == null) {
            return null;
        }
        return route(query.where(), IndexSeekPlanner.aliases(query), key, params);
    }

    /** The logical partitions a filter allows (aliases as {@link IndexSeekPlanner#aliases(Pipeline)}), or null. */
    public static List<PartitionKeyValue> route(Expr where, Map<String, List<String>> aliases, PartitionKeyDefinition key,
                                                Map<String, JsonNode> params) {
        if (where == null || aliases == null) {
            return null;
        }
        List<Expr> conjuncts = new ArrayList<>();
        IndexSeekPlanner.flattenAnd(where, conjuncts);
        List<List<JsonNode>> levels = new ArrayList<>();
        for (String path : key.paths()) {
            List<String> segments = PartitionKeyDefinition.segments(path);
            List<JsonNode> values = valuesFor(segments, conjuncts, aliases, params);
            if (values == null) {
                return null;
            }
            levels.add(values);
        }
        Set<PartitionKeyValue> out = new LinkedHashSet<>();
        combine(levels, 0, new ArrayList<>(), out);
        return List.copyOf(out);
    }

    /**
     * For a hierarchical key whose filter pins only its first levels (one value each): those levels' values, whose
     * EPK is the prefix of every EPK under them, so the query reads one EPK range. Null otherwise.
     */
    public static List<JsonNode> prefix(Expr where, Map<String, List<String>> aliases, PartitionKeyDefinition key,
                                        Map<String, JsonNode> params) {
        if (where == null || aliases == null || key.levels() < 2) {
            return null;
        }
        List<Expr> conjuncts = new ArrayList<>();
        IndexSeekPlanner.flattenAnd(where, conjuncts);
        List<JsonNode> pinned = new ArrayList<>();
        for (String path : key.paths()) {
            List<JsonNode> values = valuesFor(PartitionKeyDefinition.segments(path), conjuncts, aliases, params);
            if (values == null || values.size() != 1) {
                break;
            }
            pinned.add(values.get(0));
        }
        return pinned.isEmpty() || pinned.size() == key.levels() ? null : pinned;
    }

    /** The values one conjunct pins the root-alias path {@code segments} to, or null. */
    private static List<JsonNode> valuesFor(List<String> segments, List<Expr> conjuncts,
                                            Map<String, List<String>> aliases, Map<String, JsonNode> params) {
        for (Expr e : conjuncts) {
            if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.EQUAL) {
                JsonNode v = pinned(b.left(), b.right(), segments, aliases, params);
                if (v == null) {
                    v = pinned(b.right(), b.left(), segments, aliases, params);
                }
                if (v != null) {
                    return List.of(v);
                }
            } else if (e instanceof Expr.In in && !in.negated() && segments.equals(IndexSeekPlanner.path(in.target(), aliases))) {
                List<JsonNode> values = new ArrayList<>();
                for (Expr x : in.values()) {
                    JsonNode v = IndexSeekPlanner.constant(x, params);
                    if (v == null || !partitionKeyScalar(v)) {
                        return null;
                    }
                    values.add(v);
                }
                return values;
            }
        }
        return null;
    }

    private static JsonNode pinned(Expr path, Expr value, List<String> segments, Map<String, List<String>> aliases,
                                   Map<String, JsonNode> params) {
        if (!segments.equals(IndexSeekPlanner.path(path, aliases))) {
            return null;
        }
        JsonNode v = IndexSeekPlanner.constant(value, params);
        return v != null && partitionKeyScalar(v) ? v : null;
    }

    /** Values that can be a partition key (and that Cosmos '=' can match): strings, numbers, booleans, null. */
    private static boolean partitionKeyScalar(JsonNode v) {
        return v.isTextual() || v.isNumber() && !Double.isNaN(v.doubleValue()) || v.isBoolean() || v.isNull();
    }

    private static void combine(List<List<JsonNode>> levels, int level, List<JsonNode> prefix, Set<PartitionKeyValue> out) {
        if (level == levels.size()) {
            out.add(PartitionKeyValue.of(prefix));
            return;
        }
        for (JsonNode v : levels.get(level)) {
            prefix.add(v);
            combine(levels, level + 1, prefix, out);
            prefix.remove(prefix.size() - 1);
        }
    }
}
