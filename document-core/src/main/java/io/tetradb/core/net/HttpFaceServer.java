package io.tetradb.core.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The listening side of an HTTP face (Cosmos REST, Tables): one accept thread and an IO event loop per core on the
 * {@link NettyTransport}, a pool of request threads (the store blocks on disk, never on the event loop), and the
 * face's {@link ConnectionGuard} admitting each connection before the face builds its pipeline. Threads are named
 * {@code <face>-accept}, {@code <face>-io-<n>}, {@code <face>-request-<n>}.
 */
public final class HttpFaceServer implements AutoCloseable {
    /** What a face puts on an admitted connection's pipeline; its handlers run requests on {@code requests}. */
    @FunctionalInterface
    public interface Pipeline {
        void build(SocketChannel channel, ExecutorService requests);
    }

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService requests;
    private final Channel channel;
    private final InetSocketAddress address;

    private HttpFaceServer(EventLoopGroup boss, EventLoopGroup workers, ExecutorService requests, Channel channel) {
        this.boss = boss;
        this.workers = workers;
        this.requests = requests;
        this.channel = channel;
        this.address = (InetSocketAddress) channel.localAddress();
    }

    /** Binds {@code bind:port} (port 0 picks a free one); a failed bind releases the threads and throws. */
    public static HttpFaceServer start(String face, InetAddress bind, int port, ConnectionGuard guard,
                                       Pipeline pipeline) {
        NettyTransport transport = NettyTransport.get(); // epoll/kqueue/NIO
        EventLoopGroup boss = transport.eventLoops(1, face + "-accept", false);
        EventLoopGroup workers = transport.eventLoops(Math.max(2, Runtime.getRuntime().availableProcessors()),
                face + "-io", false);
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(8, 4 * Runtime.getRuntime().availableProcessors()),
                r -> {
                    Thread t = new Thread(r, face + "-request-" + n.incrementAndGet());
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
                            if (guard.admit(c)) {
                                pipeline.build(c, pool);
                            }
                        }
                    })
                    .bind(new InetSocketAddress(bind, port)).syncUninterruptibly().channel();
            return new HttpFaceServer(boss, workers, pool, ch);
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

    /** Stops accepting, lets running requests finish (up to 10 s), then stops the event loops. */
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
