package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One change as the processor's {@code handleLatestVersionChanges} / {@code handleAllVersionsAndDeletesChanges}
 * handlers see it, as azure-cosmos' {@code ChangeFeedProcessorItem}: the current image, the previous one (deletes and
 * replaces, when the retention kept it) and the metadata (all versions and deletes mode).
 */
public final class ChangeFeedProcessorItem {
    private final JsonNode json;

    ChangeFeedProcessorItem(JsonNode json) {
        this.json = json;
    }

    /** A latest-version change: the item is the current image. */
    static ChangeFeedProcessorItem latest(JsonNode item) {
        com.fasterxml.jackson.databind.node.ObjectNode n = com.fasterxml.jackson.databind.node.JsonNodeFactory
                .instance.objectNode();
        n.set("current", item);
        return new ChangeFeedProcessorItem(n);
    }

    public JsonNode getCurrent() {
        JsonNode c = json.get("current");
        return c == null || (c.isObject() && c.isEmpty()) ? null : c;
    }

    public JsonNode getPrevious() {
        return json.get("previous");
    }

    /** Null in latest-version mode. */
    public ChangeFeedMetaData getChangeFeedMetaData() {
        JsonNode m = json.get("metadata");
        return m == null ? null : new ChangeFeedMetaData(m);
    }

    public JsonNode toJsonNode() {
        return json;
    }

    @Override
    public String toString() {
        return json.toString();
    }
}
