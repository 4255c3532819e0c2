package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.document.CompositePath;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosItemRequestOptions;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The core's reads from index keys for the graph face: counts of a composite index's entries grouped by a
 * component, the addresses of a single-path term, and point reads in one multi-get.
 */
class KeyReadsTest {
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void compositeCountsTermAddressesAndMultiReads() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk")
                    .setIndexingPolicy(new IndexingPolicy().setCompositeIndexes(List.of(List.of(
                            new CompositePath().setPath("/_isEdge"), new CompositePath().setPath("/label"))))));
            client.getDatabase("db").createContainer(new CosmosContainerProperties("plain", "/pk"));
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            c.createItem(M.createObjectNode().put("id", "a").put("pk", "X").put("label", "city"));
            c.createItem(M.createObjectNode().put("id", "b").put("pk", "Y").put("label", "city"));
            c.createItem(M.createObjectNode().put("id", "c").put("pk", "X").put("label", "town"));
            c.createItem(M.createObjectNode().put("id", "d").put("pk", "X")); // no label
            c.createItem(M.createObjectNode().put("id", "e").put("pk", "X").put("label", "city").put("_isEdge", true));
            c.createItem(M.createObjectNode().put("id", "f").put("pk", "Y").put("label", "road").put("_isEdge", true));
            c.deleteItem("c", new PartitionKey("X"), new CosmosItemRequestOptions());
            ContainerStore store = client.coreStore().container("db", "c");
            List<String> paths = List.of("/_isEdge", "/label");

            Map<JsonNode, Long> vertices = new LinkedHashMap<>();
            vertices.put(MissingNode.getInstance(), 1L); // undefined sorts first
            vertices.put(TextNode.valueOf("city"), 2L);
            assertEquals(vertices, store.countByComposite(paths, List.of(MissingNode.getInstance())));
            assertEquals(Map.of(TextNode.valueOf("city"), 1L, TextNode.valueOf("road"), 1L),
                    store.countByComposite(paths, List.of(BooleanNode.TRUE)));
            assertNull(store.countByComposite(List.of("/label", "/_isEdge"), List.of(MissingNode.getInstance())));
            assertNull(client.coreStore().container("db", "plain").countByComposite(paths,
                    List.of(MissingNode.getInstance())));

            List<ItemAddress> city = store.addressesByTerm(List.of("label"), TextNode.valueOf("city"));
            assertEquals(3, city.size()); // a, b and the edge e: a superset the caller filters
            assertEquals(List.of(), store.addressesByTerm(List.of("label"), TextNode.valueOf("town")));
            assertNull(store.addressesByTerm(List.of("_etag"), TextNode.valueOf("x"))); // not indexed

            List<ItemAddress> wanted = List.of(city.get(0), new ItemAddress(PartitionKeyValue.of(TextNode.valueOf("X")),
                    "c"), city.get(2));
            List<ItemResult> read = store.readMany(wanted);
            assertNotNull(read.get(0));
            assertNull(read.get(1)); // deleted
            for (int i : new int[]{0, 2}) {
                ItemResult one = store.read(wanted.get(i).pk(), wanted.get(i).id(), null);
                assertEquals(one.etag(), read.get(i).etag());
                assertEquals(store.codec().parse(one.stored()), store.codec().parse(read.get(i).stored()));
            }
        }
    }
}
