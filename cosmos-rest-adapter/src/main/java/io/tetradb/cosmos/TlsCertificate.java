package io.tetradb.cosmos;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * The endpoint's self-signed TLS certificate, as the Cosmos DB emulator has one: made on first start for
 * {@code localhost}, {@code 127.0.0.1} and {@code ::1} into a directory (the data directory), kept there for the
 * next starts (so clients that imported it keep trusting it), and served at {@code /_explorer/emulator.pem}.
 *
 * <pre>
 * TlsCertificate cert = TlsCertificate.loadOrCreate(dataDirectory);
 * CosmosRestOptions.defaults().withTls(cert);   // TLS and plain HTTP on the same port
 * </pre>
 */
public final class TlsCertificate {
    public static final String CERTIFICATE_FILE = "cosmos-emulator.pem";
    public static final String KEY_FILE = "cosmos-emulator.key";

    private final X509Certificate certificate;
    private final PrivateKey key;
    private final byte[] pem;

    private TlsCertificate(X509Certificate certificate, PrivateKey key, byte[] pem) {
        this.certificate = certificate;
        this.key = key;
        this.pem = pem;
    }

    /** The certificate in {@code directory}, made there first if it is absent. */
    public static TlsCertificate loadOrCreate(Path directory) {
        Path certFile = directory.resolve(CERTIFICATE_FILE);
        Path keyFile = directory.resolve(KEY_FILE);
        try {
            if (!Files.exists(certFile) || !Files.exists(keyFile)) {
                create(directory, certFile, keyFile);
            }
            return load(certFile, keyFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the TLS certificate in " + directory, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make or read the TLS certificate in " + directory, e);
        }
    }

    private static void create(Path directory, Path certFile, Path keyFile)
            throws IOException, GeneralSecurityException {
        Files.createDirectories(directory);
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048, new SecureRandom());
        KeyPair pair = gen.generateKeyPair();
        X500Name subject = new X500Name("CN=localhost, O=TetraDB Cosmos DB endpoint");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject,
                new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofDays(1))),
                Date.from(now.plus(Duration.ofDays(5 * 365))), subject, pair.getPublic());
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[]{
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "::1")}));
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        b.addExtension(Extension.keyUsage, true,
                new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
        b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        X509CertificateHolder holder;
        try {
            holder = b.build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate()));
        } catch (org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(holder);
        // written beside and moved into place, so a crash never leaves half a file
        Path keyTmp = keyFile.resolveSibling(KEY_FILE + ".tmp");
        Files.writeString(keyTmp, pem(pair.getPrivate()), StandardCharsets.US_ASCII);
        try {
            Files.setPosixFilePermissions(keyTmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // Windows: the data directory's own permissions apply
        }
        Files.move(keyTmp, keyFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Path certTmp = certFile.resolveSibling(CERTIFICATE_FILE + ".tmp");
        Files.writeString(certTmp, pem(cert), StandardCharsets.US_ASCII);
        Files.move(certTmp, certFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String pem(Object o) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(o);
        }
        return w.toString();
    }

    private static TlsCertificate load(Path certFile, Path keyFile) throws IOException, GeneralSecurityException {
        byte[] pem = Files.readAllBytes(certFile);
        X509Certificate cert;
        try (PEMParser p = new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)))) {
            cert = new JcaX509CertificateConverter().getCertificate((X509CertificateHolder) p.readObject());
        }
        PrivateKey key;
        try (PEMParser p = new PEMParser(Files.newBufferedReader(keyFile, StandardCharsets.US_ASCII))) {
            Object o = p.readObject();
            JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
            key = o instanceof PEMKeyPair kp ? conv.getKeyPair(kp).getPrivate()
                    : conv.getPrivateKey((PrivateKeyInfo) o);
        }
        return new TlsCertificate(cert, key, pem);
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The certificate as PEM (what {@code /_explorer/emulator.pem} serves). */
    public byte[] pem() {
        return pem.clone();
    }

    /** A server SslContext with this certificate (JDK provider). */
    public SslContext sslContext() {
        try {
            return serverContextBuilder().build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot build the TLS context", e);
        }
    }

    /** A server context builder with this certificate and its key, for a caller that picks the provider. */
    public SslContextBuilder serverContextBuilder() {
        return SslContextBuilder.forServer(key, certificate);
    }
}
