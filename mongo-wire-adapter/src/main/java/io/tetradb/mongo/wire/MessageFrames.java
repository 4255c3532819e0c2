package io.tetradb.mongo.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;

import java.util.List;

/**
 * Cuts the connection's bytes into whole wire messages, each passed on as a heap buffer over its own array (the one
 * copy {@link RequestDecoder} decodes from and an insert's documents are views of). mongo-find (issue 17): replaces
 * Netty's {@code LengthFieldBasedFrameDecoder}, whose frame was a retained slice of the read buffer (a pooled derived
 * buffer, leak-tracked, released per request) read through a swapped-order view and then copied again by the decoder;
 * here the message's bytes are copied out of the read buffer once, straight into the array that is decoded.
 * <p>A message longer than one read is gathered as a composite of its reads (mongo-frames: no buffer grown by
 * doubling for a 1 MB {@code insert}). A declared length over {@code maxBytes} (mongod's {@code maxMessageSizeBytes})
 * or below the 16-byte header fails the connection as soon as the length is read, before anything is allocated for it;
 * the connection's handler closes it, and nothing more is read from it.
 */
public final class MessageFrames extends ByteToMessageDecoder {
    /** The standard message header: length, requestID, responseTo, opCode. */
    static final int HEADER_BYTES = 16;
    private final int maxBytes;
    private boolean failed;

    public MessageFrames(int maxBytes) {
        this.maxBytes = maxBytes;
        setCumulator(COMPOSITE_CUMULATOR);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < 4) {
            return;
        }
        int length = in.getIntLE(in.readerIndex());
        if (length < HEADER_BYTES || length > maxBytes) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw length < HEADER_BYTES
                    ? new CorruptedFrameException("message length " + length + " is shorter than its header")
                    : new TooLongFrameException("message length " + length + " exceeds " + maxBytes);
        }
        if (in.readableBytes() < length) {
            return;
        }
        byte[] message = new byte[length];
        in.readBytes(message);
        out.add(Unpooled.wrappedBuffer(message));
    }
}
