package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.partition.EpkRange;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The change feed processor: one lease per feed range, stored as an item of the lease container
 * ({@code {id, LeaseToken, FeedRange, ContinuationToken, Owner, timestamp}}), taken and renewed with etag
 * conditions. A balancer thread takes expired leases and steals from hosts that own more than their share; one
 * worker thread per owned lease reads its range, calls the handler and then saves the continuation in the lease.
 * A lease whose range split is split into one lease per child range, each starting from the parent's position.
 */
final class LeasedChangeFeedProcessor implements ChangeFeedProcessor {
    private static final Logger LOG = Logger.getLogger(LeasedChangeFeedProcessor.class.getName());
    private static final String OWNER = "Owner";
    private static final String CONTINUATION = "ContinuationToken";
    private static final String TIMESTAMP = "timestamp";
    /**
     * How long a caught-up worker lets changes gather after the first new one commits. Each handled batch costs a
     * lease write (the checkpoint); without the window a steady trickle of writes would double the store's writes.
     */
    static final long BATCH_WINDOW_MILLIS = 5;
    /**
     * At most how often a busy worker checkpoints its lease. Each checkpoint is a lease write (index entries, a change
     * record of the lease container) that cost a fifth of the processor's CPU when written after every page; a crash
     * redelivers at most this much more (at-least-once holds: the position saved is always one already handled).
     * An idle worker, a renewal, a release and a split save the handled position at once.
     */
    static final long CHECKPOINT_INTERVAL_MILLIS = 100;

    private final String host;
    private final CosmosContainer feed;
    private final CosmosContainer leases;
    private final Consumer<List<JsonNode>> handler;
    private final boolean allVersionsAndDeletes;
    private final ChangeFeedProcessorOptions options;
    private final String prefix;
    private final Map<String, Worker> workers = new ConcurrentHashMap<>();
    /** {@link #CHECKPOINT_INTERVAL_MILLIS}, longer in tests that need a busy worker's lease to stay behind. */
    private volatile long checkpointIntervalMillis = CHECKPOINT_INTERVAL_MILLIS;
    private volatile boolean running;
    private Thread balancer;
    /**
     * The ids of this prefix's leases as the balancer last listed them; between listings a pass reads these by point
     * reads (see {@link #leasesToBalance()}). Touched by the balancer thread only.
     */
    private List<String> knownLeaseIds;
    private int passesSinceListing;
    /** How many times the leases were listed with a query, and balancing passes made (for tests). */
    private final java.util.concurrent.atomic.AtomicInteger leaseListings = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger balancingPasses = new java.util.concurrent.atomic.AtomicInteger();
    /** A pass lists the leases with a query at least this often, whatever its point reads found. */
    static final int PASSES_PER_LISTING = 16;

    LeasedChangeFeedProcessor(String host, CosmosContainer feed, CosmosContainer leases,
                              Consumer<List<JsonNode>> handler, boolean allVersionsAndDeletes,
                              ChangeFeedProcessorOptions options) {
        this.host = host;
        this.feed = feed;
        this.leases = leases;
        this.handler = handler;
        this.allVersionsAndDeletes = allVersionsAndDeletes;
        this.options = options;
        this.prefix = options.getLeasePrefix() + feed.getDatabase().getId() + "." + feed.getId() + "..";
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        createMissingLeases();
        running = true;
        balancer = new Thread(this::balanceLoop, "tetradb-cfp-" + host);
        balancer.setDaemon(true);
        balancer.start();
    }

    @Override
    public synchronized void stop() {
        halt(true);
    }

    /** For crash tests: stops every thread at once and leaves the leases as they are (owned, to expire). */
    synchronized void kill() {
        halt(false);
    }

    private void halt(boolean releaseLeases) {
        if (!running) {
            return;
        }
        running = false;
        balancer.interrupt();
        join(balancer);
        for (Worker w : new ArrayList<>(workers.values())) {
            w.stop();
            if (releaseLeases) {
                w.release();
            }
        }
        workers.clear();
    }

