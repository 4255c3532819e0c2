package io.tetradb.core.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection's request rate: at most {@code perSecond} whole requests in a second (a window that starts at the
 * first request after the previous window ended); each further request of the window is answered with the face's
 * {@link RateRefusal} and not run. A refusal instead of pausing the reads, as mongod's ingress rate limiter and the
 * Cosmos gateway do: the client learns at once and how long to wait, and a slow pace never looks like a hang.
 * Runs on the connection's event loop only, so its counters need no locking.
 */
final class RequestRateGate extends ChannelInboundHandlerAdapter {
    private static final long SECOND = 1_000_000_000L;

    private final int perSecond;
    private final NanoClock clock;
    private final RateRefusal refusal;
    private final AtomicLong refusedCounter;
    private long windowStart;
    private int inWindow;

    RequestRateGate(int perSecond, NanoClock clock, RateRefusal refusal, AtomicLong refusedCounter) {
        this.perSecond = perSecond;
        this.clock = clock;
        this.refusal = refusal;
        this.refusedCounter = refusedCounter;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long now = clock.nanoTime();
        if (inWindow == 0 || now - windowStart >= SECOND) {
            windowStart = now;
            inWindow = 0;
        }
        if (++inWindow <= perSecond) {
            ctx.fireChannelRead(msg);
            return;
        }
        inWindow = perSecond + 1; // stays over until the window ends, without overflowing on a flood
        refusedCounter.incrementAndGet();
        long retryAfterMillis = Math.max(1, (windowStart + SECOND - now + 999_999) / 1_000_000);
        try {
            refusal.refuse(ctx, msg, retryAfterMillis);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }
}
