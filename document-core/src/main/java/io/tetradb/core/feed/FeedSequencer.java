package io.tetradb.core.feed;

import java.util.TreeMap;

/**
 * The store-wide feed sequence. Writers take numbers under their partition lock and give them back once their batch
 * is applied (and durable, when they wait for that); readers read only up to {@link #stable()}, the highest number
 * below which no batch is still in flight, so a reader that resumes after position n never misses a change that
 * commits later with a smaller number.
 */
final class FeedSequencer {
    private long last;
    /** First number of each batch in flight → what to do at its release ({@link #NOTHING}; a map keeps the smallest handy). */
    private final TreeMap<Long, OnRelease> inFlight = new TreeMap<>();

    /** Run when a batch's numbers are given back, before readers may read past them (the pruner's notes). */
    interface OnRelease {
        void released(boolean applied);
    }

    private static final OnRelease NOTHING = applied -> { };

    FeedSequencer(long last) {
        this.last = last;
    }

    /** Takes {@code count} consecutive numbers; returns the first. Must be {@link #release(long) released}. */
    synchronized long allocate(int count) {
        return allocate(count, NOTHING);
    }

    /** As {@link #allocate(int)}; {@code onRelease} runs at the release, before {@link #stable()} passes the batch. */
    synchronized long allocate(int count, OnRelease onRelease) {
        long first = last + 1;
        last += count;
        inFlight.put(first, onRelease);
        return first;
    }

    /** The batch that took {@code first} is applied. */
    synchronized void release(long first) {
        release(first, true);
    }

    /** The batch that took {@code first} is applied, or ({@code applied} false) abandoned or failed. */
    synchronized void release(long first, boolean applied) {
        OnRelease onRelease = inFlight.remove(first);
        if (onRelease != null) {
            onRelease.released(applied);
        }
        notifyAll();
    }

    /** Every change numbered up to this is applied (or will never be). */
    synchronized long stable() {
        return inFlight.isEmpty() ? last : inFlight.firstKey() - 1;
    }

    synchronized long last() {
        return last;
    }

    /** Raises the counter (recovery: the highest number found in a container's feed). */
    synchronized void atLeast(long seq) {
        if (seq > last) {
            last = seq;
        }
    }

    /** Waits until {@link #stable()} passes {@code seq} or the time runs out; returns the stable position. */
    synchronized long awaitBeyond(long seq, long maxMillis) throws InterruptedException {
        long deadline = System.nanoTime() + maxMillis * 1_000_000;
        long s;
        while ((s = stable()) <= seq) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return s;
    }
}
