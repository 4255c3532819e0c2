package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With physical partition ranges the session token names the serving range, {@code <rangeId>:-1#<lsn>} as Cosmos DB
 * does (azure-cosmos 4.81.0 keeps one token per range and sends it back); a request over the whole container names
 * every range.
 */
class SessionTokenRangesTest extends ServerFixture {
    static final ObjectMapper M = new ObjectMapper();

    @Override
    CosmosRestOptions options() {
        return CosmosRestOptions.defaults().withPhysicalPartitionRanges(true);
    }

    @Test
    void sessionTokensNameTheRangeThatServed() {
        String db = unique("st");
        sdk.createDatabaseIfNotExists(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(30_000));
        CosmosContainer c = sdk.getDatabase(db).getContainer("c");
        io.tetradb.core.store.ContainerStore store = core.coreStore().container(db, "c");
        Set<String> named = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            ObjectNode item = M.createObjectNode().put("id", "i" + i).put("pk", "p" + i);
            CosmosItemResponse<ObjectNode> created = c.createItem(item);
            String range = Integer.toString(store.partitionMap().route(PartitionKeys.parse("[\"p" + i + "\"]",
                    store.definition().partitionKey(), false).epk()).id());
            String token = created.getSessionToken();
            assertTrue(token.matches(range + ":-1#\\d+"), "item p" + i + " in range " + range + ": " + token);
            named.add(range);
            // the SDK sends it back on the next read of that partition; the read answers for the same range
            CosmosItemResponse<JsonNode> read = c.readItem("i" + i, new PartitionKey("p" + i),
                    new CosmosItemRequestOptions().setSessionToken(token), JsonNode.class);
            assertTrue(read.getSessionToken().startsWith(range + ":"), read.getSessionToken());
        }
        assertEquals(3, named.size(), "the items fell in every range: " + named);
        // a query over one partition key names its range; per-range pages of a cross-partition query name theirs
        String one = c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKey("p3")), JsonNode.class).iterableByPage().iterator().next()
                .getSessionToken();
        assertTrue(one.matches("\\d+:-1#\\d+"), one);
        Set<String> pageRanges = new HashSet<>();
        for (FeedResponse<JsonNode> page : c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(),
                JsonNode.class).iterableByPage(5)) {
            for (String part : page.getSessionToken().split(",")) {
                pageRanges.add(part.substring(0, part.indexOf(':')));
            }
        }
        assertEquals(named, pageRanges);
        assertEquals(List.of(30), PhysicalRangesSdkTest.values(c, "SELECT VALUE COUNT(1) FROM c"));
    }
}
