package io.tetradb.bench.table;

import io.tetradb.bench.ChildProcesses;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Azurite's Table service (npm {@code azurite}, the version pinned as {@code azurite.version} in the root pom) as a
 * child process: installed with the machine's npm into {@code bench/target/azurite} on first use, started with
 * {@code node .../azurite/dist/src/table/main.js} on a free port, and killed (with anything it started) by
 * {@link #close()} or, if the JVM exits first, by a shutdown hook.
 */
final class Azurite implements AutoCloseable {
    private static final long NPM_TIMEOUT_SECONDS = 600;
    private static final long START_TIMEOUT_SECONDS = 60;

    private final Process process;
    private final Thread killer;
    private final int port;

    private Azurite(Process process, Thread killer, int port) {
        this.process = process;
        this.killer = killer;
        this.port = port;
    }

    /** The pinned version, from the filtered resource {@code azurite.properties}. */
    static String version() {
        try (InputStream in = Azurite.class.getResourceAsStream("azurite.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("bench resource azurite.properties is missing; rebuild the bench module", e);
        }
    }

    /** Why Azurite cannot run here (no node or npm), or null when it can. */
    static String unavailableReason() {
        for (String tool : new String[]{"node", "npm"}) {
            if (!onPath(tool)) {
                return tool + " is not on the PATH";
            }
        }
        return null;
    }

    /** {@code npm install azurite@version} into {@code dir} unless that version is there already; returns main.js. */
    static Path install(Path dir, String version) throws IOException, InterruptedException {
        Path pkg = dir.resolve("node_modules/azurite/package.json");
        if (!(Files.exists(pkg) && version.equals(new ObjectMapper().readTree(pkg.toFile()).path("version").asText()))) {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("package.json"), "{\"private\": true}\n");
            Path log = dir.resolve("npm-install.log");
            Process npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                    "azurite@" + version).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!npm.waitFor(NPM_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                npm.destroyForcibly();
                throw new IOException("npm install azurite@" + version + " timed out; see " + log);
            }
            if (npm.exitValue() != 0) {
                throw new IOException("npm install azurite@" + version + " exited " + npm.exitValue() + ":\n"
                        + Files.readString(log));
            }
        }
        return dir.resolve("node_modules/azurite/dist/src/table/main.js");
    }

    /**
     * Starts the Table service on a free port of 127.0.0.1 and waits until it listens.
     *
     * @param location null for {@code --inMemoryPersistence}, else the workspace directory ({@code --location})
     */
    static Azurite start(Path mainJs, Path location, Path logFile) throws IOException, InterruptedException {
        int port = ChildProcesses.freePort();
        List<String> cmd = new ArrayList<>(List.of("node", mainJs.toString(),
                "--tableHost", "127.0.0.1", "--tablePort", Integer.toString(port),
                // no access log per request, no telemetry (no network here), any API version the SDK sends
                "--silent", "--disableTelemetry", "--skipApiVersionCheck"));
        if (location == null) {
            cmd.add("--inMemoryPersistence");
        } else {
            Files.createDirectories(location);
            cmd.addAll(List.of("--location", location.toString()));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Thread killer = ChildProcesses.killOnExit(p, "azurite-killer");
        Azurite azurite = new Azurite(p, killer, port);
        try {
            azurite.awaitStarted(logFile);
        } catch (IOException | InterruptedException | RuntimeException e) {
            azurite.close();
            throw e;
        }
        return azurite;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    int port() {
        return port;
    }

    /** Copies the child's output to {@code logFile} and returns once it says it listens. */
    private void awaitStarted(Path logFile) throws IOException, InterruptedException {
        CompletableFuture<Void> started = new CompletableFuture<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
                 var log = Files.newBufferedWriter(logFile)) {
                String line;
                while ((line = in.readLine()) != null) {
                    log.write(line);
                    log.newLine();
                    log.flush();
                    if (line.contains("successfully started")) {
                        started.complete(null);
                    }
                }
                started.completeExceptionally(new IOException("Azurite exited before it listened; see " + logFile));
            } catch (IOException e) {
                started.completeExceptionally(e);
            }
        }, "azurite-output");
        pump.setDaemon(true);
        pump.start();
        try {
            started.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IOException("Azurite did not start within " + START_TIMEOUT_SECONDS + " s; see " + logFile);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    @Override
    public void close() {
        ChildProcesses.stop(process, killer);
    }



    private static boolean onPath(String command) {
        try {
            Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
