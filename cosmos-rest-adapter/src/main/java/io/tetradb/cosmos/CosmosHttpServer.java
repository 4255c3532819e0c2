package io.tetradb.cosmos;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.ssl.OptionalSslHandler;
import io.tetradb.core.net.ConnectionGuard;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.document.CosmosClient;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService requests;
    private final Channel channel;
    private final InetSocketAddress address;

    private CosmosHttpServer(EventLoopGroup boss, EventLoopGroup workers, ExecutorService requests, Channel channel) {
        this.boss = boss;
        this.workers = workers;
        this.requests = requests;
        this.channel = channel;
        this.address = (InetSocketAddress) channel.localAddress();
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
        io.tetradb.core.net.NettyTransport transport = io.tetradb.core.net.NettyTransport.get(); // epoll/kqueue/NIO
        EventLoopGroup boss = transport.eventLoops(1, "cosmos-accept", false);
        EventLoopGroup workers = transport.eventLoops(Math.max(2, Runtime.getRuntime().availableProcessors()),
                "cosmos-io", false);
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(8, 4 * Runtime.getRuntime().availableProcessors()),
                r -> {
                    Thread t = new Thread(r, "cosmos-request-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        try {
            Channel ch = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(transport.serverChannel())
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            if (!guard.admit(c)) {
                                return;
                            }
                            if (options.sslContext() != null) {
                                c.pipeline().addLast(new OptionalSslHandler(options.sslContext()));
                            }
                            c.pipeline()
                                    .addLast(new HttpServerCodec())
                                    .addLast(new HttpServerKeepAliveHandler())
                                    .addLast("aggregate", new BodyLimit(options.maxBodyBytes()))
                                    .addLast(new HttpHandler(api, options, pool));
                            guard.install(c.pipeline(), "aggregate", RateLimitAnswer.INSTANCE);
                        }
                    })
                    .bind(new InetSocketAddress(bind, port)).syncUninterruptibly().channel();
            return new CosmosHttpServer(boss, workers, pool, ch);
        } catch (RuntimeException e) {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
            pool.shutdownNow();
            throw e;
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        requests.shutdown();
        try {
            requests.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
