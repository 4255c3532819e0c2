package io.tetradb.server.gremlin.security;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import org.apache.tinkerpop.gremlin.server.handler.StateKey;
import org.apache.tinkerpop.gremlin.util.MessageSerializer;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.MessageTextSerializer;
import org.apache.tinkerpop.gremlin.util.ser.SerTokens;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Gremlin Server's WebSocket request decoders, answering every frame: one that cannot be read (empty, a mime type
 * longer than the frame, a GraphBinary length the frame cannot hold, broken JSON) gets 498 MALFORMED_REQUEST with
 * the request id when the frame shows one. The stock decoders let such failures escape into Netty, and the client
 * waits forever.
 */
public final class SafeRequestDecoders {
    /** GraphBinary v1's request: version byte 0x81, then the request id as 16 bytes. */
    private static final byte GRAPHBINARY_V1 = (byte) 0x81;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SafeRequestDecoders() {
    }

    /** Binary frames: {@code <mime length><mime type><request>}. */
    @ChannelHandler.Sharable
    public static final class Binary extends MessageToMessageDecoder<BinaryWebSocketFrame> {
        private final Map<String, MessageSerializer<?>> serializers;

        /** {@code serializers} by mime type: GraphBinary v1 is the default, as in Gremlin Server. */
        public Binary(Map<String, MessageSerializer<?>> serializers) {
            this.serializers = serializers;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, BinaryWebSocketFrame frame, List<Object> out) {
            ByteBuf bytes = frame.content();
            MessageSerializer<?> serializer = serializers.get(SerTokens.MIME_GRAPHBINARY_V1);
            UUID requestId = null;
            try {
                int length = bytes.isReadable() ? bytes.readByte() : 0;
                if (length <= 0 || length > bytes.readableBytes()) {
                    throw new IllegalArgumentException("a binary request starts with its mime type");
                }
                String mimeType = bytes.readCharSequence(length, StandardCharsets.UTF_8).toString();
                serializer = serializers.getOrDefault(mimeType, serializer);
                if (mimeType.contains("json")) {
                    String json = bytes.toString(bytes.readerIndex(), bytes.readableBytes(), StandardCharsets.UTF_8);
                    requestId = jsonRequestId(json);
                    refuseDeepNesting(json);
                } else {
                    requestId = graphBinaryRequestId(bytes);
                }
                use(ctx, serializer, true);
                out.add(serializer.deserializeRequest(bytes.discardReadBytes()));
            } catch (Exception | OutOfMemoryError | StackOverflowError e) {
                use(ctx, serializer, true);
                malformed(ctx, requestId, e);
            }
        }
    }

    /** Text frames: GraphSON (application/json). */
    @ChannelHandler.Sharable
    public static final class Text extends MessageToMessageDecoder<TextWebSocketFrame> {
        private final Map<String, MessageSerializer<?>> serializers;

        /** {@code serializers} by mime type: text frames are read by the one for application/json. */
        public Text(Map<String, MessageSerializer<?>> serializers) {
            this.serializers = serializers;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, TextWebSocketFrame frame, List<Object> out) {
            MessageSerializer<?> serializer = serializers.get(SerTokens.MIME_JSON);
            String text = frame.text();
            use(ctx, serializer, false);
            try {
                refuseDeepNesting(text);
                out.add(((MessageTextSerializer<?>) serializer).deserializeRequest(text));
            } catch (Exception | OutOfMemoryError | StackOverflowError e) {
                malformed(ctx, jsonRequestId(text), e);
            }
        }
    }

    private static void use(ChannelHandlerContext ctx, MessageSerializer<?> serializer, boolean binary) {
        // per request, as the stock decoders do: the next frame may use another serializer
        ctx.channel().attr(StateKey.SESSION).set(null);
        ctx.channel().attr(StateKey.SERIALIZER).set(serializer);
        ctx.channel().attr(StateKey.USE_BINARY).set(binary);
    }

    private static void malformed(ChannelHandlerContext ctx, UUID requestId, Throwable e) {
        String reason = e.getMessage() != null ? OneLineErrors.message(e.getMessage()) : e.getClass().getSimpleName();
        ctx.writeAndFlush(ResponseMessage.build(requestId).code(ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST)
                .statusMessage("malformed request: " + reason).create());
    }

    private static UUID graphBinaryRequestId(ByteBuf bytes) {
        int at = bytes.readerIndex();
        if (bytes.readableBytes() >= 17 && bytes.getByte(at) == GRAPHBINARY_V1) {
            return new UUID(bytes.getLong(at + 1), bytes.getLong(at + 9));
        }
        return null;
    }

    private static void refuseDeepNesting(String json) {
        if (JsonNesting.tooDeep(json)) {
            throw new IllegalArgumentException("the request nests objects or arrays deeper than "
                    + JsonNesting.MAX_DEPTH + " levels");
        }
    }

    /**
     * The top-level {@code requestId} (a string, or GraphSON's {@code {"@type": "g:UUID", "@value": …}}), read with
     * the streaming parser: other fields are skipped, not built into trees (a malformed frame may nest them 10,000
     * deep).
     */
    private static UUID jsonRequestId(String text) {
        try (JsonParser p = JSON.getFactory().createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.getCurrentName();
                JsonToken value = p.nextToken();
                if (!field.equals("requestId")) {
                    p.skipChildren();
                } else if (value == JsonToken.VALUE_STRING) {
                    return UUID.fromString(p.getText());
                } else if (value == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String inner = p.getCurrentName();
                        if (p.nextToken() == JsonToken.VALUE_STRING && inner.equals("@value")) {
                            return UUID.fromString(p.getText());
                        }
                        p.skipChildren();
                    }
                    return null;
                } else {
                    return null;
                }
            }
            return null;
        } catch (Exception e) {
            return null;
        }
    }
}
