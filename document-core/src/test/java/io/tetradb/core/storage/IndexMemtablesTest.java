package io.tetradb.core.storage;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyOptions;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code index} family's small memtables flushed together ({@link IndexMemtables}): the options the family
 * gets, index seeks equal to full scans while several small memtables are unflushed and after they were flushed,
 * and a directory written with the former single 16 MiB memtable opening with the small ones and back.
 */
class IndexMemtablesTest {
    @BeforeEach
    void perFamilyFlushes() { // small memtables merge only when families flush on their own (query-idx)
        System.setProperty("tetradb.rocks.walRecycling", "off");
    }

    @AfterEach
    void clear() {
        System.clearProperty("tetradb.rocks.indexMemtables");
        System.clearProperty("tetradb.rocks.walRecycling");
        System.clearProperty("tetradb.rocks.indexWriteBufferBytes");
    }

    @Test
    void smallMemtablesAreRefusedWithAtomicFlush(@TempDir Path dir) {
        System.setProperty("tetradb.rocks.indexMemtables", "small");
        System.clearProperty("tetradb.rocks.walRecycling"); // the default: atomic flush
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RocksSettings(64L << 20).close());
        assertTrue(e.getMessage().contains("tetradb.rocks.walRecycling=off"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new CosmosClientBuilder().dataDirectory(dir).buildClient().close()); // the store does not open
        System.setProperty("tetradb.rocks.walRecycling", "atomic");
        System.clearProperty("tetradb.rocks.indexMemtables"); // the default single memtable is fine with atomic flush
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("d");
        }
    }

    @Test
    void theIndexFamilyWritesSmallMemtablesFlushedTogether() {
        System.setProperty("tetradb.rocks.indexMemtables", "small");
        try (RocksSettings s = new RocksSettings(64L << 20);
             ColumnFamilyOptions index = s.columnFamilyOptions(Space.INDEX);
             ColumnFamilyOptions docs = s.columnFamilyOptions(Space.DOCS)) {
            assertEquals(2L << 20, index.writeBufferSize());
            assertEquals(8, index.minWriteBufferNumberToMerge());
            assertEquals(12, index.maxWriteBufferNumber());
            assertEquals(64L << 20, docs.writeBufferSize()); // the other families are not changed
            assertEquals(1, docs.minWriteBufferNumberToMerge());
        }
        System.clearProperty("tetradb.rocks.indexMemtables"); // the default: one 16 MiB memtable
        try (RocksSettings s = new RocksSettings(64L << 20);
             ColumnFamilyOptions index = s.columnFamilyOptions(Space.INDEX)) {
            assertEquals(16L << 20, index.writeBufferSize());
            assertEquals(1, index.minWriteBufferNumberToMerge());
        }
    }

    private static CosmosClient open(Path dir, String memtables) {
        System.setProperty("tetradb.rocks.indexMemtables", memtables);
        return new CosmosClientBuilder().dataDirectory(dir).buildClient();
    }

    @Test
    void seeksStayExactAcrossManySmallMemtablesAndEitherSetting(@TempDir Path dir) {
        int items = 12_000; // ≈ 8 MB of index entries: several 2 MiB memtables, flushed together or not yet
        try (CosmosClient client = open(dir, "single")) {
            client.createDatabase("d");
            client.getDatabase("d").createContainer(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            for (int i = 0; i < 1500; i++) {
                c.createItem(IndexCompactionTest.item(i, 0));
            }
            IndexCompactionTest.seeksEqualScans(c);
        }
        try (CosmosClient client = open(dir, "small")) {
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            IndexCompactionTest.seeksEqualScans(c);
            for (int i = 1500; i < items; i++) {
                c.createItem(IndexCompactionTest.item(i, 0));
                if (i % 2500 == 0) { // seeks while immutable memtables wait for their merged flush
                    IndexCompactionTest.seeksEqualScans(c);
                }
            }
            for (int i = 0; i < items; i += 5) {
                c.upsertItem(IndexCompactionTest.item(i, 1));
            }
            for (int i = 2; i < items; i += 11) {
                c.deleteItem("i" + i, new PartitionKey("p" + i % 13), null);
            }
            IndexCompactionTest.seeksEqualScans(c);
            assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
        }
        try (CosmosClient client = open(dir, "single")) { // and back
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            IndexCompactionTest.seeksEqualScans(c);
            assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
        }
        try (CosmosClient client = open(dir, "small")) { // reopened: the WAL's index entries replayed exactly
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            IndexCompactionTest.seeksEqualScans(c);
            assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
        }
    }

    /**
     * index-keys (session 16): {@code -Dtetradb.rocks.indexWriteBufferBytes} sets the {@code index} family's memtable
     * size alone, is read at each open, refuses sizes outside 64 KiB–1 GiB, and a directory written with 256 KiB
     * index memtables (with atomic flush: every family flushed at each of their many switches) opens with the
     * default and with 64 MiB ones, its seeks equal to full scans and its entries consistent.
     */
    @Test
    void theIndexMemtableSizeIsAnOptionAndDirectoriesOpenWithAnySize(@TempDir Path dir) {
        System.clearProperty("tetradb.rocks.walRecycling"); // the default: atomic flush
        System.setProperty("tetradb.rocks.indexWriteBufferBytes", Long.toString(256L << 10));
        try (RocksSettings s = new RocksSettings(64L << 20);
             ColumnFamilyOptions index = s.columnFamilyOptions(Space.INDEX);
             ColumnFamilyOptions docs = s.columnFamilyOptions(Space.DOCS)) {
            assertEquals(256L << 10, index.writeBufferSize());
            assertEquals(64L << 20, docs.writeBufferSize()); // the other families are not changed
        }
        System.setProperty("tetradb.rocks.indexWriteBufferBytes", "1000");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RocksSettings(64L << 20).columnFamilyOptions(Space.INDEX));
        assertTrue(e.getMessage().contains("tetradb.rocks.indexWriteBufferBytes"), e.getMessage());
        System.setProperty("tetradb.rocks.indexWriteBufferBytes", Long.toString(256L << 10));
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("d");
            client.getDatabase("d").createContainer(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            for (int i = 0; i < 3000; i++) { // ≈ 2 MB of index entries: several 256 KiB memtables
                c.createItem(IndexCompactionTest.item(i, 0));
            }
            for (int i = 0; i < 3000; i += 7) {
                c.upsertItem(IndexCompactionTest.item(i, 1));
            }
            IndexCompactionTest.seeksEqualScans(c);
            assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
        }
        int first = 1;
        for (String bytes : new String[] {null, Long.toString(64L << 20)}) { // the default, then 64 MiB
            if (bytes == null) {
                System.clearProperty("tetradb.rocks.indexWriteBufferBytes");
            } else {
                System.setProperty("tetradb.rocks.indexWriteBufferBytes", bytes);
            }
            try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
                CosmosContainer c = client.getDatabase("d").getContainer("c");
                IndexCompactionTest.seeksEqualScans(c);
                for (int i = first; i < 3000; i += 13) {
                    c.deleteItem("i" + i, new PartitionKey("p" + i % 13), null);
                }
                IndexCompactionTest.seeksEqualScans(c);
                assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
            }
            first++;
        }
    }
}
