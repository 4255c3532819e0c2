package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

/** One answer: status, headers, body and its request charge (RU). */
final class RestResponse {
    private static final byte[] EMPTY = new byte[0];
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    byte[] body;
    double requestCharge;

    RestResponse(int status, byte[] body, double requestCharge) {
        this.status = status;
        this.body = body == null ? EMPTY : body;
        this.requestCharge = requestCharge;
        if (this.body.length > 0) {
            headers.put("Content-Type", "application/json");
        }
    }

    static RestResponse json(int status, JsonNode body, double charge) {
        return new RestResponse(status, Json.bytes(body), charge);
    }

    static RestResponse empty(int status, double charge) {
        return new RestResponse(status, EMPTY, charge);
    }

    RestResponse header(String name, String value) {
        if (value != null) {
            headers.put(name, value);
        }
        return this;
    }

    /** The JSON error body every SDK parses: {@code {"code", "message"}}, with the sub-status header. */
    static RestResponse error(int status, int subStatus, String code, String message) {
        var body = Json.object().put("code", code).put("message", message == null ? code : message);
        RestResponse r = json(status, body, 0);
        r.header("x-ms-substatus", Integer.toString(subStatus));
        return r;
    }

    static RestResponse error(CosmosError e) {
        return error(e.status, e.subStatus, e.code, e.getMessage());
    }
}
