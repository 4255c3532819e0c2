package io.tetradb.server.gremlin.security;

import io.netty.channel.ChannelHandlerContext;
import io.tetradb.core.net.RateRefusal;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

/**
 * The Gremlin face's answer to a request over its connection's rate ({@code --max-requests-per-second}): status 429
 * {@code TOO_MANY_REQUESTS}, which Gremlin Server answers when its work queue is full, with the wait in the status
 * attribute {@code x-ms-retry-after-ms} as the face's throughput 429 carries it. The request is not run.
 */
public final class RateLimitResponse implements RateRefusal {
    public static final RateLimitResponse INSTANCE = new RateLimitResponse();

    private RateLimitResponse() {
    }

    @Override
    public void refuse(ChannelHandlerContext ctx, Object request, long retryAfterMillis) {
        if (!(request instanceof RequestMessage msg)) {
            return;
        }
        ctx.writeAndFlush(ResponseMessage.build(msg).code(ResponseStatusCode.TOO_MANY_REQUESTS)
                .statusMessage("Rate limiting - this connection is over its requests per second "
                        + "(--max-requests-per-second); retry after " + retryAfterMillis + " ms")
                .statusAttribute("x-ms-retry-after-ms", Long.toString(retryAfterMillis)).create());
    }
}
