package io.tetradb.server.config;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;

import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * Which TLS implementation every face's handshakes run on: BoringSSL (netty-tcnative, shipped for Linux x86_64 and
 * aarch64, macOS x86_64 and aarch64, Windows x86_64) where its native library loads, else the JDK's (a read-only or
 * {@code noexec} temporary directory, another platform). A handshake costs the server less CPU on BoringSSL
 * (server/README, "TLS session resumption and the provider"), and handshakes are what a TLS connection flood spends. {@code -Dtetradb.tls.provider=jdk|auto|openssl} chooses:
 * {@code jdk} (the default: the long fuzz runs of every face were made on it, and BoringSSL's per-connection memory is
 * native, outside the {@code --memory} budget, not yet measured under a connection flood), {@code auto} BoringSSL where
 * it loads, {@code openssl} BoringSSL or refuse to start.
 */
public final class TlsProviderChoice {
    public static final String PROPERTY = "tetradb.tls.provider";

    private TlsProviderChoice() {
    }

    /** The provider the system property asks for, given whether netty-tcnative loads here. */
    public static SslProvider fromSystemProperty() {
        String setting = System.getProperty(PROPERTY);
        boolean available = OpenSsl.isAvailable();
        String whyNot = available ? null : String.valueOf(OpenSsl.unavailabilityCause());
        if (!available && "auto".equalsIgnoreCase(setting == null ? "" : setting.trim())) {
            LoggerFactory.getLogger(TlsProviderChoice.class).info("TLS falls back to the JDK's provider: {}", whyNot);
        }
        return choose(setting, available, whyNot);
    }

    /** {@code setting} null or {@code jdk}: the JDK's; {@code auto}: BoringSSL when available, else the JDK's. */
    static SslProvider choose(String setting, boolean openSslAvailable, String whyNot) {
        String value = setting == null ? "jdk" : setting.trim().toLowerCase(Locale.ROOT);
        switch (value) {
            case "auto":
                return openSslAvailable ? SslProvider.OPENSSL : SslProvider.JDK;
            case "jdk":
                return SslProvider.JDK;
            case "openssl":
                if (!openSslAvailable) {
                    throw new IllegalArgumentException("-D" + PROPERTY + "=openssl: BoringSSL (netty-tcnative) does "
                            + "not load on this platform: " + whyNot);
                }
                return SslProvider.OPENSSL;
            default:
                throw new IllegalArgumentException("-D" + PROPERTY + " must be auto, openssl or jdk, not '"
                        + setting + "'");
        }
    }
}
