package io.tetradb.server.gremlin.security;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a Gremlin connection: an error no handler took (a WebSocket frame that breaks RFC 6455, which
 * Netty's decoder has already answered with a close frame; a reset) closes that connection and is logged at debug.
 * Without it Netty logged a warning with a stack trace for each, so a client sending bad frames filled the log.
 */
@ChannelHandler.Sharable
public final class QuietConnectionErrors extends ChannelInboundHandlerAdapter {
    public static final QuietConnectionErrors INSTANCE = new QuietConnectionErrors();
    private static final Logger LOG = LoggerFactory.getLogger(QuietConnectionErrors.class);

    private QuietConnectionErrors() {
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing Gremlin connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
