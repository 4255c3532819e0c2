package io.tetradb.server.gremlin;

import io.tetradb.server.TestGremlin;
import io.tetradb.testing.NodeClients;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.gremlin.charge.ChargeMeter;
import io.tetradb.testing.SharedExamples;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TinkerPop's JavaScript driver (npm {@code gremlin}, the version pinned as {@code gremlin-js.version} in the root
 * pom) against the server: installed by npm into {@code target/gremlin-js} on the first run, then
 * {@code js-client.mjs} runs under node. Needs node and npm on the PATH (skipped, saying so, without node).
 */
class GremlinJavaScriptClientTest {
    private static final long NODE_TIMEOUT_SECONDS = 60;

    @TempDir
    Path dataDir;

    @Test
    void theJavaScriptDriverSpeaksBytecodeAndScripts() throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("gremlin.js.dir", "target/gremlin-js"));
        String version = System.getProperty("gremlin.js.version", "3.8.1");
        NodeClients.install(dir, "gremlin", version);
        try (InputStream script = getClass().getResourceAsStream("/gremlin/js-client.mjs")) {
            Files.copy(script, dir.resolve("js-client.mjs"), StandardCopyOption.REPLACE_EXISTING);
        }

        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)).start()) {
            GremlinEndpoint gremlin = (GremlinEndpoint) server.endpoint("gremlin");
            airGraph(gremlin);
            String out = NodeClients.run(dir, NODE_TIMEOUT_SECONDS, "node", "js-client.mjs", gremlin.url());
            JsonNode result = new ObjectMapper().readTree(out.lines().reduce((a, b) -> b).orElseThrow());

            assertEquals("[\"Deno\"]", result.get("names").toString());
            assertEquals("[\"Portland\",\"Vancouver\"]", result.get("airGraph").toString());
            assertEquals("[[\"JS\",\"Node\"]]", result.get("id").toString());
            JsonNode attributes = result.get("attributes");
            assertTrue(attributes.get(ChargeMeter.REQUEST_CHARGE).asDouble() > 0, attributes.toString());
            assertTrue(attributes.has(ChargeMeter.TOTAL_REQUEST_CHARGE), attributes.toString());
            assertEquals(597, result.get("error").get("statusCode").asInt(), result.toString());
            // what node wrote are documents of the graph's container
            String vertexIds = "SELECT VALUE c.id FROM c WHERE c.pk = 'JS' AND NOT IS_DEFINED(c._isEdge) ORDER BY c.id";
            assertEquals(List.of("Deno", "Node"), server.client().getDatabase("graphdb").getContainer("graph")
                    .queryItems(vertexIds, null, String.class).stream().toList());
        }
    }

    private static void airGraph(GremlinEndpoint gremlin) throws Exception {
        Cluster cluster = TestGremlin.cluster(gremlin.address()).create();
        try {
            cluster.connect().submit(Files.readString(SharedExamples.dir().resolve("air-graph.groovy"))).all().get();
        } finally {
            cluster.close();
        }
    }
}
