package io.tetradb.core.consistency;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.Locale;

/**
 * Cosmos DB's five consistency levels, strongest first. TetraDB is one replica, so every level reads the same data;
 * what a level changes is what Cosmos DB charges: a strong or bounded-staleness read reads two replicas (a quorum)
 * and costs twice the request units of a session, consistent-prefix or eventual read.
 */
public enum ConsistencyLevel {
    STRONG("Strong"),
    BOUNDED_STALENESS("BoundedStaleness"),
    SESSION("Session"),
    CONSISTENT_PREFIX("ConsistentPrefix"),
    EVENTUAL("Eventual");

    private final String cosmosName;

    ConsistencyLevel(String cosmosName) {
        this.cosmosName = cosmosName;
    }

    /** The name Cosmos DB uses in headers and the account document ({@code BoundedStaleness}). */
    public String cosmosName() {
        return cosmosName;
    }

    /** Whether this level gives stronger guarantees than {@code other}. */
    public boolean isStrongerThan(ConsistencyLevel other) {
        return ordinal() < other.ordinal();
    }

    /** The factor on a read's request charge: 2 for the quorum reads of strong and bounded staleness, else 1. */
    public int readChargeFactor() {
        return this == STRONG || this == BOUNDED_STALENESS ? 2 : 1;
    }

    /**
     * A level by its Cosmos name ({@code Strong}, {@code BoundedStaleness}, {@code Session}, {@code ConsistentPrefix},
     * {@code Eventual}; case and underscores are ignored, so {@code BOUNDED_STALENESS} works too); null gives null.
     * Anything else is 400.
     */
    public static ConsistencyLevel parse(String name) {
        if (name == null) {
            return null;
        }
        String key = name.trim().replace("_", "").toLowerCase(Locale.ROOT);
        for (ConsistencyLevel level : values()) {
            if (level.cosmosName.toLowerCase(Locale.ROOT).equals(key)) {
                return level;
            }
        }
        throw new StoreException(Status.BAD_REQUEST, "Invalid consistency level '" + name + "': expected one of "
                + "Strong, BoundedStaleness, Session, ConsistentPrefix, Eventual.");
    }

    @Override
    public String toString() {
        return cosmosName;
    }
}
