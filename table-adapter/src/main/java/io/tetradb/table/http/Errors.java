package io.tetradb.table.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.table.model.TableException;

import java.time.Instant;
import java.util.UUID;

/** The Tables error answer: the status, {@code x-ms-error-code}, and the {@code odata.error} JSON body. */
final class Errors {
    private Errors() {
    }

    static ApiResponse of(TableException e, MetadataLevel level) {
        return of(e.status(), e.errorCode(), e.getMessage(), level);
    }

    static ApiResponse of(int status, String code, String message, MetadataLevel level) {
        return new ApiResponse(status).header("x-ms-error-code", code)
                .json(TableApi.bytes(body(code, message)), level.contentType).charge(0);
    }

    static ObjectNode body(String code, String message) {
        ObjectNode o = EntityJson.M.createObjectNode();
        ObjectNode error = o.putObject("odata.error");
        error.put("code", code);
        ObjectNode m = error.putObject("message");
        m.put("lang", "en-US");
        m.put("value", message + "\nRequestId:" + UUID.randomUUID() + "\nTime:" + Instant.now());
        return o;
    }
}
