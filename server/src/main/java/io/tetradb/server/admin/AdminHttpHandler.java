package io.tetradb.server.admin;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/** Turns each aggregated request into exactly one response; nothing a request does can kill the server. */
@Sharable
final class AdminHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger log = LoggerFactory.getLogger(AdminHttpHandler.class);

    private final AdminRoutes routes;

    AdminHttpHandler(AdminRoutes routes) {
        this.routes = routes;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        FullHttpResponse response;
        if (request.decoderResult().isFailure()) {
            // the connection's framing can no longer be trusted
            keepAlive = false;
            response = HttpResponses.error(HttpResponseStatus.BAD_REQUEST, "BadRequest", "malformed HTTP request");
        } else {
            response = routes.handle(request);
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        var written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            ctx.close();
        } else {
            super.userEventTriggered(ctx, event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // only transport trouble gets here (routes catch their own failures): drop this connection, keep serving
        if (cause instanceof IOException) {
            log.debug("admin connection {} failed", ctx.channel().remoteAddress(), cause);
        } else {
            log.warn("admin connection {} failed", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }
}
