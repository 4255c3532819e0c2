package io.tetradb.document;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A transactional batch: up to 100 operations in one logical partition, applied all or nothing by
 * {@link CosmosContainer#executeCosmosBatch(CosmosBatch)}.
 */
public final class CosmosBatch {
    private final PartitionKey partitionKey;
    private final List<CosmosItemOperation> operations = new ArrayList<>();

    private CosmosBatch(PartitionKey partitionKey) {
        this.partitionKey = partitionKey;
    }

    public static CosmosBatch createCosmosBatch(PartitionKey partitionKey) {
        return new CosmosBatch(partitionKey);
    }

    public PartitionKey getPartitionKeyValue() {
        return partitionKey;
    }

    public List<CosmosItemOperation> getOperations() {
        return Collections.unmodifiableList(operations);
    }

    public <T> CosmosItemOperation createItemOperation(T item) {
        return createItemOperation(item, null);
    }

    public <T> CosmosItemOperation createItemOperation(T item, CosmosBatchItemRequestOptions options) {
        return add(new Op(CosmosItemOperationType.CREATE, null, item, null, options));
    }

    public <T> CosmosItemOperation upsertItemOperation(T item) {
        return upsertItemOperation(item, null);
    }

    public <T> CosmosItemOperation upsertItemOperation(T item, CosmosBatchItemRequestOptions options) {
        return add(new Op(CosmosItemOperationType.UPSERT, null, item, null, options));
    }

    public <T> CosmosItemOperation replaceItemOperation(String id, T item) {
        return replaceItemOperation(id, item, null);
    }

    public <T> CosmosItemOperation replaceItemOperation(String id, T item, CosmosBatchItemRequestOptions options) {
        return add(new Op(CosmosItemOperationType.REPLACE, id, item, null, options));
    }

    public CosmosItemOperation deleteItemOperation(String id) {
        return deleteItemOperation(id, null);
    }

    public CosmosItemOperation deleteItemOperation(String id, CosmosBatchItemRequestOptions options) {
        return add(new Op(CosmosItemOperationType.DELETE, id, null, null, options));
    }

    public CosmosItemOperation readItemOperation(String id) {
        return readItemOperation(id, null);
    }

    public CosmosItemOperation readItemOperation(String id, CosmosBatchItemRequestOptions options) {
        return add(new Op(CosmosItemOperationType.READ, id, null, null, options));
    }

    public CosmosItemOperation patchItemOperation(String id, CosmosPatchOperations patch) {
        return patchItemOperation(id, patch, null);
    }

    public CosmosItemOperation patchItemOperation(String id, CosmosPatchOperations patch,
                                                  CosmosBatchPatchItemRequestOptions options) {
        return add(new Op(CosmosItemOperationType.PATCH, id, null, patch, options));
    }

    private CosmosItemOperation add(Op op) {
        operations.add(op);
        return op;
    }

    /** One queued operation. */
    final class Op implements CosmosItemOperation {
        final CosmosItemOperationType type;
        final String id;
        final Object item;
        final CosmosPatchOperations patch;
        final CosmosBatchItemRequestOptions options;

        Op(CosmosItemOperationType type, String id, Object item, CosmosPatchOperations patch,
           CosmosBatchItemRequestOptions options) {
            this.type = type;
            this.id = id;
            this.item = item;
            this.patch = patch;
            this.options = options;
        }

        @Override
        public String getId() {
            return id;
        }

        @Override
        public PartitionKey getPartitionKeyValue() {
            return partitionKey;
        }

        @Override
        public CosmosItemOperationType getOperationType() {
            return type;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T getItem() {
            return (T) item;
        }
    }
}
