package io.tetradb.core.feed;

import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;

import java.nio.ByteBuffer;

/**
 * The containers' change feed policies (the all-versions retention) in the metadata contract, for a core whose
 * metadata is shared with other servers: META {@code 3E · collId} = the retention in milliseconds. A policy decides
 * what every writer puts in a change record (the images before and after), so all servers must follow one: it is
 * written as a catalog change, and each server re-reads the policies when it refreshes its catalog
 * ({@link #reload}), as it re-reads definitions; a writer on another server follows within the catalog-check
 * interval (1 s by default), a server that opens the container later at once. The embedded engine keeps its own
 * (FEED {@code collId · 'M'}), unchanged.
 */
public final class SharedFeedPolicies {
    static final byte META_PREFIX = 0x3E;

    private final MetadataStore metadata;

    public SharedFeedPolicies(MetadataStore metadata) {
        this.metadata = metadata;
    }

    static byte[] key(int collId) {
        return ByteBuffer.allocate(5).put(META_PREFIX).putInt(collId).array();
    }

    ChangeFeedPolicy read(int collId) {
        MetaEntry e = metadata.get(key(collId));
        return ChangeFeedPolicy.decode(e == null ? null : e.value());
    }

    void write(int collId, ChangeFeedPolicy policy) {
        metadata.apply(new MetaWrite().put(key(collId), policy.encode()).catalogChange());
    }

    /** The open feeds take the stored policies (another server may have changed one): one listing. */
    void reload(Iterable<ChangeFeed> open) {
        java.util.Map<Integer, ChangeFeedPolicy> stored = new java.util.HashMap<>();
        for (MetaEntry e : metadata.list(new byte[]{META_PREFIX})) {
            stored.put(ByteBuffer.wrap(e.key()).getInt(1), ChangeFeedPolicy.decode(e.value()));
        }
        for (ChangeFeed f : open) {
            f.policyFromElsewhere(stored.getOrDefault(f.collId(), ChangeFeedPolicy.LATEST_VERSION_ONLY));
        }
    }

    /** Adds the removal of {@code collId}'s policy to its container's deletion. */
    public static void dropWith(WriteSet ws, int collId) {
        ws.delete(Space.META, key(collId));
    }
}
