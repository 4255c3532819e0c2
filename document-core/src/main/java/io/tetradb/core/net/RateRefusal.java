package io.tetradb.core.net;

import io.netty.channel.ChannelHandlerContext;

/**
 * How a face answers a request over its connection's request rate, in the face's own convention (Mongo: an error
 * reply with code 462 IngressRequestRateLimitExceeded; Cosmos and Tables: HTTP 429 with their error body and
 * {@code x-ms-retry-after-ms}; Gremlin: status 429 TOO_MANY_REQUESTS). The request is not run; the caller releases it.
 */
@FunctionalInterface
public interface RateRefusal {
    /**
     * Answers {@code request} (the whole request the face's decoder emitted) with the refusal.
     *
     * @param retryAfterMillis when the connection's second is over and its requests are served again
     */
    void refuse(ChannelHandlerContext ctx, Object request, long retryAfterMillis);
}
