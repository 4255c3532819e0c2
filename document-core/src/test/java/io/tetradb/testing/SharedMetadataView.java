package io.tetradb.testing;

import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;

import java.util.List;

/**
 * An embedded metadata store presented as shared (what a Cassandra keyspace is to several servers), so the shared-
 * engine suites run without a cluster. Closing the view leaves the engine open: the test that opened it closes it.
 */
public final class SharedMetadataView {
    private SharedMetadataView() {
    }

    public static MetadataStore of(EmbeddedMetadataStore inner) {
        return new MetadataStore() {
            public MetaEntry get(byte[] key) {
                return inner.get(key);
            }

            public List<MetaEntry> list(byte[] from, byte[] to) {
                return inner.list(from, to);
            }

            public boolean apply(MetaWrite write) {
                return inner.apply(write);
            }

            public long catalogStamp() {
                return inner.catalogStamp();
            }

            public boolean isShared() {
                return true;
            }

            public void close() {
            }
        };
    }
}
