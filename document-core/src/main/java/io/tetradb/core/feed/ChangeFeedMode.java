package io.tetradb.core.feed;

/** Cosmos DB's change feed modes. */
public enum ChangeFeedMode {
    /** Creates and replaces, the latest version of each item once (Cosmos {@code A-IM: Incremental Feed}). */
    LATEST_VERSION,
    /** Every create, replace and delete within the container's retention ({@code A-IM: Full-Fidelity Feed}). */
    ALL_VERSIONS_AND_DELETES
}
