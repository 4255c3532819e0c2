package io.tetradb.server.config;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import io.tetradb.testing.TestTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every TLS face resumes sessions the way clients resume them, on both providers ({@link TlsProviderChoice}): a JDK
 * client that reads its answer (and with it the TLS 1.3 ticket the server sends after the handshake) resumes its
 * next connection to the same face, in TLS 1.3 and TLS 1.2; {@code openssl s_client -sess_out}/{@code -sess_in}
 * resumes too, and a session whose ticket bytes were garbled gets a full handshake on which the request is served.
 */
class TlsSessionResumptionTest {
    /** How long an answer or openssl is waited for: only a hung one takes that long ({@link TestTime#patience}). */
    private static final int WAIT_MILLIS = (int) TestTime.patience(java.time.Duration.ofSeconds(20)).toMillis();
    private static final String[] FACES = {"cosmos", "table", "gremlin", "mongo"};

    /** Each test below runs on both providers: the JDK's and BoringSSL (where netty-tcnative loads). */
    @ParameterizedTest(name = "on {0}")
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void everyFaceResumesTheJdkClientsSessions(SslProvider provider, @TempDir Path dir) throws Exception {
        jdkClientResumesOnEveryFace(dir, provider);
    }

    @ParameterizedTest(name = "on {0}")
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void opensslResumesAndAGarbledTicketGetsAFullHandshake(SslProvider provider, @TempDir Path dir) throws Exception {
        opensslResumesAndSurvivesGarbledTickets(dir, provider);
    }

    @Test
    void theProviderIsBoringSslWhereItLoadsUnlessPinned() {
        assertEquals(SslProvider.JDK, TlsProviderChoice.choose(null, true, null));
        assertEquals(SslProvider.OPENSSL, TlsProviderChoice.choose("auto", true, null));
        assertEquals(SslProvider.JDK, TlsProviderChoice.choose(null, false, "no native library"));
        assertEquals(SslProvider.JDK, TlsProviderChoice.choose("auto", false, "no native library"));
        assertEquals(SslProvider.JDK, TlsProviderChoice.choose("JDK", true, null));
        assertEquals(SslProvider.OPENSSL, TlsProviderChoice.choose("openssl", true, null));
        IllegalArgumentException unavailable = assertThrows(IllegalArgumentException.class,
                () -> TlsProviderChoice.choose("openssl", false, "no native library"));
        assertTrue(unavailable.getMessage().contains("no native library"), unavailable.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TlsProviderChoice.choose("boringssl", true, null));
    }

    private static void jdkClientResumesOnEveryFace(Path dir, SslProvider provider) throws Exception {
        try (TetraDbServer server = start(dir, provider)) {
            SSLContext trusting = trusting(dir);
            for (String face : FACES) {
                for (String protocol : new String[] {"TLSv1.3", "TLSv1.2"}) {
                    String what = face + " " + protocol + " on " + provider;
                    SSLSession first = exchange(trusting, server, face, protocol);
                    SSLSession second = exchange(trusting, server, face, protocol);
                    assertEquals(protocol, second.getProtocol(), what);
                    // a resumed session keeps the creation time of the full handshake that made it
                    assertEquals(first.getCreationTime(), second.getCreationTime(), what + ": not resumed");
                    if (protocol.equals("TLSv1.2")) {
                        assertArrayEquals(first.getId(), second.getId(), what + ": another session id");
                    }
                }
            }
        }
    }

    private static void opensslResumesAndSurvivesGarbledTickets(Path dir, SslProvider provider) throws Exception {
        Assumptions.assumeTrue(opensslPresent(), "no openssl command here");
        try (TetraDbServer server = start(dir, provider)) {
            SSLContext trusting = trusting(dir);
            for (String face : FACES) {
                for (String protocol : new String[] {"-tls1_3", "-tls1_2"}) {
                    String what = face + " " + protocol + " on " + provider;
                    Path session = dir.resolve(face + protocol + ".pem");
                    String full = sClient(server, face, protocol, "-sess_out", session);
                    assertTrue(full.contains("New, TLSv1."), what + ": " + full);
                    assertTrue(Files.size(session) > 0, what + ": no session written");
                    String resumed = sClient(server, face, protocol, "-sess_in", session);
                    assertTrue(resumed.contains("Reused, TLSv1."), what + ": not resumed: " + resumed);

                    Path garbled = garbleTicket(session, dir.resolve(face + protocol + "-garbled.pem"));
                    String fallback = sClient(server, face, protocol, "-sess_in", garbled);
                    assertTrue(fallback.contains("New, TLSv1."), what + ": a garbled ticket: " + fallback);
                    assertFalse(fallback.contains("Reused"), what + ": a garbled ticket resumed: " + fallback);
                    if (!face.equals("mongo")) {
                        assertTrue(fallback.contains("HTTP/1.1 "), what + ": not served after the full handshake");
                    }
                    // and the face goes on serving
                    exchange(trusting, server, face, protocol.equals("-tls1_3") ? "TLSv1.3" : "TLSv1.2");
                }
            }
        }
    }

