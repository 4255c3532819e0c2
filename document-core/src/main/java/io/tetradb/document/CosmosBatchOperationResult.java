package io.tetradb.document;

import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemResult;

/** The outcome of one operation of a transactional batch. */
public final class CosmosBatchOperationResult {
    private final ItemResult result;
    private final CosmosItemOperation operation;
    private final ItemCodec codec;

    CosmosBatchOperationResult(ItemResult result, CosmosItemOperation operation, ItemCodec codec) {
        this.result = result;
        this.operation = operation;
        this.codec = codec;
    }

    public int getStatusCode() {
        return result.status();
    }

    public boolean isSuccessStatusCode() {
        return result.status() >= 200 && result.status() < 300;
    }

    public String getETag() {
        return result.etag() == null ? null : "\"" + result.etag() + "\"";
    }

    public double getRequestCharge() {
        return result.requestCharge();
    }

    /** The item as stored after the operation (reads and writes that succeeded), else null. */
    public <T> T getItem(Class<T> type) {
        return result.stored() == null ? null : CosmosException.call(() -> codec.parse(result.stored(), type));
    }

    public CosmosItemOperation getOperation() {
        return operation;
    }

    /** Why the operation failed (null when it succeeded). */
    public String getErrorMessage() {
        return result.error();
    }
}
