package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosItemRequestOptions;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Adjacency entries follow edge items written through the document API: creates, batches, replaces, deletes. */
class GraphAdjacencyTest {
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    static ObjectNode edge(String id, String label, String pk, String from, String toPk, String to) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("label", label).put("_isEdge", true)
                .put("_vertexId", from).put("_vertexLabel", "city").put("_sink", to).put("_sinkLabel", "town")
                .put("_sinkPartition", toPk);
    }

    static List<String> entries(GraphAdjacency a, String pk, String vertex, byte dir) {
        List<String> out = new ArrayList<>();
        a.scan(PartitionKeyValue.of(PartitionKeyValue.component(pk)), vertex, dir, null, e -> {
            byte[] props = e.properties();
            out.add(e.direction() + ":" + e.label() + ":" + e.otherPk().asText() + "/" + e.otherId() + ":"
                    + e.edgeId() + ":" + e.otherLabel() + ":"
                    + (props == null ? "-" : new String(props, StandardCharsets.UTF_8)));
            return true;
        });
        return out;
    }

    @Test
    void entriesFollowEdgeItemsInTheSameWrites() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("db");
            client.getDatabase("db").createContainerIfNotExists("g", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("g");
            ContainerStore store = client.coreStore().container("db", "g");
            c.createItem(edge("e0", "road", "A", "a", "B", "b")); // before adjacency: built when it is enabled
            assertNull(store.graphAdjacency());
            GraphAdjacency a = store.enableGraphAdjacency();
            assertEquals(List.of("1:road:B/b:e0:town:"), entries(a, "A", "a", GraphAdjacency.OUT));

            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("A"));
            batch.createItemOperation(edge("e1", "rail", "A", "a", "A", "a\u0000x").put("w", 3));
            batch.createItemOperation(edge("e2", "air", "A", "a", "B", "b").put("big", "x".repeat(600)));
            batch.createItemOperation(M.createObjectNode().put("id", "v").put("pk", "A")); // not an edge
            assertTrue(c.executeCosmosBatch(batch).isSuccessStatusCode());
            assertEquals(List.of("1:air:B/b:e2:town:-", "1:rail:A/a\u0000x:e1:town:{\"w\":3}", "1:road:B/b:e0:town:"),
                    entries(a, "A", "a", GraphAdjacency.OUT));
            assertEquals(List.of("2:air:A/a:e2:city:-", "2:road:A/a:e0:city:"), entries(a, "B", "b", GraphAdjacency.IN));
            assertEquals(2, a.count(PartitionKeyValue.of(PartitionKeyValue.component("B")), "b", GraphAdjacency.IN, null));
            assertEquals(1, a.count(PartitionKeyValue.of(PartitionKeyValue.component("A")), "a\u0000x",
                    GraphAdjacency.IN, "rail"));

            c.replaceItem(edge("e1", "rail", "A", "a", "A", "a\u0000x").put("w", 4), "e1", new PartitionKey("A"),
                    new CosmosItemRequestOptions());
            assertTrue(entries(a, "A", "a", GraphAdjacency.OUT).contains("1:rail:A/a\u0000x:e1:town:{\"w\":4}"));
            c.deleteItem("e2", new PartitionKey("A"), new CosmosItemRequestOptions());
            assertEquals(List.of("2:road:A/a:e0:city:"), entries(a, "B", "b", GraphAdjacency.IN));
            c.replaceItem(M.createObjectNode().put("id", "e0").put("pk", "A"), "e0", new PartitionKey("A"),
                    new CosmosItemRequestOptions()); // no longer an edge
            assertTrue(entries(a, "B", "b", GraphAdjacency.IN).isEmpty());
            GraphAdjacency.Check check = a.check();
            assertTrue(check.consistent(), check.toString());
            assertEquals(2, check.stored());
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            GraphAdjacency a = client.coreStore().container("db", "g").graphAdjacency(); // the mark is durable
            assertEquals(2, a.check().stored());
            client.getDatabase("db").getContainer("g").delete();
            client.getDatabase("db").createContainerIfNotExists("g", "/pk");
            assertFalse(client.coreStore().container("db", "g").graphAdjacency() != null);
        }
    }
}
