package io.tetradb.cosmos;

import java.util.Map;

/**
 * An extra route the embedding server mounts on the Cosmos port (health, admin pages). It is served without Cosmos
 * authentication, on a request worker thread (it may block); a thrown exception becomes a JSON 500.
 */
@FunctionalInterface
public interface CosmosRoute {
    Response handle(Request request) throws Exception;

    /** The request as received: method, decoded path, raw query string (may be empty), headers, body. */
    record Request(String method, String path, String query, Map<String, String> headers, byte[] body) {
    }

    /** The answer: status, content type and body, plus any other headers. */
    record Response(int status, String contentType, byte[] body, Map<String, String> headers) {
        public Response(int status, String contentType, byte[] body) {
            this(status, contentType, body, Map.of());
        }
    }
}
