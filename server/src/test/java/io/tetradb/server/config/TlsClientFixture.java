package io.tetradb.server.config;

import io.tetradb.cosmos.TlsCertificate;
import io.tetradb.server.ServerConfig;
import org.bson.BsonDocument;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/**
 * What the TLS tests' clients need ({@code TlsOnEveryFaceTest}, {@code TlsSessionResumptionTest}): a server with
 * every face on a free port, the certificate it generated, an SSL context and a trust store trusting only that
 * certificate, and a Mongo {@code OP_MSG} to send on a raw connection.
 */
final class TlsClientFixture {
    static final String TRUST_STORE_PASSWORD = "changeit";

    private TlsClientFixture() {
    }

    /** Cosmos, Gremlin, Mongo and Tables on free ports, over {@code dir}. */
    static ServerConfig everyFace(Path dir) {
        return ServerConfig.ephemeral(dir).withCosmosPort(0).withGremlinPort(0).withMongoPort(0).withTablePort(0);
    }

    /** The PEM of the certificate a server over {@code dir} generated (served at {@code /_explorer/emulator.pem}). */
    static byte[] generatedPem(Path dir) throws Exception {
        return Files.readAllBytes(dir.resolve(ServerTls.DIRECTORY).resolve(TlsCertificate.CERTIFICATE_FILE));
    }

    static X509Certificate certificate(byte[] pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem));
    }

    /** A client context trusting {@code cert} alone. */
    static SSLContext sslContext(X509Certificate cert) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(keyStoreOf(cert));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    /** What {@code keytool -importcert -file cosmos-emulator.pem -keystore truststore.p12} makes. */
    static Path trustStore(Path file, X509Certificate cert) throws Exception {
        try (OutputStream out = Files.newOutputStream(file)) {
            keyStoreOf(cert).store(out, TRUST_STORE_PASSWORD.toCharArray());
        }
        return file;
    }

    private static KeyStore keyStoreOf(X509Certificate cert) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("tetradb", cert);
        return ks;
    }

    /** An {@code OP_MSG} (opCode 2013) of {@code command} as one body section, with this request id. */
    static byte[] opMsg(BsonDocument command, int requestId) {
        org.bson.io.BasicOutputBuffer bson = new org.bson.io.BasicOutputBuffer();
        new org.bson.codecs.BsonDocumentCodec().encode(new org.bson.BsonBinaryWriter(bson), command,
                org.bson.codecs.EncoderContext.builder().build());
        byte[] body = bson.toByteArray();
        ByteBuffer b = ByteBuffer.allocate(16 + 4 + 1 + body.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(16 + 4 + 1 + body.length).putInt(requestId).putInt(0).putInt(2013).putInt(0).put((byte) 0).put(body);
        return b.array();
    }
}
