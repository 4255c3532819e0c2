package io.tetradb.server.explorer;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.cosmos.CosmosHttpServer;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.PartitionKey;
import io.tetradb.server.Endpoint;
import io.tetradb.server.admin.AdminAccess;
import io.tetradb.testing.DevToolsPage;
import io.tetradb.testing.HeadlessChromium;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The explorer behind the Cosmos keys (a server bound beyond loopback), in headless Chromium: the page asks for the
 * key, refuses a wrong one, signs its calls with the key pasted as a connection string (the page's own WebCrypto
 * signature, checked by the server), and with the read-only key lists but cannot delete.
 */
class DataExplorerSignInBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void thePageAsksForTheKeyAndSignsItsCalls(@TempDir Path dir) throws Exception {
        String master = newKey();
        String readOnly = newKey();
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir.resolve("data")).buildClient()) {
            store.createDatabaseIfNotExists("shop");
            store.getDatabase("shop").createContainerIfNotExists("orders", "/customerId");
            store.getDatabase("shop").getContainer("orders").upsertItem(Map.of("id", "o1", "customerId", "c1"));
            CosmosRestOptions options = DataExplorer.mount(CosmosRestOptions.defaults().withMasterKey(master)
                    .withReadOnlyKey(readOnly), store, AdminAccess.keys(() -> master, () -> readOnly));
            try (CosmosHttpServer server = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, store, options);
                 HeadlessChromium chromium = HeadlessChromium.start(Files.createDirectories(dir.resolve("profile")));
                 DevToolsPage page = chromium.page()) {
                String base = "http://" + Endpoint.hostPort(server.address());
                page.navigate(base + "/_explorer/");
                page.waitFor("the sign-in form", "!document.getElementById('sign-in').hidden");
                signIn(page, newKey());
                page.waitFor("a wrong key refused", "!document.getElementById('sign-in').hidden && document"
                        + ".getElementById('sign-in-status').textContent.includes('refused')");

                signIn(page, "AccountEndpoint=" + base + "/;AccountKey=" + master + ";");
                page.waitFor("the databases, signed with the master key",
                        "document.querySelectorAll('#tree button.db').length === 1");
                assertTrue(page.evaluate("document.getElementById('sign-in').hidden").asBoolean());

                // the read-only key: the items are listed, a delete is refused and the item stays
                page.evaluate("(() => { sessionStorage.setItem('tetradb.explorer.key', " + JSON.valueToTree(readOnly)
                        + "); return true; })()");
                click(page, "#tree button.db[data-db='shop']");
                page.waitFor("the container", "document.querySelector(\"#tree button.coll[data-container='orders']\")");
                click(page, "#tree button.coll[data-container='orders']");
                page.waitFor("the item", "document.querySelectorAll('#items button.item').length === 1");
                click(page, "#items button.item[data-id='o1']");
                page.waitFor("o1 opened", "!document.getElementById('item-delete').disabled");
                click(page, "#item-delete");
                click(page, "#item-delete"); // the second click confirms
                page.waitFor("the delete refused", "document.getElementById('item-status').textContent"
                        + ".includes('Forbidden')");
                assertEquals(200, store.getDatabase("shop").getContainer("orders")
                        .readItem("o1", new PartitionKey("c1"), Map.class).getStatusCode());
                assertEquals(List.of(), page.pageErrors(), "the page reported errors");
            }
        }
    }

    private static void signIn(DevToolsPage page, String key) throws Exception {
        page.evaluate("(() => { document.getElementById('sign-in-key').value = " + JSON.valueToTree(key) + ";"
                + " document.getElementById('sign-in').requestSubmit(); return true; })()");
    }

    private static void click(DevToolsPage page, String selector) throws Exception {
        page.evaluate("(() => { const e = document.querySelector(" + JSON.valueToTree(selector) + ");"
                + " if (!e) throw new Error('nothing matches ' + " + JSON.valueToTree(selector) + ");"
                + " e.click(); return true; })()");
    }

    private static String newKey() {
        byte[] k = new byte[64];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }
}
