package io.tetradb.mongo.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;

import java.util.List;

/**
 * TLS and plain wire protocol on one port, as mongod's {@code net.tls.mode: allowTLS}: the first bytes of a
 * connection decide. A TLS connection starts with a handshake record ({@code 0x16}, major version 3, minor 0..4);
 * then a Netty {@code SslHandler} takes this handler's place, otherwise it just leaves.
 *
 * <p>Why not Netty's {@code OptionalSslHandler}: it takes any TLS record type (20..23) as TLS, and a wire message
 * starts with its little-endian length, so plain messages of 788..791 bytes would be read as TLS. Only a handshake
 * record can open a TLS connection; the one plain length left ambiguous (790 bytes + n·64 KiB, n ≤ 4, as the first
 * message) is the same ambiguity mongod accepts in allowTLS mode.
 */
public final class TlsOrPlainDetector extends ByteToMessageDecoder {
    private static final int HANDSHAKE = 0x16;

    private final SslContext context;

    public TlsOrPlainDetector(SslContext context) {
        this.context = context;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 3) {
            return;
        }
        int i = in.readerIndex();
        boolean tls = in.getUnsignedByte(i) == HANDSHAKE && in.getUnsignedByte(i + 1) == 3
                && in.getUnsignedByte(i + 2) <= 4;
        if (tls) {
            ctx.pipeline().replace(this, "tls", context.newHandler(ctx.alloc()));
        } else {
            ctx.pipeline().remove(this); // the buffered bytes go on to the frame decoder
        }
    }
}
