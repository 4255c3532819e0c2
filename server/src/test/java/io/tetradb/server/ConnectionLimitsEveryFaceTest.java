package io.tetradb.server;

import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.server.fuzz.GremlinFuzzInputs;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19's slow-loris and flood limits on every face of one server ({@code --request-read-timeout-ms 1000},
 * {@code --max-connections-per-address 8}): a request begun and never finished closes its connection (Mongo, Tables,
 * Cosmos, and Gremlin both for its WebSocket upgrade and for a frame after it), an idle Gremlin WebSocket with no
 * request under way stays open, and a ninth connection from one address is closed at once while the eight are kept.
 */
class ConnectionLimitsEveryFaceTest {
    /** Far above the 1 s read timeout: a connection the server forgot would stay open past it (on any machine). */
    private static final int CLOSE_BOUND_MILLIS = (int) TestTime.patience(Duration.ofSeconds(60)).toMillis();

    @TempDir
    static Path dataDir;
    static TetraDbServer server;

    @BeforeAll
    static void start() {
        ConnectionLimits limits = ConnectionLimits.defaults().withMaxConnections(100, 8)
                .withRequestReadTimeout(Duration.ofSeconds(1));
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withCosmosPort(0).withGremlinPort(0)
                .withMongoPort(0).withTablePort(0), new ServerLimits(null, limits, null, null)).start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Socket connect(String face) throws IOException {
        InetSocketAddress a = server.endpoint(face).address();
        Socket s = new Socket(a.getAddress(), a.getPort());
        s.setSoTimeout(CLOSE_BOUND_MILLIS);
        return s;
    }

    /** The server closes the connection (end of stream or reset) within the bound. */
    private static void assertClosedByServer(Socket s, String what) throws IOException {
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // an error answer before the close is fine: read on to the end
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError(what + ": still open after " + CLOSE_BOUND_MILLIS + " ms", e);
        } catch (IOException reset) {
            // closed
        }
    }

    private static Socket upgraded() throws IOException {
        Socket s = connect("gremlin");
        s.getOutputStream().write(GremlinFuzzInputs.upgrade());
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            assertTrue(b >= 0, "the upgrade is answered: " + head);
            head.append((char) b);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 101"), head.toString());
        return s;
    }

    @Test
    void aRequestBegunAndNeverFinishedClosesItsConnection() throws Exception {
        byte[] halfHttp = "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"
                .getBytes(StandardCharsets.US_ASCII);
        for (String face : List.of("table", "cosmos")) {
            try (Socket s = connect(face)) {
                s.getOutputStream().write(halfHttp);
                assertClosedByServer(s, face);
            }
        }
        try (Socket s = connect("mongo")) {
            s.getOutputStream().write(new byte[] {(byte) 200, 0, 0, 0, 1, 2, 3}); // 200 bytes declared, 7 sent
            assertClosedByServer(s, "mongo");
        }
        try (Socket s = connect("gremlin")) {
            s.getOutputStream().write("GET /gremlin HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertClosedByServer(s, "gremlin, half an upgrade");
        }
        try (Socket s = upgraded()) {
            byte[] frame = GremlinFuzzInputs.frames().get(0);
            s.getOutputStream().write(frame, 0, frame.length / 2);
            assertClosedByServer(s, "gremlin, half a frame");
        }
    }

    @Test
    void anIdleGremlinWebSocketStaysOpenAndServes() throws Exception {
        try (Socket s = upgraded()) {
            s.setSoTimeout(3_000); // three read timeouts with no request under way
            assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read());
            s.setSoTimeout(CLOSE_BOUND_MILLIS);
            s.getOutputStream().write(GremlinFuzzInputs.frames().get(0));
            assertTrue(s.getInputStream().read() >= 0, "the request is answered");
        }
    }

    @Test
    void aNinthConnectionFromOneAddressIsClosedAtOnce() throws Exception {
        for (String face : List.of("mongo", "table", "cosmos", "gremlin")) {
            List<Socket> nine = new ArrayList<>();
            try {
                for (int i = 0; i < 9; i++) {
                    nine.add(connect(face));
                }
                // the face admits connections on several event loops, so the one refused is not always the last
                Socket refused = awaitOneClosed(nine, face);
                for (Socket s : nine) {
                    if (s != refused) {
                        s.setSoTimeout(300);
                        assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read(),
                                face + ": the other eight stay open");
                    }
                }
            } finally {
                for (Socket s : nine) {
                    s.close();
                }
            }
        }
    }

    /** The first of these connections the server closes, polled within the bound. */
    private static Socket awaitOneClosed(List<Socket> sockets, String face) throws IOException {
        long until = System.nanoTime() + CLOSE_BOUND_MILLIS * 1_000_000L;
        while (System.nanoTime() < until) {
            for (Socket s : sockets) {
                s.setSoTimeout(50);
                try {
                    if (s.getInputStream().read() < 0) {
                        return s;
                    }
                } catch (SocketTimeoutException stillOpen) {
                    // next
                } catch (IOException reset) {
                    return s;
                }
            }
        }
        throw new AssertionError(face + ": none of nine connections was closed within " + CLOSE_BOUND_MILLIS + " ms");
    }
}
