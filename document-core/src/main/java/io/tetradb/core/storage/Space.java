package io.tetradb.core.storage;

/** The key spaces of the store; the embedded engine keeps each in its own RocksDB column family. */
public enum Space {
    /** {@code collId · EPK · pk · id} → item bytes. */
    DOCS("docs"),
    /** Databases, containers, the partition map and per-logical-partition statistics. */
    META("meta"),
    /** {@code collId · EPK · pk · lsn} → change record. */
    FEED("feed");

    private final String familyName;

    Space(String familyName) {
        this.familyName = familyName;
    }

    public String familyName() {
        return familyName;
    }
}
