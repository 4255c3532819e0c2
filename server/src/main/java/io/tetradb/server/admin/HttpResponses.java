package io.tetradb.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Builds complete admin responses (always with Content-Length, which keep-alive needs). */
final class HttpResponses {
    static final ObjectMapper JSON = new ObjectMapper();

    private HttpResponses() {
    }

    static FullHttpResponse json(HttpResponseStatus status, Object body) {
        try {
            return response(status, HttpHeaderValues.APPLICATION_JSON.toString(), JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Error bodies look like Cosmos DB's: {@code {"code":"NotFound","message":"..."}}. */
    static FullHttpResponse error(HttpResponseStatus status, String code, String message) {
        return json(status, new ErrorBody(code, message));
    }

    record ErrorBody(String code, String message) {
    }

    static FullHttpResponse text(String contentType, String text) {
        return response(HttpResponseStatus.OK, contentType, text.getBytes(StandardCharsets.UTF_8));
    }

    static FullHttpResponse html(String page) {
        return response(HttpResponseStatus.OK, "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8));
    }

    private static FullHttpResponse response(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        r.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                // statistics change with every write; a cached copy would mislead
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE)
                .set("x-content-type-options", "nosniff");
        return r;
    }
}