    // ---- lease-cursor hook: a large cursor stored in the metadata, its id in the lease (FeedCursorTokens) ----
    private io.tetradb.core.feed.FeedCursorTokens cursorTokens() {
        return feed.cursorTokens();
    }

    private ChangeFeedContinuation decodeLease(String token) {
        return ChangeFeedContinuation.decode(token, cursorTokens());
    }
    // ---- end lease-cursor hook ----

    @Override
    public boolean isStarted() {
        return running;
    }

    /**
     * Changes after each lease's position. For a lease this host works on, the position is its worker's handled one
     * (in memory): a busy worker checkpoints at most every {@link #CHECKPOINT_INTERVAL_MILLIS}, so its lease may be
     * that far behind what it handled. Other hosts' leases count from their saved continuation.
     */
    @Override
    public Map<String, Integer> getEstimatedLag() {
        return estimatedLag(true);
    }

    /** As {@link #getEstimatedLag()} with every lease counted from its saved continuation (for tests). */
    Map<String, Integer> estimatedLagOfSavedLeases() {
        return estimatedLag(false);
    }

    private Map<String, Integer> estimatedLag(boolean ownPositions) {
        Map<String, Integer> lag = new HashMap<>();
        for (ObjectNode lease : readLeases()) {
            Worker w = ownPositions ? workers.get(lease.path("id").asText()) : null;
            ChangeFeedContinuation from = w != null ? w.handled() : null;
            if (from == null) {
                String token = lease.path(CONTINUATION).asText(null);
                if (token == null) {
                    continue;
                }
                from = decodeLease(token);
            }
            ChangeFeedContinuation at = from;
            lag.put(lease.path("LeaseToken").asText(), CosmosException.call(() -> feed.countChangesAfter(at)));
        }
        return lag;
    }

    /** For tests: how often a busy worker checkpoints (default {@link #CHECKPOINT_INTERVAL_MILLIS}). */
    void checkpointInterval(java.time.Duration interval) {
        checkpointIntervalMillis = interval.toMillis();
    }

    /** The ids of the leases this host works on now (for tests and tools). */
    Set<String> ownedLeases() {
        return new HashSet<>(workers.keySet());
    }

    // ---- leases ------------------------------------------------------------------------------------------------

    /** For tests: how many times the leases were listed with a query. */
    int leaseListings() {
        return leaseListings.get();
    }

    /** For tests: how many balancing passes were made. */
    int balancingPasses() {
        return balancingPasses.get();
    }

    /**
     * The leases a balancing pass works on. The lease container holds few items whose ids this host knows, so a pass
     * point-reads the leases it listed last time instead of running the listing query every interval (≈ a fifth of
     * the processor's CPU at short acquire intervals); it lists again when a known lease is gone (another host split
     * it), when the known leases no longer cover every current feed range (a range split; another host may have made
     * its lease), and every {@link #PASSES_PER_LISTING} passes. Leases of other hosts taken or released meanwhile show
     * in the point reads (owner, timestamp, etag).
     */
    private List<ObjectNode> leasesToBalance() {
        if (knownLeaseIds != null && passesSinceListing < PASSES_PER_LISTING) {
            List<ObjectNode> out = new ArrayList<>(knownLeaseIds.size());
            for (String id : knownLeaseIds) {
                ObjectNode lease = readLease(id);
                if (lease == null) {
                    out = null;
                    break;
                }
                out.add(lease);
            }
            if (out != null && uncoveredRanges(out).isEmpty()) {
                passesSinceListing++;
                return out;
            }
        }
        List<ObjectNode> all = readLeases();
        knownLeaseIds = all.stream().map(l -> l.path("id").asText()).toList();
        passesSinceListing = 0;
        return all;
    }

    private List<ObjectNode> readLeases() {
        leaseListings.incrementAndGet();
        List<ObjectNode> out = new ArrayList<>();
        leases.queryItems(new SqlQuerySpec("SELECT * FROM c WHERE STARTSWITH(c.id, @prefix)",
                new SqlParameter("@prefix", prefix)), new CosmosQueryRequestOptions(), ObjectNode.class)
                .forEach(out::add);
        return out;
    }

