package io.tetradb.table.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** One REST answer: status, headers (besides the ones every answer gets) and body. */
final class ApiResponse {
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    byte[] body = new byte[0];
    double requestCharge;

    ApiResponse(int status) {
        this.status = status;
    }

    ApiResponse header(String name, String value) {
        if (value != null) {
            headers.put(name, value);
        }
        return this;
    }

    ApiResponse json(byte[] json, String contentType) {
        this.body = json;
        headers.put("Content-Type", contentType);
        return this;
    }

    ApiResponse charge(double ru) {
        this.requestCharge = ru;
        return this;
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
