package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.eval.QueryExecutor;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.QueryResult;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A data directory written as JSON text ({@code -Dtetradb.itemFormat=json}, the only format before binary became the
 * default) opened in the default (binary) mode: nothing is converted on open; every JSON-text item reads, queries
 * (index seeks equal to full scans), keeps its unique keys and TTL and shows in the change feed (latest version and
 * all versions, continuing a continuation taken in JSON mode); an item written again is stored in TB1 and its old
 * index entries, unique keys and feed image are replaced exactly.
 */
class JsonTextDataDirectoryTest {
    static final ObjectMapper M = new ObjectMapper();
    static final List<String> QUERIES = List.of(
            "SELECT * FROM c WHERE c.n = 3",
            "SELECT * FROM c WHERE c.n > 5 ORDER BY c.n",
            "SELECT VALUE c.id FROM c WHERE c.f >= 7.5",
            "SELECT * FROM c WHERE c.s = 's2'",
            "SELECT VALUE c.id FROM c WHERE ARRAY_CONTAINS(c.tags, 't3')",
            "SELECT VALUE c.id FROM c WHERE c.o.x = 4",
            "SELECT VALUE c.id FROM c WHERE c.pk = 'p1' AND c.n <= 2",
            "SELECT VALUE c.id FROM c WHERE c.price = 12.5",
            "SELECT VALUE c.id FROM c WHERE c[\"when\"] >= '2026-01-01T00:00:00.0000000Z'",
            "SELECT VALUE COUNT(1) FROM c WHERE c.n >= 100");

    @AfterEach
    void clearFormat() {
        System.clearProperty("tetradb.itemFormat");
    }

    private static CosmosClient open(Path dir, String format) {
        if (format == null) {
            System.clearProperty("tetradb.itemFormat"); // the default
        } else {
            System.setProperty("tetradb.itemFormat", format);
        }
        return new CosmosClientBuilder().dataDirectory(dir).buildClient();
    }

