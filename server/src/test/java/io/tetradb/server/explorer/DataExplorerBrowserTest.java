package io.tetradb.server.explorer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosException;
import io.tetradb.document.PartitionKey;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import io.tetradb.testing.DevToolsPage;
import io.tetradb.testing.HeadlessChromium;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data explorer in headless Chromium, driven over the DevTools protocol: the page's own JavaScript lists the
 * databases and containers, opens, edits, saves and deletes items, runs SQL and draws the partition chart, and what it
 * did is checked in the store through the embedded document API.
 */
class DataExplorerBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void browseEditDeleteQueryAndSeeThePartitions(@TempDir Path dir) throws Exception {
        Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dir.resolve("data")).withCosmosPort(0))
                .start();
             HeadlessChromium chromium = HeadlessChromium.start(profile);
             DevToolsPage page = chromium.page()) {
            CosmosContainer orders = seed(server.client());
            String base = "http://" + Endpoint.hostPort(server.endpoint("cosmos").address());

            // a browser opening the Cosmos endpoint's root lands on the explorer
            page.navigate(base + "/");
            assertEquals("/_explorer/", page.evaluate("location.pathname").asText());

            // databases → containers → items, as the page's script lists them
            page.waitFor("both databases listed", "document.querySelectorAll('#tree button.db').length === 2");
            assertEquals("crm,shop", page.evaluate("[...document.querySelectorAll('#tree button.db')]"
                    + ".map(b => b.textContent).sort().join()").asText());
            click(page, "#tree button.db[data-db='shop']");
            page.waitFor("the orders container", "document.querySelector(\"#tree button.coll[data-container='orders']\")");
            click(page, "#tree button.coll[data-container='orders']");
            page.waitFor("three items", "document.querySelectorAll('#items button.item').length === 3");
            assertEquals("o1,o2,o3", page.evaluate("[...document.querySelectorAll('#items button.item')]"
                    + ".map(b => b.dataset.id).sort().join()").asText());
            assertEquals("shop / orders", page.evaluate("document.getElementById('title').textContent").asText());

            // open o1, edit it in the JSON editor, save: the store has the edit
            click(page, "#items button.item[data-id='o1']");
            JsonNode opened = JSON.readTree(page.waitFor("o1 in the editor",
                    "!document.getElementById('item-editor').disabled"
                            + " && document.getElementById('item-editor').value.includes('\"o1\"')"
                            + " && document.getElementById('item-editor').value").asText());
            assertEquals(30.5, opened.get("total").asDouble());
            page.evaluate("(() => { const e = document.getElementById('item-editor'); const v = JSON.parse(e.value);"
                    + " v.total = 99; v.note = 'edited in the explorer'; e.value = JSON.stringify(v, null, 2);"
                    + " document.getElementById('item-save').click(); return true; })()");
            page.waitFor("the save to succeed",
                    "document.getElementById('item-status').textContent.startsWith('saved')");
            ObjectNode stored = orders.readItem("o1", new PartitionKey("c1"), ObjectNode.class).getItem();
            assertEquals(99, stored.get("total").asInt());
            assertEquals("edited in the explorer", stored.get("note").asText());

            // broken JSON is refused by the server, shown, and changes nothing
            page.evaluate("(() => { document.getElementById('item-editor').value = '{\"id\": \"o1\", broken';"
                    + " document.getElementById('item-save').click(); return true; })()");
            String refusal = page.waitFor("the refusal", "document.getElementById('item-status').textContent"
                    + ".startsWith('not saved') && document.getElementById('item-status').textContent").asText();
            assertTrue(refusal.contains("BadRequest"), refusal);
            assertEquals(99, orders.readItem("o1", new PartitionKey("c1"), ObjectNode.class).getItem()
                    .get("total").asInt());

            // delete o2: the first click only arms the button; the second deletes
            click(page, "#items button.item[data-id='o2']");
            page.waitFor("o2 in the editor", "document.getElementById('item-editor').value.includes('\"o2\"')");
            click(page, "#item-delete");
            assertEquals("Click again to delete",
                    page.evaluate("document.getElementById('item-delete').textContent").asText());
            assertEquals(200, orders.readItem("o2", new PartitionKey("c1"), ObjectNode.class).getStatusCode());
            click(page, "#item-delete");
            page.waitFor("o2 gone from the list", "document.getElementById('item-status').textContent"
                    + ".startsWith('deleted') && !document.querySelector(\"#items button.item[data-id='o2']\")");
            assertTrue(page.evaluate("document.getElementById('items-status').textContent").asText()
                    .startsWith("2 items"));
            CosmosException gone = assertThrows(CosmosException.class,
                    () -> orders.readItem("o2", new PartitionKey("c1"), ObjectNode.class));
            assertEquals(404, gone.getStatusCode());

            // a SQL query: results, request charge, metrics and explain
            page.evaluate("(() => { document.getElementById('query').value = "
                    + "\"SELECT c.id, c.total FROM c WHERE c.customerId = 'c1' ORDER BY c.id\";"
                    + " document.getElementById('query-run').click(); return true; })()");
            page.waitFor("the query's results", "!document.getElementById('query-output').hidden"
                    + " && document.getElementById('query-status').textContent.startsWith('done')");
            assertEquals(JSON.readTree("[{\"id\":\"o1\",\"total\":99}]"), JSON.readTree(
                    page.evaluate("document.getElementById('query-results').textContent").asText()));
            double charge = Double.parseDouble(page.evaluate("document.getElementById('query-charge').textContent")
                    .asText());
            assertTrue(charge > 0, "request charge " + charge);
            String metrics = page.evaluate("document.getElementById('query-metrics').innerText").asText();
            assertTrue(metrics.contains("retrieved documents") && metrics.contains("execution time"), metrics);
            JsonNode explain = JSON.readTree(page.evaluate("document.getElementById('query-explain').textContent")
                    .asText());
            assertTrue(explain.has("plan") && explain.has("accessPath"), explain.toString());
            assertFalse(page.evaluate("document.getElementById('query-access').textContent").asText().isEmpty());

            // bad SQL: the server's 400 is shown, nothing else happens
            page.evaluate("(() => { document.getElementById('query').value = 'SELEC nonsense FROM';"
                    + " document.getElementById('query-run').click(); return true; })()");
            String sqlError = page.waitFor("the SQL error", "document.getElementById('query-status')"
                    + ".classList.contains('error') && document.getElementById('query-status').textContent").asText();
            assertTrue(sqlError.contains("BadRequest"), sqlError);

            // the partition chart of the open container (the /partitions page's own drawing)
            page.waitFor("the partition chart", "document.querySelector('#partitions .container h2')"
                    + " && document.querySelector('#partitions .container .fill')");
            assertTrue(page.evaluate("document.querySelector('#partitions .container h2').textContent").asText()
                    .startsWith("shop / orders"));
            assertTrue(page.evaluate("document.querySelector('#partitions .container .meta').textContent").asText()
                    .contains("partition key /customerId"));

            page.screenshot(Path.of("target", "data-explorer.png"));

            // the /partitions page itself still draws the same chart, for every container
            page.navigate(base + "/partitions");
            page.waitFor("the partitions page's cards", "document.querySelectorAll('#containers .container').length"
                    + " === 2");

            assertEquals(List.of(), page.pageErrors(), "the page reported errors");
        }
    }

    private static void click(DevToolsPage page, String selector) throws Exception {
        page.evaluate("(() => { const e = document.querySelector(" + JSON.valueToTree(selector) + ");"
                + " if (!e) throw new Error('nothing matches ' + " + JSON.valueToTree(selector) + ");"
                + " e.click(); return true; })()");
    }

    private static CosmosContainer seed(CosmosClient client) {
        client.createDatabaseIfNotExists("shop");
        client.getDatabase("shop").createContainerIfNotExists("orders", "/customerId");
        CosmosContainer orders = client.getDatabase("shop").getContainer("orders");
        orders.upsertItem(Map.of("id", "o1", "customerId", "c1", "total", 30.5));
        orders.upsertItem(Map.of("id", "o2", "customerId", "c1", "total", 12.0));
        orders.upsertItem(Map.of("id", "o3", "customerId", "c2", "total", 7.25));
        client.createDatabaseIfNotExists("crm");
        client.getDatabase("crm").createContainerIfNotExists("leads", "/region");
        return orders;
    }
}
