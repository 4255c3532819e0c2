package io.tetradb.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tetradb start --storage cassandra}: its options are checked (exit 2), and while the core still keeps part of
 * its data in the local directory (io.tetradb.core.storage.EngineBypasses) the server refuses to start on Cassandra,
 * naming what is missing, before it connects or creates anything (exit 1).
 */
@Timeout(60)
class CassandraStorageOptionsTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    @TempDir
    Path dir;

    private int run(String... args) {
        CommandLine cli = TetraDbCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void badOptionsAreUsageErrors() {
        String data = dir.resolve("data").toString();
        assertEquals(2, run("start", "--data-dir", data, "--storage", "cassandra"));
        assertTrue(err.toString().contains("--storage cassandra needs --cassandra HOST:PORT"), err.toString());
        assertEquals(2, run("start", "--data-dir", data, "--storage", "etcd"));
        assertEquals(2, run("start", "--data-dir", data, "--cassandra", "127.0.0.1:19042"));
        assertTrue(err.toString().contains("--cassandra needs --storage cassandra"), err.toString());
        assertEquals(2, run("start", "--data-dir", data, "--storage", "cassandra", "--cassandra", "127.0.0.1:x"));
        assertEquals(2, run("start", "--data-dir", data, "--storage", "cassandra", "--cassandra", "127.0.0.1:70000"));
        assertEquals(2, run("start", "--data-dir", data, "--storage", "cassandra", "--cassandra", ","));
        assertEquals(2, run("start", "--data-dir", data, "--storage", "cassandra", "--cassandra", "h:1",
                "--cassandra-keyspace", "Bad-Name"));
        assertEquals(2, run("start", "--data-dir", data, "--storage", "cassandra", "--cassandra", "h:1",
                "--cassandra-replication", "0"));
        assertEquals(2, run("start", "--data-dir", data, "--storage", "cassandra", "--cassandra", "h:1",
                "--cassandra-consistency", "strong"));
        assertTrue(err.toString().contains("--cassandra-consistency is quorum or eventual, not 'strong'"),
                err.toString());
        assertFalse(Files.exists(dir.resolve("data")), "nothing created");
    }

    @Test
    void refusesToStartWhileTheCoreKeepsDataLocallyAndNamesWhatIsMissing() {
        Path data = dir.resolve("data");
        int code = run("start", "--data-dir", data.toString(), "--storage", "cassandra",
                "--cassandra", "127.0.0.1:19042,127.0.0.2:19042", "--cassandra-keyspace", "shop",
                "--cassandra-replication", "3", "--cassandra-consistency", "quorum", "--cosmos-port", "0",
                "--gremlin-port", "0", "--mongo-port", "0", "--table-port", "0");
        assertEquals(1, code);
        String message = err.toString();
        assertTrue(message.startsWith("tetradb: --storage cassandra cannot serve yet"), message);
        for (String missing : io.tetradb.core.storage.EngineBypasses.remaining()) {
            assertTrue(message.contains(missing), "names " + missing + ": " + message);
        }
        assertTrue(message.contains("graph adjacency"), message);
        assertFalse(Files.exists(data), "no local directory made, so no data kept there");
        assertEquals("", out.toString(), "no endpoint started");
    }

    @Test
    void contactPointsParse() {
        assertEquals(List.of(InetSocketAddress.createUnresolved("127.0.0.1", 19042),
                        InetSocketAddress.createUnresolved("127.0.0.2", 19042),
                        InetSocketAddress.createUnresolved("cass.example", 9042),
                        InetSocketAddress.createUnresolved("::1", 9043)),
                CassandraStorage.Options.parseContactPoints("127.0.0.1:19042, 127.0.0.2:19042,Cass.Example,[::1]:9043"));
    }
}
