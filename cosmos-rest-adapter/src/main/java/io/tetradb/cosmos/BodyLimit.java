package io.tetradb.cosmos;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Aggregates a request into one message, refusing a body over the limit with Cosmos DB's 413 "Request size is too
 * large" JSON error. The connection stays open while the aggregator discards the rest of the body: closing it while
 * the client still sends made the kernel reset the connection, and clients then lost the 413 (seen under load).
 * A request already whole (nothing left to drop) or not keeping its connection alive is answered and closed.
 */
final class BodyLimit extends HttpObjectAggregator {
    BodyLimit(int maxBytes) {
        super(maxBytes);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        RestResponse a = RestResponse.error(413, 0, "RequestEntityTooLarge", "Request size is too large (the limit "
                + "is " + maxContentLength() + " bytes).");
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(413),
                Unpooled.wrappedBuffer(a.body));
        a.headers.forEach((k, v) -> r.headers().set(k, v));
        r.headers().set("x-ms-request-charge", "0");
        r.headers().set("x-ms-activity-id", java.util.UUID.randomUUID().toString());
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, a.body.length);
        boolean keep = !(oversized instanceof io.netty.handler.codec.http.FullHttpMessage)
                && io.netty.handler.codec.http.HttpUtil.isKeepAlive(oversized);
        if (keep) {
            ctx.writeAndFlush(r); // the aggregator drops the rest of this body, then reads the next request
        } else {
            r.headers().set(HttpHeaderNames.CONNECTION, "close");
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
