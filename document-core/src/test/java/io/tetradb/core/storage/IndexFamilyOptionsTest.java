package io.tetradb.core.storage;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the {@code index} family is, as RocksDB itself records it (index-write, session 18): every item write inserts
 * ~20 keys into it, so a Java comparator or a filter there would cost every entry (a JNI call per key compare; a
 * bloom filter built at every flush and compaction of a family that is only range-scanned), and the per-path insert
 * hint is what keeps a write set's sorted keys cheap (bench/README.md, "Indexed writes: what an entry is").
 */
class IndexFamilyOptionsTest {
    @Test
    void theIndexFamilyComparesNativelyBuildsNoFilterAndInsertsWithThePathHint(@TempDir Path dir) throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("d");
            client.getDatabase("d").createContainer(new CosmosContainerProperties("c", "/pk"));
        }
        String index = RawIndexFamily.optionsSection(dir, Space.INDEX);
        for (String expected : new String[] {
                "comparator=leveldb.BytewiseComparator\n",
                "memtable_insert_with_hint_prefix_extractor=rocksdb.FixedPrefix.8\n",
                "memtable_prefix_bloom_size_ratio=0.000000\n",
                "memtable_whole_key_filtering=false\n",
                "level_compaction_dynamic_level_bytes=true\n"}) {
            assertTrue(index.contains(expected), expected + " not in\n" + index);
        }
        String table = RawIndexFamily.optionsSection(dir, "TableOptions/BlockBasedTable", Space.INDEX);
        for (String expected : new String[] {"filter_policy=nullptr\n", "whole_key_filtering=false\n",
                "block_size=4096\n"}) {
            assertTrue(table.contains(expected), expected + " not in\n" + table);
        }
        // the items' family, read by key, keeps its filter: the check above is about the index, not every family
        String docsTable = RawIndexFamily.optionsSection(dir, "TableOptions/BlockBasedTable", Space.DOCS);
        assertTrue(!docsTable.contains("filter_policy=nullptr\n"), docsTable);
    }
}
