package io.tetradb.document;

/** One operation of a {@link CosmosBatch}. */
public interface CosmosItemOperation {
    String getId();

    PartitionKey getPartitionKeyValue();

    CosmosItemOperationType getOperationType();

    <T> T getItem();
}
