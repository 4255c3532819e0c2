package io.tetradb.table.http;

import io.netty.handler.codec.http.HttpHeaders;

import java.util.List;
import java.util.Map;

/**
 * One REST request, independent of Netty's objects so that the operations of a {@code $batch} run through the same
 * code: the method (after {@code X-HTTP-Method} tunnelling), the raw (still percent-encoded) path, the query
 * parameters (decoded), the headers and the body; {@code https} when it came over TLS (a SAS's {@code spr}).
 */
record ApiRequest(String method, String verb, String rawPath, Map<String, List<String>> query, HttpHeaders headers, byte[] body,
                  boolean https) {

    ApiRequest(String method, String verb, String rawPath, Map<String, List<String>> query, HttpHeaders headers,
               byte[] body) {
        this(method, verb, rawPath, query, headers, body, false);
    }

    String param(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    String header(String name) {
        return headers.get(name);
    }
}
