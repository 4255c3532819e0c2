package io.tetradb.server.gremlin;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.fuzz.GremlinFuzzInputs;
import io.tetradb.testing.fuzz.HttpFuzzer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flood of wrong-password logins on one Gremlin connection does not stall another client: each login of a stored
 * user is a PBKDF2 hash, which Gremlin Server ran on the one event loop every connection shares. One raw WebSocket
 * connection sends {@link #LOGINS} SASL PLAIN logins with a wrong password in one write; once the first refusal is
 * back, gremlin-driver (already logged in) sends a query. Its answer must come while most of the flood is still
 * unanswered (before {@code OffLoopLogin}, the event loop hashed the whole flood first: it came after all of them);
 * then every login of the flood is answered 401, in order, and the driver is still served.
 */
class GremlinLoginFloodTest {
    private static final int LOGINS = 200;

    @Test
    void floodOfWrongPasswordsDoesNotStallAnotherClient(@TempDir Path dataDir) throws Exception {
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)
                .withMongoPort(0).withGremlinAuth(true)).start()) {
            try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
                mongo.getDatabase("admin").runCommand(new Document("createUser", "boss").append("pwd", "boss-pw")
                        .append("roles", List.of(new Document("role", "root").append("db", "admin"))));
            }
            GremlinEndpoint gremlin = (GremlinEndpoint) server.endpoint("gremlin");
            String host = gremlin.address().getAddress().getHostAddress();
            int port = gremlin.address().getPort();
            Cluster cluster = TestGremlin.cluster(host, port).credentials("boss", "boss-pw").create();
            try (Socket flood = new Socket(host, port)) {
                Client driver = cluster.connect();
                assertEquals(0L, driver.submit("g.V().count()").one().getLong(), "the driver logs in and is served");

                DataInputStream in = upgrade(flood);
                // the first request is answered with a challenge (407); the logins answer it
                flood.getOutputStream().write(text(request("eval", "\"gremlin\":\"g.V().count()\"")));
                assertEquals(407, code(readText(in)), "challenged");
                ByteArrayOutputStream logins = new ByteArrayOutputStream();
                String wrong = Base64.getEncoder().encodeToString("\0boss\0wrong-pw".getBytes(StandardCharsets.UTF_8));
                for (int i = 0; i < LOGINS; i++) {
                    logins.writeBytes(text(request("authentication", "\"sasl\":\"" + wrong + "\","
                            + "\"saslMechanism\":\"PLAIN\"")));
                }
                flood.getOutputStream().write(logins.toByteArray());
                flood.getOutputStream().flush();
                assertEquals(401, code(readText(in)), "the first wrong login is refused");
                AtomicInteger refused = new AtomicInteger(1);
                CompletableFuture<Void> rest = CompletableFuture.runAsync(() -> {
                    try {
                        while (refused.get() < LOGINS) {
                            String answer = readText(in);
                            if (code(answer) == 401) {
                                refused.incrementAndGet();
                            }
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });

                assertEquals(0L, driver.submit("g.V().count()").all().get(120, TimeUnit.SECONDS).get(0).getLong());
                int refusedWhenServed = refused.get();
                System.out.printf("GREMLIN-LOGIN-FLOOD the driver was served after %d of %d wrong logins%n",
                        refusedWhenServed, LOGINS);
                assertTrue(refusedWhenServed < LOGINS / 2, "the driver's query waited for " + refusedWhenServed
                        + " of " + LOGINS + " logins of another connection");

                rest.get(300, TimeUnit.SECONDS);
                assertEquals(LOGINS, refused.get(), "every login of the flood is answered 401");
                assertEquals(0L, driver.submit("g.V().count()").one().getLong(), "the driver is still served");
            } finally {
                cluster.close();
            }
        }
    }

    private static final java.util.regex.Pattern CODE = java.util.regex.Pattern.compile(
            "\"code\":\\s*(?:\\{\"@type\":\"g:Int32\",\"@value\":)?(\\d+)");

    /** The status code of a GraphSON response (plain or typed). */
    private static int code(String answer) {
        java.util.regex.Matcher m = CODE.matcher(answer);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static String request(String op, String args) {
        return "{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"" + op + "\",\"processor\":\"\",\"args\":{"
                + args + "}}";
    }

    private static byte[] text(String payload) {
        byte[] p = payload.getBytes(StandardCharsets.UTF_8);
        return HttpFuzzer.webSocketFrame(1, p, p.length);
    }

    /** Sends the upgrade and reads its answer's head. */
    private static DataInputStream upgrade(Socket socket) throws IOException {
        socket.setSoTimeout(300_000);
        socket.getOutputStream().write(GremlinFuzzInputs.upgrade());
        InputStream in = socket.getInputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the upgrade");
            }
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return new DataInputStream(in);
    }

    /** The payload of the server's next frame (unmasked, as a server sends them), as text. */
    private static String readText(DataInputStream in) throws IOException {
        in.readUnsignedByte();
        int len = in.readUnsignedByte() & 0x7f;
        long length = len == 126 ? in.readUnsignedShort() : len == 127 ? in.readLong() : len;
        byte[] payload = new byte[(int) length];
        in.readFully(payload);
        return new String(payload, StandardCharsets.UTF_8);
    }
}
