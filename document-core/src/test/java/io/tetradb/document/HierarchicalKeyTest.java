package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EffectivePartitionKey;
import io.tetradb.core.store.PartitionStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HierarchicalKeyTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void threeLevelKeysAddressItemsAndPrefixesAreContiguous(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("s",
                    new PartitionKeyDefinition().setPaths(List.of("/tenantId", "/userId", "/sessionId"))));
            CosmosContainer c = client.getDatabase("db").getContainer("s");
            c.createItem(M.createObjectNode().put("id", "1").put("tenantId", "Microsoft").put("userId", "8411f20f")
                    .put("sessionId", "0000-11-0000-1111"));
            c.createItem(M.createObjectNode().put("id", "2").put("tenantId", "Microsoft").put("userId", "8411f20f"));
            PartitionKey full = new PartitionKeyBuilder().add("Microsoft").add("8411f20f").add("0000-11-0000-1111").build();
            assertEquals("1", c.readItem("1", full, ObjectNode.class).getItem().get("id").asText());
            PartitionKey partial = new PartitionKeyBuilder().add("Microsoft").add("8411f20f").addNoneValue().build();
            assertEquals("2", c.readItem("2", partial, ObjectNode.class).getItem().get("id").asText());
            // a single-level key does not address an item of a three-level container
            assertEquals(400, assertThrows(CosmosException.class,
                    () -> c.readItem("1", new PartitionKey("Microsoft"), ObjectNode.class)).getStatusCode());
            PartitionStatistics stats = c.readPartitionStatistics();
            List<PartitionStatistics.Logical> lps = stats.physicalPartitions().get(0).largestLogicalPartitions();
            assertEquals(2, lps.size());
            for (PartitionStatistics.Logical lp : lps) {
                assertEquals(96, lp.epk().length(), "three 16-byte levels");
                // both share the first two levels, so their EPKs share the first 64 hex characters
                assertTrue(lp.epk().startsWith(lps.get(0).epk().substring(0, 64)));
            }
            assertEquals(EffectivePartitionKey.toHex(EffectivePartitionKey.hash(
                    List.of(M.getNodeFactory().textNode("Microsoft")))), lps.get(0).epk().substring(0, 32));
        }
    }

    @Test
    void fourPathsAreRefused(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            assertEquals(400, assertThrows(CosmosException.class, () -> client.getDatabase("db").createContainer(
                    new CosmosContainerProperties("x", new PartitionKeyDefinition().setPaths(
                            List.of("/a", "/b", "/c", "/d"))))).getStatusCode());
        }
    }

    @Test
    void nestedPathsNumbersBooleansAndNull(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("n", "/a/b");
            CosmosContainer c = client.getDatabase("db").getContainer("n");
            c.createItem(M.createObjectNode().put("id", "num").set("a", M.createObjectNode().put("b", 5)));
            c.createItem(M.createObjectNode().put("id", "bool").set("a", M.createObjectNode().put("b", true)));
            c.createItem(M.createObjectNode().put("id", "null").set("a", M.createObjectNode().putNull("b")));
            c.createItem(M.createObjectNode().put("id", "none"));
            assertEquals(200, c.readItem("num", new PartitionKey(5.0), ObjectNode.class).getStatusCode(), "5 and 5.0 are one key");
            assertEquals(200, c.readItem("bool", new PartitionKey(true), ObjectNode.class).getStatusCode());
            assertEquals(200, c.readItem("null", new PartitionKey(null), ObjectNode.class).getStatusCode());
            assertEquals(200, c.readItem("none", PartitionKey.NONE, ObjectNode.class).getStatusCode());
            assertEquals(404, assertThrows(CosmosException.class,
                    () -> c.readItem("null", PartitionKey.NONE, ObjectNode.class)).getStatusCode(), "null is not none");
        }
    }
}
