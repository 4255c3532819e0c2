package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.store.ContainerStore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A container's unique keys (Cosmos DB: unique within a logical partition; an absent value counts as null). The core
 * stores the policy but does not enforce it yet, so this face checks a write against the logical partition with a
 * query and applies it under a per-container lock, as the Mongo face does for unique indexes. Writes through other
 * faces are not checked.
 */
final class UniqueKeys {
    private final Map<Integer, Object> locks = new ConcurrentHashMap<>();

    /** The unique keys' paths, or an empty list when the container has none. */
    static List<List<String>> of(ContainerStore c) {
        JsonNode policy = c.definition().uniqueKeyPolicy();
        List<List<String>> out = new ArrayList<>();
        if (policy == null) {
            return out;
        }
        for (JsonNode k : policy.path("uniqueKeys")) {
            List<String> paths = new ArrayList<>();
            k.path("paths").forEach(p -> paths.add(p.asText()));
            if (!paths.isEmpty()) {
                out.add(paths);
            }
        }
        return out;
    }

    /**
     * Runs {@code write} after checking the items it will store ({@code after}, computed under the lock so that a
     * patch sees the item it changes), under the container's lock.
     */
    <T> T write(ContainerStore c, PartitionKeyValue pk, Supplier<List<ObjectNode>> after, Supplier<T> write) {
        List<List<String>> keys = of(c);
        if (keys.isEmpty()) {
            return write.get();
        }
        synchronized (locks.computeIfAbsent(c.definition().collId(), k -> new Object())) {
            List<ObjectNode> docs = after.get();
            for (int i = 0; i < docs.size(); i++) {
                ObjectNode doc = docs.get(i);
                if (doc == null) {
                    continue;
                }
                for (List<String> key : keys) {
                    if (exists(c, pk, doc, key)) {
                        throw new Violation(key, i);
                    }
                    for (int j = 0; j < i; j++) {
                        if (docs.get(j) != null && sameValues(docs.get(j), doc, key)
                                && !docs.get(j).path("id").equals(doc.path("id"))) {
                            throw new Violation(key, i);
                        }
                    }
                }
            }
            return write.get();
        }
    }

    /** A write that would duplicate a unique key: 409, naming the operation (of a batch) that would. */
    static final class Violation extends CosmosError {
        final int operation;

        Violation(List<String> key, int operation) {
            super(409, 0, "Unique index constraint violation: another item in this logical partition has the same "
                    + "value for the unique key " + key + ".");
            this.operation = operation;
        }
    }

    private static boolean exists(ContainerStore c, PartitionKeyValue pk, ObjectNode doc, List<String> key) {
        StringBuilder where = new StringBuilder("SELECT VALUE r.id FROM r WHERE r.id != @id");
        Map<String, JsonNode> params = new LinkedHashMap<>();
        params.put("@id", doc.path("id"));
        for (int i = 0; i < key.size(); i++) {
            String ref = ref(key.get(i));
            JsonNode v = value(doc, key.get(i));
            if (v.isMissingNode() || v.isNull()) {
                where.append(" AND (NOT IS_DEFINED(").append(ref).append(") OR IS_NULL(").append(ref).append("))");
            } else {
                where.append(" AND ").append(ref).append(" = @u").append(i);
                params.put("@u" + i, v);
            }
        }
        return !c.queryPage(SqlParser.parse(where.toString()), params, pk, null, null, 1, Long.MAX_VALUE).results()
                .isEmpty();
    }

    private static boolean sameValues(ObjectNode a, ObjectNode b, List<String> key) {
        for (String p : key) {
            JsonNode x = value(a, p);
            JsonNode y = value(b, p);
            boolean xn = x.isMissingNode() || x.isNull();
            boolean yn = y.isMissingNode() || y.isNull();
            if (!(xn && yn) && !x.equals(y)) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode value(JsonNode doc, String path) {
        JsonNode n = doc;
        for (String s : io.tetradb.core.partition.PartitionKeyDefinition.segments(path)) {
            n = n.path(s);
        }
        return n;
    }

    private static String ref(String path) {
        StringBuilder b = new StringBuilder("r");
        for (String s : io.tetradb.core.partition.PartitionKeyDefinition.segments(path)) {
            b.append('[').append(com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString()).append(']');
        }
        return b.toString();
    }
}
