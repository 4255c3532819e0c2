package io.tetradb.server.faces;

import io.tetradb.testing.NodeClients;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The npm {@code @azure/data-tables} client (the version pinned as {@code data-tables-js.version} in the root pom),
 * unchanged, against the server's Tables endpoint: {@code submitTransaction} with a create, an upsert, an update and
 * a delete in one transaction, and a failing transaction that reports the failed operation's index and applies
 * nothing (the JavaScript SDK writes each operation without Content-Length and with a blank line before its JSON);
 * ETag round trips (a stale ETag is 412), a filter with an integer literal against a Double and {@code True}, and
 * transactions under a SAS that grants only "add", and a stored access policy with a SAS that names it.
 */
class TablesNodeSdkTest {
    private static final long NODE_TIMEOUT_SECONDS = 120;

    @Test
    void nodeSdkTransactions(@TempDir Path dataDir) throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("data-tables-js.dir", "target/data-tables-js"));
        NodeClients.install(dir, "@azure/data-tables", System.getProperty("data-tables-js.version", "13.3.2"));
        try (InputStream script = getClass().getResourceAsStream("/tables/node-transactions.mjs")) {
            Files.copy(script, dir.resolve("node-transactions.mjs"), StandardCopyOption.REPLACE_EXISTING);
        }

        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withTablePort(0)).start()) {
            String endpoint = "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/devstoreaccount1";
            String out = NodeClients.run(dir, NODE_TIMEOUT_SECONDS, "node", "node-transactions.mjs", endpoint);
            JsonNode r = new ObjectMapper().readTree(out.strip().lines().reduce((a, b) -> b).orElseThrow());

            assertEquals(202, r.get("status").asInt(), out);
            assertEquals("[204,204,204,204]", r.get("subStatuses").toString(), out);
            // the sub-response of the create names its entity (Location), so the SDK finds its ETag
            assertEquals(r.get("createdEtag").asText(), r.get("createdEtagFromBatch").asText(), out);
            assertTrue(r.get("createdEtag").asText().matches("W/\"datetime'\\d{4}-\\d\\d-\\d\\dT\\d\\d%3A\\d\\d%3A\\d\\d\\.\\d{7}Z'\""),
                    r.get("createdEtag").asText());
            assertEquals(5.0, r.get("createdDouble").asDouble(), out);
            // the transaction applied each operation; the failing one applied nothing
            assertEquals("{\"n\":3,\"kept\":null}", r.get("rows").get("created").toString(), out);
            assertEquals("{\"n\":4,\"kept\":null}", r.get("rows").get("upserted").toString(), out);
            assertEquals("{\"n\":5,\"kept\":\"yes\"}", r.get("rows").get("toUpdate").toString(), "merged: " + out);
            assertTrue(r.get("rows").get("toDelete") == null, out);
            assertTrue(r.get("rows").get("fresh") == null, "a failed transaction applies nothing: " + out);
            assertEquals(3, r.get("rows").size(), out);
            JsonNode failed = r.get("failed");
            assertEquals(409, failed.get("status").asInt(), out);
            assertEquals("EntityAlreadyExists", failed.get("code").asText(), out);
            assertTrue(failed.get("message").asText().startsWith("1:"), "the failed operation's index: " + out);
            // ETags round-trip through the SDK; a stale one is 412
            assertEquals(412, r.get("stale").asInt(), out);
            assertEquals("[\"created\"]", r.get("byDouble").toString(), "d eq 5 matches 5.0: " + out);
            // a SAS-authorised transaction needs the permissions of its operations, no more
            assertEquals(202, r.get("sasAdds").asInt(), out);
            assertEquals(403, r.get("sasDelete").get("status").asInt(), out);
            assertEquals("AuthorizationPermissionMismatch", r.get("sasDelete").get("code").asText(), out);
            assertEquals("[\"a1\",\"a2\"]", r.get("sasRows").toString(), out);
            // a stored access policy set and read back by the SDK, and a SAS naming it
            assertEquals("[{\"id\":\"readers\",\"permission\":\"r\"}]", r.get("policies").toString(), out);
            assertEquals("created", r.get("policyRead").asText(), out);
            assertEquals(403, r.get("policyWrite").get("status").asInt(), out);
            assertEquals("AuthorizationPermissionMismatch", r.path("policyWrite").path("code").asText(), out);
        }
    }
}
