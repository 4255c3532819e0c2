package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;

/**
 * How the {@code index} column family compacts (issue 17, index-cost). Its keys arrive in value order per path, so
 * every flush overlaps the whole of the last level, and with leveled compaction each L0 compaction rewrote that
 * level: measured (`IndexEntryCostProbe`, the query benchmark's 4M entries) RocksDB's own threads spent ~1.15 us of
 * flush and compaction CPU per entry, twice the writer's insert. Universal compaction merges sorted runs of similar
 * size instead, writing each entry fewer times; the keys, their order and every read stay as they are (a range read
 * merges the runs as it merged the levels). A data directory written with leveled compaction opens as it is: RocksDB
 * reads each non-empty level as one sorted run. Off by default ({@code -Dtetradb.rocks.indexCompaction=universal}
 * turns it on): on a quiet machine the query benchmark's {@code write indexed/none} was 0.32 and 0.34 with it against
 * 0.36 and 0.35 leveled, and equality seeks at 200k items slower (p50 0.15 vs 0.11 ms).
 */
final class IndexCompaction {
    private IndexCompaction() {
    }

    /** True when {@code tetradb.rocks.indexCompaction=universal}; read at each open, so a test can open both ways. */
    static boolean universal() {
        return "universal".equals(System.getProperty("tetradb.rocks.indexCompaction", "level"));
    }

    static ColumnFamilyOptions apply(ColumnFamilyOptions options) {
        return universal() ? options.setCompactionStyle(CompactionStyle.UNIVERSAL) : options;
    }
}
