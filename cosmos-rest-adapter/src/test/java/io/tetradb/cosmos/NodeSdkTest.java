package io.tetradb.cosmos;

import io.tetradb.testing.NodeClients;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real {@code @azure/cosmos} (npm, version pinned in the root pom) runs a scripted session against the endpoint
 * over plain HTTP: items, patch, ETag conflicts, every query shape page by page, batch, bulk, hierarchical keys,
 * offers, stored procedures. Installed with the machine's npm into {@code target/node-cosmos} on the first run.
 */
class NodeSdkTest extends ServerFixture {
    static final long SCRIPT_TIMEOUT_SECONDS = 300;

    @Test
    void nodeSdkSession() throws Exception {
        String out = runScript("cosmos-session.mjs", Map.of(), endpoint(), KEY);
        assertTrue(out.contains("OK node session"), out);
    }

    /** Installs the SDK and runs one of the scripts under {@code src/test/resources/node} with extra environment. */
    static String runScript(String name, Map<String, String> env, String... args) throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of("target", "node-cosmos").toAbsolutePath();
        NodeClients.install(dir, "@azure/cosmos", System.getProperty("azure-cosmos-js.version", "4.10.1"));
        Path script = dir.resolve(name);
        try (InputStream in = NodeSdkTest.class.getResourceAsStream("/node/" + name)) {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        List<String> command = new ArrayList<>(List.of("node", script.toString()));
        command.addAll(List.of(args));
        return NodeClients.run(dir, env, SCRIPT_TIMEOUT_SECONDS, command.toArray(String[]::new));
    }
}
