package io.tetradb.server;

import java.net.InetAddress;
import java.nio.file.Path;

/**
 * What one server process is started with. Later faces add their ports here (null = face disabled).
 *
 * @param dataDirectory absolute data directory (one RocksDB)
 * @param bindAddress   the address every endpoint binds to
 * @param httpPort      admin HTTP port; 0 picks a free port
 */
public record ServerConfig(Path dataDirectory, InetAddress bindAddress, int httpPort) {
    public static final int DEFAULT_HTTP_PORT = 8081;

    public ServerConfig {
        if (httpPort < 0 || httpPort > 65535) {
            throw new IllegalArgumentException("port out of range: " + httpPort);
        }
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
    }

    /** Defaults for tests and embedding: loopback, a free admin port. */
    public static ServerConfig ephemeral(Path dataDirectory) {
        return new ServerConfig(dataDirectory, InetAddress.getLoopbackAddress(), 0);
    }
}
