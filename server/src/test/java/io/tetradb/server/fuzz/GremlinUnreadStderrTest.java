package io.tetradb.server.fuzz;

import io.tetradb.server.TestGremlin;
import io.tetradb.testing.fuzz.HttpFuzzer;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The cause of the Gremlin long run's 9 hangs: Gremlin Server's serializers logged every request they could not read,
 * whole, from the event loop that serves every Gremlin connection. When the server's stderr is not read fast enough
 * (here not at all: a stalled log reader, a paused terminal; in the fuzz run, the test JVM's drain thread starved at
 * load 53), the pipe fills, the event loop blocks in the write, and no connection gets its pong. 40 malformed 4 KB
 * requests, each followed by a ping, are all answered (the 16th blocked before the fix), and gremlin-driver is served.
 */
class GremlinUnreadStderrTest {
    @Test
    void malformedRequestsDoNotBlockTheEventLoopWhenStderrIsFull(@TempDir Path tmp) throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        try (ServerProcess server = ServerProcess.start(data, "1g", false)) {
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.port("gremlin"));
            WebSocketFrameFuzzer frames = new WebSocketFrameFuzzer();
            Socket socket = frames.open(target);
            assertNotNull(socket, "upgraded");
            try {
                String script = "x".repeat(4000);
                for (int i = 0; i < 40; i++) {
                    // processor null: unreadable for Gremlin's serializer, answered 498 by ours
                    byte[] payload = ("{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"eval\",\"processor\":null,"
                            + "\"args\":{\"gremlin\":\"" + script + "\"}}").getBytes(StandardCharsets.UTF_8);
                    socket.getOutputStream().write(HttpFuzzer.webSocketFrame(1, payload, payload.length));
                    socket.getOutputStream().write(frames.ping());
                    assertEquals(PingedConnectionFuzzer.Outcome.ANSWERED, frames.awaitAnswer(socket.getInputStream()),
                            "the ping after malformed request " + i + " is answered");
                }
            } finally {
                PingedConnectionFuzzer.close(socket);
            }
            Cluster cluster = TestGremlin.cluster("127.0.0.1", server.port("gremlin")).create();
            try {
                assertEquals(2, cluster.connect().submit("1 + 1").one().getInt());
            } finally {
                cluster.close();
            }
        }
    }
}
