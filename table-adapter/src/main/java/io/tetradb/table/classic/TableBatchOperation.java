package io.tetradb.table.classic;

import java.util.ArrayList;

/** Operations on one PartitionKey applied together or not at all ({@link CloudTable#execute(TableBatchOperation)}). */
public final class TableBatchOperation extends ArrayList<TableOperation> {
    public void insert(TableServiceEntity entity) {
        add(TableOperation.insert(entity));
    }

    public void insertOrReplace(TableServiceEntity entity) {
        add(TableOperation.insertOrReplace(entity));
    }

    public void insertOrMerge(TableServiceEntity entity) {
        add(TableOperation.insertOrMerge(entity));
    }

    public void replace(TableServiceEntity entity) {
        add(TableOperation.replace(entity));
    }

    public void merge(TableServiceEntity entity) {
        add(TableOperation.merge(entity));
    }

    public void delete(TableServiceEntity entity) {
        add(TableOperation.delete(entity));
    }
}
