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

    /** Cosmos DB's JSON form: {@code {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],...}}. */
    ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("indexingMode", indexingMode.name().toLowerCase());
        n.put("automatic", automatic);
        ArrayNode inc = n.putArray("includedPaths");
        includedPaths.forEach(p -> inc.addObject().put("path", p));
        ArrayNode exc = n.putArray("excludedPaths");
        excludedPaths.forEach(p -> exc.addObject().put("path", p));
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
        return p;
    }
}
