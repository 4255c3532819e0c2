package io.tetradb.core.store;

import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Splits physical partitions because their throughput was raised past 10,000 RU/s each. A split for throughput cuts
 * the widest partition at the middle of its EPK range (its data may be empty, unlike a split for size, which cuts at
 * the byte median) and commits as a size split does: one atomic metadata write and a swap of the map under the
 * container's exclusive map lock, so readers and writers never see a gap or an item twice.
 */
final class ThroughputSplits implements AutoCloseable {
    /** Hash V2 EPKs lie below 0x40 followed by zeros; the range end "FF" stands for that bound. */
    private static final BigInteger EPK_END = BigInteger.ONE.shiftLeft(126);

    private final CoreStore store;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tetradb-throughput-split");
        t.setDaemon(true);
        return t;
    });
    private final Set<Integer> scheduled = ConcurrentHashMap.newKeySet();

    ThroughputSplits(CoreStore store) {
        this.store = store;
    }

    /** Splits in the background until the container has at least {@code partitions} physical partitions. */
    void splitUntil(ContainerStore container, int partitions) {
        int collId = container.collId();
        if (!scheduled.add(collId)) {
            return; // the running job rereads the setting after each split
        }
        try {
            executor.execute(() -> {
                try {
                    int target = partitions;
                    while (!container.isDeleted() && container.partitionMap().partitions().size() < target) {
                        if (!splitWidest(container)) {
                            break;
                        }
                        var own = store.throughput().containerOwn(container);
                        target = own == null ? 1 : own.partitionsNeeded(); // a later replace may have changed it
                    }
                } finally {
                    scheduled.remove(collId);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            scheduled.remove(collId);
        }
    }

    /** Splits the partition with the widest EPK range at its middle; false if none can be cut. */
    private boolean splitWidest(ContainerStore container) {
        container.mapLock.writeLock().lock();
        try {
            if (container.isDeleted()) {
                return false;
            }
            PartitionMap map = container.partitionMap();
            PhysicalPartition widest = null;
            BigInteger widestSpan = BigInteger.ZERO;
            for (PhysicalPartition p : map.partitions()) {
                BigInteger span = position(p.range().max()).subtract(position(p.range().min()));
                if (span.compareTo(widestSpan) > 0) {
                    widest = p;
                    widestSpan = span;
                }
            }
            if (widest == null || widestSpan.compareTo(BigInteger.TWO) < 0) {
                return false;
            }
            byte[] boundary = sixteenBytes(position(widest.range().min()).add(widestSpan.shiftRight(1)));
            int leftId = map.nextPartitionId();
            PhysicalPartition l = new PhysicalPartition(leftId, new EpkRange(widest.range().min(), boundary), widest.id());
            PhysicalPartition r = new PhysicalPartition(leftId + 1, new EpkRange(boundary, widest.range().max()), widest.id());
            PartitionMap next = map.split(widest, l, r);
            store.applyMeta(new WriteSet() // metadata contract
                    .delete(Space.META, Keys.physicalPartition(container.collId(), widest.id()))
                    .put(Space.META, Keys.physicalPartition(container.collId(), l.id()), PartitionSplitter.record(l, next.epoch()))
                    .put(Space.META, Keys.physicalPartition(container.collId(), r.id()), PartitionSplitter.record(r, next.epoch())), true);
            store.recountPartitions(container, List.of(l, r));
            container.replaceMap(next);
            return true;
        } finally {
            container.mapLock.writeLock().unlock();
        }
    }

    /** An EPK (or range bound) as a number in [0, 2^126]; the first 16 bytes count, "FF" is the end. */
    static BigInteger position(byte[] epk) {
        if (epk.length > 0 && (epk[0] & 0xFF) >= 0x40) {
            return EPK_END;
        }
        byte[] sixteen = java.util.Arrays.copyOf(epk, 16);
        return new BigInteger(1, sixteen);
    }

    private static byte[] sixteenBytes(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[16];
        int copy = Math.min(16, raw.length);
        System.arraycopy(raw, raw.length - copy, out, 16 - copy, copy);
        return out;
    }

    void awaitIdle() throws InterruptedException {
        while (!scheduled.isEmpty()) {
            Thread.sleep(5);
        }
        try {
            executor.submit(() -> { }).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
