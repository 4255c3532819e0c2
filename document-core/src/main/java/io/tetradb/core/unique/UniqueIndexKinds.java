package io.tetradb.core.unique;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kinds of face-defined unique indexes this store can compute keys for, registered by the faces when they start
 * (the Mongo face registers {@code mongo}). A container holding an index of an unregistered kind refuses writes
 * (503) rather than let its stored keys go stale.
 */
public final class UniqueIndexKinds {
    private final Map<String, UniqueIndexKind> kinds = new ConcurrentHashMap<>();

    public void register(String kind, UniqueIndexKind factory) {
        kinds.put(kind, factory);
    }

    /** The factory of {@code kind}, or null. */
    public UniqueIndexKind get(String kind) {
        return kinds.get(kind);
    }
}
