package io.tetradb.core.storage.partition;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The contract suite on the embedded engine (RocksDB). */
class EmbeddedPartitionStoreTest extends PartitionStoreContract {
    @TempDir
    Path dir;
    private RocksEngine engine;

    @Override
    protected PartitionStore openStore() {
        engine = RocksEngine.open(dir, Durability.SYNC, 8 << 20);
        return new EmbeddedPartitionStore(engine);
    }

    @Override
    protected void closeStore(PartitionStore store) {
        store.close();
        engine.close();
    }
}
