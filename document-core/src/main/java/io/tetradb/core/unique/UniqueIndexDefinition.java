package io.tetradb.core.unique;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.io.IOException;

/**
 * A face-defined unique index of a container, as the core stores it: its name, the kind (which face computes its
 * keys, see {@link UniqueIndexKinds}), the face's own spec, and its scope: {@code container} (one value per
 * container, whatever its partitioning) or {@code partition} (per logical partition, enough when the key holds the
 * partition key).
 */
public record UniqueIndexDefinition(String name, String kind, JsonNode spec, boolean perPartition) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public UniqueIndexDefinition {
        if (name == null || name.isEmpty() || kind == null || kind.isEmpty()) {
            throw new StoreException(Status.BAD_REQUEST, "a unique index needs a name and a kind");
        }
    }

    public byte[] encode() {
        ObjectNode n = JSON.createObjectNode().put("name", name).put("kind", kind).put("perPartition", perPartition);
        n.set("spec", spec);
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static UniqueIndexDefinition decode(byte[] bytes) {
        try {
            JsonNode n = JSON.readTree(bytes);
            return new UniqueIndexDefinition(n.path("name").asText(), n.path("kind").asText(), n.get("spec"),
                    n.path("perPartition").asBoolean());
        } catch (IOException e) {
            throw new IllegalStateException("a stored unique index definition is unreadable", e);
        }
    }
}
