package io.tetradb.core.store;

import io.tetradb.core.StoreException;

/**
 * A transaction gave its unique-key claims up to an older transaction's pending claim (wait-die,
 * {@link UniqueClaimant}): nothing was written and its claims are released; 449, run it again (the faces do:
 * {@link PartitionRaceRetry}, the Cosmos SDKs). Thrown out of a batch whole, not as one operation's failure.
 */
public final class UniqueClaimYielded extends StoreException {
    private final transient UniqueClaimant claimant;

    UniqueClaimYielded(UniqueClaimant claimant) {
        super(PartitionCommit.RETRY_WITH, "a unique key of this transaction is claimed by an older transaction "
                + "still writing; nothing was written, retry the operation");
        this.claimant = claimant;
    }

    /**
     * Once the transaction's claims are released and no lock is held: waits (bounded by the claim lease) until the
     * older claim it gave way to is settled, so a retry at once does not take the older one's next keys first again.
     */
    void awaitOlder() {
        claimant.awaitOlder();
    }
}
