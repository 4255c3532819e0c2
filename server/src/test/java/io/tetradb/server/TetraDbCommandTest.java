package io.tetradb.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line in-process, for the paths that end without running a server. */
@Timeout(60)
class TetraDbCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = TetraDbCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void usageErrorsExitWith2() {
        assertEquals(2, run());
        assertEquals(2, run("bogus"));
        assertEquals(2, run("start", "--http-port", "x"));
        assertEquals(2, run("start", "--http-port", "70000"));
        assertEquals(2, run("start", "--no-such-option"));
        assertEquals(2, run("start", "--gremlin-port", "-1"));
        assertEquals(2, run("start", "--mongo-port", "70000"));
        assertEquals(2, run("start", "--table-port", "x"));
        assertEquals(2, run("start", "--gremlin-timeout-ms", "0"));
        assertEquals(2, run("start", "--max-open-cursors", "0"));
        assertEquals(2, run("start", "--cosmos-key", "not base64!", "--http-port", "0"));
        assertEquals(2, run("start", "--cosmos-read-only-key", "not base64!", "--http-port", "0"));
        assertEquals(2, run("start", "--graph", "no-equals-sign"));
        assertEquals(2, run("start", "--graph", "air=db/container"));
        assertEquals(2, run("start", "--graph", "a=db/c/pk", "--graph", "a=db/d/pk"));
        assertTrue(err.toString().contains("Usage: tetradb"), err.toString());
    }

    @Test
    void aBadConfigurationFileIsAUsageErrorThatShowsNoKey(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Path file = dir.resolve("tetradb.yaml");
        String notAKey = "s3cret*not*base64";
        Files.writeString(file, "tables:\n  accounts:\n    - name: shop\n      key1: " + notAKey + "\n");
        assertEquals(2, run("start", "--data-dir", data.toString(), "--config", file.toString(), "--http-port", "0"));
        assertTrue(err.toString().contains("a key of the account shop is not base64"), err.toString());
        assertTrue(!err.toString().contains(notAKey), err.toString());
        assertEquals(2, run("start", "--data-dir", data.toString(), "--config", dir.resolve("none.yaml").toString()));
        assertTrue(err.toString().contains("none.yaml does not exist"), err.toString());
        assertTrue(Files.notExists(data), "nothing was opened");
    }

    @Test
    void nonLoopbackBindIsRefusedBeforeAnythingStarts(@TempDir Path dir) {
        Path data = dir.resolve("data");
        assertEquals(2, run("start", "--data-dir", data.toString(), "--bind", "0.0.0.0", "--http-port", "0"));
        assertTrue(err.toString().contains("--bind 0.0.0.0 is refused: beyond loopback every face must require "
                + "credentials; missing: a Cosmos master key other than the emulator's"), err.toString());
        for (String missing : new String[] {"Tables accounts with keys other than Azurite's",
                "Gremlin authentication"}) {
            assertTrue(err.toString().contains(missing), err.toString());
        }
        assertEquals(2, run("start", "--data-dir", data.toString(), "--bind", "192.0.2.1", "--http-port", "0"));
        assertTrue(Files.notExists(data), "nothing was opened");
        assertEquals("", out.toString());
    }

    @Test
    void devClusterOptionsAreCheckedBeforeAnyNodeStarts(@TempDir Path dir) {
        Path nodes = dir.resolve("nodes");
        assertEquals(2, run("dev-cluster", "--nodes", "0", "--dir", nodes.toString()));
        assertTrue(err.toString().contains("--nodes is 1 to 9, not 0"), err.toString());
        assertEquals(2, run("dev-cluster", "--nodes", "10", "--dir", nodes.toString()));
        assertEquals(2, run("dev-cluster", "--heap", "lots", "--dir", nodes.toString()));
        assertTrue(err.toString().contains("--heap takes a size such as 384m, not 'lots'"), err.toString());
        assertTrue(Files.notExists(nodes), "no node was set up");
        assertEquals(0, run("dev-cluster", "--help"));
    }

    @Test
    void throughputOptionsAreCheckedBeforeAnythingStarts(@TempDir Path dir) {
        Path data = dir.resolve("data");
        assertEquals(2, run("start", "--data-dir", data.toString(), "--rate-limit", "maybe", "--http-port", "0"));
        assertTrue(err.toString().contains("--rate-limit is on or off, not 'maybe'"), err.toString());
        assertEquals(2, run("start", "--data-dir", data.toString(), "--burst-capacity", "maybe", "--http-port", "0"));
        assertTrue(err.toString().contains("--burst-capacity is on or off, not 'maybe'"), err.toString());
        assertEquals(2, run("start", "--data-dir", data.toString(), "--consistency", "Linearizable", "--http-port", "0"));
        assertTrue(err.toString().contains("--consistency is Strong, BoundedStaleness, Session, ConsistentPrefix or "
                + "Eventual, not 'Linearizable'"), err.toString());
        assertEquals(2, run("start", "--data-dir", data.toString(), "--split-threshold-bytes", "0", "--http-port", "0"));
        assertEquals(2, run("start", "--data-dir", data.toString(), "--split-threshold-bytes", "x", "--http-port", "0"));
        assertEquals(2, run("start", "--data-dir", data.toString(), "--cosmos-physical-ranges", "yes", "--http-port",
                "0"));
        assertTrue(err.toString().contains("--cosmos-physical-ranges is on or off, not 'yes'"), err.toString());
        assertTrue(Files.notExists(data), "nothing was opened");
        assertEquals(0, run("start", "--help"));
        assertTrue(out.toString().contains("--rate-limit") && out.toString().contains("--split-threshold-bytes")
                && out.toString().contains("--consistency") && out.toString().contains("--cosmos-physical-ranges"));
    }

    @Test
    void helpExitsWith0() {
        assertEquals(0, run("start", "--help"));
        assertTrue(out.toString().contains("--data-dir"));
        assertTrue(out.toString().contains("--http-port"));
        assertTrue(out.toString().contains("--bind"));
    }

    @Test
    void directoryInUseExitsWith1AndOneLine(@TempDir Path dir) {
        try (TetraDbServer running = new TetraDbServer(ServerConfig.ephemeral(dir)).start()) {
            assertEquals(1, run("start", "--data-dir", dir.toString(), "--http-port", "0"));
            String message = err.toString();
            assertEquals(1, message.lines().count(), message);
            assertTrue(message.startsWith("tetradb: data directory ") && message.contains("in use"), message);
            assertEquals("", out.toString());
        }
    }

    @Test
    void dataDirectoryThatIsAFileExitsWith1(@TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("not-a-directory"));
        assertEquals(1, run("start", "--data-dir", file.toString(), "--http-port", "0"));
        assertEquals("tetradb: data directory " + file + " is not a directory", err.toString().strip());
    }
}
