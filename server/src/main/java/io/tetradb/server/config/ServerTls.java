package io.tetradb.server.config;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tetradb.cosmos.TlsCertificate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one TLS certificate every face serves: the user's (a PEM chain and its PEM key, from {@code tetradb.yaml} or
 * the environment) or else the self-signed one the Cosmos face makes in {@code DATA/tls} on first start (for
 * {@code localhost}, {@code 127.0.0.1}, {@code ::1}). One Netty {@link SslContext} is shared by all faces, so one
 * session cache and one ticket key serve them all: a client resumes on any face (TLS 1.2 by session id or ticket,
 * TLS 1.3 by the ticket the server sends after the handshake). The provider is {@link TlsProviderChoice}'s.
 */
public final class ServerTls {
    /** Where the generated certificate lives: beside RocksDB's files, not among them. */
    public static final String DIRECTORY = "tls";
    /**
     * Sessions kept for resumption by id (the JDK's default, set so that both providers bound the memory a flood of
     * full handshakes takes alike); tickets carry their session themselves.
     */
    static final int SESSION_CACHE_SIZE = 20_480;
    /** How long a session or ticket resumes: the JDK's default, set so that BoringSSL's shorter one does not apply. */
    static final long SESSION_TIMEOUT_SECONDS = 24 * 3600;

    private static final Logger log = LoggerFactory.getLogger(ServerTls.class);

    private final SslContext context;
    private final byte[] pem;

    private ServerTls(SslContext context, byte[] pem) {
        this.context = context;
        this.pem = pem;
    }

    /** The configured certificate, or the data directory's generated one when {@code certificate} is null. */
    public static ServerTls of(Path dataDirectory, Path certificate, Path key) {
        return of(dataDirectory, certificate, key, TlsProviderChoice.fromSystemProperty());
    }

    /** As {@link #of(Path, Path, Path)} on the given provider. */
    public static ServerTls of(Path dataDirectory, Path certificate, Path key, SslProvider provider) {
        log.info("TLS on {}", provider == SslProvider.OPENSSL ? "BoringSSL (netty-tcnative)" : "the JDK's provider");
        if (certificate == null) {
            TlsCertificate generated = TlsCertificate.loadOrCreate(dataDirectory.resolve(DIRECTORY));
            try {
                return new ServerTls(withSessions(generated.serverContextBuilder(), provider).build(),
                        generated.pem());
            } catch (SSLException e) {
                throw new IllegalStateException("cannot build the TLS context", e);
            }
        }
        try {
            byte[] pem = Files.readAllBytes(certificate);
            return new ServerTls(withSessions(SslContextBuilder.forServer(certificate.toFile(), key.toFile()),
                    provider).build(), pem);
        } catch (IOException | IllegalArgumentException e) {
            // Netty names the file, never its content
            throw new IllegalArgumentException("cannot use the TLS certificate " + certificate + " with the key " + key
                    + ": " + e.getMessage());
        }
    }

    private static SslContextBuilder withSessions(SslContextBuilder builder, SslProvider provider) {
        return builder.sslProvider(provider).sessionCacheSize(SESSION_CACHE_SIZE)
                .sessionTimeout(SESSION_TIMEOUT_SECONDS);
    }

    public SslContext context() {
        return context;
    }

    /** The certificate (chain) as PEM: what clients import to trust the server. */
    public byte[] pem() {
        return pem.clone();
    }
}
