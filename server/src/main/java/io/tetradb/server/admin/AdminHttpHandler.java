package io.tetradb.server.admin;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One per connection. Routes run on {@code workers}, not on the IO thread, because they scan RocksDB; they are
 * chained per connection so that pipelined requests are answered in order. Nothing a request does can kill the
 * server: routes turn failures into 500s, transport errors close only their connection.
 */
final class AdminHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger log = LoggerFactory.getLogger(AdminHttpHandler.class);

    private final AdminRoutes routes;
    private final Executor workers;
    /** The last request's work on this connection; only touched on the channel's IO thread. */
    private CompletableFuture<Void> previous = CompletableFuture.completedFuture(null);

    private final AdminAccess access;

    AdminHttpHandler(AdminRoutes routes, Executor workers, AdminAccess access) {
        this.routes = routes;
        this.workers = workers;
        this.access = access;
    }

    /** 401 with a basic-auth challenge: the admin routes need the Cosmos master key beyond loopback. */
    static FullHttpResponse unauthorized() {
        FullHttpResponse r = HttpResponses.error(HttpResponseStatus.UNAUTHORIZED, "Unauthorized",
                "the admin routes need the Cosmos master key (HTTP basic auth with the key as the password, or a "
                        + "Cosmos master-key Authorization header)");
        r.headers().set(io.netty.handler.codec.http.HttpHeaderNames.WWW_AUTHENTICATE, AdminAccess.REALM);
        return r;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        // copy what the route needs: the request's buffer is released when this method returns
        HttpMethod method = request.method();
        String uri = request.uri();
        boolean malformed = request.decoderResult().isFailure();
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !malformed; // a malformed request ends the connection
        boolean allowed = access.allows(method.name(), name -> request.headers().get(name));
        previous = previous.thenRunAsync(() -> respond(ctx, method, uri, malformed, keepAlive, allowed), workers)
                .exceptionally(e -> {
                    // only when the workers are shut down (the server is stopping): drop the connection
                    ctx.close();
                    return null;
                });
    }

    private void respond(ChannelHandlerContext ctx, HttpMethod method, String uri, boolean malformed,
                         boolean keepAlive, boolean allowed) {
        FullHttpResponse response = malformed
                ? HttpResponses.error(HttpResponseStatus.BAD_REQUEST, "BadRequest", "malformed HTTP request")
                : !allowed ? unauthorized() : routes.handle(method, uri);
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
        // transport trouble only (routes catch their own failures): drop this connection, keep serving the others
        if (cause instanceof IOException) {
            log.debug("admin connection {} failed", ctx.channel().remoteAddress(), cause);
        } else {
            log.warn("admin connection {} failed", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }
}
