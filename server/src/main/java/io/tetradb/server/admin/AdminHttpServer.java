package io.tetradb.server.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import io.tetradb.document.CosmosClient;
import io.tetradb.server.Endpoint;
import io.tetradb.server.StartupException;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The admin HTTP endpoint (health, partition statistics, partition storage page) on Netty. */
public final class AdminHttpServer implements Endpoint {
    /** Admin requests carry no body worth more than this. */
    static final int MAX_REQUEST_BYTES = 64 * 1024;
    /** Idle keep-alive connections are closed after this, so abandoned clients do not pile up. */
    static final int IDLE_SECONDS = 60;
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 10;

    private final EventLoopGroup io;
    private final EventExecutorGroup handlers;
    private final Channel serverChannel;
    private final InetSocketAddress address;

    private AdminHttpServer(EventLoopGroup io, EventExecutorGroup handlers, Channel serverChannel) {
        this.io = io;
        this.handlers = handlers;
        this.serverChannel = serverChannel;
        this.address = (InetSocketAddress) serverChannel.localAddress();
    }

    /** Binds {@code bind:port} (0 = a free port) and serves until {@link #close()}. */
    public static AdminHttpServer start(InetAddress bind, int port, CosmosClient client) {
        // one IO thread is plenty for an admin port; handlers run on their own threads because they scan
        // RocksDB, which must not stall the IO loop
        EventLoopGroup io = new NioEventLoopGroup(1, new DefaultThreadFactory("tetradb-admin-io", true));
        EventExecutorGroup handlers = new DefaultEventExecutorGroup(2,
                new DefaultThreadFactory("tetradb-admin-handler", true));
        AdminHttpHandler handler = new AdminHttpHandler(new AdminRoutes(client));
        try {
            Channel channel = new ServerBootstrap()
                    .group(io)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline()
                                    .addLast(new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS))
                                    .addLast(new HttpServerCodec())
                                    .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                                    .addLast(handlers, "admin", handler);
                        }
                    })
                    .bind(bind, port).syncUninterruptibly().channel();
            return new AdminHttpServer(io, handlers, channel);
        } catch (Exception e) {
            shutdown(io, handlers);
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

    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        shutdown(io, handlers);
    }

    /** IO first (closes connections), then waits for handler tasks so none runs after the store is closed. */
    private static void shutdown(EventLoopGroup io, EventExecutorGroup handlers) {
        io.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        handlers.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
