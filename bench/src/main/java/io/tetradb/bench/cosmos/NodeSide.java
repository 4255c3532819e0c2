package io.tetradb.bench.cosmos;

import io.tetradb.bench.ChildProcesses;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's node processes: {@code npm install} of the pinned packages into {@code bench/target/cosmos-node},
 * the driver ({@code driver.js}, the {@code @azure/cosmos} client) and the peer ({@code @vercel/cosmosdb-server}).
 * Each child is killed (with anything it started) by {@link #close()} or, if the JVM exits first, a shutdown hook.
 */
final class NodeSide implements AutoCloseable {
    private static final long NPM_TIMEOUT_SECONDS = 600;
    private static final long START_TIMEOUT_MILLIS = 60_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Thread killer;
    private final BufferedReader answers;
    private final BufferedWriter commands;

    private NodeSide(Process process, boolean driver) {
        this.process = process;
        this.killer = ChildProcesses.killOnExit(process, "cosmos-bench-node-killer");
        this.answers = driver ? new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)) : null;
        this.commands = driver ? new BufferedWriter(new OutputStreamWriter(process.getOutputStream(),
                StandardCharsets.UTF_8)) : null;
    }

    /** The pinned versions, from the filtered resource {@code npm.properties}: package → version. */
    static Map<String, String> versions() {
        try (InputStream in = NodeSide.class.getResourceAsStream("npm.properties")) {
            Properties p = new Properties();
            p.load(in);
            return Map.of("@azure/cosmos", p.getProperty("azure-cosmos"),
                    "@vercel/cosmosdb-server", p.getProperty("cosmosdb-server"));
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("bench resource npm.properties is missing; rebuild the bench module", e);
        }
    }

    /** Why the benchmark cannot run here (no node or npm), or null when it can. */
    static String unavailableReason() {
        for (String tool : new String[]{"node", "npm"}) {
            try {
                Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    return tool + " --version failed";
                }
            } catch (IOException e) {
                return tool + " is not on the PATH";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        return null;
    }

    /** Installs the pinned packages into {@code dir} unless they are there already, and writes the driver script. */
    static void install(Path dir, Map<String, String> versions) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        boolean current = true;
        for (Map.Entry<String, String> e : versions.entrySet()) {
            Path pkg = dir.resolve("node_modules").resolve(e.getKey()).resolve("package.json");
            current &= Files.exists(pkg)
                    && e.getValue().equals(JSON.readTree(pkg.toFile()).path("version").asText());
        }
        if (!current) {
            Files.writeString(dir.resolve("package.json"), "{\"private\": true}\n");
            Path log = dir.resolve("npm-install.log");
            List<String> cmd = new java.util.ArrayList<>(List.of("npm", "install", "--no-audit", "--no-fund",
                    "--loglevel=error"));
            versions.forEach((name, version) -> cmd.add(name + "@" + version));
            Process npm = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!npm.waitFor(NPM_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                npm.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " timed out; see " + log);
            }
            if (npm.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " exited " + npm.exitValue() + ":\n" + Files.readString(log));
            }
        }
        try (InputStream in = NodeSide.class.getResourceAsStream("driver.js")) {
            Files.write(dir.resolve("driver.js"), in.readAllBytes());
        }
    }

    /** Starts the driver ({@code node driver.js} in {@code dir}); its stderr goes to {@code dir/driver.log}. */
    static NodeSide startDriver(Path dir) throws IOException {
        Process p = new ProcessBuilder("node", "driver.js").directory(dir.toFile())
                .redirectError(dir.resolve("driver.log").toFile()).start();
        return new NodeSide(p, true);
    }

    /**
     * Starts {@code cosmosdb-server} over plain HTTP ({@code --no-ssl}, as TetraDB is measured) on a free port of
     * 127.0.0.1 and waits until it says it listens.
     */
    static NodeSide startPeer(Path dir, int port) throws IOException, InterruptedException {
        Path log = dir.resolve("cosmosdb-server.log");
        Files.deleteIfExists(log);
        Process p = new ProcessBuilder("node", "node_modules/@vercel/cosmosdb-server/lib/cli.js",
                "--host", "127.0.0.1", "-p", Integer.toString(port), "--no-ssl")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        NodeSide peer = new NodeSide(p, false);
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        // the CLI prints one line when it listens; its output goes to a file, so poll it (startup only)
        while (!(Files.exists(log) && Files.readString(log).contains("Ready to accept"))) {
            if (!p.isAlive() || System.currentTimeMillis() > deadline) {
                peer.close();
                throw new IOException("cosmosdb-server did not start; see " + log);
            }
            Thread.sleep(50);
        }
        return peer;
    }

    /** Sends one command to the driver and returns its answer line (the driver answers in order). */
    String call(ObjectNode command) {
        try {
            commands.write(JSON.writeValueAsString(command));
            commands.newLine();
            commands.flush();
            return answers.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cosmos driver (node) is gone", e);
        }
    }

    ProcessHandle handle() {
        return process.toHandle();
    }


    @Override
    public void close() {
        ChildProcesses.stop(process, killer);
    }

}
