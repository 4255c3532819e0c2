package io.tetradb.testing;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The npm clients the tests run against the faces (the JavaScript Gremlin driver, mongosh, the Azure Tables and
 * Cosmos SDKs): installed with the machine's npm into a directory under {@code target/} on the first run, then run
 * with node. In the test-jar, so every module's tests share it.
 */
public final class NodeClients {
    private static final long NPM_TIMEOUT_SECONDS = 600;

    private NodeClients() {
    }

    /** {@code npm install name@version} into {@code dir}, unless that version is there already. */
    public static void install(Path dir, String name, String version) throws Exception {
        Path installed = dir.resolve("node_modules/" + name + "/package.json");
        if (Files.exists(installed)
                && new ObjectMapper().readTree(installed.toFile()).get("version").asText().equals(version)) {
            return;
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("package.json"), "{\"private\": true, \"type\": \"module\"}\n");
        run(dir, NPM_TIMEOUT_SECONDS, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                name + "@" + version);
    }

    /**
     * Fails the test unless node and npm run: the README lists them as what the tests need, so a machine without them
     * is told so, rather than the client tests passing by being skipped.
     */
    public static void requireNodeAndNpm() {
        for (String command : List.of("node", "npm")) {
            if (!onPath(command)) {
                fail(command + " is not on the PATH: the tests run the npm clients against the server and need "
                        + "Node.js 18+ with npm (README: What a machine needs)");
            }
        }
    }

    /** Whether {@code command --version} runs (node and npm are on the machine). */
    public static boolean onPath(String command) {
        try {
            Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Runs a command in {@code dir}; fails the test with its output unless it exits 0 in time. */
    public static String run(Path dir, long timeoutSeconds, String... command) throws Exception {
        return run(dir, Map.of(), timeoutSeconds, command);
    }

    /** {@link #run(Path, long, String...)} with these environment variables added. */
    public static String run(Path dir, Map<String, String> env, long timeoutSeconds, String... command)
            throws Exception {
        Path log = Files.createTempFile("node-client", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(dir.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(env);
            Process p = builder.start();
            boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly();
            }
            String out = Files.readString(log);
            if (!done || p.exitValue() != 0) {
                fail(String.join(" ", command) + (done ? " exited " + p.exitValue() : " timed out") + ":\n" + out);
            }
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
