package io.tetradb.server.gremlin.security;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gremlin error answers with a one-line {@code status.message} (a compiler report or an exception's text reduced to
 * its first line) and without the server's Java stack trace in the status attributes: what a client needs is what
 * went wrong, not the server's internals.
 */
@ChannelHandler.Sharable
public final class OneLineErrors extends ChannelOutboundHandlerAdapter {
    private static final int MAX_LENGTH = 1000;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof ResponseMessage response && !response.getStatus().getCode().isSuccess()) {
            msg = oneLine(response);
        }
        super.write(ctx, msg, promise);
    }

    private static ResponseMessage oneLine(ResponseMessage response) {
        Map<String, Object> attributes = new HashMap<>(response.getStatus().getAttributes());
        attributes.remove(Tokens.STATUS_ATTRIBUTE_STACK_TRACE);
        return ResponseMessage.build(response.getRequestId())
                .code(response.getStatus().getCode())
                .statusMessage(message(response.getStatus().getMessage(), attributes))
                .statusAttributes(attributes)
                .responseMetaData(response.getResult().getMeta())
                .result(response.getResult().getData())
                .create();
    }

    /** An exception without a message still says what it was (its class, from the status attributes). */
    private static String message(String message, Map<String, Object> attributes) {
        if ((message == null || message.isBlank())
                && attributes.get(Tokens.STATUS_ATTRIBUTE_EXCEPTIONS) instanceof List<?> exceptions
                && !exceptions.isEmpty()) {
            return String.valueOf(exceptions.get(0));
        }
        return message(message);
    }

    /**
     * One line: Groovy's "startup failed:" report becomes its first error and position
     * ({@code not allowed in a Gremlin script: java.io.File#<init>(java.lang.String) @ line 1, column 1.}).
     */
    public static String message(String message) {
        if (message == null || message.isBlank()) {
            return "error";
        }
        String[] lines = message.strip().split("\\R");
        String line = lines[0].strip();
        if (line.startsWith("startup failed:") && lines.length > 1) {
            line = lines[1].strip().replaceFirst("^Script\\w*\\.groovy: \\d+: ", "")
                    .replaceFirst("^\\[Static type checking] - ", "");
            if (lines.length > 2 && lines[2].strip().startsWith("@ line")) {
                line = line + " " + lines[2].strip();
            }
        }
        return line.length() > MAX_LENGTH ? line.substring(0, MAX_LENGTH) + "…" : line;
    }
}
