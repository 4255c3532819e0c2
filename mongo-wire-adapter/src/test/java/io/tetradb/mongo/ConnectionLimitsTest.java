package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.auth.MongoUsers;
import io.tetradb.testing.TestTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Floods and slow clients: connections from one address beyond the per-address limit are closed at once (as mongod
 * closes those beyond maxIncomingConnections) while the others keep being served; a request that has started but does
 * not arrive whole within the read timeout closes its connection; idle connections with nothing started stay open.
 */
class ConnectionLimitsTest {
    @TempDir
    static Path dataDir;
    static CosmosClient store;
    static MongoWireServer server;

    @BeforeAll
    static void start() {
        store = new CosmosClientBuilder().dataDirectory(dataDir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store, MongoUsers.none(),
                ConnectionLimits.defaults().withMaxConnections(100, 8).withRequestReadTimeout(Duration.ofSeconds(1)));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    private static Socket socket() throws IOException {
        Socket s = new Socket("127.0.0.1", server.address().getPort());
        s.setSoTimeout((int) PatientDriver.WAIT_MILLIS); // a wait for the server's answer or close, not a speed check
        return s;
    }

    private static boolean pingAnswered(Socket s) {
        try {
            s.getOutputStream().write(WireFrames.opMsg(7, new BsonDocument("ping", new BsonInt32(1))
                    .append("$db", new BsonString("admin"))));
            return (int) WireFrames.readReply(s.getInputStream())[0] == 7;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void connectionsBeyondThePerAddressLimitAreClosedAndTheOthersServed() throws Exception {
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                Socket s = socket();
                flood.add(s);
                assertTrue(pingAnswered(s), "connection " + i + " is within the limit");
            }
            try (Socket ninth = socket()) {
                assertEquals(-1, ninth.getInputStream().read(), "the ninth connection is closed at once");
            }
            assertTrue(pingAnswered(flood.get(0)), "the admitted connections are still served");
            flood.remove(0).close();
            awaitOpenConnections(7);
            try (Socket again = socket()) {
                assertTrue(pingAnswered(again), "a closed connection frees its place");
            }
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
        awaitOpenConnections(0);
        try (MongoClient driver = PatientDriver.client(server)) {
            assertEquals(1.0, driver.getDatabase("admin").runCommand(new Document("ping", 1))
                    .get("ok", Number.class).doubleValue());
        }
        assertTrue(server.connectionGuard().openConnections() <= 8);
    }

    @Test
    void aRequestThatStopsHalfwayClosesItsConnectionAfterTheReadTimeout() throws Exception {
        int timedOutBefore = server.connectionGuard().timedOut();
        try (Socket loris = socket(); Socket idle = socket()) {
            assertTrue(pingAnswered(idle));
            byte[] ping = WireFrames.opMsg(8, new BsonDocument("ping", new BsonInt32(1))
                    .append("$db", new BsonString("admin")));
            loris.getOutputStream().write(ping, 0, 10); // the header's first 10 bytes, then nothing
            loris.getOutputStream().flush();
            assertEquals(-1, loris.getInputStream().read(), "the server closes the half-sent request's connection");
            assertEquals(timedOutBefore + 1, server.connectionGuard().timedOut());
            assertTrue(pingAnswered(idle), "a connection idle between requests stays open");
        }
    }

    /**
     * The deadline's timer is armed once and re-armed for the request under way when it fires: a connection sending
     * whole requests for longer than the timeout stays open, and a half request after them is still cut off.
     */
    @Test
    void aConnectionBusyPastTheTimeoutStaysOpenAndALaterHalfRequestIsStillClosed() throws Exception {
        int timedOutBefore = server.connectionGuard().timedOut();
        try (Socket busy = socket()) {
            // at least 2.5 read timeouts of whole requests, however slow the machine (a slower one sends fewer); the
            // read timeout is the server's wall clock, so this is a lower bound on the time spent, never an upper one
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2_500);
            int pings = 0;
            while (System.nanoTime() < until) {
                assertTrue(pingAnswered(busy), "ping " + pings + " of a connection that keeps sending whole requests");
                pings++;
            }
            assertEquals(timedOutBefore, server.connectionGuard().timedOut());
            byte[] ping = WireFrames.opMsg(9, new BsonDocument("ping", new BsonInt32(1))
                    .append("$db", new BsonString("admin")));
            busy.getOutputStream().write(ping, 0, 10);
            busy.getOutputStream().flush();
            assertEquals(-1, busy.getInputStream().read(), "the half request after " + pings + " pings is cut off");
            assertEquals(timedOutBefore + 1, server.connectionGuard().timedOut());
        }
    }

    private static void awaitOpenConnections(int n) throws InterruptedException {
        long until = System.nanoTime() + TestTime.patience(Duration.ofSeconds(10)).toNanos();
        while (server.connectionGuard().openConnections() > n && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals(n, server.connectionGuard().openConnections());
    }
}
