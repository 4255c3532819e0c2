package io.tetradb.server.config;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.connection.ServerDescription;
import io.netty.handler.ssl.SslContextBuilder;
import io.tetradb.cosmos.TlsCertificate;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.table.http.AccountKeys;
import io.tetradb.testing.TestTime;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.http.Http11SslContextSpec;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.tetradb.server.config.TlsClientFixture.certificate;
import static io.tetradb.server.config.TlsClientFixture.sslContext;
import static io.tetradb.server.config.TlsClientFixture.trustStore;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every face serves TLS with the server's certificate, optionally on its usual port: the MongoDB Java driver with
 * {@code ?tls=true}, the Azure Tables SDK over {@code https://}, gremlin-driver with {@code enableSsl(true)}, each
 * trusting only the certificate (a trust store built from its PEM, as {@code keytool -importcert} makes one); plain
 * connections keep working on the same ports. With a certificate of the user's in the configuration, that one is
 * served everywhere (and at {@code /_explorer/emulator.pem}) instead of the generated one.
 */
class TlsOnEveryFaceTest {
    @Test
    void theGeneratedCertificateServesMongoTablesAndGremlin(@TempDir Path dir) throws Exception {
        try (TetraDbServer server = new TetraDbServer(TlsClientFixture.everyFace(dir)).start()) {
            byte[] pem = TlsClientFixture.generatedPem(dir);
            assertArrayEquals(pem, servedPem(server), "the certificate the Cosmos face serves for clients to import");
            X509Certificate cert = certificate(pem);

            try (MongoClient mongo = mongoOverTls(server, cert)) {
                mongo.getDatabase("shop").getCollection("orders").insertOne(new Document("_id", "o1").append("n", 1));
                assertEquals(1, mongo.getDatabase("shop").getCollection("orders").countDocuments());
            }
            try (MongoClient plain = MongoClients.create(server.endpoint("mongo").url())) {
                assertEquals(1, plain.getDatabase("shop").getCollection("orders").countDocuments(),
                        "plain connections on the same port");
            }

            // plain first messages whose length bytes look like a TLS record header of another type (788, 789 and
            // 791 bytes start 0x14/0x15/0x17 0x03): still the wire protocol (Netty's OptionalSslHandler would not say so)
            for (int length : new int[] {788, 789, 791}) {
                assertEquals(1.0, plainPing(server, length), "a plain " + length + "-byte first message");
            }

            TableClient people = tablesOverHttps(server, cert);
            people.createTable();
            people.upsertEntity(new TableEntity("Smith", "Ben").addProperty("Age", 42));
            assertEquals(42, people.getEntity("Smith", "Ben").getProperty("Age"));
            // a SAS for HTTPS only (spr=https) is good over https and refused over plain http
            String httpsOnly = people.generateSas(new com.azure.data.tables.sas.TableSasSignatureValues(
                    java.time.OffsetDateTime.now().plusHours(1),
                    com.azure.data.tables.sas.TableSasPermission.parse("r"))
                    .setProtocol(com.azure.data.tables.sas.TableSasProtocol.HTTPS_ONLY));
            assertEquals(42, withSas(server, cert, "https", httpsOnly).getEntity("Smith", "Ben").getProperty("Age"));
            com.azure.data.tables.models.TableServiceException overHttp = assertThrows(
                    com.azure.data.tables.models.TableServiceException.class,
                    () -> withSas(server, cert, "http", httpsOnly).getEntity("Smith", "Ben"));
            assertEquals("AuthorizationProtocolMismatch", overHttp.getValue().getErrorCode().toString());

            Path trustStore = trustStore(dir.resolve("truststore.p12"), cert);
            assertEquals(List.of(1L), gremlin(server, trustStore, true,
                    "g.addV('city').property('pk','USA').property(T.id,'Seattle').count()"));
            assertEquals(List.of(1L), gremlin(server, null, false, "g.V(['USA','Seattle']).count()"),
                    "ws:// on the same port");
            // the shipped conf/remote-secure.yaml as Cluster.build(File) reads it (port and trust store file moved
            // to this test's; its credentials go unused on a server without gremlin auth)
            Cluster secure = TestGremlin.patient(Cluster.build(Path.of("..", "conf", "remote-secure.yaml").toFile()))
                    .port(server.endpoint("gremlin").address().getPort()).trustStore(trustStore.toString()).create();
            try {
                assertEquals(List.of("1"), secure.connect().submit("g.V().count()").all().get().stream()
                        .map(Result::getString).toList(), "the Console's serializer sends results as strings");
            } finally {
                secure.close();
            }
        }
    }

    @Test
    void aCertificateOfTheUsersIsServedInstead(@TempDir Path dir) throws Exception {
        TlsCertificate own = TlsCertificate.loadOrCreate(dir.resolve("own")); // stands for one a CA issued
        Path cert = dir.resolve("own").resolve(TlsCertificate.CERTIFICATE_FILE);
        Path key = dir.resolve("own").resolve(TlsCertificate.KEY_FILE);
        Path data = dir.resolve("data");
        ServerConfig config = ServerConfig.ephemeral(data).withCosmosPort(0).withMongoPort(0).withGremlinPort(0)
                .withSecurity(new SecurityConfig(null, null, null, null, cert, key, null));
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            assertArrayEquals(own.pem(), servedPem(server));
            assertFalse(Files.exists(data.resolve("tls")), "no certificate generated when one is given");
            try (MongoClient mongo = mongoOverTls(server, own.certificate())) {
                assertEquals(0, mongo.getDatabase("shop").getCollection("orders").countDocuments());
            }
            assertEquals(List.of(0L), gremlin(server, trustStore(dir.resolve("own.p12"), own.certificate()), true,
                    "g.V().count()"));
            // a client trusting another certificate (here: the generated kind) does not get in
            X509Certificate other = TlsCertificate.loadOrCreate(dir.resolve("other")).certificate();
            SSLContext trustsOther = sslContext(other);
            try (MongoClient stranger = MongoClients.create(MongoClientSettings.builder()
                    .applyConnectionString(new ConnectionString(server.endpoint("mongo").url() + "/?tls=true"))
                    .applyToClusterSettings(b -> b.serverSelectionTimeout(3, TimeUnit.SECONDS))
                    .applyToSslSettings(b -> b.context(trustsOther)).build())) {
                // the driver's monitor learns that the handshake fails (a slow answer would leave it connecting);
                // then no wait is long enough, so the short selection timeout asserts a refusal, not speed (the only
                // option off the driver's defaults here: its 30 s selection timeout would give the same outcome 27 s
                // later)
                TestTime.waitUntil("the monitor's TLS handshake refused", () -> handshakeRefused(stranger));
                assertThrows(com.mongodb.MongoTimeoutException.class,
                        () -> stranger.getDatabase("shop").getCollection("orders").countDocuments());
            }
        }
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> ServerTls.of(data, cert, cert));
        assertFalse(bad.getMessage().contains("BEGIN"), "names the files, not their content");
    }

    /** Whether the driver's monitor of {@code client}'s server last failed on a TLS handshake. */
    private static boolean handshakeRefused(MongoClient client) {
        for (ServerDescription server : client.getClusterDescription().getServerDescriptions()) {
            for (Throwable t = server.getException(); t != null; t = t.getCause()) {
                if (t instanceof SSLHandshakeException) {
                    return true;
                }
            }
        }
        return false;
    }

    private static MongoClient mongoOverTls(TetraDbServer server, X509Certificate cert) throws Exception {
        SSLContext context = sslContext(cert);
        return MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(server.endpoint("mongo").url() + "/?tls=true"))
                .applyToSslSettings(b -> b.context(context)).build());
    }

    private static TableClient tablesOverHttps(TetraDbServer server, X509Certificate cert) {
        reactor.netty.http.client.HttpClient trusting = reactor.netty.http.client.HttpClient.create()
                .secure(spec -> spec.sslContext(Http11SslContextSpec.forClient()
                        .configure(b -> b.trustManager(cert))));
        InetSocketAddress a = server.endpoint("table").address();
        return new TableServiceClientBuilder().endpoint("https://" + Endpoint.hostPort(a) + "/devstoreaccount1")
                .credential(new AzureNamedKeyCredential(AccountKeys.DEV_ACCOUNT, AccountKeys.DEV_KEY))
                .httpClient(new NettyAsyncHttpClientBuilder(trusting).build())
                .buildClient().getTableClient("people");
    }

    /** Sends one OP_MSG {@code ping} of exactly {@code length} bytes on a new plain connection; its {@code ok}. */
    private static double plainPing(TetraDbServer server, int length) throws Exception {
        InetSocketAddress a = server.endpoint("mongo").address();
        byte[] message = null;
        for (int pad = 0; message == null || message.length < length; pad++) {
            org.bson.BsonDocument ping = new org.bson.BsonDocument("ping", new org.bson.BsonInt32(1))
                    .append("comment", new org.bson.BsonString("x".repeat(pad)))
                    .append("$db", new org.bson.BsonString("admin"));
            message = TlsClientFixture.opMsg(ping, 7);
        }
        assertEquals(length, message.length);
        try (java.net.Socket socket = new java.net.Socket(a.getAddress(), a.getPort())) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(message);
            java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            byte[] header = in.readNBytes(16);
            int total = java.nio.ByteBuffer.wrap(header).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
            byte[] rest = in.readNBytes(total - 16);
            byte[] doc = java.util.Arrays.copyOfRange(rest, 5, rest.length); // flagBits, section kind 0
            return new org.bson.RawBsonDocument(doc).getNumber("ok").doubleValue();
        }
    }

    private static TableClient withSas(TetraDbServer server, X509Certificate cert, String scheme, String sas) {
        reactor.netty.http.client.HttpClient trusting = reactor.netty.http.client.HttpClient.create()
                .secure(spec -> spec.sslContext(Http11SslContextSpec.forClient()
                        .configure(b -> b.trustManager(cert))));
        InetSocketAddress a = server.endpoint("table").address();
        return new com.azure.data.tables.TableClientBuilder()
                .endpoint(scheme + "://" + Endpoint.hostPort(a) + "/devstoreaccount1").tableName("people")
                .credential(new com.azure.core.credential.AzureSasCredential(sas))
                .httpClient(new NettyAsyncHttpClientBuilder(trusting).build()).buildClient();
    }

    private static List<Object> gremlin(TetraDbServer server, Path trustStore, boolean tls, String script)
            throws Exception {
        InetSocketAddress a = server.endpoint("gremlin").address();
        Cluster.Builder b = TestGremlin.cluster(a);
        if (tls) {
            b.enableSsl(true).trustStore(trustStore.toString()).trustStorePassword(TlsClientFixture.TRUST_STORE_PASSWORD)
                    .trustStoreType("PKCS12");
        }
        Cluster cluster = b.create();
        try {
            return cluster.connect().submit(script).all().get().stream().map(Result::getObject).toList();
        } finally {
            cluster.close();
        }
    }

    private static byte[] servedPem(TetraDbServer server) throws Exception {
        URI uri = URI.create("http://" + Endpoint.hostPort(server.endpoint("cosmos").address())
                + "/_explorer/emulator.pem");
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body();
    }
}
