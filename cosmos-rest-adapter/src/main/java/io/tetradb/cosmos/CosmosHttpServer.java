package io.tetradb.cosmos;

import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.ssl.OptionalSslHandler;
import io.tetradb.core.net.ConnectionGuard;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.core.net.HttpFaceServer;
import io.tetradb.document.CosmosClient;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;

/**
 * The Cosmos DB REST (gateway) endpoint over a core store, for the unmodified azure-cosmos SDKs. With an
 * {@link io.netty.handler.ssl.SslContext} in the options it accepts TLS and plain HTTP on the same port.
 *
 * <pre>
 * CosmosHttpServer server = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 8081, cosmosClient,
 *         CosmosRestOptions.defaults());
 * server.address();   // the bound address (port 0 picks a free one)
 * server.close();     // stops accepting, finishes running requests; the CosmosClient stays open
 * </pre>
 */
public final class CosmosHttpServer implements AutoCloseable {
    private final HttpFaceServer server;

    private CosmosHttpServer(HttpFaceServer server) {
        this.server = server;
    }

    /** Serves with the emulator's well-known key, plain HTTP only. */
    public static CosmosHttpServer start(InetAddress bind, int port, CosmosClient client) {
        return start(bind, port, client, CosmosRestOptions.defaults());
    }

    public static CosmosHttpServer start(InetAddress bind, int port, CosmosClient client, CosmosRestOptions options) {
        return start(bind, port, client, options, ConnectionLimits.defaults());
    }

    /** Serves with these options and connection limits (see {@link ConnectionLimits}). */
    public static CosmosHttpServer start(InetAddress bind, int port, CosmosClient client, CosmosRestOptions options,
                                         ConnectionLimits limits) {
        return start(bind, port, client, options, limits,
                CosmosKeys.of(options.masterKey(), options.readOnlyKey()));
    }

    /**
     * As above, checking requests against {@code keys} (not the options' keys): a caller that keeps {@code keys}
     * rotates them while the server runs ({@link CosmosKeys#replace}).
     */
    public static CosmosHttpServer start(InetAddress bind, int port, CosmosClient client, CosmosRestOptions options,
                                         ConnectionLimits limits, CosmosKeys keys) {
        ConnectionGuard guard = new ConnectionGuard("cosmos", limits);
        CosmosApi api = new CosmosApi(client.coreStore(), options, keys, Clock.systemUTC());
        api.limits(limits); // the request time limit
        return new CosmosHttpServer(HttpFaceServer.start("cosmos", bind, port, guard, (c, pool) -> {
            if (options.sslContext() != null) {
                c.pipeline().addLast(new OptionalSslHandler(options.sslContext()));
            }
            c.pipeline()
                    .addLast(new HttpServerCodec())
                    .addLast(new HttpServerKeepAliveHandler())
                    .addLast("aggregate", new BodyLimit(options.maxBodyBytes()))
                    .addLast(new HttpHandler(api, options, pool));
            guard.install(c.pipeline(), "aggregate", RateLimitAnswer.INSTANCE);
        }));
    }

    public InetSocketAddress address() {
        return server.address();
    }

    @Override
    public void close() {
        server.close();
    }
}
