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

    /**
     * index-lsm (session 17): L0 files of {@code index} that start a compaction, {@value #L0_TRIGGER} by default
     * (RocksDB's own default, as before). Each L0 file of this family overlaps the whole last level, and while that
     * level holds less than {@code max_bytes_for_level_base} (256 MiB, ~11M entries here) the dynamic level sizes
     * compact L0 straight into it, so each L0 compaction rewrites all of it; a higher trigger rewrites it less often, and a seek merges up to that many L0
     * files (each one sorted run). Measured (`WriteCostHarness 200000`, loaded): 8 cut RocksDB's flush and
     * compaction CPU by ~27 % per item, yet the query benchmark's ratio was lower with it in 3 of 3 loaded pairs
     * (the indexed rate in 2 of 3), so the default stays 4 ({@code -Dtetradb.rocks.indexL0Trigger}, 2-16; figures in bench/README.md,
     * "Indexed writes: the index family's LSM shape"). A mutable option, nothing on disk changes: any directory
     * opens with any value ({@code IndexL0TriggerTest}).
     */
    static final int L0_TRIGGER = 4;

    /** The {@code index} family's L0 compaction trigger: {@link #L0_TRIGGER} unless the property says (per open). */
    static int l0Trigger() {
        int files = Integer.getInteger("tetradb.rocks.indexL0Trigger", L0_TRIGGER);
        if (files < 2 || files > 16) {
            throw new IllegalArgumentException("tetradb.rocks.indexL0Trigger must be between 2 and 16: " + files);
        }
        return files;
    }

    static ColumnFamilyOptions apply(ColumnFamilyOptions options) {
        options.setLevel0FileNumCompactionTrigger(l0Trigger());
        return universal() ? options.setCompactionStyle(CompactionStyle.UNIVERSAL) : options;
    }
}
