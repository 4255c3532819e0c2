package io.tetradb.cosmos;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.ChangeFeedPolicy;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Durability;
import io.tetradb.testing.SharedEmbeddedStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The REST face's change feed on a shared engine (issue 20): two servers on one shared store (an embedded directory
 * presented as shared, as a Cassandra keyspace is to several servers), driven by the azure-cosmos Java SDK. A
 * continuation (the etags in it) made on one server resumes on the other after a restart, because the etag carries
 * the reader's cursor per logical partition, not one server's feed position; with many partitions the etag stays
 * bounded (a stored cursor's id).
 */
class SharedEngineChangeFeedTest {
    static {
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
    }

    private static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    private SharedEmbeddedStore shared;
    private final Server[] servers = new Server[2];

    /** One TetraDB server: its own data directory, the shared stores, the REST face on a free port, an SDK client. */
    private final class Server implements AutoCloseable {
        final io.tetradb.document.CosmosClient core;
        final CosmosHttpServer http;
        final CosmosClient sdk;

        Server(String name) {
            core = new io.tetradb.document.CosmosClientBuilder().dataDirectory(dir.resolve(name))
                    .durability(Durability.ASYNC).storage(shared.metadata(), shared.partitions()).buildClient();
            http = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, core, CosmosRestOptions.defaults());
            sdk = new CosmosClientBuilder().endpoint("http://localhost:" + http.address().getPort())
                    .key(CosmosRestOptions.EMULATOR_KEY).gatewayMode().consistencyLevel(ConsistencyLevel.SESSION)
                    .buildClient();
        }

        CosmosContainer container(String db, String id) {
            return sdk.getDatabase(db).getContainer(id);
        }

        public void close() {
            sdk.close();
            http.close();
            core.close();
        }
    }

    @BeforeEach
    void start() {
        shared = new SharedEmbeddedStore(dir.resolve("shared"));
        servers[0] = new Server("a");
        servers[1] = new Server("b");
    }

    @AfterEach
    void stop() {
        for (Server s : servers) {
            if (s != null) {
                s.close();
            }
        }
        shared.close();
    }

    private void restart(int i) {
        servers[i].close();
        servers[i] = new Server(i == 0 ? "a" : "b");
    }

    private static ObjectNode item(String id, String pk, int n) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("n", n);
    }

    private String container(ChangeFeedPolicy policy) {
        String db = "shared" + System.nanoTime();
        servers[0].sdk.createDatabaseIfNotExists(db);
        CosmosContainerProperties p = new CosmosContainerProperties("orders", "/pk");
        if (policy != null) {
            p.setChangeFeedPolicy(policy);
        }
        servers[0].sdk.getDatabase(db).createContainer(p);
        return db;
    }

    /** Reads pages of the feed until the SDK stops (or {@code pages} pages); returns the last continuation. */
    private static String read(CosmosContainer c, CosmosChangeFeedRequestOptions o, int pages, List<JsonNode> out) {
        String token = null;
        Iterator<FeedResponse<JsonNode>> it = c.queryChangeFeed(o, JsonNode.class).iterableByPage().iterator();
        for (int i = 0; i < pages && it.hasNext(); i++) {
            FeedResponse<JsonNode> page = it.next();
            out.addAll(page.getResults());
            token = page.getContinuationToken();
        }
        return token;
    }

    /** Each item once at its last value; each partition's changes in increasing {@code _lsn}. */
    private static Map<String, Integer> latestOnce(List<JsonNode> changes) {
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Long> lsn = new HashMap<>();
        for (JsonNode n : changes) {
            String key = n.get("pk").asText() + "/" + n.get("id").asText();
            assertTrue(seen.put(key, n.get("n").asInt()) == null, "each item once: " + key);
            Long before = lsn.put(n.get("pk").asText(), n.get("_lsn").asLong());
            assertTrue(before == null || before < n.get("_lsn").asLong(), "lsn order in " + n.get("pk"));
        }
        return seen;
    }

    @Test
    void aContinuationFromOneServerResumesOnTheOtherAfterARestart() {
        String db = container(null);
        CosmosContainer onA = servers[0].container(db, "orders");
        CosmosContainer onB = servers[1].container(db, "orders");
        Map<String, Integer> last = new HashMap<>();
        for (int i = 0; i < 40; i++) { // both servers write the same partitions and items, alternately
            (i % 2 == 0 ? onA : onB).upsertItem(item("i" + (i % 16), "p" + (i % 5), i));
            last.put("p" + (i % 5) + "/i" + (i % 16), i);
        }
        List<JsonNode> firstPages = new ArrayList<>();
        String token = read(onA, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()).setMaxItemCount(4), 2, firstPages);
        assertEquals(8, firstPages.size());
        Map<String, Integer> later = new HashMap<>();
        for (int i = 0; i < 10; i++) { // more through B, some to items already read
            onB.upsertItem(item("j" + i, "p" + (i % 5), 100 + i));
            later.put("p" + (i % 5) + "/j" + i, 100 + i);
        }
        onA.upsertItem(item(firstPages.get(0).get("id").asText(), firstPages.get(0).get("pk").asText(), 999));
        later.put(firstPages.get(0).get("pk").asText() + "/" + firstPages.get(0).get("id").asText(), 999);
        restart(1);
        onB = servers[1].container(db, "orders");
        List<JsonNode> rest = new ArrayList<>();
        read(onB, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token).setMaxItemCount(4),
                Integer.MAX_VALUE, rest);
        Map<String, Integer> expected = new HashMap<>(last);
        for (JsonNode n : firstPages) { // what the first pages gave is not given again unless it changed since
            expected.remove(n.get("pk").asText() + "/" + n.get("id").asText());
        }
        expected.putAll(later);
        assertEquals(expected, latestOnce(rest));
        Map<String, Integer> union = new HashMap<>(latestOnce(firstPages));
        union.putAll(latestOnce(rest));
        Map<String, Integer> all = new HashMap<>(last);
        all.putAll(later);
        assertEquals(all, union);
    }

    @Test
    void fromNowOnOneServerSeesTheOthersWritesAndAllVersionsResumeAcrossServers() {
        String db = container(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofMinutes(10)));
        CosmosContainer onA = servers[0].container(db, "orders");
        CosmosContainer onB = servers[1].container(db, "orders");
        onA.createItem(item("before", "p1", 0));
        List<JsonNode> none = new ArrayList<>();
        String latest = read(onA, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange()),
                Integer.MAX_VALUE, none);
        String versions = read(onA, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                .allVersionsAndDeletes(), Integer.MAX_VALUE, none);
        assertEquals(List.of(), none);
        onB.createItem(item("x", "p1", 1));
        onB.upsertItem(item("x", "p1", 2));
        onA.createItem(item("y", "p2", 1));
        onB.deleteItem("x", new PartitionKey("p1"), null);
        restart(0);
        List<JsonNode> changes = new ArrayList<>();
        read(servers[1].container(db, "orders"), CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(
                latest), Integer.MAX_VALUE, changes);
        assertEquals(Map.of("p2/y", 1), latestOnce(changes), "latest version: x was deleted, y created");
        List<ChangeFeedProcessorItem> all = new ArrayList<>();
        for (FeedResponse<ChangeFeedProcessorItem> page : servers[0].container(db, "orders").queryChangeFeed(
                CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(versions),
                ChangeFeedProcessorItem.class).iterableByPage()) {
            all.addAll(page.getResults());
        }
        List<String> x = new ArrayList<>();
        for (ChangeFeedProcessorItem i : all) {
            JsonNode doc = i.getCurrent() != null && !i.getCurrent().isEmpty() ? i.getCurrent() : i.getPrevious();
            if (doc != null && "x".equals(doc.path("id").asText())) {
                x.add(i.getChangeFeedMetaData().getOperationType().toString());
            }
        }
        assertEquals(4, all.size(), all.toString());
        assertEquals(List.of("CREATE", "REPLACE", "DELETE"), x, all.toString());
    }

    @Test
    void withManyPartitionsTheEtagStaysBoundedAndResumesOnTheOtherServer() {
        String db = container(null);
        CosmosContainer onA = servers[0].container(db, "orders");
        CosmosContainer onB = servers[1].container(db, "orders");
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < 400; i++) { // 400 logical partitions: a cursor of about 10 KB
            String pk = "customer-" + String.format("%06d", i) + "-of-a-longer-partition-key";
            (i % 2 == 0 ? onA : onB).createItem(item("o" + i, pk, i));
            expected.put(pk + "/o" + i, i);
        }
        List<JsonNode> read = new ArrayList<>();
        String token = read(onA, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()).setMaxItemCount(1000), 1, read);
        assertEquals(expected, latestOnce(read));
        String etag = etagIn(token);
        assertTrue(etag.length() < 100, "a stored cursor's id, not the cursor: " + etag.length() + " characters");
        Map<String, Integer> later = new HashMap<>();
        for (int i = 0; i < 400; i += 50) {
            String pk = "customer-" + String.format("%06d", i) + "-of-a-longer-partition-key";
            onA.upsertItem(item("o" + i, pk, -i));
            later.put(pk + "/o" + i, -i);
        }
        restart(1);
        List<JsonNode> rest = new ArrayList<>();
        read(servers[1].container(db, "orders"), CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(
                token), Integer.MAX_VALUE, rest);
        assertEquals(later, latestOnce(rest));
    }

    /**
     * A feed from a point in time, read in pages of 2 over many partitions: the later pages still skip what came
     * before that time in partitions the first page did not reach, and the continuation resumes on the other server;
     * through the Java SDK (which sends If-Modified-Since on every page) and a raw client that sends it once.
     */
    @Test
    void fromAPointInTimeInPagesSkipsTheEarlierChangesOfEveryPartition() throws Exception {
        String db = container(null);
        CosmosContainer onA = servers[0].container(db, "orders");
        CosmosContainer onB = servers[1].container(db, "orders");
        for (int i = 0; i < 12; i++) {
            (i % 2 == 0 ? onA : onB).createItem(item("old" + i, "p" + i, i));
        }
        // If-Modified-Since has one-second resolution: the later changes commit in a later second
        long second = System.currentTimeMillis() / 1000;
        while (System.currentTimeMillis() / 1000 == second) {
            Thread.sleep(10);
        }
        java.time.Instant point = java.time.Instant.ofEpochSecond(second + 1);
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < 12; i += 3) {
            (i % 2 == 0 ? onB : onA).createItem(item("new" + i, "p" + i, 100 + i));
            expected.put("p" + i + "/new" + i, 100 + i);
        }
        List<JsonNode> first = new ArrayList<>();
        String token = read(onA, CosmosChangeFeedRequestOptions.createForProcessingFromPointInTime(point,
                FeedRange.forFullRange()).setMaxItemCount(2), 1, first);
        List<JsonNode> rest = new ArrayList<>();
        read(onB, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token).setMaxItemCount(2),
                Integer.MAX_VALUE, rest);
        List<JsonNode> all = new ArrayList<>(first);
        all.addAll(rest);
        assertEquals(expected, latestOnce(all));

        // a REST client that sends If-Modified-Since with its first request only, then the etags (through the other
        // server): the point in time travels in the etag (the Java SDK above sends both headers on every page)
        String docs = "/dbs/" + db + "/colls/orders/docs";
        String since = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(point.atOffset(
                java.time.ZoneOffset.UTC));
        RawClient.Answer page = new RawClient("http://localhost:" + servers[0].http.address().getPort(),
                CosmosRestOptions.EMULATOR_KEY).send("GET", docs, null, Map.of("A-IM", "Incremental Feed",
                "If-Modified-Since", since, "x-ms-max-item-count", "2"));
        RawClient onBRaw = new RawClient("http://localhost:" + servers[1].http.address().getPort(),
                CosmosRestOptions.EMULATOR_KEY);
        List<JsonNode> raw = new ArrayList<>();
        while (page.status() == 200) {
            page.json().get("Documents").forEach(raw::add);
            page = onBRaw.send("GET", docs, null, Map.of("A-IM", "Incremental Feed", "If-None-Match",
                    page.header("etag"), "x-ms-max-item-count", "2"));
        }
        assertEquals(304, page.status(), page.text());
        assertEquals(expected, latestOnce(raw));
    }

    /** The etag inside an SDK continuation token (base64 JSON with one continuation per range). */
    private static String etagIn(String sdkToken) {
        try {
            JsonNode n = M.readTree(new String(Base64.getDecoder().decode(sdkToken), StandardCharsets.UTF_8));
            return n.get("Continuation").get("Continuation").get(0).get("token").asText();
        } catch (Exception e) {
            throw new AssertionError("not an SDK continuation: " + sdkToken, e);
        }
    }
}
