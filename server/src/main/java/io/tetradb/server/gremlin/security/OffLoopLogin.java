package io.tetradb.server.gremlin.security;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.apache.tinkerpop.gremlin.server.handler.StateKey;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.util.ArrayDeque;
import java.util.Base64;
import java.util.concurrent.RejectedExecutionException;

/**
 * Checks a connection's SASL PLAIN login on the authenticator's login threads instead of the Gremlin event loop.
 * A stored user's password is a PBKDF2 hash (15,000 iterations, tens of milliseconds on a loaded machine), and
 * Gremlin Server's authentication handler runs it on the one event loop every Gremlin connection shares: a flood of
 * wrong passwords on one connection stalled every other client's frames, pings and answers behind it.
 *
 * <p>Placed just ahead of Gremlin Server's authentication handler, one per connection. While a login is checked the
 * connection reads nothing more and what was already decoded waits here, so its messages keep their order; the
 * verdict then goes to the stock handler through {@link PrecheckedLogin}, which answers it as it always did. When the
 * login threads' queue is full the login is answered 429 at once (nothing hashed).
 */
public final class OffLoopLogin extends ChannelInboundHandlerAdapter {
    /** Gremlin Server's name for its authentication handler in the pipeline. */
    public static final String AUTHENTICATOR = "authenticator";
    private final GremlinAuthenticator authenticator;
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private boolean checking;

    public OffLoopLogin(GremlinAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (checking) {
            held.add(msg);
            return;
        }
        byte[] response = loginResponse(ctx, msg);
        if (response == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        checking = true;
        ctx.channel().config().setAutoRead(false);
        try {
            authenticator.logins().execute(() -> {
                PrecheckedLogin verdict = authenticator.precheck(response);
                ctx.executor().execute(() -> finish(ctx, msg, verdict));
            });
        } catch (RejectedExecutionException busy) {
            ctx.writeAndFlush(ResponseMessage.build((RequestMessage) msg).code(ResponseStatusCode.TOO_MANY_REQUESTS)
                    .statusMessage("too many logins in progress; retry").create());
            resume(ctx);
        }
    }

    private void finish(ChannelHandlerContext ctx, Object msg, PrecheckedLogin verdict) {
        verdict.handOver(() -> ctx.fireChannelRead(msg));
        resume(ctx);
    }

    /** Passes on what waited during the check (which may hold the next login), then reads again. */
    private void resume(ChannelHandlerContext ctx) {
        checking = false;
        while (!checking && !held.isEmpty()) {
            channelRead(ctx, held.poll());
        }
        if (!checking) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        held.clear();
        super.channelInactive(ctx);
    }

    /** The SASL response of a login the stock handler will check now, or null for anything else. */
    private static byte[] loginResponse(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof RequestMessage request) || !Tokens.OPS_AUTHENTICATION.equals(request.getOp())
                || !(request.getArgs().get(Tokens.ARGS_SASL) instanceof String sasl)
                || ctx.pipeline().get(AUTHENTICATOR) == null
                || ctx.channel().attr(StateKey.NEGOTIATOR).get() == null) {
            return null; // already logged in, not a login, or the first message (answered with a challenge)
        }
        try {
            return Base64.getDecoder().decode(sasl);
        } catch (IllegalArgumentException notBase64) {
            return null; // the stock handler refuses it as it always did, without hashing anything
        }
    }
}
