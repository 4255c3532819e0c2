package io.tetradb.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.testing.NodeClients;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The npm {@code @azure/data-tables} client against two servers on one shared store ({@code node-two-servers.mjs}):
 * a table made on one listed on the other, an entity made on one read and merged on the other, ETags equal through
 * both and a stale one 412, a transaction through one seen whole on the other, a failing one through the other
 * (409 at operation 1) applying nothing, a delete seen on the other. Run by the embedded shared-store test and the
 * cluster test.
 */
final class NodeTablesTwoServers {
    private static final long NODE_TIMEOUT_SECONDS = 180;

    private NodeTablesTwoServers() {
    }

    static String tablesEndpoint(TetraDbServer server) {
        return "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/devstoreaccount1";
    }

    static void check(TetraDbServer a, TetraDbServer b) throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("data-tables-js.dir", "target/data-tables-js"));
        NodeClients.install(dir, "@azure/data-tables", System.getProperty("data-tables-js.version", "13.3.2"));
        try (InputStream script = NodeTablesTwoServers.class.getResourceAsStream("/tables/node-two-servers.mjs")) {
            Files.copy(script, dir.resolve("node-two-servers.mjs"), StandardCopyOption.REPLACE_EXISTING);
        }
        String out = NodeClients.run(dir, NODE_TIMEOUT_SECONDS, "node", "node-two-servers.mjs", tablesEndpoint(a),
                tablesEndpoint(b));
        JsonNode r = new ObjectMapper().readTree(out.strip().lines().reduce((x, y) -> y).orElseThrow());
        assertTrue(r.get("listedOnB").asBoolean(), out);
        assertEquals(1, r.get("readOnB").asInt(), out);
        assertEquals(2, r.get("readOnA").asInt(), out);
        assertTrue(r.get("etagsEqual").asBoolean(), out);
        assertEquals(412, r.get("stale").asInt(), out);
        assertEquals(202, r.get("txStatus").asInt(), out);
        assertEquals("[204,204,204,204]", r.get("subStatuses").toString(), out);
        assertEquals(409, r.get("failed").get("status").asInt(), out);
        assertEquals("EntityAlreadyExists", r.get("failed").get("code").asText(), out);
        assertTrue(r.get("failed").get("message").asText().startsWith("1:"), "the failed operation's index: " + out);
        assertEquals("{\"r1\":{\"n\":2,\"m\":\"x\"},\"r2\":{\"n\":3,\"m\":null}}", r.get("rowsOnA").toString(),
                "the transaction whole, nothing of the failed one, r3 deleted through b: " + out);
        assertEquals(404, r.get("deletedOnA").asInt(), out);
    }
}