    /** One lease per current feed range that no lease covers yet, positioned at the configured start. */
    private void createMissingLeases() {
        createMissingLeases(readLeases());
    }

    /** As {@link #createMissingLeases()} given the leases read; true when it created any. */
    private boolean createMissingLeases(List<ObjectNode> existing) {
        List<FeedRange> missing = uncoveredRanges(existing);
        for (FeedRange r : missing) {
            createLease(r.range(), startToken(r));
        }
        return !missing.isEmpty();
    }

    /** The current feed ranges that no lease of {@code existing} covers. */
    private List<FeedRange> uncoveredRanges(List<ObjectNode> existing) {
        List<EpkRange> covered = existing.stream().map(LeasedChangeFeedProcessor::rangeOf).toList();
        List<FeedRange> missing = new ArrayList<>();
        for (FeedRange r : feed.getFeedRanges()) {
            boolean inside = covered.stream().anyMatch(c -> EpkRange.compare(c.min(), r.range().min()) <= 0
                    && EpkRange.compare(r.range().max(), c.max()) <= 0);
            if (!inside) {
                missing.add(r);
            }
        }
        return missing;
    }

    private String startToken(FeedRange r) {
        // all versions and deletes start from now, as in Cosmos DB
        CosmosChangeFeedRequestOptions o = allVersionsAndDeletes
                ? CosmosChangeFeedRequestOptions.createForProcessingFromNow(r).allVersionsAndDeletes()
                : options.getStartTime() != null
                ? CosmosChangeFeedRequestOptions.createForProcessingFromPointInTime(options.getStartTime(), r)
                : options.isStartFromBeginning() ? CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(r)
                : CosmosChangeFeedRequestOptions.createForProcessingFromNow(r);
        return CosmosException.call(() -> feed.startOf(o).encode(cursorTokens())); // a "now" cursor may be large
    }

    private void createLease(EpkRange range, String token) {
        String token2 = range.minHex() + "-" + range.maxHex();
        ObjectNode lease = JsonNodeFactory.instance.objectNode();
        lease.put("id", prefix + token2);
        lease.put("version", 1);
        lease.put("LeaseToken", token2);
        lease.putObject("FeedRange").putObject("EPKRange").put("min", range.minHex()).put("max", range.maxHex());
        lease.put(CONTINUATION, token);
        lease.putNull(OWNER);
        lease.put(TIMESTAMP, Instant.now().toString());
        try {
            leases.createItem(lease);
        } catch (CosmosException e) {
            if (e.getStatusCode() != Status.CONFLICT) {
                throw e; // 409: another host created it first
            }
        }
    }

    private static EpkRange rangeOf(JsonNode lease) {
        JsonNode r = lease.path("FeedRange").path("EPKRange");
        return EpkRange.ofHex(r.path("min").asText(), r.path("max").asText());
    }

    private boolean expired(JsonNode lease, Instant now) {
        JsonNode owner = lease.get(OWNER);
        if (owner == null || owner.isNull()) {
            return true;
        }
        Instant renewed = Instant.parse(lease.path(TIMESTAMP).asText(Instant.EPOCH.toString()));
        return renewed.plus(options.getLeaseExpirationInterval()).isBefore(now);
    }

    /**
     * A lease this host's worker holds, whatever its timestamp: its expiry lets other hosts take it from a host that
     * stopped renewing. A late renewal of this host's own (a loaded machine, a pause) must not make it take the lease
     * again: the new worker would start from the last checkpoint and the old one's handled position would be lost
     * (an idle worker stopped without its flush), so a later release would save a position behind what was handled.
     */
    private boolean workingOn(JsonNode lease) {
        return host.equals(lease.path(OWNER).asText(null)) && workers.containsKey(lease.path("id").asText());
    }

    private static String etagOf(JsonNode lease) {
        return lease.path("_etag").asText();
    }

