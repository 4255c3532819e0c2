package io.tetradb.cosmos;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real {@code @azure/cosmos} (npm, version pinned in the root pom) runs a scripted session against the endpoint
 * over plain HTTP: items, patch, ETag conflicts, every query shape page by page, batch, bulk, hierarchical keys,
 * offers, stored procedures. Installed with the machine's npm into {@code target/node-cosmos} on the first run.
 */
class NodeSdkTest extends ServerFixture {
    static final long NPM_TIMEOUT_SECONDS = 600;

    @Test
    void nodeSdkSession() throws Exception {
        for (String command : List.of("node", "npm")) {
            if (!onPath(command)) {
                fail(command + " is not on the PATH: this test runs @azure/cosmos against the endpoint and needs "
                        + "Node.js 18+ with npm");
            }
        }
        String version = System.getProperty("azure-cosmos-js.version", "4.10.1");
        Path dir = Path.of("target", "node-cosmos").toAbsolutePath();
        install(dir, "@azure/cosmos", version);
        Path script = dir.resolve("cosmos-session.mjs");
        try (InputStream in = getClass().getResourceAsStream("/node/cosmos-session.mjs")) {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        String out = run(dir, 300, "node", script.toString(), endpoint(), KEY);
        assertTrue(out.contains("OK node session"), out);
    }

    static void install(Path dir, String name, String version) throws Exception {
        Path installed = dir.resolve("node_modules/" + name + "/package.json");
        if (Files.exists(installed) && Json.MAPPER.readTree(installed.toFile()).path("version").asText()
                .equals(version)) {
            return;
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("package.json"), "{\"private\": true, \"type\": \"module\"}\n");
        run(dir, NPM_TIMEOUT_SECONDS, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                name + "@" + version);
    }

    static String run(Path dir, long timeoutSeconds, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[][] output = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                output[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                output[0] = new byte[0];
            }
        });
        reader.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
        }
        reader.join();
        String out = new String(output[0], StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + out);
        return out;
    }

    static boolean onPath(String command) {
        try {
            Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
