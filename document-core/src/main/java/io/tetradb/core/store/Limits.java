package io.tetradb.core.store;

/** Size and shape limits of items and batches; Cosmos DB's values by default. */
public record Limits(int maxItemBytes, int maxIdLength, int maxNestingDepth, int maxBatchOperations,
                     int maxBatchBytes, int maxPatchOperations) {
    public static final Limits COSMOS = new Limits(2 * 1024 * 1024, 255, 128, 100, 2 * 1024 * 1024, 10);
}
