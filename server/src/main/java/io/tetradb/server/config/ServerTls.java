package io.tetradb.server.config;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.tetradb.cosmos.TlsCertificate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one TLS certificate every face serves: the user's (a PEM chain and its PEM key, from {@code tetradb.yaml} or
 * the environment) or else the self-signed one the Cosmos face makes in {@code DATA/tls} on first start (for
 * {@code localhost}, {@code 127.0.0.1}, {@code ::1}). One Netty {@link SslContext} is shared by all faces.
 */
public final class ServerTls {
    /** Where the generated certificate lives: beside RocksDB's files, not among them. */
    public static final String DIRECTORY = "tls";

    private final SslContext context;
    private final byte[] pem;

    private ServerTls(SslContext context, byte[] pem) {
        this.context = context;
        this.pem = pem;
    }

    /** The configured certificate, or the data directory's generated one when {@code certificate} is null. */
    public static ServerTls of(Path dataDirectory, Path certificate, Path key) {
        if (certificate == null) {
            TlsCertificate generated = TlsCertificate.loadOrCreate(dataDirectory.resolve(DIRECTORY));
            return new ServerTls(generated.sslContext(), generated.pem());
        }
        try {
            byte[] pem = Files.readAllBytes(certificate);
            return new ServerTls(SslContextBuilder.forServer(certificate.toFile(), key.toFile()).build(), pem);
        } catch (IOException | IllegalArgumentException e) {
            // Netty names the file, never its content
            throw new IllegalArgumentException("cannot use the TLS certificate " + certificate + " with the key " + key
                    + ": " + e.getMessage());
        }
    }

    public SslContext context() {
        return context;
    }

    /** The certificate (chain) as PEM: what clients import to trust the server. */
    public byte[] pem() {
        return pem.clone();
    }
}
