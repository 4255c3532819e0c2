package io.tetradb.graph.store;

import io.tetradb.document.IndexingPolicy;

import java.util.List;
import java.util.Set;

/**
 * Field names of graph items, as Azure Cosmos DB's Gremlin API lays them out.
 *
 * <pre>
 * vertex: {id, &lt;pk&gt;, label, &lt;key&gt;: [{id, _value, &lt;meta key&gt;: value, ...}, ...], ...}
 * edge:   {id, &lt;pk&gt;: source pk, label, _isEdge: true, _vertexId, _vertexLabel,
 *          _sink, _sinkLabel, _sinkPartition, &lt;key&gt;: value, ...}
 * </pre>
 * Property values are the core's typed values ({@link ValueCodec}); items written before them may carry a
 * {@code _types} sidecar, still read. A vertex field that is not such an entry array (a document another face wrote
 * into the container) is one vertex property holding that value.
 */
public final class Layout {
    public static final String ID = "id";
    public static final String LABEL = "label";
    public static final String VALUE = "_value";
    public static final String IS_EDGE = "_isEdge";
    public static final String VERTEX_ID = "_vertexId";
    public static final String VERTEX_LABEL = "_vertexLabel";
    public static final String SINK = "_sink";
    public static final String SINK_LABEL = "_sinkLabel";
    public static final String SINK_PARTITION = "_sinkPartition";

    /** The item's etag, kept in snapshots for optimistic concurrency (see {@link GraphStore#replace}). */
    public static final String ETAG = "_etag";

    /** Fields the core adds to every item; never properties; all but {@link #ETAG} are stripped when read. */
    public static final Set<String> SYSTEM = Set.of("_rid", "_self", "_attachments", "_ts");

    /** The Mongo face's identity field: another face's view of the element id, never a property. */
    public static final String MONGO_ID = "_id";

    private static final Set<String> RESERVED = Set.of(ID, LABEL, VALUE, IS_EDGE, VERTEX_ID, VERTEX_LABEL, SINK,
            SINK_LABEL, SINK_PARTITION, ValueCodec.TYPES, MONGO_ID, "_rid", "_self", "_etag", "_attachments", "_ts");

    private Layout() {
    }

    /**
     * The indexing policy of a container the graph creates: Cosmos DB's default (every path but {@code _etag}) minus
     * the layout's bookkeeping the graph never seeks on: the edge fields {@code _vertexLabel}, {@code _sinkLabel},
     * {@code _sinkPartition} (read from the edge or its adjacency entry), {@code _vertexId}, {@code _sink} (hops read
     * the core's adjacency entries instead), {@code _isEdge} ({@code g.E()} filters on it; {@code g.E().count()} and
     * label counts read the composite index below, which holds it) and an edge's {@code _types} sidecar (items of the
     * earlier shape on a JSON-text store). That leaves an edge five terms (id, _ts, the partition key, label and
     * each property) plus one composite entry, against twelve under Cosmos's default. Document-face queries on the
     * excluded fields still work (as filters). One composite index {@code (/_isEdge, /label)} holds one entry per
     * item, vertices (no {@code _isEdge}) first, each kind in label order: {@code g.V().groupCount().by(label)} and
     * {@code g.V().count()} count its keys (see {@link GraphStore#labelCounts}). Vertex property entries keep their
     * {@code id} terms: Cosmos paths have no wildcard inside, so {@code /<key>/[]/id/?} cannot be excluded for every
     * key while {@code /<key>/[]/_value/?} (what {@code has(key, ...)} seeks) stays indexed.
     */
    public static IndexingPolicy indexingPolicy() {
        return new IndexingPolicy().setExcludedPaths(List.of("/\"_etag\"/?", "/" + VERTEX_LABEL + "/?",
                "/" + SINK_LABEL + "/?", "/" + SINK_PARTITION + "/?", "/" + VERTEX_ID + "/?", "/" + SINK + "/?",
                "/" + IS_EDGE + "/?", "/" + ValueCodec.TYPES + "/*"))
                .setCompositeIndexes(List.of(GraphStore.LABEL_COUNT_INDEX.stream()
                        .map(path -> new io.tetradb.document.CompositePath().setPath(path)).toList()));
    }

    /** True when {@code field} is a vertex property's entry array: objects, each with a string id and a value. */
    public static boolean isEntries(com.fasterxml.jackson.databind.JsonNode field) {
        if (!(field instanceof com.fasterxml.jackson.databind.node.ArrayNode a) || a.isEmpty()) {
            return false;
        }
        for (com.fasterxml.jackson.databind.JsonNode e : a) {
            if (!e.isObject() || !e.path(ID).isTextual() || !e.has(VALUE)) {
                return false;
            }
        }
        return true;
    }

    /** True for names the layout uses itself: such a property key is refused. */
    public static boolean reserved(String key) {
        return RESERVED.contains(key);
    }
}