    static ObjectNode item(int i, int n) {
        ObjectNode o = M.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 3).put("n", n)
                .put("f", i * 0.25).put("s", "s" + i % 7).put("email", "e" + i + "@x");
        o.putArray("tags").add(i % 4).add("t" + i % 5);
        o.putObject("o").put("x", i % 6);
        if (i % 5 == 0) {
            o.put("ttl", 100_000); // an own expiry far away: the TTL check reads it in either format
        }
        return o;
    }

    @Test
    void aJsonTextDirectoryOpensReadsQueriesAndFeedsInTheDefaultModeAndIsRewrittenAsBinary(@TempDir Path dir) {
        String latestToken;
        Map<String, ObjectNode> written = new TreeMap<>();
        try (CosmosClient client = open(dir, "json")) {
            client.createDatabase("d");
            client.getDatabase("d").createContainer(new CosmosContainerProperties("c", "/pk")
                    .setDefaultTimeToLiveInSeconds(-1)
                    .setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(List.of(new UniqueKey(List.of("/email")))))
                    .setChangeFeedPolicy(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofMinutes(10))));
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            for (int i = 0; i < 60; i++) {
                c.createItem(item(i, i % 10));
            }
            for (int i = 0; i < 10; i++) {
                c.upsertItem(item(i, 100 + i));
            }
            for (int i = 50; i < 60; i++) {
                c.deleteItem("i" + i, new PartitionKey("p" + i % 3), null);
            }
            for (int i = 0; i < 50; i++) {
                written.put("i" + i, strip(read(c, i)));
            }
            assertEquals(0x01, format(c, 0));
            List<JsonNode> feed = new ArrayList<>();
            latestToken = ChangeFeedTest.drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                    FeedRange.forFullRange()), feed);
            assertEquals(written.keySet(), new TreeSet<>(ChangeFeedTest.ids(feed)));
        }

        try (CosmosClient client = open(dir, null)) {
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            ContainerStore store = client.coreStore().container("d", "c");
            for (int i = 0; i < 50; i++) {
                assertEquals(written.get("i" + i), strip(read(c, i)), "i" + i);
            }
            assertEquals(0x01, format(c, 7), "nothing is converted on open");
            checkQueries(store);
            assertTrue(store.checkIndexes().consistent(), store.checkIndexes().toString());
            // the whole feed, read in the default mode: every JSON-text item with its _lsn
            List<JsonNode> feed = ChangeFeedTest.drain(c, CosmosChangeFeedRequestOptions
                    .createForProcessingFromBeginning(FeedRange.forFullRange()));
            assertEquals(50, feed.size());
            for (JsonNode change : feed) {
                ObjectNode o = (ObjectNode) change.deepCopy();
                assertTrue(o.remove("_lsn").asLong() > 0);
                assertEquals(written.get(o.get("id").asText()), strip(o));
            }
            CosmosException taken = assertThrows(CosmosException.class, () -> c.createItem(
                    item(3, 1).put("id", "dup")));
            assertEquals(409, taken.getStatusCode(), "a JSON-text item's unique key holds in the default mode");

            List<JsonNode> none = new ArrayList<>();
            String allToken = ChangeFeedTest.drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromNow(
                    FeedRange.forFullRange()).allVersionsAndDeletes(), none);

            for (int i = 10; i < 20; i++) {
                ObjectNode again = item(i, 200 + i);
                again.put("email", "new" + i + "@x");
                c.upsertItem(again);
                written.put("i" + i, again);
            }
            for (int i = 20; i < 25; i++) {
                c.deleteItem("i" + i, new PartitionKey("p" + i % 3), null);
                written.remove("i" + i);
            }
            for (int k = 0; k < 10; k++) {
                ObjectNode typed = M.createObjectNode().put("id", "k" + k).put("pk", "p" + k % 3).put("n", k)
                        .put("email", "k" + k + "@x");
                typed.set("price", Decimal128Node.of(new BigDecimal(k % 2 == 0 ? "12.50" : "0.1")));
                typed.set("when", DateTimeNode.ofEpochMillis(1_767_225_600_000L + k)); // 2026-01-01
                c.createItem(typed);
                written.put("k" + k, typed);
            }
            assertEquals(StoredItems.FORMAT, format(c, 10), "written again: binary");
            assertEquals(0x01, format(c, 30), "not written: still JSON text");
            for (Map.Entry<String, ObjectNode> e : written.entrySet()) {
                ObjectNode back = c.readItem(e.getKey(), new PartitionKey(e.getValue().get("pk").asText()),
                        ObjectNode.class).getItem();
                assertEquals(e.getValue(), strip(back), e.getKey());
            }
            checkQueries(store);
            assertTrue(store.checkIndexes().consistent(), store.checkIndexes().toString());
            // unique keys: the rewritten item's old value is free, its new one and a JSON-text item's are taken
            c.createItem(item(12, 1).put("id", "takesOldEmail"));
            assertEquals(409, assertThrows(CosmosException.class, () -> c.createItem(item(0, 1).put("id", "x")
                    .put("email", "new12@x"))).getStatusCode());
            assertEquals(409, assertThrows(CosmosException.class, () -> c.createItem(item(31, 1).put("id", "y")))
                    .getStatusCode());
            c.createItem(item(21, 1).put("id", "takesDeletedEmail"));

            // latest version from the JSON-mode continuation: exactly what was written since, with _lsn, as the point
            // reads give it (typed values included: ChangeFeedTypedItemsTest)
            List<JsonNode> later = ChangeFeedTest.drain(c,
                    CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(latestToken));
            Set<String> expected = new TreeSet<>();
            for (int i = 10; i < 20; i++) {
                expected.add("i" + i);
            }
            for (int k = 0; k < 10; k++) {
                expected.add("k" + k);
            }
            expected.add("takesOldEmail");
            expected.add("takesDeletedEmail");
            assertEquals(expected, new TreeSet<>(ChangeFeedTest.ids(later)));
            for (JsonNode change : later) {
                String id = change.get("id").asText();
                if (written.containsKey(id)) {
                    ObjectNode o = (ObjectNode) change.deepCopy();
                    o.remove("_lsn");
                    assertEquals(written.get(id), strip(o), id);
                }
            }
            // all versions: a replace of a JSON-text version has the old (JSON) image and the new (binary) one
            List<JsonNode> all = new ArrayList<>();
            ChangeFeedTest.drainTo(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(allToken), all);
            JsonNode replace = all.stream().filter(n -> n.at("/current/id").asText().equals("i10")).findFirst()
                    .orElseThrow();
            assertEquals("replace", replace.at("/metadata/operationType").asText());
            assertEquals(0, replace.at("/previous/n").asInt()); // i10 was written with n = 10 % 10
            assertEquals("e10@x", replace.at("/previous/email").asText());
            assertEquals(210, replace.at("/current/n").asInt());
            assertEquals(replace.at("/metadata/lsn").asLong(), replace.at("/current/_lsn").asLong());
            JsonNode delete = all.stream().filter(n -> n.at("/metadata/id").asText().equals("i20")).findFirst()
                    .orElseThrow();
            assertEquals(0.25 * 20, delete.at("/previous/f").asDouble());
            JsonNode typed = all.stream().filter(n -> n.at("/current/id").asText().equals("k1")).findFirst()
                    .orElseThrow();
            assertEquals("0.1", typed.at("/current/price").asText());
            assertEquals("2026-01-01T00:00:00.0010000Z", typed.at("/current/when").asText());
        }
    }

    /** Every query through the planner (index seeks) equals the executor over every item. */
    private static void checkQueries(ContainerStore store) {
        int seeks = 0;
        for (String text : QUERIES) {
            SqlQuery q = SqlParser.parse(text);
            QueryResult planned = store.query(q, null, null, Map.of());
            List<ObjectNode> items = new ArrayList<>();
            store.scan(EpkRange.FULL, v -> items.add(store.codec().parse(v)));
            List<JsonNode> reference = QueryExecutor.execute(q, items, new HashMap<>(),
                    FunctionContext.forQuery(Clock.systemUTC()));
            assertEquals(sorted(reference, text), sorted(planned.results(), text), text + " via " + planned.access());
            seeks += planned.access().startsWith("index") ? 1 : 0;
        }
        assertTrue(seeks >= 6, "most of these queries seek an index, did " + seeks);
    }

    private static List<String> sorted(List<JsonNode> results, String query) {
        List<String> out = new ArrayList<>(results.stream().map(JsonNode::toString).toList());
        if (!query.contains("ORDER BY")) {
            out.sort(null);
        }
        return out;
    }

    private static ObjectNode read(CosmosContainer c, int i) {
        return c.readItem("i" + i, new PartitionKey("p" + i % 3), ObjectNode.class).getItem();
    }

    private static byte format(CosmosContainer c, int i) {
        return c.store().read(PartitionKeyValue.of(M.getNodeFactory().textNode("p" + i % 3)), "i" + i, null)
                .stored()[0];
    }

    private static ObjectNode strip(ObjectNode o) {
        ObjectNode copy = o.deepCopy();
        copy.remove(List.of("_rid", "_self", "_etag", "_attachments", "_ts"));
        return copy;
    }
}
