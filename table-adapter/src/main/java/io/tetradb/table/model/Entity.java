package io.tetradb.table.model;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A table entity: its keys, the server-set {@code Timestamp} and ETag (null on entities a client sends), and its
 * user properties in the order they were given.
 */
public record Entity(String partitionKey, String rowKey, Instant timestamp, String etag,
                     Map<String, EdmValue> properties) {
    public Entity {
        Objects.requireNonNull(partitionKey, "PartitionKey");
        Objects.requireNonNull(rowKey, "RowKey");
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    public Entity(String partitionKey, String rowKey, Map<String, EdmValue> properties) {
        this(partitionKey, rowKey, null, null, properties);
    }

    public EdmValue get(String name) {
        return properties.get(name);
    }

    /** This entity's properties with {@code other}'s laid over them (a merge). */
    public Entity mergedWith(Entity other) {
        Map<String, EdmValue> merged = new LinkedHashMap<>(properties);
        merged.putAll(other.properties);
        return new Entity(partitionKey, rowKey, timestamp, etag, merged);
    }

    public Entity withSystem(Instant timestamp, String etag) {
        return new Entity(partitionKey, rowKey, timestamp, etag, properties);
    }
}
