package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EffectivePartitionKey;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Splits physical partitions that outgrow the threshold, in the background, at the byte median of their logical
 * partitions. Inside one data directory every key carries its EPK, so a split moves no data: it is one atomic
 * metadata write (parent out, two children in) and a swap of the in-memory map. A crash leaves either the old or
 * the new map, and both cover every item exactly once.
 */
final class PartitionSplitter implements AutoCloseable {
    private final CoreStore store;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tetradb-split");
        t.setDaemon(true);
        return t;
    });
    private final Set<String> scheduled = ConcurrentHashMap.newKeySet();

    PartitionSplitter(CoreStore store) {
        this.store = store;
    }

    /** Schedules a split of {@code pp} if it is over the threshold (and has grown since a failed attempt). */
    void maybeSplit(ContainerStore container, PhysicalPartition pp) {
        if (store.onSharedEngine()) { // shared-engine hook: a split moves the local engine's keys
            return;
        }
        long threshold = store.config().splitThresholdBytes();
        long bytes = pp.bytes();
        if (bytes <= threshold) {
            return;
        }
        long blockedAt = pp.unsplittableAtBytes();
        if (blockedAt >= 0 && bytes < blockedAt + Math.max(1, threshold / 8)) {
            return;
        }
        String key = container.collId() + "/" + pp.id();
        if (scheduled.add(key)) {
            try {
                executor.execute(() -> {
                    try {
                        split(container, pp.id());
                    } finally {
                        scheduled.remove(key);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                scheduled.remove(key);
            }
        }
    }

    private record Lp(byte[] epk, long bytes) {
    }

    void split(ContainerStore container, int partitionId) {
        List<PhysicalPartition> follow = new ArrayList<>();
        container.mapLock.writeLock().lock();
        try {
            PartitionMap map = container.partitionMap();
            PhysicalPartition parent = map.partitions().stream().filter(p -> p.id() == partitionId).findFirst()
                    .orElse(null);
            if (parent == null || parent.bytes() <= store.config().splitThresholdBytes()) {
                return;
            }
            List<Lp> lps = logicalPartitions(container, parent.range());
            if (lps.size() < 2) {
                parent.markUnsplittable(parent.bytes());
                return;
            }
            long total = lps.stream().mapToLong(Lp::bytes).sum();
            // the first logical partition at which half the bytes lie to its left starts the right child
            int cut = 1;
            long left = lps.get(0).bytes();
            while (cut < lps.size() - 1 && left < total / 2) {
                left += lps.get(cut).bytes();
                cut++;
            }
            byte[] boundary = lps.get(cut).epk();
            int leftId = map.nextPartitionId();
            PhysicalPartition l = new PhysicalPartition(leftId, new EpkRange(parent.range().min(), boundary), parent.id());
            PhysicalPartition r = new PhysicalPartition(leftId + 1, new EpkRange(boundary, parent.range().max()), parent.id());
            PartitionMap next = map.split(parent, l, r);
            WriteSet ws = new WriteSet()
                    .delete(Space.META, Keys.physicalPartition(container.collId(), parent.id()))
                    .put(Space.META, Keys.physicalPartition(container.collId(), l.id()), record(l, next.epoch()))
                    .put(Space.META, Keys.physicalPartition(container.collId(), r.id()), record(r, next.epoch()));
            store.applyMeta(ws, true); // metadata contract
            store.recountPartitions(container, List.of(l, r));
            container.replaceMap(next);
            follow.add(l);
            follow.add(r);
        } finally {
            container.mapLock.writeLock().unlock();
        }
        for (PhysicalPartition child : follow) {
            maybeSplit(container, child);
        }
    }

    /** The non-empty logical partitions of a range, by EPK; several partition keys sharing an EPK count as one. */
    private List<Lp> logicalPartitions(ContainerStore container, EpkRange range) {
        int levels = container.definition().partitionKey().levels();
        byte[] prefix = Keys.statsPrefix(container.collId());
        List<Lp> out = new ArrayList<>();
        // core-stats: each partition's statistics from its record or its newest partition index key (merged scans)
        io.tetradb.core.feed.StoredPartitionStats.scan(store.engine(), Keys.concat(prefix, range.min()),
                Keys.concat(prefix, range.max()), kv -> {
            LogicalPartitionStats s = LogicalPartitionStats.decode(kv.value());
            if (s.items() == 0) {
                return true;
            }
            int at = prefix.length;
            byte[] epk = Arrays.copyOfRange(kv.key(), at, at + 16 * levels);
            if (!out.isEmpty() && Arrays.equals(out.get(out.size() - 1).epk(), epk)) {
                Lp last = out.remove(out.size() - 1);
                out.add(new Lp(epk, last.bytes() + s.bytes()));
            } else {
                out.add(new Lp(epk, s.bytes()));
            }
            return true;
        });
        return out;
    }

    static byte[] record(PhysicalPartition p, long epoch) {
        ObjectNode n = new ObjectMapper().createObjectNode()
                .put("id", p.id())
                .put("min", EffectivePartitionKey.toHex(p.range().min()))
                .put("max", EffectivePartitionKey.toHex(p.range().max()))
                .put("parent", p.parentId())
                .put("epoch", epoch);
        return n.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
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

    /** For tests: waits until every scheduled split has run. */
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
}
