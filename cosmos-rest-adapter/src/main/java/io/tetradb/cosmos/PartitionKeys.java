package io.tetradb.cosmos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code x-ms-documentdb-partitionkey} header in every form the SDKs send (docs/cosmos-rest.md §3.7): a JSON
 * array with one element per level, {@code {}} for an undefined level ({@code [{}]}, PartitionKey.NONE), {@code []}
 * for "none" on every level, {@code \\uXXXX} escapes for non-ASCII text.
 */
final class PartitionKeys {
    static final String HEADER = "x-ms-documentdb-partitionkey";
    /** Cosmos DB's sub-status for a partition key that does not fit the container or the document. */
    static final int SUB_MISMATCH = 1001;

    private PartitionKeys() {
    }

    /** The header's value, or null when absent; {@code prefixAllowed}: fewer levels than the definition (queries). */
    static PartitionKeyValue fromHeader(RestRequest r, PartitionKeyDefinition def, boolean prefixAllowed) {
        String h = r.header(HEADER);
        return h == null ? null : parse(h, def, prefixAllowed);
    }

    /** A point operation's key: the header is required. */
    static PartitionKeyValue required(RestRequest r, PartitionKeyDefinition def) {
        PartitionKeyValue pk = fromHeader(r, def, false);
        if (pk == null) {
            throw new CosmosError(400, SUB_MISMATCH, "PartitionKey value must be supplied for this operation "
                    + "(header x-ms-documentdb-partitionkey, a JSON array such as [\"value\"]).");
        }
        return pk;
    }

    static PartitionKeyValue parse(String text, PartitionKeyDefinition def, boolean prefixAllowed) {
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw bad("The partition key header '" + text + "' is not valid JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isArray()) {
            throw bad("The partition key header '" + text + "' must be a JSON array such as [\"value\"].");
        }
        if (n.isEmpty()) {
            return PartitionKeyValue.none(def.levels());
        }
        List<JsonNode> components = new ArrayList<>(n.size());
        for (JsonNode c : n) {
            if (c.isObject() && c.isEmpty()) {
                components.add(MissingNode.getInstance());
            } else if (c.isValueNode()) {
                components.add(c);
            } else {
                throw bad("The partition key header '" + text + "' holds " + Json.kind(c)
                        + "; each level must be a string, number, boolean, null or {} (undefined).");
            }
        }
        if (components.size() > def.levels() || (components.size() < def.levels() && !prefixAllowed)) {
            throw bad("Partition key provided either doesn't correspond to definition in the collection or doesn't "
                    + "match partition key field values specified in the document: the container's key has "
                    + def.levels() + " level(s) " + def.paths() + ", the header has " + components.size() + ".");
        }
        return PartitionKeyValue.of(components);
    }

    /** The key of a document to write, checked against the header when one is sent. */
    static PartitionKeyValue forDocument(RestRequest r, PartitionKeyDefinition def, JsonNode item) {
        PartitionKeyValue fromBody = def.extract(item);
        String header = r.header(HEADER);
        if (header != null && header.equals(plainForm(fromBody))) {
            return fromBody; // the SDKs' usual ["value"]: the same key without parsing and hashing it again
        }
        PartitionKeyValue fromHeader = header == null ? null : parse(header, def, false);
        if (fromHeader != null && !same(fromHeader, fromBody)) {
            throw bad("PartitionKey extracted from document doesn't match the one specified in the header (header "
                    + fromHeader + ", document " + fromBody + ").");
        }
        return fromBody;
    }

    /**
     * {@code ["a","b"]} for a key of strings that JSON writes as they are (printable ASCII, no quote or backslash);
     * null for any other key, which is then compared value by value.
     */
    static String plainForm(PartitionKeyValue pk) {
        StringBuilder out = new StringBuilder(32).append('[');
        for (JsonNode c : pk.components()) {
            if (!c.isTextual()) {
                return null;
            }
            String s = c.textValue();
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (ch < 0x20 || ch > 0x7E || ch == '"' || ch == '\\') {
                    return null;
                }
            }
            if (out.length() > 1) {
                out.append(',');
            }
            out.append('"').append(s).append('"');
        }
        return out.append(']').toString();
    }

    static boolean same(PartitionKeyValue a, PartitionKeyValue b) {
        return a.levels() == b.levels() && Arrays.equals(a.epk(), b.epk());
    }

    private static CosmosError bad(String message) {
        return new CosmosError(400, SUB_MISMATCH, message);
    }
}
