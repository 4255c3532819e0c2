package io.tetradb.table;

/**
 * One action of a transaction; {@code ifUnchanged} makes an update or delete conditional on the entity's ETag
 * (the one {@link TableEntity#getETag()} holds).
 */
public record TableTransactionAction(TableTransactionActionType actionType, TableEntity entity, boolean ifUnchanged) {
    public TableTransactionAction(TableTransactionActionType actionType, TableEntity entity) {
        this(actionType, entity, false);
    }

    public TableTransactionActionType getActionType() {
        return actionType;
    }

    public TableEntity getEntity() {
        return entity;
    }

    public boolean getIfUnchanged() {
        return ifUnchanged;
    }
}
