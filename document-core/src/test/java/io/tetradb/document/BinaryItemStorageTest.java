package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.ObjectIdNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Items stored in the binary format ({@code -Dtetradb.itemFormat=binary}) next to JSON-text items in one data
 * directory: a store opened in either mode reads both, queries (index seeks, scans with the top-level-field prefilter,
 * ORDER BY) see both, a JSON item rewritten in binary mode becomes binary, and typed values come back exactly.
 */
class BinaryItemStorageTest {
    static final ObjectMapper M = new ObjectMapper();

    @AfterEach
    void clearFormat() {
        System.clearProperty("tetradb.itemFormat");
    }

    private static CosmosClient open(Path dir, String format) {
        System.setProperty("tetradb.itemFormat", format);
        return new CosmosClientBuilder().dataDirectory(dir).buildClient();
    }

    private static ObjectNode item(String id, int n) {
        ObjectNode o = M.createObjectNode().put("id", id).put("pk", "p").put("n", n);
        o.putObject("nested").put("k", "v" + n);
        if (n % 2 == 0) {
            o.put("even", true);
        }
        return o;
    }

    private static byte format(CosmosContainer c, String id) {
        return c.store().read(PartitionKeyValue.of(M.getNodeFactory().textNode("p")), id, null).stored()[0];
    }

    private static List<String> ids(CosmosContainer c, String sql) {
        return c.queryItems(sql, new CosmosQueryRequestOptions(), ObjectNode.class).stream()
                .map(o -> o.get("id").asText()).collect(Collectors.toList());
    }

    @Test
    void bothFormatsLiveInOneDirectoryAndReadInEitherMode(@TempDir Path dir) {
        try (CosmosClient client = open(dir, "json")) {
            client.createDatabaseIfNotExists("d");
            client.getDatabase("d").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            for (int i = 0; i < 4; i++) {
                c.createItem(item("j" + i, i));
            }
            assertEquals(0x01, format(c, "j0"));
        }
        ObjectNode typed = item("typed", 99);
        typed.set("when", DateTimeNode.ofTicks(17_640_000_000_001_234L, 60));
        typed.set("oid", ObjectIdNode.ofHex("65a1b2c3d4e5f60718293a4b"));
        typed.set("price", Decimal128Node.of(new BigDecimal("19.90")));
        typed.put("big", 9_007_199_254_740_993L);
        try (CosmosClient client = open(dir, "binary")) {
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            assertEquals(item("j1", 1), strip(c.readItem("j1", new PartitionKey("p"), ObjectNode.class).getItem()));
            for (int i = 4; i < 8; i++) {
                c.createItem(item("b" + i, i));
            }
            c.upsertItem(item("j0", 100));
            c.createItem(typed);
            assertEquals(0x01, format(c, "j1"));
            assertEquals(StoredItems.FORMAT, format(c, "b4"));
            assertEquals(StoredItems.FORMAT, format(c, "j0"));
            checkQueries(c);
            ObjectNode back = c.readItem("typed", new PartitionKey("p"), ObjectNode.class).getItem();
            assertEquals(typed, strip(back));
            String etag = c.readItem("b4", new PartitionKey("p"), ObjectNode.class).getETag();
            assertEquals(etag, c.readItem("b4", new PartitionKey("p"), ObjectNode.class).getItem().get("_etag").asText());
            assertTrue(etag.startsWith("\"") && etag.endsWith("\""), etag);
        }
        try (CosmosClient client = open(dir, "json")) {
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            checkQueries(c);
            assertEquals(typed, strip(c.readItem("typed", new PartitionKey("p"), ObjectNode.class).getItem()));
            c.replaceItem(item("b5", 55), "b5", new PartitionKey("p"), null);
            assertEquals(0x01, format(c, "b5"));
            assertEquals(55, c.readItem("b5", new PartitionKey("p"), ObjectNode.class).getItem().get("n").asInt());
        }
    }

    /**
     * A typed value written into a JSON-text store is stored as its JSON view; its index entries are the view's, so
     * replacing and deleting the item leaves exactly the right entries.
     */
    @Test
    void typedValuesInAJsonTextStoreAreIndexedAsTheirJsonView(@TempDir Path dir) {
        try (CosmosClient client = open(dir, "json")) {
            client.createDatabaseIfNotExists("d");
            client.getDatabase("d").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            ObjectNode typed = item("t", 1);
            typed.set("when", DateTimeNode.ofEpochMillis(1_000));
            typed.set("price", Decimal128Node.of(new BigDecimal("1.10")));
            c.createItem(typed);
            assertEquals("1970-01-01T00:00:01.0000000Z",
                    c.readItem("t", new PartitionKey("p"), ObjectNode.class).getItem().get("when").asText());
            assertEquals(List.of("t"), ids(c, "SELECT * FROM c WHERE c[\"when\"] = '1970-01-01T00:00:01.0000000Z'"));
            c.upsertItem(item("t", 2));
            var check = client.coreStore().container("d", "c").checkIndexes();
            assertTrue(check.consistent(), check.toString());
            assertEquals(List.of(), ids(c, "SELECT * FROM c WHERE IS_DEFINED(c[\"when\"])"));
        }
    }

    private static void checkQueries(CosmosContainer c) {
        assertEquals(List.of("j1", "j2", "j3", "b4", "b5", "b6", "b7", "typed", "j0"),
                ids(c, "SELECT * FROM c WHERE c.n >= 1 ORDER BY c.n"));
        assertEquals(List.of("j2", "b4", "b6", "j0"), ids(c, "SELECT * FROM c WHERE IS_DEFINED(c.even) AND c.n > 0 ORDER BY c.n"));
        List<String> odd = ids(c, "SELECT * FROM c WHERE NOT IS_DEFINED(c.even) ORDER BY c.id");
        assertEquals(List.of("b5", "b7", "j1", "j3", "typed"), odd);
        assertEquals(List.of("b6"), ids(c, "SELECT * FROM c WHERE c.nested.k = 'v6'"));
        JsonNode when = c.queryItems("SELECT VALUE c[\"when\"] FROM c WHERE c.id = 'typed'",
                new CosmosQueryRequestOptions(), JsonNode.class).stream().findFirst().orElseThrow();
        assertFalse(when.isNull());
    }

    private static ObjectNode strip(ObjectNode o) {
        ObjectNode copy = o.deepCopy();
        copy.remove(List.of("_rid", "_self", "_etag", "_attachments", "_ts"));
        return copy;
    }
}
