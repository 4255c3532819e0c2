package io.tetradb.document;

import io.tetradb.core.store.DatabaseDefinition;

/** A database's properties, as in azure-cosmos. */
public final class CosmosDatabaseProperties {
    private final String id;
    private final String resourceId;
    private final long timestamp;

    CosmosDatabaseProperties(DatabaseDefinition def) {
        this.id = def.id();
        this.resourceId = def.rid();
        this.timestamp = def.ts();
    }

    public String getId() {
        return id;
    }

    public String getResourceId() {
        return resourceId;
    }

    public long getTimestamp() {
        return timestamp;
    }
}
