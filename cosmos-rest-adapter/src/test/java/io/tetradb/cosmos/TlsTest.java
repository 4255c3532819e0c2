package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS and plain HTTP on one port: the Java SDK over HTTPS with the emulator's certificate setting, the certificate
 * made once into the directory and served at {@code /_explorer/emulator.pem}, and a client that trusts exactly that
 * certificate.
 */
class TlsTest extends ServerFixture {
    TlsCertificate cert;

    @Override
    CosmosRestOptions options() {
        cert = TlsCertificate.loadOrCreate(dir.resolve("tls"));
        return CosmosRestOptions.defaults().withTls(cert);
    }

    @Override
    String endpoint() {
        return "https://localhost:" + server.address().getPort();
    }

    @Test
    void javaSdkOverHttps() {
        sdk.createDatabaseIfNotExists("tls");
        sdk.getDatabase("tls").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        CosmosContainer c = sdk.getDatabase("tls").getContainer("c");
        c.createItem(Json.object().put("id", "1").put("pk", "p").put("v", "secret"));
        assertEquals("secret", c.readItem("1", new PartitionKey("p"), ObjectNode.class).getItem().get("v").asText());
        assertEquals(List.of("secret"), c.queryItems("SELECT VALUE c.v FROM c", null, String.class).stream().toList());
    }

    @Test
    void plainHttpOnTheSamePortAndTheCertificateServed() throws Exception {
        int port = server.address().getPort();
        RawClient.Answer plain = new RawClient("http://localhost:" + port, KEY).send("GET", "/", null);
        assertEquals(200, plain.status());
        assertEquals("http://localhost:" + port + "/", plain.json().at("/writableLocations/0/databaseAccountEndpoint")
                .asText());

        HttpResponse<byte[]> pem = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/_explorer/emulator.pem")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, pem.statusCode());
        assertArrayEquals(Files.readAllBytes(dir.resolve("tls").resolve(TlsCertificate.CERTIFICATE_FILE)), pem.body());

        // a client that trusts only the served certificate verifies the host name (SAN localhost) and gets the
        // account with an https endpoint
        X509Certificate x = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.body()));
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry("tetradb", x);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        String date = RawClient.now();
        HttpResponse<String> account = HttpClient.newBuilder().sslContext(ssl).build().send(HttpRequest.newBuilder(
                URI.create("https://localhost:" + port + "/")).header("x-ms-date", date)
                .header("authorization", RawClient.authorization(KEY, "GET", "", date)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, account.statusCode());
        assertTrue(account.body().contains("https://localhost:" + port + "/"), account.body());
    }

    @Test
    void nodeSdkOverHttpsTrustingTheServedCertificate() throws Exception {
        String pem = dir.resolve("tls").resolve(TlsCertificate.CERTIFICATE_FILE).toString();
        String out = NodeSdkTest.runScript("cosmos-tls.mjs", java.util.Map.of("NODE_EXTRA_CA_CERTS", pem),
                endpoint(), KEY);
        assertTrue(out.contains("OK node tls"), out);
    }

    @Test
    void theCertificateIsKeptAcrossRestarts() {
        byte[] first = cert.pem();
        stopServer();
        startOn(dir);
        assertArrayEquals(first, cert.pem());
        assertEquals(201, sdk.createDatabase("after-restart").getStatusCode());
    }
}
