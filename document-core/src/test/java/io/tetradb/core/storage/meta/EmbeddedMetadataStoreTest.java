package io.tetradb.core.storage.meta;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The metadata contract suite on the embedded engine (RocksDB's META space), and its layout: values as they were. */
class EmbeddedMetadataStoreTest extends MetadataStoreContract {
    @TempDir
    Path dir;
    private RocksEngine engine;

    @Override
    protected MetadataStore openStore() {
        engine = RocksEngine.open(dir, Durability.SYNC, 8 << 20);
        return new EmbeddedMetadataStore(engine);
    }

    @Override
    protected void closeStore(MetadataStore store) {
        store.close();
        engine.close();
    }

    @Test
    void valuesAreStoredAsTheyAreWithTheLocalWritesInOneBatch() {
        byte[] docKey = {0, 0, 0, 9, 1};
        MetaWrite w = new MetaWrite().put(key("def"), bytes("{}"));
        w.include(new io.tetradb.core.storage.WriteSet().put(Space.DOCS, docKey, bytes("item")));
        assertTrue(store.apply(w));
        assertArrayEquals(bytes("{}"), engine.get(Space.META, key("def")), "no version beside the value");
        assertArrayEquals(bytes("item"), engine.get(Space.DOCS, docKey), "the local write applied with it");
        assertTrue(store.apply(new MetaWrite().include(new io.tetradb.core.storage.WriteSet()
                .delete(Space.DOCS, docKey))));
        assertNull(engine.get(Space.DOCS, docKey));
    }
}
