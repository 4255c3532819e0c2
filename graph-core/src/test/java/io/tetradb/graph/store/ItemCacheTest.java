package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The parsed-item caches (graph and core) never hide a write, whichever face made it. */
class ItemCacheTest {
    @TempDir
    Path dir;

    @Test
    void aWriteThroughTheDocumentFaceIsSeenByTheNextRead() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             TetraGraph graph = TetraGraph.open(client, new BaseConfiguration())) {
            GraphTraversalSource g = graph.traversal();
            g.addV("city").property(T.id, "Seattle").property("pk", "USA").property("name", "Seattle").as("a")
                    .addV("city").property(T.id, "Tacoma").property("pk", "USA").property("name", "Tacoma").as("b")
                    .addE("road").from("a").to("b").property(T.id, "I5").property("miles", 30).iterate();
            List<Object> sea = Arrays.asList("USA", "Seattle");
            for (int i = 0; i < 3; i++) { // read often enough to be cached everywhere
                assertEquals("Seattle", g.V(sea).values("name").next());
                assertEquals(30, g.V(sea).outE("road").values("miles").next());
                assertEquals("Tacoma", g.V(sea).out("road").values("name").next());
            }
            CosmosContainer c = client.getDatabase("graphdb").getContainer("graph");
            ObjectNode vertex = c.readItem("Seattle", new PartitionKey("USA"), ObjectNode.class).getItem();
            ((ObjectNode) ((ArrayNode) vertex.get("name")).get(0)).put("_value", "Emerald City");
            c.replaceItem(vertex, "Seattle", new PartitionKey("USA"), null);
            ObjectNode edge = c.readItem("I5", new PartitionKey("USA"), ObjectNode.class).getItem();
            edge.put("miles", 32);
            c.replaceItem(edge, "I5", new PartitionKey("USA"), null);

            assertEquals("Emerald City", g.V(sea).values("name").next(), "point read after a document-face write");
            assertEquals(32, g.V(sea).outE("road").values("miles").next(), "adjacency after a document-face write");
            assertEquals(1, g.V().has("name", "Emerald City").count().next());
            c.deleteItem("Tacoma", new PartitionKey("USA"), null);
            assertFalse(g.V(Arrays.asList("USA", "Tacoma")).hasNext(), "a deleted vertex is gone");
        }
    }

    /**
     * item-stamps (session 29): a cached vertex is current by its own write stamp, so adding vertices and edges to its
     * partition leaves it cached, and a write of it — through Gremlin or the document face — does not.
     */
    @Test
    void aCachedVertexStaysCurrentWhileOtherItemsOfItsPartitionAreWritten() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             TetraGraph graph = TetraGraph.open(client, new BaseConfiguration())) {
            GraphTraversalSource g = graph.traversal();
            g.addV("city").property(T.id, "Seattle").property("pk", "USA").property("name", "Seattle").iterate();
            List<Object> sea = Arrays.asList("USA", "Seattle");
            assertEquals("Seattle", g.V(sea).values("name").next());
            org.junit.jupiter.api.Assertions.assertTrue(graph.store().cachesCurrent("USA", "Seattle"));

            g.addV("city").property(T.id, "Portland").property("pk", "USA").as("p").V(sea)
                    .addE("road").to("p").property(T.id, "I5").iterate();
            org.junit.jupiter.api.Assertions.assertTrue(graph.store().cachesCurrent("USA", "Seattle"),
                    "a vertex and an edge added beside it");
            assertEquals(1L, g.V(sea).out("road").count().next());

            g.V(sea).property("name", "Emerald City").iterate();
            assertFalse(graph.store().cachesCurrent("USA", "Seattle"), "its own write");
            assertEquals("Emerald City", g.V(sea).values("name").next());
            org.junit.jupiter.api.Assertions.assertTrue(graph.store().cachesCurrent("USA", "Seattle"));

            CosmosContainer c = client.getDatabase("graphdb").getContainer("graph");
            ObjectNode vertex = c.readItem("Seattle", new PartitionKey("USA"), ObjectNode.class).getItem();
            ((ObjectNode) ((ArrayNode) vertex.get("name")).get(0)).put("_value", "Jet City");
            c.replaceItem(vertex, "Seattle", new PartitionKey("USA"), null);
            assertFalse(graph.store().cachesCurrent("USA", "Seattle"), "a write through the document face");
            assertEquals("Jet City", g.V(sea).values("name").next());
        }
    }

    /**
     * adjacency stamps (session 29): a cached adjacency list is current by its vertex and direction's own stamp, so
     * edges written elsewhere — in another partition, to other vertices — leave it cached, and an edge of its own,
     * written from another partition, does not.
     */
    @Test
    void aCachedAdjacencyListStaysCurrentUntilOneOfItsOwnEntriesIsWritten() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             TetraGraph graph = TetraGraph.open(client, new BaseConfiguration())) {
            GraphTraversalSource g = graph.traversal();
            g.addV("city").property(T.id, "Seattle").property("pk", "USA").as("s")
                    .addV("city").property(T.id, "Vancouver").property("pk", "CAN").as("v")
                    .addV("city").property(T.id, "Mexico City").property("pk", "MEX").as("m")
                    .addE("road").from("s").to("v").property(T.id, "I5").iterate();
            List<Object> sea = Arrays.asList("USA", "Seattle");
            List<Object> van = Arrays.asList("CAN", "Vancouver");
            byte in = io.tetradb.core.store.GraphAdjacency.IN;
            byte out = io.tetradb.core.store.GraphAdjacency.OUT;
            assertEquals(List.of(sea), g.V(van).in("road").id().toList());
            assertEquals(List.of(van), g.V(sea).out("road").id().toList());
            org.junit.jupiter.api.Assertions.assertTrue(graph.store().cachesAdjacency("CAN", "Vancouver", in, "road"));
            org.junit.jupiter.api.Assertions.assertTrue(graph.store().cachesAdjacency("USA", "Seattle", out, "road"));

            g.V(Arrays.asList("MEX", "Mexico City")).addE("road").to(__.V(sea)).property(T.id, "CA-1").iterate();
            org.junit.jupiter.api.Assertions.assertTrue(graph.store().cachesAdjacency("CAN", "Vancouver", in, "road"),
                    "an edge between two other vertices");
            org.junit.jupiter.api.Assertions.assertTrue(graph.store().cachesAdjacency("USA", "Seattle", out, "road"),
                    "an in-edge of the vertex leaves its out-list");

            g.V(Arrays.asList("MEX", "Mexico City")).addE("road").to(__.V(van)).property(T.id, "long-way").iterate();
            assertFalse(graph.store().cachesAdjacency("CAN", "Vancouver", in, "road"), "its own in-edge");
            assertEquals(2, g.V(van).in("road").id().toList().size());
            assertEquals(List.of(Arrays.asList("MEX", "Mexico City")), g.V(sea).in("road").id().toList());
        }
    }

    /**
     * graph-trav: a vertex cached as a lazily decoded tree is charged {@link ItemCache#estimateStored} of its stored
     * bytes (walking it would decode it); for vertices the graph writes (every property entry has its generated id,
     * list and meta-properties, typed values, long and short strings) that is never below {@link
     * ItemCache#estimate} of the whole decoded tree, so the byte bound still holds.
     */
    @Test
    void aStoredVertexsSizeBoundsItsDecodedTree() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             TetraGraph graph = TetraGraph.open(client, new BaseConfiguration())) {
            GraphTraversalSource g = graph.traversal();
            java.util.Random random = new java.util.Random(11);
            List<io.tetradb.core.store.ItemAddress> addresses = new java.util.ArrayList<>();
            for (int i = 0; i < 300; i++) {
                var t = g.addV("v").property(T.id, "v" + i).property("pk", "p" + (i % 5));
                int properties = random.nextInt(30);
                for (int k = 0; k < properties; k++) {
                    Object value = switch (random.nextInt(5)) {
                        case 0 -> random.nextInt(3);
                        case 1 -> random.nextBoolean();
                        case 2 -> "s".repeat(random.nextInt(3));
                        case 3 -> random.nextDouble();
                        default -> "x".repeat(random.nextInt(200));
                    };
                    t = random.nextInt(4) == 0
                            ? t.property(org.apache.tinkerpop.gremlin.structure.VertexProperty.Cardinality.list,
                            "k" + random.nextInt(4), value, "m", random.nextInt(2), "n", "")
                            : t.property(random.nextBoolean() ? "a" : "k" + k, value);
                }
                t.iterate();
                addresses.add(new io.tetradb.core.store.ItemAddress(GraphStore.partitionKeyValue("p" + (i % 5)),
                        "v" + i));
            }
            var core = client.coreStore().container("graphdb", "graph");
            for (io.tetradb.core.store.ItemResult r : core.readMany(addresses)) {
                byte[] stored = r.stored();
                ObjectNode tree = io.tetradb.core.item.StoredItems.parse(stored);
                org.junit.jupiter.api.Assertions.assertTrue(
                        ItemCache.estimate(tree) <= ItemCache.estimateStored(stored.length),
                        ItemCache.estimate(tree) + " > " + ItemCache.estimateStored(stored.length) + " for " + tree);
            }
        }
    }
    /**
     * graph-trav: the values {@code values(k)} took from a cached vertex are kept with it (only immutable ones), count
     * in the byte bound, are never found for other keys nor once the item was read again, and leave with the entry.
     */
    @Test
    void keptValuesCountInTheByteBoundAndLeaveWithTheirItem() {
        com.fasterxml.jackson.databind.node.JsonNodeFactory f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        ObjectNode item = f.objectNode().put("id", "v1").put("_etag", "\"1\"");
        item.putArray("name").addObject().put("id", "n").put("_value", "x");
        ItemCache cache = new ItemCache(100, 2_000);
        ItemCache.Entry e = cache.put("p", "v1", item, 7);
        long itemBytes = cache.bytes();
        String[] keys = {"name"};
        cache.keepValues(e, keys, List.of("x", 3));
        assertEquals(List.of("x", 3), cache.get("p", "v1").values(keys));
        assertEquals(null, e.values(new String[]{"age"}));
        org.junit.jupiter.api.Assertions.assertTrue(cache.bytes() > itemBytes, "kept values are counted");
        assertEquals(cache.bytes(), e.bytes());

        cache.keepValues(e, new String[]{"tags"}, List.of(new java.util.ArrayList<>(List.of("a"))));
        assertEquals(List.of("x", 3), e.values(keys), "a mutable value is not kept (nor replaces what is)");

        List<Object> many = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            many.add("s" + i);
        }
        cache.keepValues(e, new String[]{"big"}, many);
        assertEquals(null, e.values(new String[]{"big"}), "past the byte bound nothing is kept");
        org.junit.jupiter.api.Assertions.assertTrue(cache.bytes() <= 2_000);

        ItemCache.Entry reread = cache.put("p", "v1", item, 8);
        assertEquals(null, reread.values(keys), "a new read of the item starts without values");
        assertEquals(itemBytes, cache.bytes(), "the replaced entry's values left the count with it");
        cache.keepValues(e, keys, List.of("stale")); // the replaced entry: not kept, not counted
        assertEquals(itemBytes, cache.bytes());
        cache.keepValues(reread, keys, List.of("x"));
        cache.remove("p", "v1");
        assertEquals(0, cache.bytes());
    }
}
