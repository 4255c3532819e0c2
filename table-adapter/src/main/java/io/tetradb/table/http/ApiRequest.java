package io.tetradb.table.http;

import io.netty.handler.codec.http.HttpHeaders;

import java.util.List;
import java.util.Map;

/**
 * One REST request, independent of Netty's objects so that the operations of a {@code $batch} run through the same
 * code: the method (after {@code X-HTTP-Method} tunnelling), the raw (still percent-encoded) path, the query
 * parameters (decoded), the headers and the body.
 */
record ApiRequest(String method, String verb, String rawPath, Map<String, List<String>> query, HttpHeaders headers, byte[] body) {

    String param(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    String header(String name) {
        return headers.get(name);
    }
}
