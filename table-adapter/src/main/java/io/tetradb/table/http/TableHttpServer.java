package io.tetradb.table.http;

import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.tetradb.core.net.ConnectionGuard;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.core.net.HttpFaceServer;
import io.tetradb.document.CosmosClient;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The Azure-Tables-compatible HTTP endpoint (path-style URLs, {@code http://host:port/devstoreaccount1/...}, and
 * host-style ones, {@code http://devstoreaccount1.table.localhost:port/...}) over a
 * core store. Netty reads and writes HTTP; requests run on a worker pool (the store blocks on disk), never on the
 * event loop.
 *
 * <pre>
 * TableHttpServer server = TableHttpServer.start(InetAddress.getLoopbackAddress(), 10002, cosmosClient);
 * server.address();   // the bound address (port 0 picks a free one)
 * server.close();     // stops accepting, finishes running requests; the CosmosClient stays open
 * </pre>
 */
public final class TableHttpServer implements AutoCloseable {
    /** Bodies above 4 MiB are refused with 413 RequestBodyTooLarge before they are read whole, as Azure does. */
    public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private final HttpFaceServer server;

    private TableHttpServer(HttpFaceServer server) {
        this.server = server;
    }

    /** Serves the well-known development account {@code devstoreaccount1} with its well-known key. */
    public static TableHttpServer start(InetAddress bind, int port, CosmosClient client) {
        return start(bind, port, client, AccountKeys.development(), ConnectionLimits.defaults(), MAX_BODY_BYTES, null);
    }

    /** Serves the development account with these connection limits and request body limit. */
    public static TableHttpServer start(InetAddress bind, int port, CosmosClient client, ConnectionLimits limits,
                                        int maxBodyBytes) {
        return start(bind, port, client, AccountKeys.development(), limits, maxBodyBytes, null);
    }

    /**
     * Serves the given accounts (name → base64 key). Each account's tables live in the core database of the same
     * name.
     */
    public static TableHttpServer start(InetAddress bind, int port, CosmosClient client,
                                        Map<String, String> accountKeys) {
        return start(bind, port, client, accountKeys, ConnectionLimits.defaults(), MAX_BODY_BYTES);
    }

    /**
     * Serves the given accounts with these connection limits, refusing request bodies over {@code maxBodyBytes}
     * with 413 (Azure's limit, 4 MiB, unless lowered).
     */
    public static TableHttpServer start(InetAddress bind, int port, CosmosClient client,
                                        Map<String, String> accountKeys, ConnectionLimits limits, int maxBodyBytes) {
        return start(bind, port, client, AccountKeys.single(accountKeys), limits, maxBodyBytes, null);
    }

    /**
     * Serves {@code accounts} (two keys each, replaceable while running) with these connection limits and body
     * limit; with {@code tls}, HTTPS and plain HTTP on the same port (Netty's {@link OptionalSslHandler} tells them
     * apart by the first bytes), else plain HTTP only.
     */
    public static TableHttpServer start(InetAddress bind, int port, CosmosClient client, AccountKeys accounts,
                                        ConnectionLimits limits, int maxBodyBytes, SslContext tls) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("the body limit must be positive");
        }
        ConnectionGuard guard = new ConnectionGuard("tables", limits);
        TableApi api = new TableApi(client, accounts);
        return new TableHttpServer(HttpFaceServer.start("tables", bind, port, guard, (c, pool) -> {
            if (tls != null) {
                c.pipeline().addLast("tls", new OptionalSslHandler(tls));
            }
            c.pipeline()
                    .addLast(new HttpServerCodec())
                    .addLast(new DrainAfterRefusal())
                    .addLast("aggregate", new BodyLimit(maxBodyBytes))
                    // after the aggregator: BodyLimit's 413 (Connection: close) does not pass it,
                    // so the connection stays open while the refused body is read away
                    .addLast(new HttpServerKeepAliveHandler())
                    .addLast(new RequestHandler(api, pool));
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
