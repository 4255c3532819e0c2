package io.tetradb.core.storage;

/** The key spaces of the store; the embedded engine keeps each in its own RocksDB column family. */
public enum Space {
    /** {@code collId · EPK · pk · id} → item bytes. */
    DOCS("docs"),
    /** Databases, containers, the partition map and per-logical-partition statistics. */
    META("meta"),
    /**
     * The change feed: {@code collId · 'S' · seq} → change record, and its partition index, version images and
     * marks ({@code feed.FeedKeys}).
     */
    FEED("feed"),
    /** {@code collId · pathId · enc(value) · EPK · pk · id} → nothing: one entry per indexed scalar of an item. */
    INDEX("index"),
    /**
     * {@code collId · EPK · pk · vertexId · direction · label · otherPk · otherId · edgeId} → other vertex's label and
     * the edge's properties: the adjacency of graph containers (see {@code store.GraphAdjacency}).
     */
    ADJACENCY("adjacency");

    private final String familyName;

    Space(String familyName) {
        this.familyName = familyName;
    }

    public String familyName() {
        return familyName;
    }
}
