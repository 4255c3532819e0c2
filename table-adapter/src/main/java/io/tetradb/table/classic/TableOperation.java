package io.tetradb.table.classic;

/** One classic operation on one entity; run it with {@link CloudTable#execute(TableOperation)}. */
public final class TableOperation {
    /** What an operation does. */
    public enum Type { INSERT, INSERT_OR_REPLACE, INSERT_OR_MERGE, REPLACE, MERGE, DELETE, RETRIEVE }

    private final Type type;
    private final TableServiceEntity entity;
    private final String partitionKey;
    private final String rowKey;
    private final Class<? extends TableServiceEntity> resultType;

    private TableOperation(Type type, TableServiceEntity entity, String partitionKey, String rowKey,
                           Class<? extends TableServiceEntity> resultType) {
        this.type = type;
        this.entity = entity;
        this.partitionKey = partitionKey;
        this.rowKey = rowKey;
        this.resultType = resultType;
    }

    public static TableOperation insert(TableServiceEntity entity) {
        return new TableOperation(Type.INSERT, entity, entity.getPartitionKey(), entity.getRowKey(), null);
    }

    public static TableOperation insertOrReplace(TableServiceEntity entity) {
        return new TableOperation(Type.INSERT_OR_REPLACE, entity, entity.getPartitionKey(), entity.getRowKey(), null);
    }

    public static TableOperation insertOrMerge(TableServiceEntity entity) {
        return new TableOperation(Type.INSERT_OR_MERGE, entity, entity.getPartitionKey(), entity.getRowKey(), null);
    }

    /** Replaces the stored entity if its ETag is still {@code entity.getEtag()} ({@code *} or null: any). */
    public static TableOperation replace(TableServiceEntity entity) {
        return new TableOperation(Type.REPLACE, entity, entity.getPartitionKey(), entity.getRowKey(), null);
    }

    /** Merges into the stored entity if its ETag is still {@code entity.getEtag()} ({@code *} or null: any). */
    public static TableOperation merge(TableServiceEntity entity) {
        return new TableOperation(Type.MERGE, entity, entity.getPartitionKey(), entity.getRowKey(), null);
    }

    /** Deletes the stored entity if its ETag is still {@code entity.getEtag()} ({@code *} or null: any). */
    public static TableOperation delete(TableServiceEntity entity) {
        return new TableOperation(Type.DELETE, entity, entity.getPartitionKey(), entity.getRowKey(), null);
    }

    public static <T extends TableServiceEntity> TableOperation retrieve(String partitionKey, String rowKey,
                                                                         Class<T> type) {
        return new TableOperation(Type.RETRIEVE, null, partitionKey, rowKey, type);
    }

    public static TableOperation retrieve(String partitionKey, String rowKey) {
        return retrieve(partitionKey, rowKey, DynamicTableEntity.class);
    }

    public Type getOperationType() {
        return type;
    }

    TableServiceEntity entity() {
        return entity;
    }

    String partitionKey() {
        return partitionKey;
    }

    String rowKey() {
        return rowKey;
    }

    Class<? extends TableServiceEntity> resultType() {
        return resultType;
    }
}
