package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The REST face keeps no data of its own: what the SDK writes, the core's document API reads (ETag included), and
 * what the document API writes, the SDK reads and queries.
 */
class CoreInteropTest extends ServerFixture {
    @Test
    void sdkAndCoreApiSeeTheSameItems() {
        sdk.createDatabaseIfNotExists("interop");
        sdk.getDatabase("interop").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        CosmosContainer c = sdk.getDatabase("interop").getContainer("c");
        String etag = c.createItem(Json.object().put("id", "rest").put("pk", "p").put("from", "sdk")).getETag();

        io.tetradb.document.CosmosContainer embedded = core.getDatabase("interop").getContainer("c");
        var viaCore = embedded.readItem("rest", new io.tetradb.document.PartitionKey("p"), ObjectNode.class);
        assertEquals("sdk", viaCore.getItem().get("from").asText());
        assertEquals(etag, viaCore.getItem().get("_etag").asText());

        embedded.createItem(Json.object().put("id", "core").put("pk", "p").put("from", "core"));
        assertEquals("core", c.readItem("core", new PartitionKey("p"), ObjectNode.class).getItem().get("from")
                .asText());
        assertEquals(List.of("core", "rest"), c.queryItems("SELECT VALUE c.id FROM c ORDER BY c.id", null,
                String.class).stream().toList());

        // a container made through the document API is a container to the SDK too
        core.getDatabase("interop").createContainer("embedded", "/tenant");
        assertTrue(sdk.getDatabase("interop").readAllContainers().stream().anyMatch(x -> x.getId().equals("embedded")));
        assertEquals(List.of("/tenant"), sdk.getDatabase("interop").getContainer("embedded").read().getProperties()
                .getPartitionKeyDefinition().getPaths());
    }

    /**
     * Typed values another face stored (binary items, the default) reach the SDK as their JSON view: in a point read,
     * in query filters (index seek and full scan alike), in projections and in the change feed.
     */
    @Test
    void typedValuesReachTheSdkAsTheirJsonView() {
        core.createDatabaseIfNotExists("typed");
        core.getDatabase("typed").createContainerIfNotExists("c", "/pk");
        ObjectNode typed = Json.object().put("id", "t").put("pk", "p");
        typed.set("when", io.tetradb.core.value.DateTimeNode.of(java.time.Instant.parse("2025-11-26T01:07:03.456Z")));
        typed.set("oid", io.tetradb.core.value.ObjectIdNode.ofHex("65a1b2c3d4e5f60718293a4b"));
        typed.set("price", io.tetradb.core.value.Decimal128Node.of(new java.math.BigDecimal("19.90")));
        typed.put("big", 9_007_199_254_740_993L);
        typed.putArray("days").add(io.tetradb.core.value.DateTimeNode.ofEpochMillis(0));
        core.getDatabase("typed").getContainer("c").createItem(typed);

        CosmosContainer c = sdk.getDatabase("typed").getContainer("c");
        ObjectNode read = c.readItem("t", new PartitionKey("p"), ObjectNode.class).getItem();
        assertEquals("2025-11-26T01:07:03.4560000Z", read.get("when").asText());
        assertEquals("65a1b2c3d4e5f60718293a4b", read.get("oid").asText());
        assertEquals(0, new java.math.BigDecimal("19.9").compareTo(read.get("price").decimalValue()));
        assertEquals(9_007_199_254_740_993L, read.get("big").longValue());
        assertEquals("1970-01-01T00:00:00.0000000Z", read.get("days").get(0).asText());
        for (String where : List.of("c[\"when\"] = '2025-11-26T01:07:03.4560000Z'",
                "c[\"when\"] > '2025-01-01'", "c.oid = '65a1b2c3d4e5f60718293a4b'", "c.price > 19.8 AND c.price < 20",
                "c.big = 9007199254740993", "ARRAY_CONTAINS(c.days, '1970-01-01T00:00:00.0000000Z')",
                "IS_STRING(c.oid)")) {
            assertEquals(List.of("t"), c.queryItems("SELECT VALUE c.id FROM c WHERE " + where, null, String.class)
                    .stream().toList(), where);
        }
        // numbers compare by exact value (as MongoDB compares a decimal with a double): the literal 19.9 is the
        // double nearest 19.9, which is not the decimal 19.90
        assertEquals(List.of(), c.queryItems("SELECT VALUE c.id FROM c WHERE c.price = 19.9", null, String.class)
                .stream().toList());
        assertEquals(List.of("2025-11-26T01:07:03.4560000Z"), c.queryItems("SELECT VALUE c[\"when\"] FROM c", null,
                String.class).stream().toList());
        ObjectNode change = c.queryChangeFeed(com.azure.cosmos.models.CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(com.azure.cosmos.models.FeedRange.forFullRange()), ObjectNode.class)
                .stream().findFirst().orElseThrow();
        assertEquals("65a1b2c3d4e5f60718293a4b", change.get("oid").asText());
        assertEquals("2025-11-26T01:07:03.4560000Z", change.get("when").asText());
    }
}
