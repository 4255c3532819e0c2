package io.tetradb.core.storage;

import java.util.List;

/**
 * What the core still reads or writes in the data directory's embedded engine instead of through the storage
 * contracts (items: {@code storage.partition.PartitionStore}; metadata: {@code storage.meta.MetadataStore}). A core
 * over a shared engine (Cassandra) takes none of these paths: it serves their requests through the contracts and
 * leaves the background jobs of {@link SharedEngineLimits} off, so nothing is kept in the local directory (issue 20).
 * Each entry goes when its path is routed through a contract.
 */
public final class EngineBypasses {
    private EngineBypasses() {
    }

    private static final List<String> REMAINING = List.of(
            "the embedded engine's index rebuild chunks and backfills (IndexRebuild, UniqueKeyBackfill; on a shared "
                    + "engine a policy replace converts one logical partition per conditional apply instead: "
                    + "PartitionIndexRebuild)");

    /** The paths still on the embedded engine; empty once the core runs wholly on the contracts. */
    public static List<String> remaining() {
        return REMAINING;
    }
}
