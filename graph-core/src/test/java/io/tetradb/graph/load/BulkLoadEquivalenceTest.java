package io.tetradb.graph.load;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.GraphAdjacency;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bulk load gives exactly the graph that addVertex/addEdge one by one give: the same vertices and properties, the
 * same edges, and the same adjacency entries (byte for byte), each graph's entries consistent with its edge items.
 */
class BulkLoadEquivalenceTest {
    private static final List<String> PARTITIONS = List.of("eu", "us", "asia");
    private static final List<String> EDGE_LABELS = List.of("route", "contains", "knows");

    @TempDir
    Path bulkDir;
    @TempDir
    Path oneByOneDir;

    /** A random graph with typed properties, parallel edges, self-loops and edges across partitions. */
    private static TinkerGraph source(long seed) {
        Random r = new Random(seed);
        TinkerGraph g = TinkerGraph.open();
        List<Vertex> vs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            vs.add(g.addVertex(T.id, "v" + i, T.label, i % 3 == 0 ? "airport" : "country",
                    "pk", PARTITIONS.get(r.nextInt(PARTITIONS.size())), "name", "n" + i, "runways", r.nextInt(6),
                    "elev", (long) Integer.MAX_VALUE + r.nextInt(1000), "lat", r.nextDouble() * 90));
        }
        for (int i = 0; i < 400; i++) {
            Vertex a = vs.get(r.nextInt(vs.size()));
            Vertex b = i % 50 == 0 ? a : vs.get(r.nextInt(vs.size()));
            String label = EDGE_LABELS.get(r.nextInt(EDGE_LABELS.size()));
            switch (i % 4) {
                case 0 -> a.addEdge(label, b, T.id, "e" + i);
                case 1 -> a.addEdge(label, b, T.id, "e" + i, "dist", r.nextInt(10_000));
                case 2 -> a.addEdge(label, b, T.id, "e" + i, "dist", (long) r.nextInt(10_000), "since", 1.5 * i);
                default -> a.addEdge(label, b, T.id, "e" + i, "note", "x".repeat(r.nextInt(40)), "ok", r.nextBoolean());
            }
        }
        return g;
    }

    @Test
    void bulkLoadEqualsOneByOneAdds() {
        TinkerGraph source = source(18);
        try (Opened bulk = new Opened(bulkDir); Opened single = new Opened(oneByOneDir)) {
            BulkLoader.Loaded loaded = BulkLoader.into(bulk.graph).writers(2).load(source);
            assertEquals(new BulkLoader.Loaded(60, 400), loaded);

            Map<Object, Vertex> added = new HashMap<>();
            source.vertices().forEachRemaining(v -> added.put(v.id(), single.graph.addVertex(T.id, v.id(),
                    T.label, v.label(), "pk", v.value("pk"), "name", v.value("name"), "runways", v.value("runways"),
                    "elev", v.value("elev"), "lat", v.value("lat"))));
            source.edges().forEachRemaining(e -> {
                List<Object> kv = new ArrayList<>(List.of(T.id, e.id()));
                e.properties().forEachRemaining(p -> {
                    kv.add(p.key());
                    kv.add(p.value());
                });
                added.get(e.outVertex().id()).addEdge(e.label(), added.get(e.inVertex().id()), kv.toArray());
            });

            assertEquals(vertices(single.graph), vertices(bulk.graph));
            assertEquals(edges(single.graph), edges(bulk.graph));
            List<String> entries = entries(bulk.graph, source);
            assertEquals(2 * 400, entries.size(), "one entry under each end of every edge");
            assertEquals(entries(single.graph, source), entries, "the same adjacency entries, byte for byte");
            for (Opened o : List.of(bulk, single)) {
                GraphAdjacency.Check check = o.graph.store().adjacency().check();
                assertTrue(check.consistent(), check.toString());
                assertEquals(800, check.stored());
            }
        }
    }

    @TempDir
    Path batchedDir;

    /**
     * The core's bulk mode (SST ingestion, the default) against batches through the write-ahead log: the same items
     * (with their etags, i.e. lsns), the same adjacency entries byte for byte, consistent index entries, and the
     * change feed showing every element once; in several chunks (a partition written in more than one).
     */
    @Test
    void ingestedLoadEqualsBatchedLoad() {
        TinkerGraph source = source(29);
        try (Opened ingested = new Opened(bulkDir); Opened batched = new Opened(batchedDir)) {
            assertEquals(new BulkLoader.Loaded(60, 400),
                    BulkLoader.into(ingested.graph).writers(2).chunkElements(97).load(source));
            assertEquals(new BulkLoader.Loaded(60, 400),
                    BulkLoader.into(batched.graph).writers(2).ingest(false).load(source));
            Map<String, com.fasterxml.jackson.databind.JsonNode> a = withEtags(ingested.client);
            assertEquals(460, a.size());
            assertEquals(withEtags(batched.client), a);
            assertEquals(entries(batched.graph, source), entries(ingested.graph, source));
            assertEquals(vertices(batched.graph), vertices(ingested.graph));
            assertEquals(edges(batched.graph), edges(ingested.graph));
            io.tetradb.core.store.ContainerStore core = ingested.client.coreStore().container("graphdb", "graph");
            io.tetradb.core.store.ContainerStore.IndexCheck indexes = core.checkIndexes();
            assertTrue(indexes.consistent(), indexes.toString());
            assertEquals(batched.client.coreStore().container("graphdb", "graph").checkIndexes().stored(),
                    indexes.stored());
            GraphAdjacency.Check check = ingested.graph.store().adjacency().check();
            assertTrue(check.consistent(), check.toString());
            Map<String, Integer> feed = new TreeMap<>();
            ingested.client.getDatabase("graphdb").getContainer("graph").queryChangeFeed(
                    io.tetradb.document.CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                            io.tetradb.document.FeedRange.forFullRange()), com.fasterxml.jackson.databind.node.ObjectNode.class)
                    .forEach(item -> feed.merge(item.get("pk").asText() + "/" + item.get("id").asText(), 1, Integer::sum));
            assertEquals(460, feed.size());
            assertTrue(feed.values().stream().allMatch(n -> n == 1), "each element once in the change feed");
        }
    }

    @TempDir
    Path gryoDir;

    /**
     * Graph-load5: a graph read from a Gryo stream (StarGraph elements, whose properties the loader reads from their
     * maps, {@link SourceProperties}) gives the items, adjacency entries and index entries that copying the same
     * graph gives (its elements through TinkerPop's public API): list and meta-properties, typed values, edges with
     * and without properties.
     */
    @Test
    void gryoReadEqualsGraphCopy() throws java.io.IOException {
        TinkerGraph source = source(31);
        Random r = new Random(31);
        source.vertices().forEachRemaining(v -> {
            if (r.nextBoolean()) {
                v.property(org.apache.tinkerpop.gremlin.structure.VertexProperty.Cardinality.list, "tag",
                        "t" + r.nextInt(5), "since", r.nextInt(2000));
                v.property(org.apache.tinkerpop.gremlin.structure.VertexProperty.Cardinality.list, "tag",
                        "u" + r.nextInt(5));
            }
        });
        java.io.ByteArrayOutputStream gryo = new java.io.ByteArrayOutputStream();
        org.apache.tinkerpop.gremlin.structure.io.gryo.GryoWriter.build().create().writeGraph(gryo, source);
        try (Opened read = new Opened(gryoDir); Opened copied = new Opened(bulkDir)) {
            assertEquals(new BulkLoader.Loaded(60, 400), BulkLoader.into(read.graph).writers(2).read(
                    org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader.build().create(),
                    new java.io.ByteArrayInputStream(gryo.toByteArray())));
            assertEquals(new BulkLoader.Loaded(60, 400), BulkLoader.into(copied.graph).writers(2).load(source));
            Map<String, com.fasterxml.jackson.databind.JsonNode> a = items(read.client);
            assertEquals(460, a.size());
            assertEquals(items(copied.client), a);
            assertEquals(entries(copied.graph, source), entries(read.graph, source));
            io.tetradb.core.store.ContainerStore.IndexCheck indexes =
                    read.client.coreStore().container("graphdb", "graph").checkIndexes();
            assertTrue(indexes.consistent(), indexes.toString());
            assertEquals(copied.client.coreStore().container("graphdb", "graph").checkIndexes().stored(),
                    indexes.stored());
        }
    }

    /** Every stored item by its id with its etag (its lsn), without the other system properties. */
    private static Map<String, com.fasterxml.jackson.databind.JsonNode> withEtags(CosmosClient client) {
        Map<String, com.fasterxml.jackson.databind.JsonNode> out = new TreeMap<>();
        client.getDatabase("graphdb").getContainer("graph").queryItems("SELECT * FROM c",
                new io.tetradb.document.CosmosQueryRequestOptions(), com.fasterxml.jackson.databind.node.ObjectNode.class)
                .forEach(item -> {
                    item.remove(List.of("_rid", "_self", "_attachments", "_ts"));
                    item.fields().forEachRemaining(f -> f.getValue().forEach(e -> {
                        if (e instanceof com.fasterxml.jackson.databind.node.ObjectNode o && o.has("_value")) {
                            o.put("id", "-"); // vertex property ids are generated
                        }
                    }));
                    out.put(item.get("pk").asText() + "/" + item.get("id").asText(), item);
                });
        return out;
    }

    @TempDir
    Path treeDir;

    /**
     * Items the loader encodes itself (TB1 bytes, no tree: the default) are the items it builds as trees: every
     * stored item equal field by field (generated property ids aside), with list properties, meta-properties, typed
     * values, a Set and a Map, and the same adjacency entries byte for byte.
     */
    @Test
    void encodedItemsEqualTreeItems() {
        TinkerGraph source = source(7);
        Random r = new Random(7);
        source.vertices().forEachRemaining(v -> {
            v.property(org.apache.tinkerpop.gremlin.structure.VertexProperty.Cardinality.list, "tag", "t" + r.nextInt(5),
                    "since", r.nextInt(2000), "at", new java.util.Date(1_700_000_000_000L + r.nextInt(1000)));
            v.property(org.apache.tinkerpop.gremlin.structure.VertexProperty.Cardinality.list, "tag", "u" + r.nextInt(5));
            if (r.nextBoolean()) {
                v.property("set", new java.util.LinkedHashSet<>(List.of(1, 2, 3)), "f", 1.5f);
                v.property("map", Map.of("k", List.of(1L, "x")));
            }
        });
        try (Opened encoded = new Opened(bulkDir); Opened trees = new Opened(treeDir)) {
            assertEquals(new BulkLoader.Loaded(60, 400), BulkLoader.into(encoded.graph).writers(2).load(source));
            assertEquals(new BulkLoader.Loaded(60, 400),
                    BulkLoader.into(trees.graph).writers(2).encodedItems(false).load(source));
            Map<String, com.fasterxml.jackson.databind.JsonNode> a = items(encoded.client);
            assertEquals(460, a.size());
            assertEquals(items(trees.client), a);
            assertEquals(entries(trees.graph, source), entries(encoded.graph, source));
            assertEquals(vertices(trees.graph), vertices(encoded.graph));
            GraphAdjacency.Check check = encoded.graph.store().adjacency().check();
            assertTrue(check.consistent(), check.toString());
        }
    }

    /** Every stored item by its id, without system properties and with vertex property ids blanked. */
    private static Map<String, com.fasterxml.jackson.databind.JsonNode> items(CosmosClient client) {
        Map<String, com.fasterxml.jackson.databind.JsonNode> out = new TreeMap<>();
        client.getDatabase("graphdb").getContainer("graph").queryItems("SELECT * FROM c",
                new io.tetradb.document.CosmosQueryRequestOptions(), com.fasterxml.jackson.databind.node.ObjectNode.class)
                .forEach(item -> {
                    item.remove(List.of("_rid", "_self", "_etag", "_attachments", "_ts"));
                    item.fields().forEachRemaining(f -> {
                        if (f.getValue().isArray()) {
                            f.getValue().forEach(e -> {
                                if (e instanceof com.fasterxml.jackson.databind.node.ObjectNode o && o.has("_value")) {
                                    o.put("id", "-");
                                }
                            });
                        }
                    });
                    out.put(item.get("id").asText(), item);
                });
        return out;
    }

    /** Each vertex as id → label and its properties (property ids are generated, so left out). */
    private static Map<String, String> vertices(TetraGraph graph) {
        Map<String, String> out = new TreeMap<>();
        graph.vertices().forEachRemaining(v -> {
            Map<String, Object> props = new TreeMap<>();
            v.properties().forEachRemaining(p -> props.put(p.key(), p.value() + ":" + p.value().getClass().getSimpleName()));
            out.put(v.id().toString(), v.label() + props);
        });
        return out;
    }

    private static Map<String, String> edges(TetraGraph graph) {
        Map<String, String> out = new TreeMap<>();
        graph.edges().forEachRemaining(e -> {
            Map<String, Object> props = new TreeMap<>();
            e.properties().forEachRemaining(p -> props.put(p.key(), p.value() + ":" + p.value().getClass().getSimpleName()));
            out.put(e.id().toString(), e.label() + " " + e.outVertex().id() + "->" + e.inVertex().id() + props);
        });
        return out;
    }

    /** Every vertex's raw adjacency entries, in key order, as readable text with the carried property bytes. */
    private static List<String> entries(TetraGraph graph, TinkerGraph source) {
        List<String> out = new ArrayList<>();
        TreeSet<String> ids = new TreeSet<>();
        Map<String, String> pkOf = new HashMap<>();
        source.vertices().forEachRemaining(v -> {
            ids.add((String) v.id());
            pkOf.put((String) v.id(), v.value("pk"));
        });
        GraphAdjacency adjacency = graph.store().adjacency();
        for (String id : ids) {
            adjacency.scan(PartitionKeyValue.of(TextNode.valueOf(pkOf.get(id))), id, (byte) 0, null, e -> {
                byte[] props = e.properties();
                out.add(id + " " + e.direction() + " " + e.label() + " " + e.otherPk() + "/" + e.otherId() + " "
                        + e.edgeId() + " " + e.otherLabel() + " " + (props == null ? "-" : Arrays.toString(props)));
                return true;
            });
        }
        return out;
    }

    private static final class Opened implements AutoCloseable {
        final CosmosClient client;
        final TetraGraph graph;

        Opened(Path dir) {
            client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
            graph = TetraGraph.open(client, new BaseConfiguration());
        }

        @Override
        public void close() {
            graph.close();
            client.close();
        }
    }
}
