package io.tetradb.core.feed;

import java.util.ArrayList;
import java.util.List;

/**
 * What the commit path tells the {@link FeedPruner} about one container's new change records, so that a pass need not
 * read them back: each applied transaction's records (without their images) are appended here before its feed ticket
 * is released, that is before the stable position passes them. A pass that finds every record after its position here
 * ({@link #take}) reads none of them from the store.
 *
 * <p>Bounded: past {@link #capacity} notes the queue is dropped, and the notes it held are lost; so are a transaction's
 * whose apply failed (it may or may not have been written). Every record whose note is missing is numbered at or below
 * {@link #coveredAfter}, and a pass whose position is below that reads the records from the store, as without notes.
 * A restart starts with no notes (the first pass reads the whole feed anyway).
 *
 * <p>notes-ab: a transaction of creates only, in a container with no replace or delete since the pruner's last pass,
 * keeps no note ({@link #skipped}): a create supersedes nothing, so the pruner has no pass to make for it, and
 * registering every created item (what the notes cost on create-only workloads) is put off until a replace or delete
 * makes a pass, which then reads those records from the store, as a pass did without notes.
 */
final class PrunerNotes {
    private final int capacity;
    private final Runnable wakePruner;
    /** Notes of applied records, in release order (numbers ascend within a transaction, not across them). */
    private ArrayList<ChangeRecord> queue = new ArrayList<>();
    /** Every applied record numbered above this has its note in the queue, or had it until a pass took it. */
    private long coveredAfter;
    /**
     * Creates numbered up to here were {@link #skipped}: like {@link #coveredAfter}, but raised without the lock, by
     * the writers of creates (one atomic max per transaction).
     */
    private final java.util.concurrent.atomic.AtomicLong skippedUpTo = new java.util.concurrent.atomic.AtomicLong();
    private boolean wokeUp;

    PrunerNotes(long coveredAfter, int capacity, Runnable wakePruner) {
        this.coveredAfter = coveredAfter;
        this.capacity = capacity;
        this.wakePruner = wakePruner;
    }

    /** A transaction's records are applied: called before its ticket is released. */
    synchronized void applied(List<ChangeRecord> notes) {
        if (queue.size() + notes.size() > capacity) {
            lost(notes.get(notes.size() - 1).seq());
            return;
        }
        queue.addAll(notes);
        if (!wokeUp && queue.size() >= capacity / 2) {
            wokeUp = true; // half full: let the pruner take them before they are dropped
            wakePruner.run();
        }
    }

    /**
     * A transaction of creates numbered up to {@code upTo} keeps no note: passes below it read the records instead.
     * Called before its ticket is released (so before a pass may take notes past it).
     */
    void skipped(long upTo) {
        skippedUpTo.accumulateAndGet(upTo, Math::max);
    }

    /**
     * The notes numbered up to {@code upTo} are lost (a failed apply's, or a full queue's): passes below it read the
     * records instead.
     */
    synchronized void lost(long upTo) {
        long highest = upTo;
        for (ChangeRecord r : queue) {
            highest = Math.max(highest, r.seq());
        }
        coveredAfter = Math.max(coveredAfter, highest);
        queue = new ArrayList<>();
        wokeUp = false;
    }

    /** Records numbered above this have their notes here (or had them until a pass took them). */
    synchronized long unnotedUpTo() {
        return Math.max(coveredAfter, skippedUpTo.get());
    }

    /**
     * Every record of the container ever applied was made in this run and noted here or {@link #skipped}, none lost:
     * a pass sees each of them, the skipped ones read from the store ({@link #take} refuses ranges holding them).
     */
    synchronized boolean coversFromStart() {
        return coveredAfter == 0;
    }

    /**
     * graph-load: every record of the container numbered in {@code (after, upTo]} is a create kept without a note
     * ({@link #skipped}): none lost, none noted, at least one skipped. Such records supersede and delete nothing, so a
     * pass may leave them unread until a noted record (a replace, a delete, a create after one) follows them; the pass
     * that record makes reads them from the store. {@code upTo} must be stable.
     */
    synchronized boolean onlySkippedCreatesIn(long after, long upTo) {
        if (after < coveredAfter || skippedUpTo.get() <= after) {
            return false;
        }
        for (ChangeRecord r : queue) {
            if (r.seq() > after && r.seq() <= upTo) {
                return false;
            }
        }
        return true;
    }

    /** Half full or more: worth a pass even when nothing was replaced or deleted. */
    synchronized boolean pressing() {
        return queue.size() >= capacity / 2 && capacity > 0;
    }

    synchronized int size() {
        return queue.size();
    }

    /**
     * The records numbered in {@code (after, upTo]} in sequence order, taken out of the queue (with any at or below
     * {@code after}), or null when some of them may have no note: the caller reads them from the store.
     * {@code upTo} must be stable (every record up to it released), so that all their notes are here.
     */
    synchronized List<ChangeRecord> take(long after, long upTo) {
        if (after < coveredAfter || after < skippedUpTo.get()) {
            return null;
        }
        List<ChangeRecord> out = new ArrayList<>();
        ArrayList<ChangeRecord> left = new ArrayList<>();
        for (ChangeRecord r : queue) {
            if (r.seq() > upTo) {
                left.add(r);
            } else if (r.seq() > after) {
                out.add(r);
            }
        }
        queue = left;
        wokeUp = false;
        out.sort((a, b) -> Long.compare(a.seq(), b.seq()));
        return out;
    }
}
