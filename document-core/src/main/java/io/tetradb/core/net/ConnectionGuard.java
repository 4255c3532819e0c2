package io.tetradb.core.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One face's {@link ConnectionLimits} on its Netty connections. A face calls {@link #admit} first thing in its
 * channel initializer (a connection over the limits is closed before any handler sees it, as mongod closes a
 * connection beyond maxIncomingConnections), then puts {@link #firstBytes} at the head of the pipeline and
 * {@link #wholeRequest} right after the decoder that emits whole requests (frame decoder, HTTP aggregator): between
 * the two, a request has {@code requestReadTimeout} to arrive; a {@link RequestRateGate} after the face's request
 * decoder answers requests over {@code maxRequestsPerSecond} with the face's {@link RateRefusal}.
 */
public final class ConnectionGuard {
    private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());

    private final String face;
    private final ConnectionLimits limits;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger timedOut = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong rateRefused = new java.util.concurrent.atomic.AtomicLong();

    public ConnectionGuard(String face, ConnectionLimits limits) {
        this.face = face;
        this.limits = limits;
    }

    public ConnectionLimits limits() {
        return limits;
    }

    /** Counts the connection in, or closes it when it is over a limit; false means the caller adds no handlers. */
    public boolean admit(Channel channel) {
        InetAddress address = channel.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
        if (open.incrementAndGet() > limits.maxConnections()) {
            open.decrementAndGet();
            return refuse(channel, "the face's " + limits.maxConnections() + " connections are open");
        }
        if (address != null) {
            AtomicInteger mine = perAddress.computeIfAbsent(address, k -> new AtomicInteger());
            if (mine.incrementAndGet() > limits.maxConnectionsPerAddress()) {
                release(address);
                open.decrementAndGet();
                return refuse(channel, limits.maxConnectionsPerAddress() + " connections from "
                        + address.getHostAddress() + " are open");
            }
        }
        channel.closeFuture().addListener(f -> {
            open.decrementAndGet();
            if (address != null) {
                release(address);
            }
        });
        return true;
    }

    private void release(InetAddress address) {
        perAddress.computeIfPresent(address, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    private boolean refuse(Channel channel, String why) {
        int n = refused.incrementAndGet();
        if (n == 1 || n % 1000 == 0) {
            LOG.log(System.Logger.Level.WARNING, face + ": connection from " + channel.remoteAddress()
                    + " refused because " + why + " (" + n + " refused so far)");
        }
        channel.close();
        return false;
    }

    /** Open connections now (for tests and reports). */
    public int openConnections() {
        return open.get();
    }

    /** Connections closed because a request did not arrive whole in time. */
    public int timedOut() {
        return timedOut.get();
    }

    /** Requests answered with the face's refusal because their connection was over its request rate. */
    public long rateRefused() {
        return rateRefused.get();
    }

    /**
     * A new connection's request-rate handler, to put right after the decoder that emits whole requests, or null when
     * the rate is unlimited (nothing to add).
     */
    public ChannelHandler rateGate(RateRefusal refusal) {
        if (limits.maxRequestsPerSecond() == 0) {
            return null;
        }
        return new RequestRateGate(limits.maxRequestsPerSecond(), limits.clock(), refusal, rateRefused);
    }

    /** As {@link #install(ChannelPipeline, String)}, and the request-rate handler with the face's refusal after. */
    public void install(ChannelPipeline pipeline, String afterDecoder, RateRefusal refusal) {
        install(pipeline, afterDecoder);
        ChannelHandler gate = rateGate(refusal);
        if (gate != null) {
            pipeline.addAfter("guard-whole-request", "guard-request-rate", gate);
        }
    }

    /** Handlers for one connection: put the first at the pipeline's head, the second after the request decoder. */
    public RequestPacing pacing() {
        return new RequestPacing();
    }

    /** The head handler of {@code pipeline}'s connection and its whole-request handler, added by name. */
    public void install(ChannelPipeline pipeline, String afterDecoder) {
        RequestPacing pacing = pacing();
        pipeline.addFirst("guard-first-bytes", pacing.firstBytes());
        pipeline.addAfter(afterDecoder, "guard-whole-request", pacing.wholeRequest());
    }

    /**
     * One connection's request deadline. Not shared: both handlers and the timer run on the connection's event loop.
     * A request only records when it began; one timer per connection, armed when a request begins and none is
     * pending, checks the request under way when it fires and re-arms itself for that request's own deadline. So a
     * connection answering many requests schedules about one timer per timeout period instead of scheduling and
     * cancelling one per request (2 % of a point find's event-loop CPU in the Mongo face's profile).
     */
    public final class RequestPacing {
        private boolean inRequest;
        private long startedNanos;
        private ScheduledFuture<?> timer;

        private RequestPacing() {
        }

        public ChannelHandler firstBytes() {
            return new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (!inRequest) {
                        begin(ctx);
                    }
                    ctx.fireChannelRead(msg);
                }

                @Override
                public void channelInactive(ChannelHandlerContext ctx) {
                    inRequest = false;
                    if (timer != null) {
                        timer.cancel(false);
                        timer = null;
                    }
                    ctx.fireChannelInactive();
                }
            };
        }

        public ChannelHandler wholeRequest() {
            return new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    inRequest = false;
                    ctx.fireChannelRead(msg);
                }
            };
        }

        private void begin(ChannelHandlerContext ctx) {
            inRequest = true;
            startedNanos = System.nanoTime();
            if (timer == null) {
                arm(ctx, limits.requestReadTimeout().toNanos());
            }
        }

        private void arm(ChannelHandlerContext ctx, long delayNanos) {
            timer = ctx.executor().schedule(() -> check(ctx), delayNanos, TimeUnit.NANOSECONDS);
        }

        private void check(ChannelHandlerContext ctx) {
            timer = null;
            if (!inRequest || !ctx.channel().isActive()) {
                return; // idle between requests: the next request's first bytes arm the timer again
            }
            long timeout = limits.requestReadTimeout().toNanos();
            if (!ctx.channel().config().isAutoRead()) {
                startedNanos = System.nanoTime(); // the face stopped reading (back-pressure): not the client's delay
                arm(ctx, timeout);
                return;
            }
            long left = startedNanos + timeout - System.nanoTime();
            if (left > 0) {
                arm(ctx, left); // a later request than the one the timer was armed for
                return;
            }
            timedOut.incrementAndGet();
            LOG.log(System.Logger.Level.DEBUG, () -> face + ": closing " + ctx.channel().remoteAddress()
                    + ": a request took longer than " + limits.requestReadTimeout() + " to arrive");
            ctx.close();
        }
    }
}
