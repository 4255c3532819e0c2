package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tetradb.mongo.command.Limits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the byte stream into whole wire messages, each handed on as a heap {@link ByteBuf} over one array of exactly
 * the message's length, from which {@link RequestDecoder} decodes without another copy. mongo-frames (issue 17):
 * Netty's {@code LengthFieldBasedFrameDecoder} merged a 1 MB {@code insert} into a cumulation buffer it grew by
 * doubling (copying what it held each time: ≈ 2 MB of copies and pooled allocations of 128 KB–2 MB per message), and
 * the decoder then copied the frame once more. Here a message inside one read is copied straight out of it; a longer
 * one keeps the reads it arrives in as they are ({@link #pieces}) and is copied once into its array when its last byte
 * is there. Memory follows the bytes received, never the length a client declares: a read mostly filled is kept
 * (what it pins is at most twice its bytes), smaller bits are copied into a small heap piece.
 *
 * <p>A {@code messageLength} under the 16-byte header or over {@code maxMessageSizeBytes} closes the connection as soon
 * as the length is read, before any of the body (as mongod: "recv(): message msgLen … is invalid"); messages before it
 * in the stream go on first.
 */
public final class MessageFrames extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(MessageFrames.class);
    /** The wire header: messageLength, requestID, responseTo, opCode. */
    static final int HEADER_BYTES = 16;
    /** A read at least this long and at least half its buffer is kept as it is; less is copied. */
    static final int KEPT_READ_BYTES = 4096;
    /** The heap piece small bits of a message are copied into. */
    static final int COPY_PIECE_BYTES = 16 * 1024;

    private final int maxMessageBytes;
    /** The message under way's bytes so far, in order (none between messages); never a byte of the next message. */
    private final List<ByteBuf> pieces = new ArrayList<>();
    private int received;
    /** The message under way's declared length, or -1 while fewer than its 4 length bytes are here. */
    private int length = -1;
    private boolean closing;
    /** A message went on during this read batch (else, with auto-read off, more is asked for to finish one). */
    private boolean fired;

    public MessageFrames() {
        this(Limits.MAX_MESSAGE_BYTES);
    }

    MessageFrames(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            while (in.isReadable() && !closing) {
                if (received == 0 && in.readableBytes() >= 4) {
                    if (!valid(ctx, in.getIntLE(in.readerIndex()))) {
                        return;
                    }
                    length = in.getIntLE(in.readerIndex());
                    if (in.readableBytes() >= length) { // the usual small command: straight out of the read
                        byte[] message = new byte[length];
                        in.readBytes(message);
                        fire(ctx, message);
                        continue;
                    }
                }
                keep(in, Math.min(in.readableBytes(), (length < 0 ? 4 : length) - received));
                if (length < 0 && received >= 4) {
                    int declared = lengthBytes();
                    if (!valid(ctx, declared)) {
                        return;
                    }
                    length = declared;
                }
                if (received == length) {
                    fire(ctx, assembled());
                }
            }
        } finally {
            in.release();
        }
    }

    /** Takes {@code n} bytes of {@code in} into the message under way: kept as a slice when that pins little. */
    private void keep(ByteBuf in, int n) {
        if (n >= KEPT_READ_BYTES && 2L * n >= in.capacity()) {
            pieces.add(in.retainedSlice(in.readerIndex(), n));
            in.skipBytes(n);
        } else {
            ByteBuf last = pieces.isEmpty() ? null : pieces.get(pieces.size() - 1);
            if (last == null || last.writableBytes() < n) { // a kept slice is full: never written into
                last = Unpooled.buffer(Math.max(n, COPY_PIECE_BYTES), Math.max(n, COPY_PIECE_BYTES));
                pieces.add(last);
            }
            last.writeBytes(in, n);
        }
        received += n;
    }

    /** The first four bytes of the message under way: its declared length, little-endian. */
    private int lengthBytes() {
        int value = 0;
        int at = 0;
        for (ByteBuf p : pieces) {
            for (int i = p.readerIndex(); i < p.writerIndex() && at < 4; i++, at++) {
                value |= (p.getByte(i) & 0xFF) << (8 * at);
            }
        }
        return value;
    }

    /** The message under way, whole, as one array; the pieces are released. */
    private byte[] assembled() {
        byte[] message = new byte[length];
        int at = 0;
        for (ByteBuf p : pieces) {
            int n = p.readableBytes();
            p.getBytes(p.readerIndex(), message, at, n);
            at += n;
        }
        drop();
        return message;
    }

    private boolean valid(ChannelHandlerContext ctx, int declared) {
        if (declared >= HEADER_BYTES && declared <= maxMessageBytes) {
            return true;
        }
        LOG.debug("closing {}: message length {} is not between {} and {}", ctx.channel().remoteAddress(), declared,
                HEADER_BYTES, maxMessageBytes);
        closing = true;
        drop();
        ctx.close();
        return false;
    }

    private void fire(ChannelHandlerContext ctx, byte[] message) {
        received = 0;
        length = -1;
        fired = true;
        ctx.fireChannelRead(Unpooled.wrappedBuffer(message));
    }

    private void drop() {
        for (ByteBuf p : pieces) {
            p.release();
        }
        pieces.clear();
        received = 0;
        length = -1;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!fired && !ctx.channel().config().isAutoRead()) {
            ctx.read(); // as Netty's frame decoders: a message under way needs its next bytes
        }
        fired = false;
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        drop(); // a message cut off by the close is no request
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        drop();
    }
}
