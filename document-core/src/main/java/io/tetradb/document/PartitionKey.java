package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.tetradb.core.partition.PartitionKeyValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A partition key value, as in azure-cosmos: one value, or several built with {@link PartitionKeyBuilder}. */
public final class PartitionKey {
    /** The "none" partition: items that have no value at the partition key path. */
    public static final PartitionKey NONE = new PartitionKey(null, true);

    private final List<JsonNode> components;
    private final boolean none;
    /** The core value, hashed once: a key reused for many requests (a graph's vertex reads) pays the EPK hash once. */
    private volatile PartitionKeyValue value;

    /** A single-path key: a String, Number, Boolean or null. */
    public PartitionKey(Object value) {
        this(List.of(PartitionKeyValue.component(value)), false);
    }

    PartitionKey(List<JsonNode> components, boolean none) {
        this.components = components;
        this.none = none;
    }

    /** The core value for a container whose key has {@code levels} paths. */
    PartitionKeyValue toValue(int levels) {
        if (none) {
            return PartitionKeyValue.none(levels);
        }
        PartitionKeyValue v = value;
        if (v == null) {
            v = PartitionKeyValue.of(components);
            value = v;
        }
        return v;
    }

    static PartitionKey of(PartitionKeyValue value) {
        return new PartitionKey(new ArrayList<>(value.components()), false);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionKey p && none == p.none && Objects.equals(components, p.components);
    }

    @Override
    public int hashCode() {
        return Objects.hash(components, none);
    }

    @Override
    public String toString() {
        if (none) {
            return "[{}]";
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < components.size(); i++) {
            JsonNode c = components.get(i);
            sb.append(i > 0 ? "," : "").append(c instanceof MissingNode ? "{}" : c.toString());
        }
        return sb.append(']').toString();
    }
}
