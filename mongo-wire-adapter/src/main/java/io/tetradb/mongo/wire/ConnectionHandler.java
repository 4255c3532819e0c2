package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.tetradb.mongo.command.CommandDispatcher;
import io.tetradb.mongo.command.ConnectionState;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.Replies;
import org.bson.BsonDocument;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One client connection: decodes each frame on the I/O thread, runs its command on the command pool (one at a time
 * per connection, in order; a point read or handshake command with nothing queued before it runs right there, see
 * {@link InlineCommands}), writes the reply (OP_MSG, or OP_REPLY for the
 * OP_QUERY handshake). A frame that breaks the protocol closes this connection only.
 */
public final class ConnectionHandler extends SimpleChannelInboundHandler<ByteBuf> {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);
    private static final AtomicInteger RESPONSE_IDS = new AtomicInteger();

    private final CommandDispatcher dispatcher;
    private final int connectionId;
    /** Where commands run: store calls block (fsync), so never on the I/O thread. */
    private final Executor commands;
    /** The last command of this connection: the next one runs after it, so replies keep the request order. */
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
    /** Commands queued or running; past a bound the connection stops reading (a pipelining client waits). */
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
    private static final int MAX_PENDING = 16;
    private ConnectionState state;

    public ConnectionHandler(CommandDispatcher dispatcher, int connectionId, Executor commands) {
        this.dispatcher = dispatcher;
        this.connectionId = connectionId;
        this.commands = commands;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        String remote = ctx.channel().remoteAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress() + ":" + a.getPort() : String.valueOf(ctx.channel().remoteAddress());
        String local = ctx.channel().localAddress() instanceof InetSocketAddress a
                ? hostPort(a) : null;
        boolean loopbackPeer = ctx.channel().remoteAddress() instanceof InetSocketAddress a
                && a.getAddress() != null && a.getAddress().isLoopbackAddress();
        state = new ConnectionState(connectionId, remote, local, loopbackPeer);
        dispatcher.connectionOpened(state);
        ctx.fireChannelActive();
    }

    /** {@code host:port} with IPv6 addresses bracketed, as drivers write server addresses. */
    private static String hostPort(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (state != null) {
            dispatcher.connectionClosed(state);
        }
        ctx.fireChannelInactive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        Request request;
        try {
            request = RequestDecoder.decode(frame);
        } catch (ProtocolException e) {
            if (e.code() == null || frame.readableBytes() < 16) {
                LOG.debug("closing connection {}: {}", connectionId, e.getMessage());
                ctx.close();
            } else {
                answerUnparsable(ctx, frame, e);
            }
            return;
        } catch (RuntimeException e) {
            LOG.debug("closing connection {}: {}", connectionId, e.getMessage());
            ctx.close();
            return;
        }
        int responseId = RESPONSE_IDS.incrementAndGet();
        if (request.command() == null) {
            // legacy opcodes removed in MongoDB 6.0 (and OP_QUERY outside $cmd): a clear error, the connection stays
            BsonDocument error = Replies.error(ErrorCode.UNSUPPORTED_OP_QUERY_COMMAND, OpCode.name(request.opCode())
                    + " is not supported; use OP_MSG (MongoDB 3.6+ drivers do)", null);
            if (request.opCode() == OpCode.OP_QUERY || request.opCode() == OpCode.OP_GET_MORE) {
                BsonDocument legacy = new BsonDocument("$err", error.get("errmsg")).append("code", error.get("code"))
                        .append("ok", error.get("ok"));
                ctx.writeAndFlush(ReplyEncoder.opReply(ctx.alloc(), responseId, request.requestId(), legacy, true));
            } else {
                ctx.writeAndFlush(ReplyEncoder.opMsg(ctx.alloc(), responseId, request.requestId(), error));
            }
            return;
        }
        Request r = request;
        long holdHello = dispatcher.holdMillis(r.command());
        if (holdHello > 0 && pending.get() == 0 && tail.isDone()) {
            // a driver's monitor: answer when maxAwaitTimeMS has passed, without holding a thread meanwhile
            CompletableFuture<Void> answered = new CompletableFuture<>();
            tail = answered;
            ctx.executor().schedule(() -> {
                try {
                    reply(ctx, r, responseId);
                } finally {
                    answered.complete(null);
                }
            }, holdHello, java.util.concurrent.TimeUnit.MILLISECONDS);
            return;
        }
        if (pending.get() == 0 && tail.isDone()
                && InlineCommands.isQuick(r.command(), r.database(), dispatcher::collectionOpen)) {
            // nothing queued before it on this connection, so answering now keeps the reply order
            reply(ctx, r, responseId);
            return;
        }
        if (pending.incrementAndGet() >= MAX_PENDING) {
            ctx.channel().config().setAutoRead(false);
        }
        tail = tail.thenRunAsync(() -> {
            if (pending.decrementAndGet() == MAX_PENDING / 2) {
                ctx.channel().config().setAutoRead(true);
            }
            reply(ctx, r, responseId);
        }, commands).exceptionally(failure -> {
            LOG.warn("connection {}: command failed outside the dispatcher", connectionId, failure);
            ctx.close();
            return null;
        });
    }

    /** A whole frame whose content does not parse: mongod answers it with the error and keeps the connection. */
    private void answerUnparsable(ChannelHandlerContext ctx, ByteBuf frame, ProtocolException e) {
        int requestId = frame.getIntLE(frame.readerIndex() + 4);
        int opCode = frame.getIntLE(frame.readerIndex() + 12);
        BsonDocument error = Replies.error(e.code(), e.getMessage(), null);
        int responseId = RESPONSE_IDS.incrementAndGet();
        Runnable answer = () -> {
            if (!ctx.channel().isActive()) {
                return;
            }
            if (opCode == OpCode.OP_QUERY) {
                BsonDocument legacy = new BsonDocument("$err", error.get("errmsg")).append("code", error.get("code"))
                        .append("ok", error.get("ok"));
                ctx.writeAndFlush(ReplyEncoder.opReply(ctx.alloc(), responseId, requestId, legacy, true));
            } else {
                ctx.writeAndFlush(ReplyEncoder.opMsg(ctx.alloc(), responseId, requestId, error));
            }
        };
        if (pending.get() == 0 && tail.isDone()) {
            answer.run();
        } else {
            tail = tail.thenRunAsync(answer, commands); // after the replies already due on this connection
        }
    }

    private void reply(ChannelHandlerContext ctx, Request r, int responseId) {
        BsonDocument reply = dispatcher.run(state, r.database(), r.command());
        if (r.moreToCome() || !ctx.channel().isActive()) {
            return;
        }
        if (r.legacyQuery()) {
            ctx.writeAndFlush(ReplyEncoder.opReply(ctx.alloc(), responseId, r.requestId(), reply, false));
        } else {
            ctx.writeAndFlush(ReplyEncoder.opMsg(ctx.alloc(), responseId, r.requestId(), reply));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // oversized or corrupt frame lengths, resets: this connection ends, the server goes on
        LOG.debug("connection {} failed: {}", connectionId, cause.toString());
        ctx.close();
    }
}
