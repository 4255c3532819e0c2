package io.tetradb.core.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The Netty transport every network face serves on: Netty's native epoll transport on Linux, kqueue on macOS/BSD,
 * Java NIO anywhere else or when the native library is absent or fails to load (a missing jar, another CPU
 * architecture, a noexec temp directory). Native transports cost fewer syscalls and allocations per request than NIO's
 * selector (no selected-key set, no {@code SelectionKey} interest updates, edge-triggered readiness).
 * {@code -Dtetradb.net.transport=nio|epoll|kqueue|auto} (default {@code auto}) forces one; a forced native transport
 * that is not available falls back to NIO with a warning, never fails the start. Event loop threads are named
 * {@code <face>-io-<n>} whatever the transport.
 */
public enum NettyTransport {
    EPOLL, KQUEUE, NIO;

    private static final System.Logger LOG = System.getLogger(NettyTransport.class.getName());
    /** The system property that forces a transport. */
    public static final String PROPERTY = "tetradb.net.transport";

    /** The transport for a face starting now: from the property and what loads here (Netty caches the latter). */
    public static NettyTransport get() {
        return choose(System.getProperty(PROPERTY, "auto"), NettyTransport::epollLoads, NettyTransport::kqueueLoads);
    }

    /**
     * The transport for {@code wanted} ({@code auto}, {@code nio}, {@code epoll}, {@code kqueue}) given which native
     * transports load: a native one only if it loads, NIO otherwise (an unknown name is {@code auto}).
     */
    static NettyTransport choose(String wanted, BooleanSupplier epoll, BooleanSupplier kqueue) {
        String w = wanted == null ? "auto" : wanted.trim().toLowerCase(Locale.ROOT);
        switch (w) {
            case "nio":
                return NIO;
            case "epoll":
                if (epoll.getAsBoolean()) {
                    return EPOLL;
                }
                LOG.log(System.Logger.Level.WARNING, "{0}=epoll: the native epoll transport is not available here; "
                        + "using NIO", PROPERTY);
                return NIO;
            case "kqueue":
                if (kqueue.getAsBoolean()) {
                    return KQUEUE;
                }
                LOG.log(System.Logger.Level.WARNING, "{0}=kqueue: the native kqueue transport is not available here; "
                        + "using NIO", PROPERTY);
                return NIO;
            default:
                if (epoll.getAsBoolean()) {
                    return EPOLL;
                }
                return kqueue.getAsBoolean() ? KQUEUE : NIO;
        }
    }

    /** An event loop group of {@code threads} threads named {@code <name>-<n>} (daemon as asked). */
    public EventLoopGroup eventLoops(int threads, String name, boolean daemon) {
        DefaultThreadFactory threadFactory = new DefaultThreadFactory(name, daemon);
        return switch (this) {
            case EPOLL -> new io.netty.channel.epoll.EpollEventLoopGroup(threads, threadFactory);
            case KQUEUE -> new io.netty.channel.kqueue.KQueueEventLoopGroup(threads, threadFactory);
            case NIO -> new NioEventLoopGroup(threads, threadFactory);
        };
    }

    /** The server socket channel class that goes with {@link #eventLoops}. */
    public Class<? extends ServerChannel> serverChannel() {
        return switch (this) {
            case EPOLL -> io.netty.channel.epoll.EpollServerSocketChannel.class;
            case KQUEUE -> io.netty.channel.kqueue.KQueueServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
        };
    }

    /** True when Netty's epoll classes are on the class path and their native library loads. */
    static boolean epollLoads() {
        try {
            return io.netty.channel.epoll.Epoll.isAvailable();
        } catch (LinkageError e) { // the classes jar is absent
            return false;
        }
    }

    /** True when Netty's kqueue classes are on the class path and their native library loads. */
    static boolean kqueueLoads() {
        try {
            return io.netty.channel.kqueue.KQueue.isAvailable();
        } catch (LinkageError e) {
            return false;
        }
    }
}
