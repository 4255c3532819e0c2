package io.tetradb.core.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which Netty transport the faces serve on: a native one only where it loads, NIO otherwise, whatever the property
 * asks; and the NIO fallback really serves.
 */
class NettyTransportTest {
    @Test
    void aNativeTransportOnlyWhereItLoads() {
        assertEquals(NettyTransport.EPOLL, NettyTransport.choose("auto", () -> true, () -> false));
        assertEquals(NettyTransport.KQUEUE, NettyTransport.choose("auto", () -> false, () -> true));
        assertEquals(NettyTransport.NIO, NettyTransport.choose("auto", () -> false, () -> false), "native absent");
        assertEquals(NettyTransport.NIO, NettyTransport.choose(null, () -> false, () -> false));
        assertEquals(NettyTransport.NIO, NettyTransport.choose("nio", () -> true, () -> true), "forced NIO");
        assertEquals(NettyTransport.NIO, NettyTransport.choose("epoll", () -> false, () -> true),
                "forced epoll where it does not load: NIO, not a failed start");
        assertEquals(NettyTransport.NIO, NettyTransport.choose("kqueue", () -> true, () -> false));
        assertEquals(NettyTransport.EPOLL, NettyTransport.choose(" EPOLL ", () -> true, () -> false));
        assertEquals(NettyTransport.KQUEUE, NettyTransport.choose("kqueue", () -> false, () -> true));
        assertEquals(NettyTransport.EPOLL, NettyTransport.choose("unknown", () -> true, () -> true), "as auto");
    }

    /** document-core's tests carry the native transports' classes but not their libraries: NIO, and it serves. */
    @Test
    void withoutTheNativeLibrariesTheFacesServeOnNio() throws Exception {
        assertEquals(NettyTransport.NIO, NettyTransport.get());
        assertEquals(NettyTransport.NIO, NettyTransport.choose("epoll", NettyTransport::epollLoads,
                NettyTransport::kqueueLoads));
        NettyTransport nio = NettyTransport.get();
        EventLoopGroup loops = nio.eventLoops(1, "transport-test-io", true);
        try {
            Channel server = new ServerBootstrap().group(loops).channel(nio.serverChannel())
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.writeAndFlush(ch.alloc().buffer().writeByte(42)).addListener(f -> ch.close());
                        }
                    }).bind(InetAddress.getLoopbackAddress(), 0).syncUninterruptibly().channel();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(),
                    ((InetSocketAddress) server.localAddress()).getPort())) {
                s.setSoTimeout(10_000);
                assertEquals(42, s.getInputStream().read());
            }
            server.close().syncUninterruptibly();
            assertTrue(Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("transport-test-io-")), "event loops named for the face");
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
