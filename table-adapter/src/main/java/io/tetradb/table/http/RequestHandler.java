package io.tetradb.table.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/** Turns each aggregated HTTP request into an {@link ApiRequest}, runs it on the worker pool, writes the answer. */
final class RequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RequestHandler.class);
    private final TableApi api;
    private final ExecutorService pool;

    RequestHandler(TableApi api, ExecutorService pool) {
        this.api = api;
        this.pool = pool;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (req.decoderResult().isFailure()) {
            write(ctx, Errors.of(400, "InvalidInput", "the HTTP request is malformed", MetadataLevel.MINIMAL), false);
            return;
        }
        QueryStringDecoder q;
        try {
            q = new QueryStringDecoder(req.uri(), StandardCharsets.UTF_8, true, 1024, true); // ";" is no separator
            q.parameters();
        } catch (IllegalArgumentException e) {
            write(ctx, Errors.of(400, "InvalidUri", "the request URI is malformed", MetadataLevel.MINIMAL), keepAlive);
            return;
        }
        String method = req.method().name().toUpperCase(Locale.ROOT);
        String tunnelled = req.headers().get("X-HTTP-Method");
        if (method.equals("POST") && tunnelled != null) {
            method = tunnelled.trim().toUpperCase(Locale.ROOT);
        }
        ApiRequest r = new ApiRequest(method, req.method().name(), q.rawPath(), q.parameters(), req.headers().copy(), ByteBufUtil.getBytes(req.content()),
                ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class) != null);
        if (isPointRead(method, q.path())) {
            // one entity by its keys: a key lookup that never waits for an fsync, answered on the event loop (two
            // thread hand-offs cost more than the read); writes and queries keep to the pool
            write(ctx, answer(r), keepAlive);
            return;
        }
        try {
            pool.execute(() -> write(ctx, answer(r), keepAlive));
        } catch (RejectedExecutionException shuttingDown) {
            write(ctx, Errors.of(503, "ServerBusy", "the server is shutting down", MetadataLevel.MINIMAL), false);
        }
    }

    private ApiResponse answer(ApiRequest r) {
        try {
            return api.handle(r);
        } catch (Throwable t) { // an Error too: the client always gets an answer
            LOG.error("{} {} failed", r.method(), r.rawPath(), t);
            return Errors.of(500, "InternalError", String.valueOf(t), MetadataLevel.MINIMAL);
        }
    }

    /** {@code GET .../Table(PartitionKey='p',RowKey='r')}: one entity by its keys (not a query). */
    static boolean isPointRead(String method, String rawPath) {
        if (rawPath.endsWith(")/")) {
            rawPath = rawPath.substring(0, rawPath.length() - 1);
        }
        return method.equals("GET") && rawPath.endsWith(")") && rawPath.contains("(PartitionKey=")
                && rawPath.contains(",RowKey=");
    }

    static void write(ChannelHandlerContext ctx, ApiResponse a, boolean keepAlive) {
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(a.status),
                Unpooled.wrappedBuffer(a.body));
        a.headers.forEach((k, v) -> resp.headers().set(k, v));
        resp.headers().set("x-ms-request-id", requestId().toString());
        if (!resp.headers().contains("x-ms-version")) {
            resp.headers().set("x-ms-version", ApiVersions.DEFAULT);
        }
        resp.headers().set("x-ms-request-charge", formatCharge(a.requestCharge));
        resp.headers().set(HttpHeaderNames.DATE, HttpDates.now());
        resp.headers().set(HttpHeaderNames.CONTENT_LENGTH, a.body.length);
        HttpUtil.setKeepAlive(resp, keepAlive);
        ctx.writeAndFlush(resp);
    }

    /**
     * A random (version 4) UUID naming the answer. It only has to be unique, not unguessable: ThreadLocalRandom
     * instead of {@link UUID#randomUUID()}'s SecureRandom, which serializes the request threads on one lock.
     */
    static UUID requestId() {
        java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
        long high = r.nextLong() & ~0xF000L | 0x4000L;               // version 4
        long low = r.nextLong() & ~(0xC000L << 48) | (0x8000L << 48); // IETF variant
        return new UUID(high, low);
    }

    /** Two decimals, rounded half up from the shortest decimal form, as {@code String.format("%.2f")} does. */
    static String formatCharge(double ru) {
        return BigDecimal.valueOf(ru).setScale(2, RoundingMode.HALF_UP).toPlainString();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection {} closed after an error", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }
}
