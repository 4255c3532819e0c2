package io.tetradb.cassandra.store;

import io.tetradb.core.storage.Space;

/**
 * The numbers a side row (kind 3) of a space the contract seeks across partitions
 * ({@code PartitionStore.seekableSide}: graph adjacency, TTL expiry entries) carries for the same two storage-attached indexes as
 * the term rows ({@link TermSeek}): {@code cpath} = a negative number per container and space, so no term seek (whose
 * {@code cpath} is the container and path id, never negative) ever meets these rows; {@code tprefix} = the key's 8
 * bytes after the first 4 (for adjacency, after the container id: the first 8 bytes of the vertex's EPK; for an
 * expiry entry {@code 20 · collId · expiresAt · …}, the container id's last byte and the expiry time's first 7),
 * monotone in the key's order among keys of one container and space, which share their first 4 bytes. A seek asks {@code cpath = ? AND tprefix} between its bounds' and cuts the superset to
 * the exact key range.
 */
final class DerivedSeek {
    private DerivedSeek() {
    }

    static long cpath(int container, Space space) {
        return Long.MIN_VALUE + (((long) container & 0xFFFFFFFFL) << 8) + space.ordinal();
    }

    /** The key's bytes 4..12 (zero-padded) as a long whose signed order is their unsigned order. */
    static long tprefix(byte[] key) {
        return TermSeek.tprefix(key);
    }
}