    /** Replaces the lease if it still has {@code etag}; the new etag, or null when someone else changed it. */
    private String replaceLease(ObjectNode lease, String etag) {
        String id = lease.path("id").asText();
        try {
            return leases.replaceItem(lease, id, new PartitionKey(id),
                    new CosmosItemRequestOptions().setIfMatchETag(etag)).getETag();
        } catch (CosmosException e) {
            if (e.getStatusCode() == Status.PRECONDITION_FAILED || e.getStatusCode() == Status.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    /**
     * A checkpoint: the lease written with its etag check like {@link #replaceLease}, but not waited for until durable
     * (the store syncs it within a moment). A checkpoint lost to a crash only moves the lease back to the previous
     * one, so its changes are delivered again — the processor's at-least-once promise — and the feed's writers do not
     * share their fsyncs with a checkpoint per handled batch.
     */
    private String checkpointLease(ObjectNode lease, String etag) {
        String id = lease.path("id").asText();
        io.tetradb.core.store.ContainerStore store = leases.store();
        try {
            return store.execute(new PartitionKey(id).toValue(store.definition().partitionKey().levels()),
                    io.tetradb.core.store.ItemOperation.replace(id, lease.deepCopy(), etag),
                    store.deferredCommits()).etag();
        } catch (io.tetradb.core.StoreException e) {
            if (e.status() == Status.PRECONDITION_FAILED || e.status() == Status.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    private ObjectNode readLease(String id) {
        try {
            return leases.readItem(id, new PartitionKey(id), ObjectNode.class).getItem();
        } catch (CosmosException e) {
            if (e.getStatusCode() == Status.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    // ---- balancing ---------------------------------------------------------------------------------------------

    private void balanceLoop() {
        long nextAcquire = 0;
        long nextRenew = 0;
        while (running) {
            try {
                long now = System.currentTimeMillis();
                if (now >= nextRenew) {
                    for (Worker w : new ArrayList<>(workers.values())) {
                        w.renew();
                    }
                    nextRenew = now + options.getLeaseRenewInterval().toMillis();
                }
                if (now >= nextAcquire) {
                    balance();
                    nextAcquire = now + options.getLeaseAcquireInterval().toMillis();
                }
                Thread.sleep(Math.max(1, Math.min(nextAcquire, nextRenew) - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.log(Level.WARNING, "change feed processor " + host + ": balancing failed, retrying", e);
                try {
                    Thread.sleep(options.getLeaseAcquireInterval().toMillis());
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private void balance() {
        balancingPasses.incrementAndGet();
        List<ObjectNode> all = leasesToBalance();
        if (createMissingLeases(all)) {
            knownLeaseIds = null;
            all = leasesToBalance(); // one listing unless a lease was missing
        }
        Instant now = Instant.now();
        Map<String, List<ObjectNode>> byOwner = new HashMap<>();
        byOwner.put(host, new ArrayList<>());
        List<ObjectNode> free = new ArrayList<>();
        Set<String> present = new HashSet<>();
        for (ObjectNode l : all) {
            present.add(l.path("id").asText());
            if (expired(l, now) && !workingOn(l)) {
                free.add(l);
            } else {
                byOwner.computeIfAbsent(l.path(OWNER).asText(), o -> new ArrayList<>()).add(l);
            }
        }
        // workers whose lease another host took (or that is gone) stop
        Set<String> mine = new HashSet<>();
        byOwner.get(host).forEach(l -> mine.add(l.path("id").asText()));
        for (Worker w : new ArrayList<>(workers.values())) {
            if (!mine.contains(w.id) && !free.stream().anyMatch(l -> l.path("id").asText().equals(w.id))) {
                w.stop();
                workers.remove(w.id);
            }
        }
        if (splitOwnedLeases(byOwner.get(host))) {
            return; // the children are taken at the next pass
        }
        int target = (all.size() + byOwner.size() - 1) / byOwner.size();
        int owned = byOwner.get(host).size();
        // leases this host owns but has no worker for (it restarted within the expiry): resume them
        for (ObjectNode l : byOwner.get(host)) {
            if (!workers.containsKey(l.path("id").asText())) {
                take(l);
            }
        }
        Collections.shuffle(free);
        for (ObjectNode l : free) {
            if (owned >= target) {
                break;
            }
            if (take(l)) {
                owned++;
            }
        }
        if (owned < target) {
            // steal one lease from the busiest host that owns more than its share
            byOwner.entrySet().stream().filter(e -> !e.getKey().equals(host) && e.getValue().size() > target)
                    .max((a, b) -> Integer.compare(a.getValue().size(), b.getValue().size()))
                    .ifPresent(e -> take(e.getValue().get(0)));
        }
    }

    /** Takes a lease (owner = this host, renewed now) if nobody changed it meanwhile, and starts its worker. */
    private boolean take(ObjectNode lease) {
        ObjectNode mine = lease.deepCopy();
        mine.put(OWNER, host);
        mine.put(TIMESTAMP, Instant.now().toString());
        String etag = replaceLease(mine, etagOf(lease));
        if (etag == null) {
            return false;
        }
        Worker w = new Worker(mine, etag);
        Worker before = workers.put(w.id, w);
        if (before != null) {
            before.stop();
        }
        w.start();
        return true;
    }

    /** A lease of this host whose range now spans several feed ranges becomes one lease per child range. */
    private boolean splitOwnedLeases(List<ObjectNode> owned) {
        boolean split = false;
        List<FeedRange> current = feed.getFeedRanges();
        for (ObjectNode lease : owned) {
            EpkRange r = rangeOf(lease);
            List<FeedRange> children = current.stream().filter(c -> EpkRange.compare(r.min(), c.range().min()) <= 0
                    && EpkRange.compare(c.range().max(), r.max()) <= 0).toList();
            if (children.size() < 2) {
                continue;
            }
            String id = lease.path("id").asText();
            Worker w = workers.remove(id);
            if (w != null) {
                w.stop();
                w.flush(); // the children continue from the handled position, not the last checkpoint's
            }
            ObjectNode latest = readLease(id);
            if (latest == null || !host.equals(latest.path(OWNER).asText())) {
                continue;
            }
            ChangeFeedContinuation parent = decodeLease(latest.path(CONTINUATION).asText());
            for (FeedRange child : children) {
                createLease(child.range(), new ChangeFeedContinuation(parent.containerRid(), parent.mode(),
                        child.range(), parent.partitionKey(), parent.position(), parent.notBeforeMillis()).encode(cursorTokens()));
            }
            try {
                leases.deleteItem(id, new PartitionKey(id),
                        new CosmosItemRequestOptions().setIfMatchETag(etagOf(latest)));
            } catch (CosmosException e) {
                if (e.getStatusCode() != Status.PRECONDITION_FAILED && e.getStatusCode() != Status.NOT_FOUND) {
                    throw e;
                }
            }
            split = true;
            knownLeaseIds = null; // list the children at the next pass
        }
        return split;
    }

    private static void join(Thread t) {
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- one owned lease ---------------------------------------------------------------------------------------

    private final class Worker {
        final String id;
        /** The lease as last written by this host, and its etag; guarded by this worker. */
        private ObjectNode lease;
        private String etag;
        private volatile boolean stopped;
        private final Thread thread;

        Worker(ObjectNode lease, String etag) {
            this.id = lease.path("id").asText();
            this.lease = lease;
            this.etag = etag;
            this.thread = new Thread(this::run, "tetradb-cfp-" + host + "-" + lease.path("LeaseToken").asText());
            this.thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() {
            stopped = true;
            thread.interrupt();
            join(thread);
        }

        /** The position handled so far (the lease's continuation as an object); guarded by this worker. */
        private ChangeFeedContinuation position;
        /** Handled changes the lease does not hold yet (a checkpoint is due at most {@link #CHECKPOINT_INTERVAL_MILLIS} later). */
        private boolean pending;
        private long lastCheckpointNanos = System.nanoTime();

        /** The position handled so far, or null when this worker is stopped (its lease says where it stands). */
        synchronized ChangeFeedContinuation handled() {
            return stopped ? null : position();
        }

        private synchronized ChangeFeedContinuation position() {
            if (position == null) {
                position = decodeLease(lease.path(CONTINUATION).asText());
            }
            return position;
        }

        private void run() {
            ChangeFeedContinuation at = position();
            long pollDelay = options.getFeedPollDelay().toMillis();
            int maxItems = options.getMaxItemCount();
            while (!stopped && running) {
                try {
                    ChangeFeedContinuation from = at;
                    ChangeFeedBatch<JsonNode> page = CosmosException.call(
                            () -> feed.readChangeFeedBatch(from, maxItems, JsonNode.class));
                    if (!page.results().isEmpty()) {
                        handler.accept(page.results());
                    }
                    at = page.next();
                    if (!advance(at, !page.results().isEmpty())) {
                        return; // the lease went to another host: it continues from the saved position
                    }
                    if (page.drained() && !page.results().isEmpty()) {
                        // changes are flowing: let the next ones gather without waiting on the feed's monitor (a
                        // waiting reader is woken by the committing writer: a wake-up on the writer's path per page)
                        Thread.sleep(BATCH_WINDOW_MILLIS);
                    } else if (page.drained()) {
                        long waitFor = pendingFor(pollDelay);
                        long woke = feed.store().changeFeed().awaitBeyond(at.position(), waitFor);
                        if (woke > at.position()) {
                            // woken by a commit: let a few more gather, so one page covers a batch of changes
                            Thread.sleep(BATCH_WINDOW_MILLIS);
                        } else if (!flush()) {
                            return; // idle: the handled position is saved now
                        }
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    if (stopped || !running) {
                        return;
                    }
                    // a failing handler (or read): the same changes are delivered again after the poll delay
                    LOG.log(Level.WARNING, "change feed processor " + host + ": lease " + id + " failed; retrying", e);
                    at = position();
                    try {
                        Thread.sleep(pollDelay);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }

        /**
         * Moves the handled position (in memory; renewals and the next checkpoint save it). After handled changes a
         * checkpoint is written once {@link #CHECKPOINT_INTERVAL_MILLIS} passed since the last one; false when the
         * lease is no longer this host's.
         */
        private synchronized boolean advance(ChangeFeedContinuation next, boolean handled) {
            position = next;
            pending |= handled;
            if (pending && System.nanoTime() - lastCheckpointNanos >= checkpointIntervalMillis * 1_000_000) {
                return flush();
            }
            return true;
        }

        /** How long a caught-up worker may wait for a commit: until its pending checkpoint is due, at most the poll delay. */
        private synchronized long pendingFor(long pollDelay) {
            if (!pending) {
                return pollDelay;
            }
            long due = checkpointIntervalMillis - (System.nanoTime() - lastCheckpointNanos) / 1_000_000;
            return Math.max(1, Math.min(pollDelay, due));
        }

        /** Writes the pending checkpoint, if any; false when the lease is no longer this host's. */
        synchronized boolean flush() {
            if (!pending) {
                return true;
            }
            boolean mine = write(true); // a failing write leaves the checkpoint pending
            pending = false;
            lastCheckpointNanos = System.nanoTime();
            return mine;
        }

        synchronized void renew() {
            if (stopped) {
                return;
            }
            if (write(false)) {
                pending = false; // the renewal saved the handled position too
            } else {
                stopped = true;
                thread.interrupt();
                workers.remove(id, this);
            }
        }

        /** Writes the lease (renewed now); after a lost etag race it rereads and retries if the lease is still ours. */
        private boolean write(boolean checkpoint) {
            lease.put(CONTINUATION, position().encode(cursorTokens()));
            for (int attempt = 0; attempt < 3; attempt++) {
                lease.put(OWNER, host);
                lease.put(TIMESTAMP, Instant.now().toString());
                String next = checkpoint ? checkpointLease(lease, etag) : replaceLease(lease, etag);
                if (next != null) {
                    etag = next;
                    return true;
                }
                ObjectNode current = readLease(id);
                if (current == null || !host.equals(current.path(OWNER).asText(null))) {
                    stopped = true;
                    return false;
                }
                etag = etagOf(current);
            }
            return false;
        }

        /** Gives the lease up (owner cleared), keeping its position. */
        synchronized void release() {
            lease.put(CONTINUATION, position().encode(cursorTokens()));
            lease.putNull(OWNER);
            replaceLease(lease, etag);
        }
    }
}
