package io.tetradb.core.storage;

import io.tetradb.core.StoreException;

import java.util.List;

/**
 * A request a core over a shared engine (metadata and items on Cassandra, {@code --storage cassandra}) refuses because
 * serving it would read or write the data directory's embedded engine ({@link EngineBypasses}): 400, which each face
 * answers in its own convention (Cosmos 400 BadRequest, Mongo IllegalOperation, Gremlin a server error). The
 * background jobs of the same paths (splitter, index rebuilds) are not started there; the feed pruner
 * prunes through the item store (feed.ContractFeedPruner).
 */
public final class SharedEngineRefusal extends StoreException {
    /** The option that puts the core on a shared engine, named in every refusal. */
    public static final String OPTION = "--storage cassandra";

    /** What a server on a shared engine refuses (requests) and leaves off (background jobs), for its start-up log. */
    private static final List<String> REFUSED = List.of(
            "background jobs: partition size splits (token ranges on Cassandra)");

    public SharedEngineRefusal(String what) {
        super(400, what + " is not supported with " + OPTION + " yet: it still needs the local data directory's "
                + "engine (issue 20); nothing was changed");
    }

    /** What is refused or left off on a shared engine. */
    public static List<String> refused() {
        return REFUSED;
    }
}
