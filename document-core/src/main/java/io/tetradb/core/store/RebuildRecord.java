package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Base64;

/**
 * The META record of an unfinished index rebuild ({@code 07 · collId}): the container's name (to resume it at open),
 * the policy the not-yet-converted items follow, the cursor (last converted DOCS key, null before the first chunk)
 * and how many items were converted (for the progress). The new policy is the container definition's.
 */
record RebuildRecord(String database, String container, JsonNode previousPolicy, byte[] cursor, long converted) {
    private static final ObjectMapper JSON = new ObjectMapper();

    byte[] encode() {
        ObjectNode n = JSON.createObjectNode().put("database", database).put("container", container);
        n.set("previousPolicy", previousPolicy == null ? JSON.nullNode() : previousPolicy);
        n.put("cursor", cursor == null ? null : Base64.getEncoder().encodeToString(cursor));
        n.put("converted", converted);
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static RebuildRecord decode(byte[] v) {
        try {
            JsonNode n = JSON.readTree(v);
            JsonNode policy = n.get("previousPolicy");
            String cursor = n.path("cursor").isTextual() ? n.get("cursor").asText() : null;
            return new RebuildRecord(n.path("database").asText(), n.path("container").asText(),
                    policy == null || policy.isNull() ? null : policy,
                    cursor == null ? null : Base64.getDecoder().decode(cursor), n.path("converted").asLong());
        } catch (IOException e) {
            throw new IllegalStateException("corrupt index rebuild record", e);
        }
    }
}
