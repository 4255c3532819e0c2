package io.tetradb.core.unique;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The unique-index tests' kind {@code tags} (every element of the array at the spec's field, or the scalar, is a
 * key; missing: no key), its index {@code tags_1} and items carrying tags.
 */
public final class TagsUniqueIndex {
    private static final ObjectMapper M = new ObjectMapper();

    /** The kind, registered as {@code "tags"}. */
    public static final UniqueIndexKind TAGS = def -> item -> {
        JsonNode v = item.path(def.spec().path("field").asText());
        List<byte[]> out = new ArrayList<>();
        if (v.isMissingNode()) {
            return out;
        }
        for (JsonNode e : v.isArray() ? v : List.of(v)) {
            byte[] k = e.toString().getBytes(StandardCharsets.UTF_8);
            if (out.stream().noneMatch(x -> Arrays.equals(x, k))) {
                out.add(k);
            }
        }
        return out;
    };

    private TagsUniqueIndex() {
    }

    /** {@code {id, pk, tags: [...]}}. */
    public static ObjectNode item(String id, String pk, String... tags) {
        ObjectNode n = M.createObjectNode().put("id", id).put("pk", pk);
        var arr = n.putArray("tags");
        for (String t : tags) {
            arr.add(t);
        }
        return n;
    }

    /** The index {@code tags_1} on the field {@code tags}, container-wide or per logical partition. */
    public static UniqueIndexDefinition tags(boolean perPartition) {
        return new UniqueIndexDefinition("tags_1", "tags", M.createObjectNode().put("field", "tags"), perPartition);
    }

    public static PartitionKeyValue pk(String value) {
        return PartitionKeyValue.of(TextNode.valueOf(value));
    }
}
