package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.ArrayList;
import java.util.List;

/** Builds a hierarchical partition key, one level per {@code add}. */
public final class PartitionKeyBuilder {
    private final List<JsonNode> components = new ArrayList<>();

    public PartitionKeyBuilder add(String value) {
        components.add(TextNode.valueOf(value));
        return this;
    }

    public PartitionKeyBuilder add(double value) {
        components.add(DoubleNode.valueOf(value));
        return this;
    }

    public PartitionKeyBuilder add(boolean value) {
        components.add(BooleanNode.valueOf(value));
        return this;
    }

    public PartitionKeyBuilder addNullValue() {
        components.add(NullNode.getInstance());
        return this;
    }

    /** A level with no value (undefined). */
    public PartitionKeyBuilder addNoneValue() {
        components.add(MissingNode.getInstance());
        return this;
    }

    public PartitionKey build() {
        if (components.isEmpty() || components.size() > 3) {
            throw new IllegalArgumentException("a hierarchical partition key has 1 to 3 levels, got " + components.size());
        }
        return new PartitionKey(List.copyOf(components), false);
    }
}
