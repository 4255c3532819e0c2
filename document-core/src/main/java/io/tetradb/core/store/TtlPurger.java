package io.tetradb.core.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Deletes expired items in the background (Cosmos DB and MongoDB both purge in the background; until then the items
 * are already invisible). It takes the expiry index's earliest entries in small batches, one short transaction per
 * logical partition, and never more than {@link #maxItemsPerSecond()} a second, so foreground writers of a partition
 * wait at most one small batch. Its counters are what the metrics report shows.
 */
public final class TtlPurger {
    /**
     * Expired entries taken per container per round (deleted in transactions of at most 128 per partition; system
     * property {@code tetradb.ttl.purgeBatch}).
     */
    static final int BATCH = Integer.getInteger("tetradb.ttl.purgeBatch", 2048);
    private static final long IDLE_NANOS = 200_000_000L;

    private final CoreStore store;
    private final AtomicLong purged = new AtomicLong();
    private final AtomicLong rounds = new AtomicLong();
    private volatile int maxItemsPerSecond;
    private volatile long lastSecond;
    private volatile long purgedInLastSecond;
    private long windowStart;
    private long windowCount;
    private volatile boolean running;
    private Thread thread;

    TtlPurger(CoreStore store) {
        this.store = store;
        this.maxItemsPerSecond = Integer.getInteger("tetradb.ttl.purgeRate", 200_000);
        this.threads = Math.max(1, Integer.getInteger("tetradb.ttl.purgeThreads",
                Math.min(2, Runtime.getRuntime().availableProcessors())));
    }

    /** Threads deleting one round's partition chunks side by side (system property {@code tetradb.ttl.purgeThreads}). */
    private final int threads;
    /** Helpers of the purging thread (threads − 1 of them), made at the first round that has work for them. */
    private java.util.concurrent.ExecutorService helpers;

    /**
     * Runs one round's chunks (each one transaction in one logical partition, under its lock) on the purging thread
     * and its helpers; returns how many items they deleted. A failing chunk fails the round after the others ended.
     */
    int runChunks(List<java.util.concurrent.Callable<Integer>> chunks) {
        int n = 0;
        java.util.concurrent.ExecutorService pool = threads == 1 || chunks.size() == 1 ? null : helpers();
        if (pool == null) {
            for (java.util.concurrent.Callable<Integer> c : chunks) {
                n += call(c);
            }
            return n;
        }
        List<java.util.concurrent.Future<Integer>> futures = new ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Callable<Integer> worker = () -> { // each worker takes the next chunk until none is left
            int done = 0;
            for (int i = next.getAndIncrement(); i < chunks.size(); i = next.getAndIncrement()) {
                done += call(chunks.get(i));
            }
            return done;
        };
        for (int t = 1; t < threads; t++) {
            futures.add(pool.submit(worker));
        }
        RuntimeException failed = null;
        try {
            n += worker.call();
        } catch (RuntimeException e) {
            failed = e;
        } catch (Exception e) {
            failed = new IllegalStateException(e);
        }
        for (java.util.concurrent.Future<Integer> f : futures) {
            try {
                n += f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                failed = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failed = new IllegalStateException(e);
            }
        }
        if (failed != null) {
            throw failed;
        }
        return n;
    }

    private static int call(java.util.concurrent.Callable<Integer> c) {
        try {
            return c.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Guards {@link #helpers} (not the purger's monitor, which {@link #stop()} holds while it joins the thread). */
    private final Object helpersLock = new Object();

    private java.util.concurrent.ExecutorService helpers() {
        synchronized (helpersLock) {
            if (!running) {
                return null; // stopped: the chunks run on the calling thread, no pool is made again
            }
            if (helpers == null) {
                java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
                helpers = java.util.concurrent.Executors.newFixedThreadPool(threads - 1, r -> {
                    Thread t = new Thread(r, "tetradb-ttl-purger-helper-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
            }
            return helpers;
        }
    }

    /** The most items deleted per second (default 200,000; system property {@code tetradb.ttl.purgeRate}). */
    public int maxItemsPerSecond() {
        return maxItemsPerSecond;
    }

    public void maxItemsPerSecond(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("the purge rate must be at least 1 item per second");
        }
        maxItemsPerSecond = n;
    }

    /** Items deleted because they expired since the store opened. */
    public long purgedTotal() {
        return purged.get();
    }

    /** Items deleted in the last whole second the purger worked through. */
    public long purgedLastSecond() {
        return System.nanoTime() / 1_000_000_000L - lastSecond > 1 ? 0 : purgedInLastSecond;
    }

    /** Rounds over the containers so far (each round purges what has expired, within the rate). */
    public long rounds() {
        return rounds.get();
    }

    /** True while the purging thread runs (on a shared engine too, through the contracts: TtlContractPath). */
    public synchronized boolean isRunning() {
        return running;
    }

    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::loop, "tetradb-ttl-purger");
        thread.setDaemon(true);
        thread.start();
    }

    synchronized void stop() {
        running = false;
        synchronized (helpersLock) {
            if (helpers != null) {
                helpers.shutdown(); // after the round in progress: the purging thread waits for its helpers
                helpers = null;
            }
        }
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    /** Wakes the purger now (a test moved the clock, or an index changed). */
    public void nudge() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Purges everything expired by the store's clock now, in the caller's thread and within no rate (for tests and
     * tools); returns how many items it deleted.
     */
    public long purgeNow() {
        long n = 0;
        while (true) {
            long round = round(Integer.MAX_VALUE);
            n += round;
            if (round == 0) {
                return n;
            }
        }
    }

    private void loop() {
        while (running) {
            long n;
            try {
                n = round(allowance());
            } catch (RuntimeException e) {
                n = 0; // a container deleted or the store closing meanwhile: the next round sees it
            }
            if (n == 0) {
                LockSupport.parkNanos(IDLE_NANOS);
            } else {
                Thread.yield(); // let foreground writers at the partitions between batches
            }
        }
    }

    /** How many items this second still allows; waits for the next second when none. */
    private int allowance() {
        while (running) {
            long sec = System.nanoTime() / 1_000_000_000L;
            synchronized (this) {
                if (sec != windowStart) {
                    windowStart = sec;
                    windowCount = 0;
                }
                long left = maxItemsPerSecond - windowCount;
                if (left > 0) {
                    return (int) Math.min(left, Integer.MAX_VALUE);
                }
            }
            LockSupport.parkNanos(1_000_000_000L - System.nanoTime() % 1_000_000_000L);
        }
        return 0;
    }

    /** One pass over the containers, each purging at most a batch; returns how many items it deleted. */
    private long round(int allowance) {
        long n = 0;
        for (ContainerStore c : containers()) {
            int max = (int) Math.min(BATCH, allowance - n);
            if (max <= 0) {
                break;
            }
            n += c.purgeExpired(store.config().clock().millis(), max);
        }
        rounds.incrementAndGet();
        if (n > 0) {
            count(n);
        }
        return n;
    }

    private synchronized void count(long n) {
        purged.addAndGet(n);
        long sec = System.nanoTime() / 1_000_000_000L;
        if (sec != windowStart) {
            windowStart = sec;
            windowCount = 0;
        }
        windowCount += n;
        lastSecond = sec;
        purgedInLastSecond = windowCount;
        notifyAll();
    }

    /**
     * For tests and tools: waits until at least {@code total} items were purged since the store opened (by the
     * background purger or {@link #purgeNow()}), at most {@code timeout}; returns the total then.
     */
    public synchronized long awaitPurgedTotal(long total, java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        nudge();
        while (purged.get() < total) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return purged.get();
    }

    /** The store's containers as last listed, with the catalog version they were listed at. */
    private record Listing(long version, List<ContainerStore> containers) {
    }

    private volatile Listing listing;
    private final AtomicLong listings = new AtomicLong();

    /** How often the purger listed (and parsed) the container definitions since the store opened (for tests). */
    long containerListings() {
        return listings.get();
    }

    /**
     * The containers with an expiry rule now. The definitions are listed (a META scan and a Jackson parse each) only
     * when the catalog changed since the last listing; the rule is asked every round, as it changes in place.
     */
    private List<ContainerStore> containers() {
        long version = store.catalogVersion(); // read before listing: a change meanwhile lists again next round
        Listing l = listing;
        if (l == null || l.version() != version) {
            l = new Listing(version, listAll());
            listing = l;
        }
        List<ContainerStore> out = new ArrayList<>();
        for (ContainerStore cs : l.containers()) {
            if (cs.expiryRule().active()) {
                out.add(cs);
            }
        }
        return out;
    }

    private List<ContainerStore> listAll() {
        listings.incrementAndGet();
        List<ContainerStore> out = new ArrayList<>();
        for (DatabaseDefinition db : store.listDatabases()) {
            try {
                for (ContainerDefinition c : store.listContainers(db.id())) {
                    try {
                        out.add(store.container(db.id(), c.id()));
                    } catch (RuntimeException gone) {
                        // deleted meanwhile
                    }
                }
            } catch (RuntimeException gone) {
                // database deleted meanwhile
            }
        }
        return out;
    }
}
