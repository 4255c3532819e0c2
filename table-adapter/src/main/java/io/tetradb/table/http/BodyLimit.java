package io.tetradb.table.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Aggregates a request into one message, refusing bodies over the limit with Azure's 413 {@code
 * RequestBodyTooLarge} answer as soon as the Content-Length shows it; the rest of such a body (up to 64 MiB) is read
 * away by {@link DrainAfterRefusal} before the connection closes, a larger or chunked one is cut off.
 */
final class BodyLimit extends HttpObjectAggregator {
    /** A refused body up to this size is read away before the connection closes; a larger one is cut off. */
    static final long MAX_DRAINED_BYTES = 64L * 1024 * 1024;

    BodyLimit(int maxBytes) {
        super(maxBytes);
    }

    /** Azure's 413 answer; the connection closes after it. */
    private static FullHttpResponse tooLarge() {
        ApiResponse a = Errors.of(413, "RequestBodyTooLarge", "The request body is too large and exceeds the "
                + "maximum permissible limit.", MetadataLevel.MINIMAL);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(413),
                Unpooled.wrappedBuffer(a.body));
        a.headers.forEach((k, v) -> r.headers().set(k, v));
        r.headers().set("x-ms-request-charge", "0.00");
        r.headers().set("x-ms-request-id", RequestHandler.requestId().toString());
        r.headers().set("x-ms-version", ApiVersions.DEFAULT);
        r.headers().set(HttpHeaderNames.DATE, HttpDates.now());
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, a.body.length);
        r.headers().set(HttpHeaderNames.CONNECTION, "close");
        return r;
    }

    /** {@code Expect: 100-continue} with a Content-Length over the limit: Azure's 413 instead of Netty's bare one. */
    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        if (HttpUtil.is100ContinueExpected(start) && HttpUtil.getContentLength(start, -1L) > maxContentLength) {
            return tooLarge();
        }
        return super.newContinueResponse(start, maxContentLength, pipeline);
    }

    @Override
    protected boolean closeAfterContinueResponse(Object msg) {
        return msg instanceof FullHttpResponse r && r.status().code() == 413; // the body is never sent
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        FullHttpResponse r = tooLarge();
        long declared = HttpUtil.getContentLength(oversized, -1L);
        if (declared >= 0 && declared <= MAX_DRAINED_BYTES) {
            // answer now, read the rest of the body away, then close (DrainAfterRefusal)
            ctx.channel().attr(DrainAfterRefusal.REFUSED).set(Boolean.TRUE);
            ctx.writeAndFlush(r);
        } else {
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE); // chunked, or too much to read away
        }
    }
}
