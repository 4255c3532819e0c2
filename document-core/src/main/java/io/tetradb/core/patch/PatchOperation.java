package io.tetradb.core.patch;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One Cosmos patch operation. {@code path} and {@code from} are JSON pointers ({@code /a/b/0}); {@code value} is the
 * JSON value for add/set/replace/increment.
 */
public record PatchOperation(Type type, String path, String from, JsonNode value) {
    public enum Type {
        ADD, SET, REPLACE, REMOVE, INCREMENT, MOVE;

        public String opName() {
            return name().toLowerCase();
        }
    }
}
