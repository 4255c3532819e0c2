package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.feed.FeedPruner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The change feed through the azure-cosmos-style API: start points, modes, scopes, continuations, pruning. */
class ChangeFeedTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabaseIfNotExists("db");
        client.getDatabase("db").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        c = client.getDatabase("db").getContainer("c");
    }

    @AfterEach
    void close() {
        client.close();
    }

    static ObjectNode item(String id, String pk, int v) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("v", v);
    }

    static List<JsonNode> drain(CosmosContainer c, CosmosChangeFeedRequestOptions o) {
        List<JsonNode> out = new ArrayList<>();
        c.queryChangeFeed(o, JsonNode.class).forEach(out::add);
        return out;
    }

    /** Reads every page; returns the last page's continuation. */
    static String drainTo(CosmosContainer c, CosmosChangeFeedRequestOptions o, List<JsonNode> out) {
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
    void fromBeginningShowsTheLatestVersionOfEachItemOnceInOrder() {
        c.createItem(item("a", "p1", 1));
        c.createItem(item("b", "p1", 1));
        c.upsertItem(item("a", "p1", 2));
        c.createItem(item("d", "p2", 1));
        c.deleteItem("d", new PartitionKey("p2"), null);

        List<JsonNode> changes = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()));
        assertEquals(List.of("b", "a"), ids(changes), "a's first version is superseded; d is deleted");
        assertEquals(2, changes.get(1).get("v").asInt());
        assertTrue(changes.get(1).get("_lsn").asLong() > changes.get(0).get("_lsn").asLong(),
                "_lsn grows within a logical partition");
        assertNotNull(changes.get(0).get("_etag"));
    }

    @Test
    void fromNowSeesOnlyLaterChangesAndTheTokenResumes() {
        c.createItem(item("old", "p1", 1));
        List<JsonNode> first = new ArrayList<>();
        String token = drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange()),
                first);
        assertEquals(List.of(), first);
        assertNotNull(token);
        c.createItem(item("new1", "p1", 1));
        c.createItem(item("new2", "p2", 1));
        List<JsonNode> next = new ArrayList<>();
        String token2 = drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), next);
        assertEquals(List.of("new1", "new2"), ids(next));
        // nothing new: one empty page, reported as "no changes", with a token that still resumes
        List<FeedResponse<JsonNode>> pages = new ArrayList<>();
        c.queryChangeFeed(CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token2), JsonNode.class)
                .iterableByPage().forEach(pages::add);
        assertEquals(1, pages.size());
        assertTrue(pages.get(0).isNoChanges());
    }

    @Test
    void fromPointInTimeSkipsEarlierChanges() throws Exception {
        c.createItem(item("before", "p1", 1));
        long t = System.currentTimeMillis();
        while (System.currentTimeMillis() == t) {
            Thread.onSpinWait(); // the next write commits at a later millisecond than the point in time
        }
        Instant point = Instant.ofEpochMilli(System.currentTimeMillis());
        while (System.currentTimeMillis() == point.toEpochMilli()) {
            Thread.onSpinWait();
        }
        c.createItem(item("after", "p2", 1));
        assertEquals(List.of("after"), ids(drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromPointInTime(point, FeedRange.forFullRange()))));
        assertEquals(List.of("before", "after"), ids(drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromPointInTime(Instant.EPOCH, FeedRange.forFullRange()))));
    }

    @Test
    void pagesHonourMaxItemCountAndResumeWithoutGapsOrRepeats() {
        for (int i = 0; i < 25; i++) {
            c.createItem(item("i" + i, "p" + (i % 4), i));
        }
        List<String> seen = new ArrayList<>();
        int pages = 0;
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()).setMaxItemCount(7), JsonNode.class)
                .iterableByPage()) {
            assertTrue(page.getResults().size() <= 7);
            seen.addAll(ids(page.getResults()));
            pages++;
        }
        assertEquals(25, seen.size());
        assertEquals(25, new HashSet<>(seen).size());
        assertTrue(pages >= 4);
    }

    @Test
    void perPartitionKeyAndPerFeedRange() {
        for (int i = 0; i < 40; i++) {
            c.createItem(item("i" + i, "p" + (i % 5), i));
        }
        List<JsonNode> p3 = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forLogicalPartition(new PartitionKey("p3"))));
        assertEquals(8, p3.size());
        assertTrue(p3.stream().allMatch(n -> n.get("pk").asText().equals("p3")));
        // the feed ranges of the container, read one by one, hold every change exactly once
        Set<String> union = new HashSet<>();
        int total = 0;
        for (FeedRange r : c.getFeedRanges()) {
            List<JsonNode> part = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(r));
            total += part.size();
            union.addAll(ids(part));
        }
        assertEquals(40, total);
        assertEquals(40, union.size());
    }

    @Test
    void hierarchicalKeyPrefix() {
        client.getDatabase("db").createContainer(new CosmosContainerProperties("h",
                new PartitionKeyDefinition().setPaths(List.of("/tenant", "/user")).setKind(PartitionKind.MULTI_HASH)));
        CosmosContainer h = client.getDatabase("db").getContainer("h");
        for (int i = 0; i < 12; i++) {
            h.createItem(M.createObjectNode().put("id", "i" + i).put("tenant", "t" + (i % 3)).put("user", "u" + i));
        }
        List<JsonNode> t1 = drain(h, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forLogicalPartition(new PartitionKeyBuilder().add("t1").build())));
        assertEquals(List.of("i1", "i4", "i7", "i10"), ids(t1));
        List<JsonNode> one = drain(h, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forLogicalPartition(new PartitionKeyBuilder().add("t1").add("u4").build())));
        assertEquals(List.of("i4"), ids(one));
    }

    @Test
    void allVersionsAndDeletesNeedsARetentionPolicyAndShowsEveryChange() {
        assertThrows(IllegalStateException.class, () -> CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()).allVersionsAndDeletes());
        CosmosException noPolicy = assertThrows(CosmosException.class, () -> drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromNow(FeedRange.forFullRange()).allVersionsAndDeletes()));
        assertEquals(400, noPolicy.getStatusCode());

        client.getDatabase("db").createContainer(new CosmosContainerProperties("avad", "/pk")
                .setChangeFeedPolicy(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofMinutes(10))));
        CosmosContainer a = client.getDatabase("db").getContainer("avad");
        assertEquals(Duration.ofMinutes(10), a.read().getProperties().getChangeFeedPolicy()
                .getRetentionDurationForAllVersionsAndDeletesPolicy());
        List<JsonNode> none = new ArrayList<>();
        String token = drainTo(a, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                .allVersionsAndDeletes(), none);
        a.createItem(item("x", "p1", 1));
        a.upsertItem(item("x", "p1", 2));
        a.deleteItem("x", new PartitionKey("p1"), null);
        List<JsonNode> changes = new ArrayList<>();
        drainTo(a, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), changes);
        assertEquals(3, changes.size());
        JsonNode create = changes.get(0);
        JsonNode replace = changes.get(1);
        JsonNode delete = changes.get(2);
        assertEquals("create", create.at("/metadata/operationType").asText());
        assertEquals(1, create.at("/current/v").asInt());
        assertEquals("replace", replace.at("/metadata/operationType").asText());
        assertEquals(2, replace.at("/current/v").asInt());
        assertEquals(1, replace.at("/previous/v").asInt());
        assertEquals(create.at("/metadata/lsn").asLong(), replace.at("/metadata/previousImageLSN").asLong());
        assertEquals("delete", delete.at("/metadata/operationType").asText());
        assertEquals(2, delete.at("/previous/v").asInt(), "the deleted version is kept under the retention");
        assertEquals("x", delete.at("/metadata/id").asText());
        assertEquals("p1", delete.at("/metadata/partitionKey/pk").asText());
        assertFalse(delete.at("/metadata/timeToLiveExpired").asBoolean());
        assertTrue(delete.at("/metadata/crts").asLong() > 1_700_000_000L);
    }

    @Test
    void continuationSurvivesARestart() {
        c.createItem(item("a", "p1", 1));
        List<JsonNode> first = new ArrayList<>();
        String token = drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()), first);
        assertEquals(List.of("a"), ids(first));
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        c = client.getDatabase("db").getContainer("c");
        c.createItem(item("b", "p2", 1));
        List<JsonNode> next = new ArrayList<>();
        drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), next);
        assertEquals(List.of("b"), ids(next), "the sequence continues after the reopen: nothing missed, nothing again");
    }

    @Test
    void theSequenceNeverGoesBackEvenWhenTheContainerHoldingTheHighestNumbersIsDeleted() {
        client.getDatabase("db").createContainer("gone", "/pk");
        CosmosContainer gone = client.getDatabase("db").getContainer("gone");
        for (int i = 0; i < 5; i++) {
            gone.createItem(item("g" + i, "p", i));
        }
        long before = client.coreStore().changeFeeds().stablePosition();
        gone.delete();
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        c = client.getDatabase("db").getContainer("c");
        assertTrue(client.coreStore().changeFeeds().stablePosition() >= before);
        String token = c.queryChangeFeed(CosmosChangeFeedRequestOptions.createForProcessingFromNow(
                FeedRange.forFullRange()), JsonNode.class).iterableByPage().iterator().next().getContinuationToken();
        c.createItem(item("new", "p", 1));
        List<JsonNode> after = new ArrayList<>();
        drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), after);
        assertEquals(List.of("new"), ids(after));
        assertTrue(client.coreStore().changeFeeds().stablePosition() > before);
    }

    @Test
    void aRangeTokenTakenBeforeASplitReadsEveryLaterChangeOfThatRangeAfterIt() throws Exception {
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir.resolve("split")).splitThresholdBytes(64 * 1024)
                .buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer("s", "/pk");
        CosmosContainer s = client.getDatabase("db").getContainer("s");
        List<FeedRange> before = s.getFeedRanges();
        assertEquals(1, before.size());
        List<JsonNode> none = new ArrayList<>();
        String token = drainTo(s, CosmosChangeFeedRequestOptions.createForProcessingFromNow(before.get(0)), none);
        Set<String> written = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            s.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 40)).put("fill", "x".repeat(900)));
            written.add("i" + i);
        }
        client.coreStore().awaitSplits();
        List<FeedRange> after = s.getFeedRanges();
        assertTrue(after.size() >= 2, "the container split");
        List<JsonNode> changes = new ArrayList<>();
        drainTo(s, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), changes);
        assertEquals(written, new HashSet<>(ids(changes)));
        assertEquals(300, changes.size());
        // and the children's own feeds together hold the same changes once
        int total = 0;
        for (FeedRange child : after) {
            total += drain(s, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(child)).size();
        }
        assertEquals(300, total);
    }

    @Test
    void aTokenOfAnotherContainerIsRejected() {
        client.getDatabase("db").createContainer("other", "/pk");
        String token = c.queryChangeFeed(CosmosChangeFeedRequestOptions.createForProcessingFromNow(
                FeedRange.forFullRange()), JsonNode.class).iterableByPage().iterator().next().getContinuationToken();
        CosmosException e = assertThrows(CosmosException.class, () -> drain(client.getDatabase("db")
                .getContainer("other"), CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token)));
        assertEquals(400, e.getStatusCode());
        assertThrows(CosmosException.class, () -> drain(c,
                CosmosChangeFeedRequestOptions.createForProcessingFromContinuation("not-a-token")));
    }

    @Test
    void prunerRemovesSupersededRecordsAndTombstonesButNotLiveOnes() {
        for (int i = 0; i < 50; i++) {
            c.createItem(item("i" + i, "p" + (i % 3), 0));
        }
        for (int i = 0; i < 50; i++) {
            c.upsertItem(item("i" + i, "p" + (i % 3), 1));
        }
        for (int i = 0; i < 10; i++) {
            c.deleteItem("i" + i, new PartitionKey("p" + (i % 3)), null);
        }
        FeedPruner pruner = client.coreStore().changeFeeds().pruner();
        pruner.pruneOnce();
        // counted since the store opened: the background pass (every 5 s) may have taken part of it meanwhile
        assertEquals(50 + 10 + 10, pruner.prunedRecords(),
                "50 first versions, the 10 deleted items' second versions, 10 tombstones");
        assertEquals(0, pruner.pruneOnce(), "nothing left to prune");
        List<JsonNode> all = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()));
        assertEquals(40, all.size());
        assertTrue(all.stream().allMatch(n -> n.get("v").asInt() == 1));
    }
}
