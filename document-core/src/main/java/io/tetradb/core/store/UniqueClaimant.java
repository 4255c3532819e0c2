package io.tetradb.core.store;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One transaction claiming unique keys on a shared engine ({@link SharedUniqueOwners}), with its <b>age</b> for
 * wait-die: taken when the transaction starts (wall-clock microseconds and a random tail, comparable between servers;
 * ties broken by the claimant's address), written into every owner record it claims. A claimant meeting another
 * transaction's pending claim waits if it is the older one (bounded by the claim's lease, then it fences); the younger
 * one gives up at once ({@link UniqueClaimYielded}, 449, its claims released) — but only while it holds a claim of
 * its own: a claimant holding no record is waited on by nobody, so its wait closes no cycle, and single-key writers
 * keep their outcome (wait, then 409). Every cycle of waits has a youngest member holding a record, which gives up.
 */
final class UniqueClaimant {
    /** The age of records written before ages existed, and of index builds: the oldest, always waited for. */
    static final long OLDEST = Long.MIN_VALUE;

    private final long age;
    private final AtomicInteger held = new AtomicInteger();
    private volatile boolean yielded;
    /** After giving way: waits until the older claim is settled (see {@link UniqueClaimYielded#awaitOlder}). */
    private volatile Runnable olderSettled;

    private UniqueClaimant(long age) {
        this.age = age;
    }

    /** A transaction starting now. */
    static UniqueClaimant startingNow() {
        return new UniqueClaimant(System.currentTimeMillis() * 1_000L + ThreadLocalRandom.current().nextInt(1_000));
    }

    /** A claimant that never gives up (an index build: its records are of stored items, live at once). */
    static UniqueClaimant oldest() {
        return new UniqueClaimant(OLDEST);
    }

    long age() {
        return age;
    }

    /** A record claimed (or found claimed already) for this transaction. */
    void won() {
        held.incrementAndGet();
    }

    /** Gave way to an older claim: {@code settled} waits for it (run once this transaction's claims are released). */
    void gaveWayTo(Runnable settled) {
        olderSettled = settled;
    }

    void awaitOlder() {
        Runnable r = olderSettled;
        if (r != null) {
            r.run();
        }
    }

    /** Whether this transaction already gave up (another of its claims met an older one). */
    boolean yielded() {
        return yielded;
    }

    /**
     * Wait-die: whether this claimant ({@code self}) must give up rather than wait for a pending claim of age
     * {@code otherAge} by {@code other}. Gives up only when younger and holding a record; marks itself yielded then.
     */
    boolean mustYieldTo(long otherAge, byte[] self, byte[] other) {
        if (age == OLDEST || held.get() == 0) {
            return false;
        }
        boolean younger = age != otherAge ? age > otherAge : Arrays.compareUnsigned(self, other) > 0;
        if (younger) {
            yielded = true;
        }
        return younger;
    }
}
