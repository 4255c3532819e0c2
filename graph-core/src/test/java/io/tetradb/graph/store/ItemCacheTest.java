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
}
