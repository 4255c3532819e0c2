package io.tetradb.table.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;

/**
 * After {@link BodyLimit} refused a body with 413, reads and drops the rest of it, then closes the connection: a
 * client that sends its whole body before it reads (most do) then gets the 413 rather than a reset connection.
 */
final class DrainAfterRefusal extends ChannelInboundHandlerAdapter {
    /** Set on a channel whose current request body was refused. */
    static final AttributeKey<Boolean> REFUSED = AttributeKey.valueOf("tables.bodyRefused");

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpContent && Boolean.TRUE.equals(ctx.channel().attr(REFUSED).get())) {
            boolean last = msg instanceof LastHttpContent;
            ReferenceCountUtil.release(msg);
            if (last) {
                ctx.close();
            }
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
