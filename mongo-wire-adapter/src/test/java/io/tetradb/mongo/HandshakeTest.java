package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handshake and the diagnostic commands, through the Java driver. */
class HandshakeTest extends MongoServerTestBase {

    @Test
    void helloDescribesAMongoDb7Primary() {
        Document hello = client.getDatabase("admin").runCommand(new Document("hello", 1));
        assertEquals(true, hello.get("isWritablePrimary"));
        assertEquals(true, hello.get("helloOk"));
        assertEquals(21, hello.get("maxWireVersion"));
        assertEquals(0, hello.get("minWireVersion"));
        assertEquals(16 * 1024 * 1024, hello.get("maxBsonObjectSize"));
        assertTrue(hello.getInteger("connectionId") > 0);
        assertEquals(30, hello.get("logicalSessionTimeoutMinutes"));
        assertFalse(hello.containsKey("compression"), "no compression is advertised");
        Document legacy = client.getDatabase("admin").runCommand(new Document("isMaster", 1));
        assertEquals(true, legacy.get("ismaster"));
    }

    /**
     * The drivers' streaming monitor sends hello with the topology version it knows and {@code maxAwaitTimeMS}; the
     * server holds such a hello (this topology never changes) instead of answering at once, which made the monitor
     * ask again at once: thousands of hellos a second from an idle client.
     */
    @Test
    void anAwaitableHelloIsHeldForItsMaxAwaitTime() {
        Document first = client.getDatabase("admin").runCommand(new Document("hello", 1));
        Document known = first.get("topologyVersion", Document.class);
        long t0 = System.nanoTime();
        Document held = client.getDatabase("admin").runCommand(new Document("hello", 1)
                .append("topologyVersion", known).append("maxAwaitTimeMS", 300L));
        long waitedMs = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(true, held.get("isWritablePrimary"));
        assertTrue(waitedMs >= 290, "answered after " + waitedMs + " ms");
        Document other = client.getDatabase("admin").runCommand(new Document("hello", 1).append("topologyVersion",
                new Document("processId", new org.bson.types.ObjectId()).append("counter", 0L))
                .append("maxAwaitTimeMS", 60_000L));
        assertEquals(known, other.get("topologyVersion", Document.class), "another process's version: answered at once");

        // an idle client (its monitor streaming) sends a handful of commands, not thousands
        long before = commandsCounted();
        long t1 = System.nanoTime();
        try (com.mongodb.client.MongoClient idle = connect()) {
            idle.getDatabase("admin").runCommand(new Document("ping", 1));
            long until = System.nanoTime() + 1_500_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
                Thread.yield();
            }
        }
        long seconds = Math.max(1, (System.nanoTime() - t1) / 1_000_000_000L);
        long perSecond = (commandsCounted() - before) / seconds;
        assertTrue(perSecond < 50, perSecond + " commands per second from an idle client");
    }

    private static long commandsCounted() {
        Document status = client.getDatabase("admin").runCommand(new Document("serverStatus", 1));
        return ((Number) status.get("opcounters", Document.class).get("command")).longValue();
    }

    @Test
    void buildInfoSaysVersion7() {
        Document info = client.getDatabase("admin").runCommand(new Document("buildInfo", 1));
        assertEquals("7.0.0", info.get("version"));
        assertEquals(List.of(7, 0, 0, 0), info.getList("versionArray", Integer.class));
    }

    @Test
    void diagnosticAndSessionCommandsSucceed() {
        for (String cmd : List.of("ping", "getCmdLineOpts", "hostInfo", "serverStatus", "connectionStatus",
                "whatsmyuri", "startSession")) {
            Document reply = client.getDatabase("admin").runCommand(new Document(cmd, 1));
            assertEquals(1.0, ((Number) reply.get("ok")).doubleValue(), cmd);
        }
        Document log = client.getDatabase("admin").runCommand(new Document("getLog", "startupWarnings"));
        assertTrue(log.containsKey("log"));
        Document param = client.getDatabase("admin").runCommand(new Document("getParameter", 1)
                .append("featureCompatibilityVersion", 1));
        assertEquals("7.0", param.get("featureCompatibilityVersion", Document.class).get("version"));
        Document me = client.getDatabase("admin").runCommand(new Document("whatsmyuri", 1));
        assertTrue(me.getString("you").startsWith("127.0.0.1:"), me.toJson());
        client.getDatabase("admin").runCommand(new Document("endSessions", List.of()));
        // killAllSessions takes a list of users ([] for all), as mongod's IDL: 1 is a TypeMismatch there too
        assertEquals(1.0, ((Number) client.getDatabase("admin").runCommand(new Document("killAllSessions", List.of()))
                .get("ok")).doubleValue());
    }

    @Test
    void unknownCommandIsCommandNotFound59() {
        MongoCommandException e = assertThrows(MongoCommandException.class,
                () -> client.getDatabase("admin").runCommand(new Document("noSuchThing", 1)));
        assertEquals(59, e.getErrorCode());
        assertEquals("CommandNotFound", e.getErrorCodeName());
    }
}
