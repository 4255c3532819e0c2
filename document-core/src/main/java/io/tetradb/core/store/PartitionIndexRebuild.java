package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.storage.partition.StoredItem;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * An index rebuild on a shared engine (items and metadata on Cassandra, several servers): the steps of
 * {@link IndexRebuild}'s thread there. Each step converts one logical partition in one conditional apply of the
 * partition contract: the previous policy's terms of its items out, the current policy's in, its statistics' bytes
 * corrected, its version bumped, and its policy epoch ({@link PartitionPolicyEpochs}) recorded as a side write. Every
 * writer reads that epoch after the version it applies against, so a writer on another server whose cache still has
 * the old policy either read the conversion (and writes the new policy's terms) or loses the race (449, retried);
 * a partition's terms always follow one policy, named by its epoch.
 *
 * <p>Progress is the rebuild record in the metadata ({@code 07 · collId}: cursor = the last converted partition's
 * {@code collId · EPK · pk}, items converted), moved at the version read, so any server resumes where any other
 * stopped (each server that has the container loaded runs a job; two converting one partition race on its version and
 * the loser finds it converted). After a pass in key order, full passes repeat until one converts nothing (partitions a
 * writer created meanwhile on the previous policy); then the record is deleted at the version read, a catalog change.
 * Queries meanwhile seek only what both policies index ({@code IndexingState.seekable}), as on the embedded engine.
 */
final class PartitionIndexRebuild {
    /** Items read per scan of a partition (one apply converts the whole partition). */
    private static final int SCAN_ITEMS = 512;

    private final CoreStore store;
    private final ContainerStore container;
    private final JsonNode previousPolicy;
    private final BooleanSupplier stopped;
    private final Deque<PartitionVersion> queue = new ArrayDeque<>();
    private boolean listed;
    private boolean fullPass;
    private long convertedInPass;
    private final long startedNanos = System.nanoTime();

    PartitionIndexRebuild(CoreStore store, ContainerStore container, JsonNode previousPolicy, BooleanSupplier stopped) {
        this.store = store;
        this.container = container;
        this.previousPolicy = previousPolicy;
        this.stopped = stopped;
    }

    /** Cosmos DB's index transformation progress from the record any server moves: 100 when none runs. */
    static long progress(CoreStore store, ContainerStore c) {
        MetaEntry e = store.metadata().get(Keys.indexRebuild(c.collId()));
        if (e == null) {
            return 100;
        }
        long total = 0;
        for (PhysicalPartition pp : c.partitionMap().partitions()) {
            total += pp.items();
        }
        long converted = RebuildRecord.decode(e.value()).converted();
        return total <= 0 ? 0 : Math.min(99, converted * 100 / total);
    }

    /** Converts one logical partition (or lists the next pass, or ends the rebuild); false when there is no more. */
    boolean step() {
        if (container.isDeleted() || stopped.getAsBoolean()) {
            return false;
        }
        MetaEntry entry = store.metadata().get(Keys.indexRebuild(container.collId()));
        if (entry == null || !Objects.equals(RebuildRecord.decode(entry.value()).previousPolicy(), previousPolicy)) {
            settle(); // another server's job finished it
            return false;
        }
        RebuildRecord record = RebuildRecord.decode(entry.value());
        if (queue.isEmpty()) {
            if (listed && fullPass && convertedInPass == 0) {
                return !finish(entry);
            }
            if (!listed && !waitForCaches()) {
                return false;
            }
            fullPass = listed; // the first pass resumes after the cursor; later ones check every partition
            listed = true;
            convertedInPass = 0;
            for (PartitionVersion pv : store.partitions().partitions(container.collId(), null, null)) {
                if (fullPass || record.cursor() == null
                        || Arrays.compareUnsigned(pv.partition().prefix(), record.cursor()) > 0) {
                    queue.add(pv);
                }
            }
            return true;
        }
        LogicalPartition p = queue.poll().partition();
        if (!fullPass && record.cursor() != null && Arrays.compareUnsigned(p.prefix(), record.cursor()) <= 0) {
            return true; // another server's job is past it
        }
        long items = convert(p);
        if (items >= 0) {
            convertedInPass++;
        }
        recordProgress(p.prefix(), Math.max(0, items));
        return true;
    }

    /**
     * Converts partition {@code p} to the current policy in one conditional apply that bumps its version; returns
     * the items converted, -1 when it already follows the current policy. Holds this server's lock of the partition,
     * so its own writers wait instead of losing the race; other servers' writers race on the version.
     */
    private long convert(LogicalPartition p) {
        byte[] lp = p.prefix();
        PartitionStore partitions = store.partitions();
        long target = PartitionPolicyEpochs.epochOf(container.definition().indexingPolicy());
        CompiledIndexingPolicy to = container.indexingState().current();
        while (true) {
            container.mapLock.readLock().lock();
            ReentrantLock lock = store.lockFor(lp);
            lock.lock();
            try {
                if (container.isDeleted()) {
                    return -1;
                }
                PartitionStats stats = partitions.stats(p);
                byte[] stored = partitions.readDerived(p, Space.META, PartitionPolicyEpochs.partitionKey(lp));
                if (stored != null && Keys.readLong(stored, 0) == target) {
                    return -1;
                }
                CompiledIndexingPolicy from = fromPolicy(stored);
                WriteSet ws = new WriteSet();
                IndexWrites index = new IndexWrites();
                long delta = 0;
                long items = 0;
                String after = null;
                while (true) {
                    List<StoredItem> chunk = partitions.scan(p, after == null ? null : after + "\0", null, SCAN_ITEMS);
                    for (StoredItem item : chunk) {
                        byte[] docKey = Keys.concat(lp, item.id().getBytes(StandardCharsets.UTF_8));
                        ObjectNode tree = store.codec().parse(item.value());
                        long ts = tree.path("_ts").asLong();
                        List<ByteBuffer> was = container.indexEntries(docKey, tree, ts, from);
                        List<ByteBuffer> is = container.indexEntries(docKey, tree, ts, to);
                        index.diff(was, is);
                        delta += ContainerStore.bytes(is) - ContainerStore.bytes(was); // as the writers count them
                        if (!was.equals(is)) {
                            // the item written back unchanged: the contract's terms are those of the write's items
                            // (PartitionWrite.terms), so another engine (Cassandra) takes these as its term rows
                            ws.put(Space.DOCS, docKey, item.value());
                        }
                        items++;
                    }
                    if (chunk.size() < SCAN_ITEMS) {
                        break;
                    }
                    after = chunk.get(chunk.size() - 1).id();
                }
                index.addTo(ws);
                long version = stats.version();
                ws.put(Space.META, Keys.withByte(Keys.LOGICAL_PARTITION_STATS, lp),
                        new LogicalPartitionStats(stats.bytes() + delta, stats.items(), version + 1).encode());
                ws.put(Space.META, PartitionPolicyEpochs.partitionKey(lp), PartitionPolicyEpochs.encode(target));
                boolean applied = partitions.apply(new PartitionWrite(p, version, version + 1, ws)).applied();
                store.forgetPartitionStats(lp); // core-write: written outside the transactions
                if (applied) {
                    if (delta != 0) {
                        int epkStart = 4;
                        int epkEnd = epkStart + 16 * container.definition().partitionKey().levels();
                        container.partitionMap().route(Arrays.copyOfRange(lp, epkStart, epkEnd)).add(delta, 0, 0);
                    }
                    return items;
                }
                // refused: another server wrote or converted the partition meanwhile; read it again
            } finally {
                lock.unlock();
                container.mapLock.readLock().unlock();
            }
        }
    }

    /** The policy a partition's terms follow before its conversion, from its epoch (none: the previous policy). */
    private CompiledIndexingPolicy fromPolicy(byte[] stored) {
        IndexingState s = container.indexingState();
        CompiledIndexingPolicy previous = s.previous() != null ? s.previous()
                : CompiledIndexingPolicy.of(previousPolicy);
        if (stored == null || Keys.readLong(stored, 0) == PartitionPolicyEpochs.epochOf(previousPolicy)) {
            return previous;
        }
        return container.policyEpochs.resolve(Keys.readLong(stored, 0)); // left by a writer on an older policy
    }

    /** Moves the record's cursor (never back) and count, at the version read; a lost race reads it again. */
    private void recordProgress(byte[] lp, long items) {
        for (int attempt = 0; attempt < 16; attempt++) {
            MetaEntry e = store.metadata().get(Keys.indexRebuild(container.collId()));
            if (e == null) {
                return; // finished by another server
            }
            RebuildRecord r = RebuildRecord.decode(e.value());
            if (!Objects.equals(r.previousPolicy(), previousPolicy)) {
                return;
            }
            byte[] cursor = r.cursor() == null || Arrays.compareUnsigned(lp, r.cursor()) > 0 ? lp : r.cursor();
            if (items == 0 && Arrays.equals(cursor, r.cursor())) {
                return;
            }
            RebuildRecord next = new RebuildRecord(r.database(), r.container(), r.previousPolicy(), cursor,
                    r.converted() + items);
            if (store.applyMeta(new MetaWrite().replace(e.key(), e.version(), next.encode()))) {
                return;
            }
        }
    }

    /**
     * Before the first conversion: waits until twice the catalog check interval has passed since the job started. By
     * then every server that checks the catalog stamp has seen the replace, so its queries seek only what both
     * policies index (a server still planning with the old policy alone would seek terms a conversion removed) and
     * its writers create new partitions under the new policy. A writer whose cache is behind even so still writes its
     * partition's own epoch; a partition it created on the old policy is converted by a full pass. False if the job
     * was stopped meanwhile.
     */
    private boolean waitForCaches() {
        long left = 2 * store.catalogCheckMillis() - (System.nanoTime() - startedNanos) / 1_000_000L;
        if (left <= 0) {
            return true;
        }
        try {
            Thread.sleep(left);
            return !stopped.getAsBoolean();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A full pass converted nothing: the record goes (a catalog change other servers see); true if ended here. */
    private boolean finish(MetaEntry entry) {
        MetaWrite end = new MetaWrite().deleteIf(entry.key(), entry.version());
        end.catalogChange();
        if (!store.applyMeta(end)) {
            return false; // another job moved the record: go on (its progress shows it was not idle)
        }
        settle();
        return true;
    }

    /** This server's state follows the record's end: the current policy alone. */
    private void settle() {
        container.mapLock.writeLock().lock();
        try {
            if (container.indexingState().rebuilding()) {
                container.indexingState(IndexingState.settled(container.indexingState().current()));
            }
        } finally {
            container.mapLock.writeLock().unlock();
        }
    }
}
