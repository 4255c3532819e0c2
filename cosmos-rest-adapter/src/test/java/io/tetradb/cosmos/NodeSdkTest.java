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
        String out = runScript("cosmos-session.mjs", java.util.Map.of(), endpoint(), KEY);
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

    /** Installs the SDK and runs one of the scripts under {@code src/test/resources/node} with extra environment. */
    static String runScript(String name, java.util.Map<String, String> env, String... args) throws Exception {
        for (String command : List.of("node", "npm")) {
            if (!onPath(command)) {
                fail(command + " is not on the PATH: this test runs @azure/cosmos against the endpoint and needs "
                        + "Node.js 18+ with npm");
            }
        }
        Path dir = Path.of("target", "node-cosmos").toAbsolutePath();
        install(dir, "@azure/cosmos", System.getProperty("azure-cosmos-js.version", "4.10.1"));
        Path script = dir.resolve(name);
        try (InputStream in = NodeSdkTest.class.getResourceAsStream("/node/" + name)) {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        String[] command = new String[args.length + 2];
        command[0] = "node";
        command[1] = script.toString();
        System.arraycopy(args, 0, command, 2, args.length);
        return run(dir, 300, env, command);
    }

    static String run(Path dir, long timeoutSeconds, String... command) throws Exception {
        return run(dir, timeoutSeconds, java.util.Map.of(), command);
    }

    static String run(Path dir, long timeoutSeconds, java.util.Map<String, String> env, String... command)
            throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
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
