package io.tetradb.cosmos;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.tetradb.core.net.RateRefusal;

/**
 * The REST face's answer to a request over its connection's rate ({@code --max-requests-per-second}): what Cosmos DB
 * answers a request over its rate, 429 {@code TooManyRequests} / sub-status 3200 with {@code x-ms-retry-after-ms},
 * which the SDKs' throttling retry policies wait for. The request is not run.
 */
final class RateLimitAnswer implements RateRefusal {
    static final RateLimitAnswer INSTANCE = new RateLimitAnswer();

    private RateLimitAnswer() {
    }

    @Override
    public void refuse(ChannelHandlerContext ctx, Object request, long retryAfterMillis) {
        boolean keepAlive = !(request instanceof HttpRequest r) || HttpUtil.isKeepAlive(r);
        HttpHandler.write(ctx, RestResponse.error(429, 3200, "TooManyRequests",
                        "Message: {\"Errors\":[\"Request rate is large: this connection is over its requests per "
                                + "second (--max-requests-per-second). Retry after " + retryAfterMillis + " ms\"]}")
                .header("x-ms-retry-after-ms", Long.toString(retryAfterMillis)), keepAlive);
    }
}
