package io.tetradb.cosmos;

import com.azure.cosmos.ChangeFeedProcessor;
import com.azure.cosmos.ChangeFeedProcessorBuilder;
import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.ChangeFeedPolicy;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.ChangeFeedProcessorOptions;
import com.azure.cosmos.models.ChangeFeedOperationType;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The change feed through the real azure-cosmos Java SDK (4.81.0, gateway mode): queryChangeFeed and the processor. */
class ChangeFeedSdkTest extends ServerFixture {
    static final ObjectMapper M = new ObjectMapper();

    CosmosContainer container(String id, ChangeFeedPolicy policy) {
        String db = unique("cf");
        sdk.createDatabaseIfNotExists(db);
        CosmosContainerProperties p = new CosmosContainerProperties(id, "/pk");
        if (policy != null) {
            p.setChangeFeedPolicy(policy);
        }
        sdk.getDatabase(db).createContainer(p);
        return sdk.getDatabase(db).getContainer(id);
    }

    static ObjectNode item(String id, String pk, int v) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("v", v);
    }

    /** Every page until the SDK stops (it stops on 304); returns the last continuation. */
    static String drain(CosmosContainer c, CosmosChangeFeedRequestOptions o, List<JsonNode> out) {
        String token = null;
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(o, JsonNode.class).iterableByPage()) {
            out.addAll(page.getResults());
            token = page.getContinuationToken();
        }
        return token;
    }

    static List<String> ids(List<JsonNode> changes) {
        return changes.stream().map(n -> n.get("id").asText()).toList();
    }

    @Test
    void fromBeginningNowContinuationAndPartitionKey() {
        CosmosContainer c = container("lv", null);
        c.createItem(item("a", "p1", 1));
        c.createItem(item("b", "p2", 1));
        c.upsertItem(item("a", "p1", 2));
        List<JsonNode> all = new ArrayList<>();
        String token = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()), all);
        assertEquals(List.of("b", "a"), ids(all));
        assertEquals(2, all.get(1).get("v").asInt());
        assertTrue(all.get(1).has("_lsn"));

        List<JsonNode> fromNow = new ArrayList<>();
        String nowToken = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange()),
                fromNow);
        assertEquals(List.of(), fromNow);

        c.createItem(item("c", "p1", 1));
        c.deleteItem("b", new PartitionKey("p2"), null);
        List<JsonNode> next = new ArrayList<>();
        drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), next);
        assertEquals(List.of("c"), ids(next), "deletes are not in latest-version mode");
        List<JsonNode> afterNow = new ArrayList<>();
        drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(nowToken), afterNow);
        assertEquals(List.of("c"), ids(afterNow));

        List<JsonNode> p1 = new ArrayList<>();
        drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forLogicalPartition(new PartitionKey("p1"))), p1);
        assertEquals(List.of("a", "c"), ids(p1));
    }

    @Test
    void fromPointInTime() throws Exception {
        CosmosContainer c = container("pit", null);
        c.createItem(item("old", "p1", 1));
        // If-Modified-Since has one-second resolution: the next change must commit in a later second
        long second = System.currentTimeMillis() / 1000;
        while (System.currentTimeMillis() / 1000 == second) {
            Thread.sleep(10);
        }
        Instant point = Instant.ofEpochSecond(second + 1);
        c.createItem(item("new", "p2", 1));
        List<JsonNode> changes = new ArrayList<>();
        drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromPointInTime(point, FeedRange.forFullRange()),
                changes);
        assertEquals(List.of("new"), ids(changes));
    }

    @Test
    void allVersionsAndDeletes() {
        CosmosContainer c = container("avad", ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofMinutes(30)));
        assertEquals(Duration.ofMinutes(30), c.read().getProperties().getChangeFeedPolicy()
                .getRetentionDurationForAllVersionsAndDeletesPolicy());
        List<JsonNode> none = new ArrayList<>();
        String token = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                .allVersionsAndDeletes(), none);
        c.createItem(item("x", "p1", 1));
        c.upsertItem(item("x", "p1", 2));
        c.deleteItem("x", new PartitionKey("p1"), null);
        List<ChangeFeedProcessorItem> changes = new ArrayList<>();
        for (FeedResponse<ChangeFeedProcessorItem> page : c.queryChangeFeed(CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(token), ChangeFeedProcessorItem.class).iterableByPage()) {
            changes.addAll(page.getResults());
        }
        assertEquals(3, changes.size());
        assertEquals(ChangeFeedOperationType.CREATE, changes.get(0).getChangeFeedMetaData().getOperationType());
        assertEquals(ChangeFeedOperationType.REPLACE, changes.get(1).getChangeFeedMetaData().getOperationType());
        assertEquals(2, changes.get(1).getCurrent().get("v").asInt());
        assertEquals(ChangeFeedOperationType.DELETE, changes.get(2).getChangeFeedMetaData().getOperationType());
        assertEquals(changes.get(1).getChangeFeedMetaData().getLogSequenceNumber(),
                changes.get(2).getChangeFeedMetaData().getPreviousLogSequenceNumber());
        assertEquals("x", changes.get(2).getPrevious().get("id").asText());
    }

    @Test
    void changeFeedProcessorDeliversEveryChange() throws Exception {
        String db = unique("cfp");
        sdk.createDatabaseIfNotExists(db);
        sdk.getDatabase(db).createContainer("feed", "/pk");
        sdk.getDatabase(db).createContainer("leases", "/id");
        CosmosContainer feed = sdk.getDatabase(db).getContainer("feed");
        try (CosmosAsyncClient async = new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode()
                .consistencyLevel(ConsistencyLevel.SESSION).contentResponseOnWriteEnabled(true).buildAsyncClient()) {
            CosmosAsyncContainer feedAsync = async.getDatabase(db).getContainer("feed");
            CosmosAsyncContainer leasesAsync = async.getDatabase(db).getContainer("leases");
            Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
            ChangeFeedProcessor processor = new ChangeFeedProcessorBuilder().hostName("sdk-host")
                    .feedContainer(feedAsync).leaseContainer(leasesAsync)
                    .options(new ChangeFeedProcessorOptions().setStartFromBeginning(true)
                            .setFeedPollDelay(Duration.ofMillis(100)))
                    .handleChanges(changes -> changes.forEach(n -> delivered.computeIfAbsent(n.get("id").asText(),
                            i -> new AtomicInteger()).incrementAndGet()))
                    .buildChangeFeedProcessor();
            for (int i = 0; i < 50; i++) {
                feed.createItem(item("before" + i, "p" + (i % 7), i));
            }
            processor.start().block();
            try {
                for (int i = 0; i < 50; i++) {
                    feed.createItem(item("after" + i, "p" + (i % 7), i));
                }
                Set<String> expected = new HashSet<>();
                for (int i = 0; i < 50; i++) {
                    expected.add("before" + i);
                    expected.add("after" + i);
                }
                long deadline = System.currentTimeMillis()
                        + io.tetradb.testing.TestTime.patience(Duration.ofSeconds(60)).toMillis();
                while (!delivered.keySet().containsAll(expected) && System.currentTimeMillis() < deadline) {
                    Thread.sleep(50);
                }
                assertEquals(expected, delivered.keySet());
            } finally {
                processor.stop().block();
            }
            List<JsonNode> leaseDocs = new ArrayList<>();
            sdk.getDatabase(db).getContainer("leases").queryItems("SELECT * FROM c", null, JsonNode.class)
                    .forEach(leaseDocs::add);
            assertTrue(leaseDocs.stream().anyMatch(l -> l.hasNonNull("ContinuationToken")), leaseDocs.toString());
        }
    }
}
