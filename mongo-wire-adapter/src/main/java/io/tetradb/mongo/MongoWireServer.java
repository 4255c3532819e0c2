package io.tetradb.mongo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tetradb.core.net.ConnectionGuard;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.core.net.NettyTransport;
import io.tetradb.document.CosmosClient;
import io.tetradb.mongo.auth.MongoUsers;
import io.tetradb.mongo.command.CommandDispatcher;
import io.tetradb.mongo.command.CursorLimits;
import io.tetradb.mongo.command.Limits;
import io.tetradb.mongo.tls.TlsOrPlainDetector;
import io.tetradb.mongo.wire.ConnectionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The MongoDB wire-protocol server over one {@link CosmosClient}'s store. Start it with
 * {@link #start(InetAddress, int, CosmosClient)} (port 0 picks a free port), read where it listens with
 * {@link #address()}, stop it with {@link #close()}. The client stays open: its owner closes it after the server.
 */
public final class MongoWireServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MongoWireServer.class);

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    /**
     * Commands run here, off the I/O threads (store calls block on fsync); one connection's requests stay in order,
     * and a slow command holds up only its own connection.
     */
    private final ExecutorService commandThreads;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Channel serverChannel;
    private final CommandDispatcher dispatcher;
    private volatile boolean closed;

    private final ConnectionGuard guard;
    private final NettyTransport transport;
    /** mongod's clientCursorMonitorFrequencySecs. */
    private static final long CURSOR_SWEEP_SECONDS = 4;

    private MongoWireServer(InetAddress bind, int port, CosmosClient client, MongoUsers users,
                            ConnectionLimits limits, SslContext tls, CursorLimits cursorLimits) {
        this.guard = new ConnectionGuard("mongo", limits);
        this.dispatcher = new CommandDispatcher(client, users, cursorLimits);
        // beyond loopback, dropping the last user must not open the face: the localhost exception applies instead
        dispatcher.requireCredentials(!bind.isLoopbackAddress());
        this.transport = NettyTransport.get(); // native epoll/kqueue where it loads, else NIO
        this.boss = transport.eventLoops(1, "mongo-accept", false);
        this.workers = transport.eventLoops(Math.max(2, Runtime.getRuntime().availableProcessors()), "mongo-io", false);
        AtomicInteger threadIds = new AtomicInteger();
        this.commandThreads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "mongo-command-" + threadIds.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        AtomicInteger connectionIds = new AtomicInteger();
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 256)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (!guard.admit(ch)) {
                                return;
                            }
                            channels.add(ch);
                            if (tls != null) {
                                ch.pipeline().addLast("tls-or-plain", new TlsOrPlainDetector(tls));
                            }
                            ch.pipeline().addLast("frames", messageFrames());
                            ch.pipeline().addLast("commands",
                                    new ConnectionHandler(dispatcher, connectionIds.incrementAndGet(), commandThreads));
                            guard.install(ch.pipeline(), "frames", io.tetradb.mongo.wire.RateLimitReply.INSTANCE);
                        }
                    });
            this.serverChannel = b.bind(bind, port).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            shutdownGroups();
            throw e;
        }
        // mongod's cursor monitor: idle cursors go even when no command comes to notice them
        workers.next().scheduleWithFixedDelay(dispatcher::expireIdleCursors, CURSOR_SWEEP_SECONDS,
                CURSOR_SWEEP_SECONDS, TimeUnit.SECONDS);
        LOG.info("Mongo wire server listening on {} (Netty transport {})", address(), transport);
    }

    /** Starts serving {@code client}'s store on {@code bind:port} (0: a free port), without authentication. */
    public static MongoWireServer start(InetAddress bind, int port, CosmosClient client) {
        return start(bind, port, client, MongoUsers.none());
    }

    /**
     * Starts serving with SCRAM-SHA-256 authentication for {@code users} (none: no authentication). Whether a
     * non-loopback address may be bound without users is the caller's policy (ARCHITECTURE.md: it may not).
     */
    public static MongoWireServer start(InetAddress bind, int port, CosmosClient client, MongoUsers users) {
        return start(bind, port, client, users, ConnectionLimits.defaults());
    }

    /** Starts serving with these connection limits (see {@link ConnectionLimits}). */
    public static MongoWireServer start(InetAddress bind, int port, CosmosClient client, MongoUsers users,
                                        ConnectionLimits limits) {
        return new MongoWireServer(bind, port, client, users, limits, null, CursorLimits.defaults());
    }

    /**
     * Starts serving with these limits; with {@code tls}, TLS ({@code mongodb://…/?tls=true}) and plain connections
     * on the same port, as mongod's {@code allowTLS} mode (see {@link TlsOrPlainDetector}).
     */
    public static MongoWireServer start(InetAddress bind, int port, CosmosClient client, MongoUsers users,
                                        ConnectionLimits limits, SslContext tls) {
        return new MongoWireServer(bind, port, client, users, limits, tls, CursorLimits.defaults());
    }

    /** As above, with these bounds on open cursors (idle timeout, how many stay open; see {@link CursorLimits}). */
    public static MongoWireServer start(InetAddress bind, int port, CosmosClient client, MongoUsers users,
                                        ConnectionLimits limits, SslContext tls, CursorLimits cursors) {
        return new MongoWireServer(bind, port, client, users, limits, tls, cursors);
    }

    /**
     * Calls {@code hook} with the running command at each of its interrupt checks, on the thread running it (null
     * removes it): tests pause a command there to kill it at a known point. Not for service use.
     */
    void checkpointHook(java.util.function.Consumer<org.bson.BsonDocument> hook) {
        dispatcher.checkpointHook(hook);
    }

    /** The Netty transport the server's connections use (native epoll/kqueue, or NIO). */
    public NettyTransport transport() {
        return transport;
    }

    /** The connection limits in force, with their counters. */
    public ConnectionGuard connectionGuard() {
        return guard;
    }

    /** Where the server listens (the actual port when started with 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Stops accepting, closes every connection and the worker threads; never throws. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            LOG.warn("closing the Mongo wire server's channels", e);
        }
        shutdownGroups();
        dispatcher.close();
    }

    private void shutdownGroups() {
        List<io.netty.util.concurrent.Future<?>> done = new ArrayList<>();
        for (EventExecutorGroup g : List.of(boss, workers)) {
            done.add(g.shutdownGracefully(0, 2000, TimeUnit.MILLISECONDS));
        }
        for (io.netty.util.concurrent.Future<?> f : done) {
            try {
                f.awaitUninterruptibly(5, TimeUnit.SECONDS);
            } catch (RuntimeException e) {
                LOG.warn("stopping Mongo wire server threads", e);
            }
        }
        commandThreads.shutdown();
        try {
            // a command in flight finishes (its connection is closed: no reply goes out)
            if (!commandThreads.awaitTermination(10, TimeUnit.SECONDS)) {
                commandThreads.shutdownNow();
            }
        } catch (InterruptedException e) {
            commandThreads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whole wire messages, cut by their little-endian {@code messageLength} (header included); a length over
     * {@code maxMessageSizeBytes} closes the connection as soon as it is read. mongo-frames (issue 17): a message
     * longer than one read is gathered as a composite of the reads it arrives in, not merged into a buffer grown by
     * doubling (≈ 2 MB of copies for a 1 MB {@code insert}); {@code RequestDecoder} copies the whole message once.
     */
    static LengthFieldBasedFrameDecoder messageFrames() {
        LengthFieldBasedFrameDecoder frames = new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN,
                Limits.MAX_MESSAGE_BYTES, 0, 4, -4, 0, true);
        frames.setCumulator(ByteToMessageDecoder.COMPOSITE_CUMULATOR);
        return frames;
    }
}
