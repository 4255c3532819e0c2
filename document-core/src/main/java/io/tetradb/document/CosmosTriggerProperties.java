package io.tetradb.document;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A trigger: id, JavaScript body, type (pre/post) and the operation it may be included in. */
public final class CosmosTriggerProperties extends ScriptProperties {
    private TriggerType triggerType;
    private TriggerOperation triggerOperation;

    public CosmosTriggerProperties(String id, String body) {
        super(id, body);
    }

    public CosmosTriggerProperties setId(String id) {
        id(id);
        return this;
    }

    public CosmosTriggerProperties setBody(String body) {
        body(body);
        return this;
    }

    public TriggerType getTriggerType() {
        return triggerType;
    }

    public CosmosTriggerProperties setTriggerType(TriggerType triggerType) {
        this.triggerType = triggerType;
        return this;
    }

    public TriggerOperation getTriggerOperation() {
        return triggerOperation;
    }

    public CosmosTriggerProperties setTriggerOperation(TriggerOperation triggerOperation) {
        this.triggerOperation = triggerOperation;
        return this;
    }

    @Override
    public ObjectNode toJson() {
        ObjectNode n = super.toJson();
        n.put("triggerType", triggerType == null ? null : triggerType.toString());
        n.put("triggerOperation", triggerOperation == null ? null : triggerOperation.toString());
        return n;
    }

    public static CosmosTriggerProperties of(ObjectNode n) {
        CosmosTriggerProperties p = new CosmosTriggerProperties(n.path("id").asText(), n.path("body").asText());
        p.triggerType = TriggerType.of(n.path("triggerType").asText());
        p.triggerOperation = TriggerOperation.of(n.path("triggerOperation").asText());
        p.readSystem(n);
        return p;
    }
}
