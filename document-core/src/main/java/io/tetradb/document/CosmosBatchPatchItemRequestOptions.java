package io.tetradb.document;

/** Options of a patch inside a transactional batch. */
public final class CosmosBatchPatchItemRequestOptions extends CosmosBatchItemRequestOptions {
}
