package io.tetradb.core.store;

import io.tetradb.core.storage.meta.MetadataStore;

/**
 * When a store shares its metadata with other TetraDB servers: whether the catalog (databases, containers, their
 * definitions and partition maps) changed since the caches were last checked. It reads the store's catalog stamp (one
 * row, one QUORUM read on Cassandra) at most once per interval, so a lookup of a cached container costs nothing in
 * between. A container another server created is found at once anyway (a cache miss reads the store); the interval
 * bounds how long a cached definition another server replaced or deleted is still served — like the Cosmos SDKs,
 * whose container cache is refreshed when the gateway says it is stale. Default 1000 ms
 * ({@code -Dtetradb.catalog.checkMillis}).
 */
final class CatalogWatch {
    private final MetadataStore metadata;
    private volatile long intervalNanos = Long.getLong("tetradb.catalog.checkMillis", 1000) * 1_000_000L;
    private volatile long checkedAt = System.nanoTime();
    private long stamp;

    CatalogWatch(MetadataStore metadata) {
        this.metadata = metadata;
        this.stamp = metadata.isShared() ? metadata.catalogStamp() : 0;
    }

    void intervalMillis(long millis) {
        intervalNanos = millis * 1_000_000L;
    }

    /** True (once) when another server may have changed the catalog since the last check. */
    boolean changed() {
        if (!metadata.isShared() || System.nanoTime() - checkedAt < intervalNanos) {
            return false;
        }
        synchronized (this) {
            if (System.nanoTime() - checkedAt < intervalNanos) {
                return false;
            }
            long now = metadata.catalogStamp();
            checkedAt = System.nanoTime();
            if (now == stamp) {
                return false;
            }
            stamp = now;
            return true;
        }
    }
}
