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
    /** The stamp last read, and the one the caches were last brought up to. */
    private volatile long latest;
    private volatile long refreshed;

    CatalogWatch(MetadataStore metadata) {
        this.metadata = metadata;
        this.latest = this.refreshed = metadata.isShared() ? metadata.catalogStamp() : 0;
    }

    /** How long a server may serve a cached definition another server replaced (shared-engine index rebuilds wait it). */
    long intervalMillis() {
        return intervalNanos / 1_000_000L;
    }

    void intervalMillis(long millis) {
        intervalNanos = millis * 1_000_000L;
    }

    /**
     * The stamp the caches are behind (the caller refreshes them and then calls {@link #refreshed}), or null when
     * they are current. Every caller gets it until the refresh is done, not only the one that read it: another thread
     * must not serve a cached container while the refresh that drops it is still running.
     */
    Long behind() {
        if (!metadata.isShared()) {
            return null;
        }
        if (System.nanoTime() - checkedAt >= intervalNanos) {
            synchronized (this) {
                if (System.nanoTime() - checkedAt >= intervalNanos) {
                    latest = metadata.catalogStamp();
                    checkedAt = System.nanoTime();
                }
            }
        }
        long s = latest;
        return s == refreshed ? null : s;
    }

    /** The caches now reflect every change up to {@code stamp} at least. */
    void refreshed(long stamp) {
        refreshed = stamp;
    }

    boolean isRefreshedTo(long stamp) {
        return refreshed == stamp;
    }
}
