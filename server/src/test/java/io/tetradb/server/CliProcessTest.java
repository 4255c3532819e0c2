package io.tetradb.server;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.testing.TestTime;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real CLI as a child JVM: start, answer HTTP, refuse a second process on the same directory, stop on
 * SIGTERM with exit code 0, and find the data again on the next start.
 */
@Timeout(180)
class CliProcessTest {
    /** A cold JVM plus RocksDB open; generous because CI machines are slow, but always bounded. */
    /** A cold JVM opening every face on a loaded machine: a bound for a hung start only. */
    private static final long START_TIMEOUT_SECONDS = TestTime.patience(java.time.Duration.ofSeconds(300)).toSeconds();
    private static final long STOP_TIMEOUT_SECONDS = TestTime.patience(java.time.Duration.ofSeconds(30)).toSeconds();

    @TempDir
    Path dataDir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void startServeStopOnSigtermAndRestart() throws Exception {
        // data written before, by another process's client: what the server must show, then keep
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dataDir).buildClient()) {
            TetraDbServerTest.writeSkewedItems(client);
        }

        // no separate admin port: the admin routes are on the Cosmos port, which also speaks plain HTTP
        Cli first = Cli.start(started, "start", "--data-dir", dataDir.toString(), "--cosmos-port", "0",
                "--gremlin-port", "0", "--mongo-port", "0", "--table-port", "0");
        String url = first.awaitCosmosUrl().replace("https://", "http://");
        String gremlin = first.awaitGremlinUrl();
        String startedLine = "TetraDB started (data directory " + dataDir.toAbsolutePath().normalize() + ")";
        first.awaitLine(startedLine::equals);
        assertEquals(200, TestHttp.get(url, "/health").statusCode(), "every face listens once started is printed");
        TetraDbServerTest.assertSkewedPartitions(TestHttp.json(TestHttp.get(url, "/api/partitions")));
        gremlinScript(gremlin, "g.addV('city').property('pk','USA').property(T.id,'Seattle')");

        // a second process on the same directory fails fast with one line and exit code 1
        Cli second = Cli.start(started, "start", "--data-dir", dataDir.toString(), "--cosmos-port", "0");
        assertEquals(1, second.awaitExit());
        List<String> errors = second.stderrLines();
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).contains("is in use by another TetraDB process"), errors.get(0));

        // SIGTERM: the signal handler stops the server on the main thread, which then exits normally
        first.sigterm();
        assertEquals(0, first.awaitExit());
        first.awaitLine("TetraDB stopped"::equals);

        Cli again = Cli.start(started, "start", "--data-dir", dataDir.toString(), "--http-port", "0",
                "--cosmos-port", "0", "--gremlin-port", "0", "--mongo-port", "0", "--table-port", "0");
        String url2 = again.awaitAdminUrl();
        TetraDbServerTest.assertSkewedPartitions(TestHttp.json(TestHttp.get(url2, "/api/partitions")));
        assertEquals(List.of(List.of("USA", "Seattle")), gremlinScript(again.awaitGremlinUrl(), "g.V().id()"));
        again.sigterm();
        assertEquals(0, again.awaitExit());
    }

    /** Runs a Groovy script on the Gremlin Server at {@code url} with TinkerPop's Java driver. */
    private static List<Object> gremlinScript(String url, String script) throws Exception {
        URI uri = URI.create(url);
        Cluster cluster = TestGremlin.cluster(uri.getHost(), uri.getPort()).create();
        try {
            return cluster.connect().submit(script).all().get().stream().map(Result::getObject).toList();
        } finally {
            cluster.close();
        }
    }

    /** One child JVM running the CLI, with both output streams drained into queues by daemon threads. */
    private static final class Cli {
        final Process process;
        final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
        final BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
        final List<String> seen = new ArrayList<>();

        private Cli(Process process) {
            this.process = process;
            drain(process.getInputStream(), stdout, "stdout");
            drain(process.getErrorStream(), stderr, "stderr");
        }

        static Cli start(List<Process> started, String... args) throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                    "-cp", System.getProperty("java.class.path"),
                    TetraDbCommand.class.getName()));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).start();
            started.add(p);
            return new Cli(p);
        }

        /** The {@code gremlin ws://host:port/gremlin} line's URL. */
        String awaitGremlinUrl() throws InterruptedException {
            String line = awaitLine(l -> l.startsWith("gremlin ws://"));
            return line.substring("gremlin ".length());
        }

        /** The {@code cosmos https://host:port/} line's URL, without its trailing slash. */
        String awaitCosmosUrl() throws InterruptedException {
            String line = awaitLine(l -> l.startsWith("cosmos https://"));
            return line.substring("cosmos ".length()).replaceAll("/$", "");
        }

        String awaitAdminUrl() throws InterruptedException {
            String line = awaitLine(l -> l.startsWith("admin http://"));
            return line.substring("admin ".length());
        }

        /** The next stdout line matching {@code wanted}; fails after the start timeout. */
        String awaitLine(java.util.function.Predicate<String> wanted) throws InterruptedException {
            for (String l : seen) {
                if (wanted.test(l)) {
                    return l;
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left > 0 ? stdout.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null || line.equals(EOF)) {
                    fail((line == null ? "no matching line within " + START_TIMEOUT_SECONDS + " s" : "stdout ended")
                            + "; stdout " + seen + ", stderr " + new ArrayList<>(stderr) + ", alive "
                            + process.isAlive());
                }
                seen.add(line);
                if (wanted.test(line)) {
                    return line;
                }
            }
        }

        /**
         * SIGTERM through the process handle: unlike {@link Process#destroy()}, which also sends SIGTERM on
         * Unix, it leaves our ends of the pipes open, so the last lines the server prints can still be read.
         */
        void sigterm() {
            assertTrue(process.toHandle().destroy(), "SIGTERM sent");
        }

        int awaitExit() throws InterruptedException {
            if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                fail("the process did not exit within " + STOP_TIMEOUT_SECONDS + " s");
            }
            return process.exitValue();
        }

        /** After exit: everything written to stderr (the drain thread has hit end of stream or will shortly). */
        List<String> stderrLines() throws InterruptedException {
            List<String> lines = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_SECONDS);
            while (System.nanoTime() < deadline) {
                String line = stderr.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (line == null || line.equals(EOF)) {
                    break;
                }
                lines.add(line);
            }
            return lines;
        }

        private static final String EOF = "\u0000EOF";

        private static void drain(InputStream in, BlockingQueue<String> into, String name) {
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        into.add(line);
                    }
                } catch (IOException e) {
                    into.add("(stream failed: " + e + ")");
                } finally {
                    into.add(EOF);
                }
            }, "cli-" + name);
            t.setDaemon(true);
            t.start();
        }
    }
}
