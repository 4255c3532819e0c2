package io.tetradb.cosmos;

import io.netty.handler.codec.http.HttpHeaders;

import java.util.List;

/**
 * One Cosmos REST request: upper-case method, the path's segments percent-decoded (empty segments and trailing
 * slashes dropped, as the SDKs' {@code //addresses} and the Python SDK's trailing slash need), headers and body.
 */
record RestRequest(String method, List<String> segments, HttpHeaders headers, byte[] body, boolean secure) {

    String header(String name) {
        String v = headers.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    boolean flag(String name) {
        String v = header(name);
        return v != null && v.trim().equalsIgnoreCase("true");
    }

    int size() {
        return segments.size();
    }

    String segment(int i) {
        return segments.get(i);
    }
}
