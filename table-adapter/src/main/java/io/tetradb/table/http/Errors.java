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

    /**
     * The error answer of the operations that speak XML (Get/Set Table ACL): the Table service's OData XML error,
     * {@code <error xmlns="…/dataservices/metadata"><code/><message xml:lang="en-US"/></error>}.
     */
    static ApiResponse ofXml(TableException e) {
        String message = e.getMessage() + "\nRequestId:" + UUID.randomUUID() + "\nTime:" + Instant.now();
        String xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><error xmlns=\"http://schemas.microsoft.com/ado/2007/"
                + "08/dataservices/metadata\"><code>" + escape(e.errorCode()) + "</code><message xml:lang=\"en-US\">"
                + escape(message) + "</message></error>";
        return new ApiResponse(e.status()).header("x-ms-error-code", e.errorCode())
                .json(xml.getBytes(java.nio.charset.StandardCharsets.UTF_8), "application/xml").charge(0);
    }

    private static String escape(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
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
