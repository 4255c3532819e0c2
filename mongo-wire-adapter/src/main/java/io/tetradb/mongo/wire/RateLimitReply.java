package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.tetradb.core.net.RateRefusal;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.Replies;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Mongo face's answer to a request over its connection's rate ({@code --max-requests-per-second}): what mongod's
 * ingress request rate limiter (MongoDB 8.0) answers, error 462 {@code IngressRequestRateLimitExceeded} with the
 * labels {@code SystemOverloadedError} and {@code RetryableError}. The request is not run. A fire-and-forget
 * message ({@code moreToCome}) gets no answer, as none is read.
 */
public final class RateLimitReply implements RateRefusal {
    public static final RateLimitReply INSTANCE = new RateLimitReply();
    private static final int MORE_TO_COME = 1 << 1;
    private static final AtomicInteger RESPONSE_IDS = new AtomicInteger(Integer.MIN_VALUE / 2);

    private RateLimitReply() {
    }

    @Override
    public void refuse(ChannelHandlerContext ctx, Object request, long retryAfterMillis) {
        if (!(request instanceof ByteBuf frame) || frame.readableBytes() < 16) {
            return;
        }
        int start = frame.readerIndex();
        int requestId = frame.getIntLE(start + 4);
        int opCode = frame.getIntLE(start + 12);
        if (opCode == OpCode.OP_MSG && frame.readableBytes() >= 20 && (frame.getIntLE(start + 16) & MORE_TO_COME) != 0) {
            return;
        }
        BsonDocument error = Replies.error(ErrorCode.INGRESS_REQUEST_RATE_LIMIT_EXCEEDED,
                "this connection is over its rate of requests per second (--max-requests-per-second); retry in "
                        + retryAfterMillis + " ms", null);
        error.append("errorLabels", new BsonArray(java.util.List.of(new BsonString("SystemOverloadedError"),
                new BsonString("RetryableError"))));
        int responseId = RESPONSE_IDS.incrementAndGet();
        if (opCode == OpCode.OP_QUERY) {
            BsonDocument legacy = new BsonDocument("$err", error.get("errmsg")).append("code", error.get("code"))
                    .append("ok", error.get("ok"));
            ctx.writeAndFlush(ReplyEncoder.opReply(ctx.alloc(), responseId, requestId, legacy, true));
        } else {
            ctx.writeAndFlush(ReplyEncoder.opMsg(ctx.alloc(), responseId, requestId, error));
        }
    }
}
