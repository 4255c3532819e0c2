package io.tetradb.table.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.tetradb.core.net.RateRefusal;

/**
 * The Tables face's answer to a request over its connection's rate ({@code --max-requests-per-second}): 429
 * {@code TooManyRequests} with the {@code odata.error} body and {@code x-ms-retry-after-ms}, as the face answers a
 * table over its provisioned throughput (Cosmos DB's Table API), which the Azure SDKs' retry policies wait for.
 * The request is not run.
 */
final class RateLimitAnswer implements RateRefusal {
    static final RateLimitAnswer INSTANCE = new RateLimitAnswer();

    private RateLimitAnswer() {
    }

    @Override
    public void refuse(ChannelHandlerContext ctx, Object request, long retryAfterMillis) {
        boolean keepAlive = !(request instanceof HttpRequest r) || HttpUtil.isKeepAlive(r);
        ApiResponse answer = Errors.of(429, "TooManyRequests", "This connection is over its requests per second "
                + "(--max-requests-per-second). Retry after " + retryAfterMillis + " ms.", MetadataLevel.MINIMAL)
                .header("x-ms-retry-after-ms", Long.toString(retryAfterMillis));
        if (request instanceof HttpRequest r && r.headers().contains("x-ms-client-request-id")) {
            answer.header("x-ms-client-request-id", r.headers().get("x-ms-client-request-id"));
        }
        RequestHandler.write(ctx, answer, keepAlive);
    }
}
