package io.tetradb.document;

/** Options of a patch, as in azure-cosmos. */
public final class CosmosPatchItemRequestOptions extends CosmosItemRequestOptions {
}
