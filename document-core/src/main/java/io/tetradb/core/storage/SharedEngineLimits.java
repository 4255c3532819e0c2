package io.tetradb.core.storage;

import java.util.List;

/**
 * What a core over a shared engine (metadata and items on Cassandra, {@code --storage cassandra}) leaves off. Every
 * request is served through the storage contracts, so none is refused; what is left off are background jobs of the
 * local engine, listed for a server's start-up log. A job leaves this list when it runs through the contracts.
 */
public final class SharedEngineLimits {
    private SharedEngineLimits() {
    }

    /** The option that puts a server's core on a shared engine. */
    public static final String OPTION = "--storage cassandra";

    private static final List<String> LEFT_OFF = List.of(
            "partition size splits (PartitionSplitter; the physical partitions there are Cassandra's token ranges)");

    /** The background jobs a core on a shared engine does not run. */
    public static List<String> leftOff() {
        return LEFT_OFF;
    }
}
