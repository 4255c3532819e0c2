package io.tetradb.core.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The unique-key claims of one transactional batch on a shared engine, sent at once and settled together
 * ({@link FaceUniqueIndexes.Changes}): each claim is still its own conditional write on its own owner record
 * ({@link SharedUniqueOwners#claim}), decided exactly as before (one winner per value); only the waits overlap, so a
 * Mongo {@code insertMany} or transaction of n new keys waits about one Paxos round instead of n in a row. Two claims
 * of one key in the batch (a key freed and taken again) still go one after the other.
 */
final class BatchUniqueClaims {
    /** Claims are waits on the engine (Cassandra round trips), not CPU: a few threads serve every batch. */
    private static final ExecutorService SENDERS = Executors.newFixedThreadPool(16, r -> {
        Thread t = new Thread(r, "unique-claims");
        t.setDaemon(true);
        return t;
    });

    private record Pending(ByteBuffer entry, int operation, CompletableFuture<SharedUniqueOwners.Record> claim) {
    }

    /** A claim that failed: the batch's operation that made it and why (a violation, or the engine's failure). */
    record Failure(int operation, RuntimeException error) {
    }

    private final List<Pending> pending = new ArrayList<>();
    private final Map<ByteBuffer, Pending> latest = new HashMap<>();

    /** Sends a claim of {@code entry} for operation {@code operation}; an earlier claim of the same key is awaited. */
    void send(ByteBuffer entry, int operation, Supplier<SharedUniqueOwners.Record> claim) {
        Pending before = latest.get(entry);
        CompletableFuture<SharedUniqueOwners.Record> f = before == null
                ? CompletableFuture.supplyAsync(claim, SENDERS)
                : before.claim().handleAsync((r, e) -> claim.get(), SENDERS);
        Pending p = new Pending(entry, operation, f);
        pending.add(p);
        latest.put(entry, p);
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /**
     * Waits for every claim sent; the records won go into {@code claims} (to keep, or release if the batch fails),
     * and the failure of the earliest operation, if any, is returned.
     */
    Failure settleInto(Map<ByteBuffer, SharedUniqueOwners.Record> claims) {
        Failure first = null;
        for (Pending p : pending) {
            try {
                claims.put(p.entry(), p.claim().join());
            } catch (CompletionException e) {
                RuntimeException why = e.getCause() instanceof RuntimeException re ? re : e;
                if (first == null || p.operation() < first.operation()) {
                    first = new Failure(p.operation(), why);
                }
            }
        }
        pending.clear();
        latest.clear();
        return first;
    }
}
