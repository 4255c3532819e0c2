package io.tetradb.core.store;

import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.throughput.PartitionBudget;
import io.tetradb.core.throughput.RequestRateTooLargeException;
import io.tetradb.core.throughput.ThroughputSettings;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Holds every physical partition's RU budget ({@link PartitionBudget}) and applies it: {@link #admit} before a
 * request does any work (429 with a retry-after when the partition has spent its budget and rate limiting is on),
 * {@link #settle} after it with its real charge. Charges are metered whether or not rate limiting is on, so the
 * partition page shows what Cosmos DB would throttle.
 *
 * <p>A container's RU/s are divided evenly over its physical partitions. Containers that share their database's
 * throughput draw from the database's budgets: {@code max(1, ceil(RU/s / 10,000))} of them, each owning an equal
 * slice of the EPK space.
 */
public final class RateLimiter {
    private final CoreStore store;
    private volatile boolean enabled;
    private volatile boolean burstCapacity;
    private volatile LongSupplier clock = System::nanoTime;
    private final Map<Integer, ContainerBudgets> containers = new ConcurrentHashMap<>();
    private final Map<Integer, DatabaseBudgets> databases = new ConcurrentHashMap<>();

    RateLimiter(CoreStore store) {
        this.store = store;
    }

    /** Turns throttling on or off (metering always runs). Off by default, as in the Cosmos DB emulator. */
    public void setEnabled(boolean on) {
        enabled = on;
    }

    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Turns Cosmos DB's burst capacity on or off for every partition (off by default: an opt-in account feature):
     * partitions below 3,000 RU/s bank up to 5 minutes of unused RU and spend them at up to 3,000 RU/s.
     */
    public void setBurstCapacity(boolean on) {
        burstCapacity = on;
        long now = clock.getAsLong();
        for (ContainerBudgets cb : containers.values()) {
            cb.all().forEach(b -> b.setBurstCapacity(on, now));
        }
        for (DatabaseBudgets d : databases.values()) {
            d.all().forEach(b -> b.setBurstCapacity(on, now));
        }
    }

    public boolean isBurstCapacity() {
        return burstCapacity;
    }

    /** For tests: the nanosecond clock the buckets refill by. */
    public void setClock(LongSupplier nanos) {
        clock = nanos;
        containers.clear();
        for (int i = 0; i < RECENT; i++) {
            recent.set(i, null);
        }
        databases.clear();
    }

    public long now() {
        return clock.getAsLong();
    }

    /**
     * Before a request to the logical partition {@code pk} does anything: its partition's budget, or a
     * {@link RequestRateTooLargeException} when rate limiting is on and the budget is spent.
     */
    public PartitionBudget admit(ContainerStore c, byte[] epk) {
        PartitionBudget b = budgets(c).route(epk);
        if (enabled) {
            check(c, b);
        }
        return b;
    }

    /** As {@link #admit(ContainerStore, byte[])} for a query over an EPK range: every partition it touches. */
    public List<PartitionBudget> admit(ContainerStore c, EpkRange range) {
        List<PartitionBudget> touched = budgets(c).overlapping(range == null ? EpkRange.FULL : range);
        if (enabled) {
            for (PartitionBudget b : touched) {
                check(c, b);
            }
        }
        return touched;
    }

    private void check(ContainerStore c, PartitionBudget b) {
        long retryAfter = b.admit(clock.getAsLong());
        if (retryAfter > 0) {
            throw new RequestRateTooLargeException(retryAfter, "Request rate is large: the physical partition "
                    + b.name() + " of container " + c.definition().id() + " has used its "
                    + Math.round(b.ruPerSecond()) + " RU/s. Retry after " + retryAfter + " ms, or raise the "
                    + "throughput or spread the partition keys.");
        }
    }

    /** After the request: pays its real charge (may leave the bucket in debt). */
    public void settle(PartitionBudget b, double charge, PartitionKeyValue pk) {
        if (b != null && charge > 0) {
            b.settle(charge, pk, clock.getAsLong());
        }
    }

    /** A cross-partition request's charge, spread evenly over the partitions it touched. */
    public void settle(List<PartitionBudget> touched, double charge) {
        if (touched == null || touched.isEmpty() || charge <= 0) {
            return;
        }
        double share = charge / touched.size();
        long now = clock.getAsLong();
        for (PartitionBudget b : touched) {
            b.settle(share, null, now);
        }
    }

    /** The budgets serving a container (its own partitions', or its database's shared ones). */
    public Budgets budgets(ContainerStore c) {
        int collId = c.collId();
        long version = store.throughput().version();
        // mongo-cpu (issue 17): every request looks this up; a direct-mapped slot spares the map's hashing
        ContainerBudgets cb = recent.get(collId & (RECENT - 1));
        if (cb == null || cb.collId != collId || cb.map != c.partitionMap() || cb.version != version) {
            cb = containers.get(collId);
            if (cb == null || cb.map != c.partitionMap() || cb.version != version) {
                cb = rebuild(c, cb, version);
            }
            recent.set(collId & (RECENT - 1), cb);
        }
        return cb.shared != null ? cb.shared : cb;
    }

    /** The budgets last looked up, by collId modulo {@link #RECENT}; each entry checked against its container. */
    private static final int RECENT = 64;
    private final java.util.concurrent.atomic.AtomicReferenceArray<ContainerBudgets> recent =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(RECENT);

    /**
     * The RU/s in force now. Manual: the setting. Autoscale: what the busiest partition's busiest second of the last
     * minute needs for all partitions, between 10 % and 100 % of the maximum, in steps of 100 RU/s.
     */
    public int currentThroughput(ThroughputSettings settings, List<PartitionBudget> budgets) {
        if (!settings.isAutoscale()) {
            return settings.manual();
        }
        long now = clock.getAsLong();
        double hottest = 0;
        for (PartitionBudget b : budgets) {
            hottest = Math.max(hottest, b.usage(now, 60).hottestSecondRu());
        }
        int max = settings.autoscaleMax();
        int needed = (int) Math.ceil(hottest * budgets.size() / 100.0) * 100;
        return Math.max(max / 10, Math.min(max, needed));
    }

    /** The shared budgets of a database (for its current autoscale level); empty when it has none in use. */
    public List<PartitionBudget> databaseBudgets(DatabaseDefinition db) {
        DatabaseBudgets d = databases.get(db.dbId());
        return d == null ? List.of() : d.all();
    }

    /** Forgets a dropped container's budgets. */
    void forget(ContainerStore c) {
        containers.remove(c.collId());
        recent.set(c.collId() & (RECENT - 1), null);
    }

    private synchronized ContainerBudgets rebuild(ContainerStore c, ContainerBudgets old, long version) {
        ContainerBudgets current = containers.get(c.collId());
        if (current != null && current.map == c.partitionMap() && current.version == version) {
            return current;
        }
        old = current;
        ThroughputCatalog.ContainerThroughput t = store.throughput().effective(c);
        long now = clock.getAsLong();
        ContainerBudgets next;
        if (t.sharedWithDatabase()) {
            DatabaseDefinition db = store.readDatabase(c.definition().database());
            DatabaseBudgets d = databases.get(db.dbId());
            if (d == null || d.version != version) {
                d = new DatabaseBudgets(db.id(), t.settings(), version, d, now, burstCapacity);
                databases.put(db.dbId(), d);
            }
            next = new ContainerBudgets(c.collId(), c.partitionMap(), version, d);
        } else {
            PartitionMap map = c.partitionMap();
            int n = map.partitions().size();
            double perPartition = Math.min(ThroughputSettings.MAX_PER_PARTITION,
                    (double) t.settings().maxRuPerSecond() / n);
            next = new ContainerBudgets(c.collId(), map, version, null);
            int index = 0;
            for (PhysicalPartition p : map.partitions()) {
                PartitionBudget kept = old == null || old.shared != null ? null : old.byId.get(p.id());
                PartitionBudget b;
                if (kept != null) {
                    kept.setRuPerSecond(perPartition, now);
                    b = kept;
                } else {
                    b = new PartitionBudget(c.definition().id() + "/" + p.id(), perPartition, now);
                    b.setBurstCapacity(burstCapacity, now);
                }
                next.byPartition.put(p, b);
                next.byId.put(p.id(), b);
                next.byIndex[index++] = b;
            }
        }
        containers.put(c.collId(), next);
        return next;
    }

    /** Routes EPKs to budgets. */
    public interface Budgets {
        PartitionBudget route(byte[] epk);

        List<PartitionBudget> overlapping(EpkRange range);

        /** Every budget, in EPK order. */
        List<PartitionBudget> all();
    }

    private static final class ContainerBudgets implements Budgets {
        final int collId;
        final PartitionMap map;
        final long version;
        final DatabaseBudgets shared;
        final Map<PhysicalPartition, PartitionBudget> byPartition = new IdentityHashMap<>();
        final Map<Integer, PartitionBudget> byId = new java.util.HashMap<>();
        /** By position in the map's partitions: routing a request needs no hash lookup. */
        final PartitionBudget[] byIndex;

        ContainerBudgets(int collId, PartitionMap map, long version, DatabaseBudgets shared) {
            this.collId = collId;
            this.map = map;
            this.version = version;
            this.shared = shared;
            this.byIndex = new PartitionBudget[map.partitions().size()];
        }

        @Override
        public PartitionBudget route(byte[] epk) {
            return byIndex[map.indexOf(epk)];
        }

        @Override
        public List<PartitionBudget> overlapping(EpkRange range) {
            List<PartitionBudget> out = new ArrayList<>();
            for (PhysicalPartition p : map.partitions()) {
                if (EpkRange.compare(p.range().min(), range.max()) < 0 && EpkRange.compare(range.min(), p.range().max()) < 0) {
                    out.add(byPartition.get(p));
                }
            }
            return out;
        }

        @Override
        public List<PartitionBudget> all() {
            List<PartitionBudget> out = new ArrayList<>();
            for (PhysicalPartition p : map.partitions()) {
                out.add(byPartition.get(p));
            }
            return out;
        }
    }

    /** A database's shared throughput: its own partitions of the EPK space, shared by its containers. */
    private static final class DatabaseBudgets implements Budgets {
        final long version;
        final EpkRange[] ranges;
        final PartitionBudget[] budgets;

        DatabaseBudgets(String name, ThroughputSettings settings, long version, DatabaseBudgets old, long now,
                        boolean burstCapacity) {
            this.version = version;
            int n = settings.partitionsNeeded();
            this.ranges = EpkRange.initialRanges(n);
            this.budgets = new PartitionBudget[n];
            double share = (double) settings.maxRuPerSecond() / n;
            for (int i = 0; i < n; i++) {
                if (old != null && old.budgets.length == n) {
                    old.budgets[i].setRuPerSecond(share, now);
                    budgets[i] = old.budgets[i];
                } else {
                    budgets[i] = new PartitionBudget(name + "/shared-" + i, share, now);
                    budgets[i].setBurstCapacity(burstCapacity, now);
                }
            }
        }

        @Override
        public PartitionBudget route(byte[] epk) {
            for (int i = ranges.length - 1; i > 0; i--) {
                if (EpkRange.compare(ranges[i].min(), epk) <= 0) {
                    return budgets[i];
                }
            }
            return budgets[0];
        }

        @Override
        public List<PartitionBudget> overlapping(EpkRange range) {
            List<PartitionBudget> out = new ArrayList<>();
            for (int i = 0; i < ranges.length; i++) {
                if (EpkRange.compare(ranges[i].min(), range.max()) < 0 && EpkRange.compare(range.min(), ranges[i].max()) < 0) {
                    out.add(budgets[i]);
                }
            }
            return out;
        }

        @Override
        public List<PartitionBudget> all() {
            return List.of(budgets);
        }
    }
}
