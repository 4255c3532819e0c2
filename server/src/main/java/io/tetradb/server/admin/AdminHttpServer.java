package io.tetradb.server.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tetradb.core.net.NettyTransport;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tetradb.core.store.PartitionStatistics;
import io.tetradb.document.CosmosClient;
import io.tetradb.server.Endpoint;
import io.tetradb.server.StartupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The admin HTTP endpoint (health, partition statistics, partition storage page) on Netty. */
public final class AdminHttpServer implements Endpoint {
    private static final Logger log = LoggerFactory.getLogger(AdminHttpServer.class);
    /** Admin requests carry no body worth more than this. */
    static final int MAX_REQUEST_BYTES = 64 * 1024;
    /** Idle keep-alive connections are closed after this, so abandoned clients do not pile up. */
    static final int IDLE_SECONDS = 60;
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 10;

    private final EventLoopGroup io;
    private final ExecutorService workers;
    private final ChannelGroup channels;
    private final Channel serverChannel;
    private final InetSocketAddress address;

    private AdminHttpServer(EventLoopGroup io, ExecutorService workers, ChannelGroup channels, Channel server) {
        this.io = io;
        this.workers = workers;
        this.channels = channels;
        this.serverChannel = server;
        this.address = (InetSocketAddress) server.localAddress();
    }

    /**
     * Binds {@code bind:port} (0 = a free port) and serves until {@link #close()}; {@code /health} reports
     * {@code readiness}.
     */
    public static AdminHttpServer start(InetAddress bind, int port, CosmosClient client, Readiness readiness) {
        return start(bind, port, client, readiness, AdminAccess.open());
    }

    /** As above, answering only the requests {@code access} allows (401 to the others). */
    public static AdminHttpServer start(InetAddress bind, int port, CosmosClient client, Readiness readiness,
                                        AdminAccess access) {
        return start(bind, port, client::readAllPartitionStatistics,
                () -> client.readAllThroughputMetrics(ThroughputReport.WINDOW_SECONDS), readiness, access);
    }

    static AdminHttpServer start(InetAddress bind, int port, Supplier<List<PartitionStatistics>> statistics) {
        return start(bind, port, statistics, Readiness.ready());
    }

    static AdminHttpServer start(InetAddress bind, int port, Supplier<List<PartitionStatistics>> statistics,
                                 Readiness readiness) {
        return start(bind, port, statistics, List::of, readiness);
    }

    static AdminHttpServer start(InetAddress bind, int port, Supplier<List<PartitionStatistics>> statistics,
                                 Supplier<List<io.tetradb.core.store.ThroughputMetrics.Container>> throughput,
                                 Readiness readiness) {
        return start(bind, port, statistics, throughput, readiness, AdminAccess.open());
    }

    static AdminHttpServer start(InetAddress bind, int port, Supplier<List<PartitionStatistics>> statistics,
                                 Supplier<List<io.tetradb.core.store.ThroughputMetrics.Container>> throughput,
                                 Readiness readiness, AdminAccess access) {
        // one IO thread is plenty for an admin port; routes run on workers because they scan RocksDB
        NettyTransport transport = NettyTransport.get(); // epoll/kqueue/NIO
        EventLoopGroup io = transport.eventLoops(1, "tetradb-admin-io", true);
        ExecutorService workers = Executors.newFixedThreadPool(2, new DefaultThreadFactory("tetradb-admin", true));
        // every open connection, so that close() can end them before the store goes away
        ChannelGroup channels = new DefaultChannelGroup("tetradb-admin", GlobalEventExecutor.INSTANCE);
        AdminRoutes routes = new AdminRoutes(statistics, throughput, readiness);
        try {
            Channel server = new ServerBootstrap()
                    .group(io)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            channels.add(ch);
                            ch.pipeline()
                                    .addLast(new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS))
                                    .addLast(new HttpServerCodec())
                                    .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                                    .addLast(new AdminHttpHandler(routes, workers, access));
                        }
                    })
                    .bind(bind, port).syncUninterruptibly().channel();
            return new AdminHttpServer(io, workers, channels, server);
        } catch (Exception e) {
            shutdown(workers, io);
            String where = Endpoint.hostPort(new InetSocketAddress(bind, port));
            throw new StartupException("cannot bind admin HTTP to " + where + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return "admin";
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public String url() {
        return "http://" + Endpoint.hostPort(address);
    }

    /** Stops accepting, ends open connections, then waits for routes still running (they read the store). */
    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        channels.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        shutdown(workers, io);
    }

    private static void shutdown(ExecutorService workers, EventLoopGroup io) {
        workers.shutdown();
        try {
            if (!workers.awaitTermination(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                log.warn("admin requests still running after {} s; stopping anyway", SHUTDOWN_TIMEOUT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        io.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
