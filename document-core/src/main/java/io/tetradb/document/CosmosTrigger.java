package io.tetradb.document;

import io.tetradb.core.Status;
import io.tetradb.core.store.ScriptDefinitions.Kind;

/** One trigger, as azure-cosmos' {@code CosmosTrigger}: read, replace, delete. */
public final class CosmosTrigger {
    private final CosmosScripts scripts;
    private final String id;

    CosmosTrigger(CosmosScripts scripts, String id) {
        this.scripts = scripts;
        this.id = id;
    }

    public String getId() {
        return id;
    }

    public CosmosTriggerResponse read() {
        return CosmosException.call(() -> new CosmosTriggerResponse(Status.OK,
                CosmosTriggerProperties.of(scripts.scripts().read(Kind.TRIGGER, id))));
    }

    public CosmosTriggerResponse replace(CosmosTriggerProperties properties) {
        return CosmosException.call(() -> new CosmosTriggerResponse(Status.OK,
                CosmosTriggerProperties.of(scripts.scripts().replace(Kind.TRIGGER, id, properties.toJson(), null))));
    }

    public CosmosTriggerResponse delete() {
        return CosmosException.call(() -> {
            scripts.scripts().delete(Kind.TRIGGER, id, null);
            return new CosmosTriggerResponse(Status.NO_CONTENT, null);
        });
    }
}
