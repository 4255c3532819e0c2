package io.tetradb.document;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;

/** What the three script resources share: id, body and the system properties the store sets. */
abstract class ScriptProperties {
    private String id;
    private String body;
    private String resourceId;
    private String etag;
    private Instant timestamp;
    private String selfLink;

    ScriptProperties(String id, String body) {
        this.id = id;
        this.body = body;
    }

    public String getId() {
        return id;
    }

    void id(String id) {
        this.id = id;
    }

    public String getBody() {
        return body;
    }

    void body(String body) {
        this.body = body;
    }

    /** {@code _rid} */
    public String getResourceId() {
        return resourceId;
    }

    /** {@code _etag} */
    public String getETag() {
        return etag;
    }

    /** {@code _ts} */
    public Instant getTimestamp() {
        return timestamp;
    }

    /** {@code _self} */
    public String getSelfLink() {
        return selfLink;
    }

    /** The resource as the store keeps it (and the REST face sends it). */
    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("id", id);
        n.put("body", body);
        if (resourceId != null) {
            n.put("_rid", resourceId);
            n.put("_self", selfLink);
            n.put("_etag", etag);
            n.put("_ts", timestamp.getEpochSecond());
        }
        return n;
    }

    void readSystem(ObjectNode n) {
        resourceId = n.path("_rid").asText(null);
        selfLink = n.path("_self").asText(null);
        etag = n.path("_etag").asText(null);
        timestamp = n.has("_ts") ? Instant.ofEpochSecond(n.get("_ts").asLong()) : null;
    }
}