    /** Every face on {@code provider} (skipped where BoringSSL does not load). */
    private static TetraDbServer start(Path dir, SslProvider provider) {
        Assumptions.assumeTrue(provider != SslProvider.OPENSSL || OpenSsl.isAvailable(),
                "netty-tcnative does not load here");
        ServerConfig config = TlsClientFixture.everyFace(dir);
        String before = System.getProperty(TlsProviderChoice.PROPERTY);
        System.setProperty(TlsProviderChoice.PROPERTY, provider == SslProvider.OPENSSL ? "openssl" : "jdk");
        try {
            return new TetraDbServer(config).start();
        } finally {
            if (before == null) {
                System.clearProperty(TlsProviderChoice.PROPERTY);
            } else {
                System.setProperty(TlsProviderChoice.PROPERTY, before);
            }
        }
    }

    private static SSLContext trusting(Path dir) throws Exception {
        return TlsClientFixture.sslContext(TlsClientFixture.certificate(TlsClientFixture.generatedPem(dir)));
    }

    /** One connection: the face's request, its answer read (which reads the TLS 1.3 ticket before it); the session. */
    private static SSLSession exchange(SSLContext context, TetraDbServer server, String face, String protocol)
            throws IOException {
        InetSocketAddress a = server.endpoint(face).address();
        // host and port name the client's session cache entry, as every client's connection does
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", a.getPort())) {
            socket.setEnabledProtocols(new String[] {protocol});
            socket.setSoTimeout(WAIT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(request(face));
            out.flush();
            byte[] answer = readAnswer(socket.getInputStream(), face);
            assertTrue(answer.length > 0, face + " " + protocol + ": no answer");
            return socket.getSession();
        }
    }

    private static byte[] request(String face) {
        if (face.equals("mongo")) {
            return TlsClientFixture.opMsg(new BsonDocument("hello", new BsonInt32(1))
                    .append("$db", new BsonString("admin")), 9);
        }
        String path = switch (face) {
            case "cosmos" -> "/_explorer/emulator.pem";
            case "table" -> "/devstoreaccount1/Tables";
            default -> "/gremlin";
        };
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** Mongo: the reply's header and body (its declared length); HTTP: the status line at least. */
    private static byte[] readAnswer(InputStream in, String face) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (true) {
            int n;
            try {
                n = in.read(buffer);
            } catch (SocketTimeoutException e) {
                break;
            }
            if (n < 0) {
                break;
            }
            got.write(buffer, 0, n);
            byte[] bytes = got.toByteArray();
            if (face.equals("mongo") ? bytes.length >= 4 && bytes.length >= littleEndianInt(bytes)
                    : new String(bytes, StandardCharsets.ISO_8859_1).contains("\r\n")) {
                break;
            }
        }
        return got.toByteArray();
    }

    private static int littleEndianInt(byte[] b) {
        return (b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16 | (b[3] & 0xff) << 24;
    }

    private static boolean opensslPresent() {
        try {
            return new ProcessBuilder("openssl", "version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * {@code openssl s_client} sends the face's request and keeps reading ({@code -ign_eof}) until the server closes
     * or {@link #WAIT_MILLIS} pass; its output. The HTTP faces close after the answer ({@code Connection: close}); the Mongo face
     * after the request that follows the hello: a first word read as a 1.2 GB length, refused from its declaration.
     */
    private static String sClient(TetraDbServer server, String face, String protocol, String sessionOption,
                                  Path session) throws Exception {
        int port = server.endpoint(face).address().getPort();
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port,
                protocol, "-ign_eof", sessionOption, session.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(request(face));
            if (face.equals("mongo")) {
                in.write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
        }
        byte[] out;
        try (InputStream stdout = p.getInputStream()) {
            if (!p.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
            }
            out = stdout.readAllBytes();
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** The session with bytes in the middle of its ticket changed (as a client or a man in the middle could). */
    private static Path garbleTicket(Path session, Path garbled) throws Exception {
        Path der = session.resolveSibling(session.getFileName() + ".der");
        run("openssl", "sess_id", "-in", session.toString(), "-outform", "DER", "-out", der.toString());
        String text = run("openssl", "sess_id", "-in", session.toString(), "-noout", "-text");
        int at = text.indexOf("TLS session ticket:");
        assertTrue(at >= 0, "no ticket in the session: " + text);
        String firstLine = text.substring(at).lines().skip(1).findFirst().orElseThrow();
        // "    0000 - 7b 86 23 b3 e6 7a 6c a2-0c ae af 1e f2 7d 7d 7b   {.#..zl......}}{"
        String hex = firstLine.substring(firstLine.indexOf(" - ") + 3, firstLine.indexOf(" - ") + 3 + 47)
                .replace('-', ' ').replace(" ", "");
        byte[] head = HexFormat.of().parseHex(hex);
        byte[] bytes = Files.readAllBytes(der);
        int ticket = indexOf(bytes, head);
        assertTrue(ticket >= 0, "the ticket's first bytes are not in the DER session");
        for (int i = ticket + 8; i < ticket + 24; i++) {
            bytes[i] ^= 0x5a;
        }
        Files.write(der, bytes);
        run("openssl", "sess_id", "-inform", "DER", "-in", der.toString(), "-out", garbled.toString());
        return garbled;
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertTrue(p.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS) && p.exitValue() == 0, String.join(" ", command) + ": " + out);
        return out;
    }
}
