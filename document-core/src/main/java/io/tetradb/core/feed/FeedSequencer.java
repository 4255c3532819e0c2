package io.tetradb.core.feed;

/**
 * The store-wide feed sequence. Writers take numbers under their partition lock and give them back once their batch
 * is applied (and durable, when they wait for that); readers read only up to {@link #stable()}, the highest number
 * below which no batch is still in flight, so a reader that resumes after position n never misses a change that
 * commits later with a smaller number.
 */
final class FeedSequencer {
    static final int INITIAL_CAPACITY = 16;
    /** The largest ring kept once empty (≈ 12–16 KB): steady concurrent writers never grow past it. */
    static final int KEPT_CAPACITY = 1024;

    private long last;
    /**
     * The batches in flight, oldest first: a ring of their first numbers (ascending: numbers are taken in order) and
     * what to do at each one's release ({@link #NOTHING}; null once released). pw-next: a point write's allocation and
     * release were a tree map's entry and two boxed numbers. Released batches behind an unreleased one stay until it
     * goes, so the ring's head is always the smallest batch in flight; a ring grown past {@value #KEPT_CAPACITY}
     * slots behind a long batch (a bulk chunk) goes back to {@value #INITIAL_CAPACITY} once it empties.
     */
    private long[] firsts = new long[INITIAL_CAPACITY];
    private OnRelease[] actions = new OnRelease[INITIAL_CAPACITY];
    private int head;
    private int size;

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
        java.util.Objects.requireNonNull(onRelease); // null marks a released batch
        long first = last + 1;
        last += count;
        if (size == firsts.length) {
            grow();
        }
        int at = (head + size++) & (firsts.length - 1);
        firsts[at] = first;
        actions[at] = onRelease;
        return first;
    }

    private void grow() {
        long[] f = new long[firsts.length * 2];
        OnRelease[] a = new OnRelease[f.length];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & (firsts.length - 1);
            f[i] = firsts[from];
            a[i] = actions[from];
        }
        firsts = f;
        actions = a;
        head = 0;
    }

    /** The ring slot of the batch in flight that took {@code first}, or -1 (binary search: firsts ascend). */
    private int slotOf(long first) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long f = firsts[(head + mid) & (firsts.length - 1)];
            if (f < first) {
                lo = mid + 1;
            } else if (f > first) {
                hi = mid - 1;
            } else {
                return (head + mid) & (firsts.length - 1);
            }
        }
        return -1;
    }

    /** The batch that took {@code first} is applied. */
    synchronized void release(long first) {
        release(first, true);
    }

    /** The batch that took {@code first} is applied, or ({@code applied} false) abandoned or failed. */
    synchronized void release(long first, boolean applied) {
        int at = slotOf(first);
        OnRelease onRelease = at < 0 ? null : actions[at];
        if (onRelease != null) {
            actions[at] = null; // released: a second release of it does nothing
            while (size > 0 && actions[head] == null) { // the released batches at the head leave
                head = (head + 1) & (firsts.length - 1);
                size--;
            }
            if (size == 0 && firsts.length > KEPT_CAPACITY) {
                firsts = new long[INITIAL_CAPACITY];
                actions = new OnRelease[INITIAL_CAPACITY];
                head = 0;
            }
            onRelease.released(applied);
        }
        notifyAll();
    }

    /** Every change numbered up to this is applied (or will never be). */
    synchronized long stable() {
        return size == 0 ? last : firsts[head] - 1;
    }

    /** The ring's slots (a test sees it shrink after a long batch). */
    synchronized int capacity() {
        return firsts.length;
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
