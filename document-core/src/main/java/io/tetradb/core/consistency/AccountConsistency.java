package io.tetradb.core.consistency;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.Objects;

/**
 * The account's default consistency level (Session unless set, as in the Cosmos DB emulator) and the rule for a
 * request's own level: it may only weaken the account's. Reads without a level of their own (every face but the
 * Cosmos ones, which can send one) read at the account's level.
 */
public final class AccountConsistency {
    private volatile ConsistencyLevel defaultLevel = ConsistencyLevel.SESSION;

    public ConsistencyLevel defaultLevel() {
        return defaultLevel;
    }

    public void setDefaultLevel(ConsistencyLevel level) {
        defaultLevel = Objects.requireNonNull(level, "the account's consistency level");
    }

    /**
     * The level a request reads at: its own ({@code requested}) or, when null, the account's. A level stronger than
     * the account's is 400 with Cosmos DB's message.
     */
    public ConsistencyLevel resolve(ConsistencyLevel requested) {
        ConsistencyLevel account = defaultLevel;
        if (requested == null) {
            return account;
        }
        if (requested.isStrongerThan(account)) {
            throw new StoreException(Status.BAD_REQUEST, "ConsistencyLevel " + requested.cosmosName()
                    + " specified in the request is invalid when service is configured with consistency level "
                    + account.cosmosName() + ". Ensure the request consistency level is not stronger than the "
                    + "service consistency level.");
        }
        return requested;
    }

    /** The factor on a read's charge at the level {@link #resolve} gives (400 for a level too strong). */
    public int readChargeFactor(ConsistencyLevel requested) {
        return resolve(requested).readChargeFactor();
    }
}
