package io.tetradb.core.store;

/**
 * What one query page cost, counted by its access path: documents fetched (and their stored bytes), index entries
 * read. The request charge is computed from these ({@link RequestCharge#query}, {@link RequestCharge#indexEntries}).
 */
final class QueryMetrics {
    long documentsLoaded;
    long bytesLoaded;
    long indexEntries;
}
