package io.tetradb.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosBatchResponse;
import io.tetradb.document.CosmosChangeFeedRequestOptions;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosItemRequestOptions;
import io.tetradb.document.CosmosItemResponse;
import io.tetradb.document.CosmosPatchOperations;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.FeedRange;
import io.tetradb.document.FeedResponse;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.UniqueKey;
import io.tetradb.document.UniqueKeyPolicy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * One run of the embedded document API through every item read path — create, read (and a miss), replace with and
 * without a stale etag, upsert, patch, delete, a transactional batch, a unique-key conflict, queries served by index
 * seeks (equality, range, ORDER BY both ways, array elements), by id ranges and by full scans, counts, paged queries
 * and latest-version change-feed reads (full range, one logical partition, from a continuation) — written down as
 * lines without the values that depend on time ({@code _ts}, {@code _etag} text, {@code _rid}). Two stores given the
 * same calls must give the same transcript: how an engine's item store is compared with the embedded one's.
 */
public final class DocumentApiTranscript {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String[] CATEGORIES = {"books", "games", "tools", "food", "music"};

    private final List<String> lines = new ArrayList<>();
    /** What the queries' access paths were (the index seeks a test expects), in order. */
    private final List<String> accessPaths = new ArrayList<>();

    private DocumentApiTranscript() {
    }

    public static DocumentApiTranscript run(CosmosClient client) {
        DocumentApiTranscript t = new DocumentApiTranscript();
        t.play(client);
        return t;
    }

    public List<String> lines() {
        return lines;
    }

    public List<String> accessPaths() {
        return accessPaths;
    }

    /** The outcomes the transcript must show whatever the engine (so that two equal transcripts are not both wrong). */
    public static void checkOutcomes(DocumentApiTranscript t) {
        String all = String.join("\n", t.lines());
        for (String expected : List.of("read a missing item 404", "create a duplicate id 409",
                "create a duplicate unique key 409", "replace item-07 200 etag changed true",
                "replace with a stale etag 412", "upsert item-50 201", "upsert item-50 again 200", "delete item-03 204",
                "delete it again 404", "batch 200 true", "failing batch 409 false",
                "the failed batch's create left nothing 404", "query SELECT VALUE COUNT(1) FROM c = [40]",
                "query SELECT * FROM c WHERE c.n = 22 = [{\"id\":\"item-22\"")) {
            if (!all.contains(expected)) {
                throw new AssertionError("the transcript lacks '" + expected + "':\n" + all);
            }
        }
        long fromBeginning = t.lines().stream().filter(l -> l.startsWith("feed from the beginning = "))
                .mapToLong(l -> l.split("@").length - 1).sum();
        if (fromBeginning != 40) {
            throw new AssertionError("the first feed read shows " + fromBeginning + " of 40 items:\n" + all);
        }
    }

    private static ObjectNode item(int i) {
        ObjectNode n = M.createObjectNode().put("id", "item-" + (i < 10 ? "0" : "") + i)
                .put("cat", CATEGORIES[i % CATEGORIES.length]).put("n", i).put("price", (i * 37 % 50) + 0.5)
                .put("name", (i % 3 == 0 ? "blue " : "red ") + "thing " + i).put("sku", "sku-" + i);
        n.putArray("tags").add("t" + (i % 4)).add("all");
        return n;
    }

    private void play(CosmosClient client) {
        client.createDatabaseIfNotExists("shop");
        CosmosContainerProperties props = new CosmosContainerProperties("items", "/cat");
        props.setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(List.of(new UniqueKey(List.of("/sku")))));
        client.getDatabase("shop").createContainerIfNotExists(props);
        CosmosContainer c = client.getDatabase("shop").getContainer("items");

