package io.tetradb.core.storage;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyOptions;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code index} family's L0 compaction trigger ({@link IndexCompaction#l0Trigger()}, index-lsm): an option of
 * that family alone, refused out of range, recorded by RocksDB as given; a data directory opens and reads exactly
 * with any trigger whatever the trigger it was written with, and the trigger decides how many L0 files the family
 * keeps once the store has settled.
 */
class IndexL0TriggerTest {
    private static final String TRIGGER = "tetradb.rocks.indexL0Trigger";

    @AfterEach
    void clear() {
        System.clearProperty(TRIGGER);
        System.clearProperty("tetradb.rocks.indexWriteBufferBytes");
    }

    @Test
    void theTriggerIsAnOptionOfTheIndexFamilyAlone() {
        for (Integer files : new Integer[] {null, 12}) {
            if (files == null) {
                System.clearProperty(TRIGGER);
            } else {
                System.setProperty(TRIGGER, files.toString());
            }
            try (RocksSettings s = new RocksSettings(64L << 20);
                 ColumnFamilyOptions index = s.columnFamilyOptions(Space.INDEX);
                 ColumnFamilyOptions docs = s.columnFamilyOptions(Space.DOCS)) {
                assertEquals(files == null ? IndexCompaction.L0_TRIGGER : files,
                        index.level0FileNumCompactionTrigger());
                assertEquals(4, docs.level0FileNumCompactionTrigger()); // RocksDB's default, unchanged
            }
        }
        for (String bad : new String[] {"1", "17"}) {
            System.setProperty(TRIGGER, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new RocksSettings(64L << 20).columnFamilyOptions(Space.INDEX));
            assertTrue(e.getMessage().contains(TRIGGER), e.getMessage());
        }
    }

    @Test
    void directoriesOpenWithAnyTriggerAndSeeksStayExact(@TempDir Path dir) throws Exception {
        System.setProperty("tetradb.rocks.indexWriteBufferBytes", Long.toString(256L << 10)); // many small flushes
        // 4: RocksDB's default, what every directory before index-lsm was written with; then the default, many
        // L0 files kept (16), and compactions at every other flush (2)
        String[] triggers = {"4", null, "16", "2"};
        int l0At16 = -1;
        for (int pass = 0; pass < triggers.length; pass++) {
            if (triggers[pass] == null) {
                System.clearProperty(TRIGGER);
            } else {
                System.setProperty(TRIGGER, triggers[pass]);
            }
            int expected = triggers[pass] == null ? IndexCompaction.L0_TRIGGER : Integer.parseInt(triggers[pass]);
            try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
                if (pass == 0) {
                    client.createDatabase("d");
                    client.getDatabase("d").createContainer(new CosmosContainerProperties("c", "/pk"));
                }
                CosmosContainer c = client.getDatabase("d").getContainer("c");
                if (pass > 0) {
                    IndexCompactionTest.seeksEqualScans(c); // what the previous trigger left
                }
                for (int i = pass * 2000; i < pass * 2000 + 2000; i++) { // ≈ 1.3 MB of entries: several flushes
                    c.createItem(IndexCompactionTest.item(i, pass));
                }
                for (int i = pass; i < pass * 2000 + 2000; i += 7) {
                    c.upsertItem(IndexCompactionTest.item(i, pass + 1));
                }
                for (int i = pass + 3; i < pass * 2000; i += 11) { // a residue of its own per pass: never twice
                    c.deleteItem("i" + i, new PartitionKey("p" + i % 13), null);
                }
                IndexCompactionTest.seeksEqualScans(c);
                assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
                client.coreStore().awaitBackgroundWork(60_000);
            }
            String section = RawIndexFamily.optionsSection(dir, Space.INDEX);
            assertTrue(section.contains("level0_file_num_compaction_trigger=" + expected + "\n"), section);
            int l0 = indexL0Files(dir);
            System.out.println("trigger " + expected + ": " + l0 + " L0 files");
            // settled: RocksDB compacted the family below its trigger (reopening may flush one more file from the WAL)
            assertTrue(l0 <= expected, "L0 files " + l0 + " at trigger " + expected);
            if (expected == 16) {
                l0At16 = l0;
            }
        }
        // several flushes (256 KiB memtables, ≈ 2 MB of entries) and no compaction below 16: files the old
        // trigger would have compacted stay in L0, and every seek above merged them exactly
        assertTrue(l0At16 >= 8, "L0 files at trigger 16: " + l0At16);
    }

    /** The {@code index} family's L0 files, read with the trigger in force so that opening compacts nothing. */
    private static int indexL0Files(Path dir) throws Exception {
        System.setProperty(TRIGGER, "16");
        try {
            return RawIndexFamily.look(dir, RawIndexFamily::l0Files);
        } finally {
            System.clearProperty(TRIGGER);
        }
    }
}
