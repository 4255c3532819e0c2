package io.tetradb.mongo.store;

/**
 * What a result iterator keeps in memory between two batches, in document bytes (the stored size of a buffered
 * page's documents, the BSON size estimate of a sorted result): what an open cursor costs the server while its
 * client is away, counted against the cursors' memory limit ({@code CursorLimits#maxBytes}).
 */
public interface HeldBytes {
    long heldBytes();
}