        for (int i = 0; i < 40; i++) {
            CosmosItemResponse<ObjectNode> r = c.createItem(item(i));
            if (i % 10 == 0) {
                lines.add("create " + i + " " + r.getStatusCode());
            }
        }
        String token = changeFeed(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()), "feed from the beginning");

        CosmosItemResponse<ObjectNode> read = c.readItem("item-07", new PartitionKey("tools"), ObjectNode.class);
        lines.add("read item-07 " + read.getStatusCode() + " " + strip(read.getItem()));
        status("read a missing item", () -> c.readItem("item-07", new PartitionKey("books"), ObjectNode.class));
        status("create a duplicate id", () -> c.createItem(item(7)));
        ObjectNode dupSku = item(41).put("cat", "tools").put("sku", "sku-7");
        status("create a duplicate unique key", () -> c.createItem(dupSku));

        ObjectNode changed = read.getItem().deepCopy().put("price", 99.5).put("name", "renamed");
        CosmosItemResponse<ObjectNode> replaced = c.replaceItem(changed, "item-07", new PartitionKey("tools"),
                new CosmosItemRequestOptions().setIfMatchETag(read.getETag()));
        lines.add("replace item-07 " + replaced.getStatusCode() + " etag changed "
                + !replaced.getETag().equals(read.getETag()));
        status("replace with a stale etag", () -> c.replaceItem(changed, "item-07", new PartitionKey("tools"),
                new CosmosItemRequestOptions().setIfMatchETag(read.getETag())));
        lines.add("upsert item-50 " + c.upsertItem(item(50)).getStatusCode());
        lines.add("upsert item-50 again " + c.upsertItem(item(50).put("n", 500)).getStatusCode());
        lines.add("patch item-12 " + c.patchItem("item-12", new PartitionKey("tools"),
                CosmosPatchOperations.create().increment("/n", 100).set("/name", "patched"), ObjectNode.class)
                .getStatusCode() + " " + strip(c.readItem("item-12", new PartitionKey("tools"), ObjectNode.class)
                .getItem()));
        lines.add("delete item-03 " + c.deleteItem("item-03", new PartitionKey("food"), new CosmosItemRequestOptions())
                .getStatusCode());
        status("delete it again", () -> c.deleteItem("item-03", new PartitionKey("food"), new CosmosItemRequestOptions()));

        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("books"));
        batch.createItemOperation(item(45).put("cat", "books"));
        batch.replaceItemOperation("item-05", item(5).put("n", 555));
        batch.deleteItemOperation("item-10");
        CosmosBatchResponse b = c.executeCosmosBatch(batch);
        lines.add("batch " + b.getStatusCode() + " " + b.isSuccessStatusCode());
        CosmosBatch failing = CosmosBatch.createCosmosBatch(new PartitionKey("books"));
        failing.createItemOperation(item(46).put("cat", "books"));
        failing.createItemOperation(item(15).put("cat", "books")); // exists: the whole batch fails
        CosmosBatchResponse f = c.executeCosmosBatch(failing);
        lines.add("failing batch " + f.getStatusCode() + " " + f.isSuccessStatusCode());
        status("the failed batch's create left nothing",
                () -> c.readItem("item-46", new PartitionKey("books"), ObjectNode.class));

        query(c, "SELECT * FROM c WHERE c.n = 22", null);
        query(c, "SELECT c.id, c.price FROM c WHERE c.price >= 20 AND c.price < 30 ORDER BY c.price", null);
        query(c, "SELECT c.id FROM c ORDER BY c.n DESC", null);
        query(c, "SELECT c.id FROM c ORDER BY c.n", null);
        query(c, "SELECT c.id FROM c WHERE ARRAY_CONTAINS(c.tags, 't2')", null);
        query(c, "SELECT c.id, c.n FROM c WHERE c.id >= 'item-1' AND c.id < 'item-2'", null);
        query(c, "SELECT c.id FROM c WHERE CONTAINS(c.name, 'blue')", null); // no index serves it: a scan
        query(c, "SELECT VALUE COUNT(1) FROM c", null);
        query(c, "SELECT c.id, c.n FROM c WHERE c.n > 10", "games");
        query(c, "SELECT * FROM c WHERE c.cat = 'tools' AND c.n >= 100", null);
        pagedQuery(c, "SELECT c.id FROM c WHERE c.n >= 5 ORDER BY c.n", 4);

        token = changeFeed(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token),
                "feed after the changes");
        changeFeed(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forLogicalPartition(new PartitionKey("books"))), "feed of books");
        c.createItem(item(60));
        changeFeed(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), "feed after one more");
    }

    private void status(String what, Runnable r) {
        try {
            r.run();
            lines.add(what + " 2xx");
        } catch (CosmosException e) {
            lines.add(what + " " + e.getStatusCode());
        }
    }

    private void query(CosmosContainer c, String sql, String pk) {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions();
        if (pk != null) {
            o.setPartitionKey(new PartitionKey(pk));
        }
        List<String> rows = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems(sql, o, JsonNode.class).iterableByPage()) {
            page.getResults().forEach(n -> rows.add(strip(n)));
            accessPaths.add(sql + " -> " + page.getAccessPath());
        }
        lines.add("query " + sql + (pk == null ? "" : " in " + pk) + " = " + rows);
    }

    private void pagedQuery(CosmosContainer c, String sql, int pageSize) {
        List<String> rows = new ArrayList<>();
        String continuation = null;
        int pages = 0;
        do {
            Iterator<FeedResponse<JsonNode>> it = c.queryItems(sql, new CosmosQueryRequestOptions(), JsonNode.class)
                    .iterableByPage(continuation, pageSize).iterator();
            if (!it.hasNext()) {
                break;
            }
            FeedResponse<JsonNode> page = it.next();
            page.getResults().forEach(n -> rows.add(strip(n)));
            continuation = page.getContinuationToken();
            pages++;
        } while (continuation != null && pages < 100);
        lines.add("paged query " + sql + " in " + pages + " pages = " + rows);
    }

    /** Drains a change feed request; returns its last continuation. */
    private String changeFeed(CosmosContainer c, CosmosChangeFeedRequestOptions o, String what) {
        List<String> rows = new ArrayList<>();
        String token = null;
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(o, JsonNode.class).iterableByPage()) {
            page.getResults().forEach(n -> rows.add(n.get("id").asText() + "@" + n.path("n").asText()
                    + "/lsn" + n.path("_lsn").asLong()));
            token = page.getContinuationToken();
        }
        lines.add(what + " = " + rows);
        return token;
    }

    /** The item without the properties that depend on time or on the store's ids. */
    private static String strip(JsonNode n) {
        if (!(n instanceof ObjectNode o)) {
            return String.valueOf(n);
        }
        ObjectNode copy = o.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = copy.fields(); it.hasNext(); ) {
            if (it.next().getKey().startsWith("_")) {
                it.remove();
            }
        }
        return copy.toString();
    }
}
