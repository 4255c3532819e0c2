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
 * {@code tetradb start --storage cassandra}: its options are checked (exit 2), and a cluster it cannot reach is a
 * start-up error (exit 1) before the local engine opens. What it serves and refuses there: SharedEngineFacesTest.
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
    void anUnreachableClusterIsAStartupErrorAndNothingIsServed() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort(); // free once closed: nothing listens there
        }
        Path data = dir.resolve("data");
        int code = run("start", "--data-dir", data.toString(), "--storage", "cassandra",
                "--cassandra", "127.0.0.1:" + closedPort, "--cassandra-keyspace", "shop", "--cosmos-port", "0",
                "--gremlin-port", "0", "--mongo-port", "0", "--table-port", "0");
        assertEquals(1, code);
        assertTrue(err.toString().contains("cannot open Cassandra at"), err.toString());
        assertFalse(Files.exists(data.resolve("CURRENT")), "no local engine opened");
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
