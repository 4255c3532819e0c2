package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A container's indexing policy in Cosmos DB's shape. Stored with the container; the query engine applies it. The
 * default indexes every path ({@code /*}), as Cosmos does.
 */
public final class IndexingPolicy {
    private IndexingMode indexingMode = IndexingMode.CONSISTENT;
    private boolean automatic = true;
    private List<String> includedPaths = new ArrayList<>(List.of("/*"));
    private List<String> excludedPaths = new ArrayList<>(List.of("/\"_etag\"/?"));
    private List<List<CompositePath>> compositeIndexes = new ArrayList<>();

    public IndexingMode getIndexingMode() {
        return indexingMode;
    }

    public IndexingPolicy setIndexingMode(IndexingMode indexingMode) {
        this.indexingMode = indexingMode;
        return this;
    }

    public boolean isAutomatic() {
        return automatic;
    }

    public IndexingPolicy setAutomatic(boolean automatic) {
        this.automatic = automatic;
        return this;
    }

    /** The included path expressions, e.g. {@code /*} or {@code /deviceId/?}. */
    public List<String> getIncludedPaths() {
        return includedPaths;
    }

    public IndexingPolicy setIncludedPaths(List<String> includedPaths) {
        this.includedPaths = new ArrayList<>(includedPaths);
        return this;
    }

    public List<String> getExcludedPaths() {
        return excludedPaths;
    }

    public IndexingPolicy setExcludedPaths(List<String> excludedPaths) {
        this.excludedPaths = new ArrayList<>(excludedPaths);
        return this;
    }

    /**
     * The composite indexes: each a list of 2 to 8 paths with their orders, e.g. {@code [/name ascending, /age
     * descending]}, kept for every item whatever the included paths (what ORDER BY over several properties needs).
     */
    public List<List<CompositePath>> getCompositeIndexes() {
        return compositeIndexes;
    }

    public IndexingPolicy setCompositeIndexes(List<List<CompositePath>> compositeIndexes) {
        this.compositeIndexes = new ArrayList<>();
        if (compositeIndexes == null) {
            return this;
        }
        compositeIndexes.forEach(c -> this.compositeIndexes.add(new ArrayList<>(c)));
        return this;
    }

    /** Cosmos DB's JSON form: {@code {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],...}}. */
    ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("indexingMode", indexingMode.name().toLowerCase());
        n.put("automatic", automatic);
        ArrayNode inc = n.putArray("includedPaths");
        includedPaths.forEach(p -> inc.addObject().put("path", p));
        ArrayNode exc = n.putArray("excludedPaths");
        excludedPaths.forEach(p -> exc.addObject().put("path", p));
        if (compositeIndexes != null && !compositeIndexes.isEmpty()) {
            // [[{"path":"/name","order":"ascending"}, ...], ...]: the store validates it (400 when invalid)
            ArrayNode composites = n.putArray("compositeIndexes");
            for (List<CompositePath> composite : compositeIndexes) {
                ArrayNode c = composites.addArray();
                for (CompositePath path : composite) {
                    ObjectNode o = c.addObject().put("path", path.getPath());
                    o.put("order", (path.getOrder() == null ? CompositePathSortOrder.ASCENDING : path.getOrder()).toString());
                }
            }
        }
        return n;
    }

    static IndexingPolicy fromJson(JsonNode n) {
        IndexingPolicy p = new IndexingPolicy();
        if (n == null || n.isNull()) {
            return p;
        }
        p.indexingMode = "none".equalsIgnoreCase(n.path("indexingMode").asText("consistent"))
                ? IndexingMode.NONE : IndexingMode.CONSISTENT;
        p.automatic = n.path("automatic").asBoolean(true);
        p.includedPaths = new ArrayList<>();
        n.path("includedPaths").forEach(x -> p.includedPaths.add(x.path("path").asText()));
        p.excludedPaths = new ArrayList<>();
        n.path("excludedPaths").forEach(x -> p.excludedPaths.add(x.path("path").asText()));
        p.compositeIndexes = new ArrayList<>();
        for (JsonNode composite : n.path("compositeIndexes")) {
            List<CompositePath> paths = new ArrayList<>();
            for (JsonNode x : composite) {
                CompositePathSortOrder order = CompositePathSortOrder.fromJson(x.path("order").asText("ascending"));
                paths.add(new CompositePath().setPath(x.path("path").asText()).setOrder(order));
            }
            p.compositeIndexes.add(paths);
        }
        return p;
    }
}
