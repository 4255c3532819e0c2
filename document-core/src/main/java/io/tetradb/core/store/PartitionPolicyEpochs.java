package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaVersion;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * On a shared engine (several servers, items on Cassandra): which indexing policy the index terms of one logical
 * partition follow. The embedded engine decides it by comparing an item's key with the rebuild cursor under the core's
 * locks; a writer on another server may hold a stale cursor, so here the partition says it itself: a side write of the
 * partition (META {@code 4E · collId · EPK · pk} → the policy's epoch, 8 bytes), written by the conversion that bumps
 * the partition's version ({@link PartitionIndexRebuild}) and by a writer whose partition had none. A writer reads it
 * after the partition's version (the transaction reads the version first): a conversion committed after that read
 * moves the version past the one the writer applies against, so the writer loses the race (449) instead of writing the
 * old policy's terms into a converted partition; one committed before is what the writer reads, and it writes the
 * terms of the partition's epoch, whatever policy its own cache holds.
 *
 * <p>An epoch is the first 8 bytes of the SHA-256 of the policy's JSON ({@link MetaVersion}), so every server computes
 * the same one without a counter. Every policy a replace sets or leaves is registered in the metadata
 * ({@code 4F · collId · epoch} → the policy's JSON, written with the replace), so a writer whose cache is behind can
 * still resolve the epoch it finds.
 */
final class PartitionPolicyEpochs {
    static final byte PARTITION_EPOCH = 0x4E;
    static final byte REGISTERED_POLICY = 0x4F;

    /**
     * What a transaction writes with: the policy of its partition's terms, the epoch to record (null: stored), and the
     * partition's expiry rule row read in the same slice (null: none; {@link PartitionExpiryRules}).
     */
    record Decision(CompiledIndexingPolicy policy, byte[] epochToWrite, byte[] expiryRule) {
        Decision(CompiledIndexingPolicy policy, byte[] epochToWrite) {
            this(policy, epochToWrite, null);
        }
    }

    private final CoreStore store;
    private final ContainerStore container;
    /** Registered policies by epoch (immutable entries: cached for good). */
    private final Map<Long, CompiledIndexingPolicy> registered = new ConcurrentHashMap<>();
    /** The previous policy's epoch of the indexing state it was read for (a rebuild's record, read once per state). */
    private volatile Object[] previousEpoch = {null, 0L};

    PartitionPolicyEpochs(CoreStore store, ContainerStore container) {
        this.store = store;
        this.container = container;
    }

    static long epochOf(JsonNode policy) {
        return MetaVersion.of((policy == null ? "null" : policy.toString()).getBytes(StandardCharsets.UTF_8));
    }

    static byte[] encode(long epoch) {
        return Keys.withLong(new byte[0], epoch);
    }

    /** {@code tag · collId}: the start of one container's keys of {@code tag}. */
    static byte[] containerPrefix(byte tag, int collId) {
        return Keys.withByte(tag, Keys.collId(collId));
    }

    static byte[] partitionKey(byte[] lpPrefix) {
        return Keys.withByte(PARTITION_EPOCH, lpPrefix);
    }

    static byte[] registryKey(int collId, long epoch) {
        return Keys.withLong(Keys.withByte(REGISTERED_POLICY, Keys.collId(collId)), epoch);
    }

    /** Registers {@code policy} in {@code w} (a replace's metadata write) so any server can resolve its epoch. */
    static void register(io.tetradb.core.storage.meta.MetaWrite w, int collId, JsonNode policy) {
        w.put(registryKey(collId, epochOf(policy)),
                (policy == null ? "null" : policy.toString()).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The policy a transaction of partition {@code lpPrefix} (at {@code version}, read before this) writes terms with,
     * given the container's indexing state {@code s} and current policy JSON {@code currentPolicy} (read together
     * under the container's map lock).
     */
    Decision decide(IndexingState s, JsonNode currentPolicy, byte[] lpPrefix, long version) {
        // adjacency hook: the epoch read in one slice with the partition's adjacency mark (AdjacencyPartitionMarks)
        // and its expiry rule (PartitionExpiryRules)
        AdjacencyPartitionMarks.SideRows rows = AdjacencyPartitionMarks.epochFollowingMark(container, lpPrefix);
        Decision d = decideByEpoch(s, currentPolicy, rows.epoch(), version);
        return new Decision(d.policy(), d.epochToWrite(), rows.expiryRule());
    }

    private Decision decideByEpoch(IndexingState s, JsonNode currentPolicy, byte[] stored, long version) {
        long current = epochOf(currentPolicy);
        if (stored == null) {
            // a new partition takes the current policy; one written before epochs existed has the terms its writers
            // wrote, the previous policy's while a rebuild runs (the rebuild converts it), else the current one's
            if (version == 0 || !s.rebuilding()) {
                return new Decision(s.current(), encode(current));
            }
            return new Decision(s.previous(), encode(previousEpoch(s)));
        }
        long epoch = Keys.readLong(stored, 0);
        if (epoch == current) {
            return new Decision(s.current(), null);
        }
        if (s.rebuilding() && epoch == previousEpoch(s)) {
            return new Decision(s.previous(), null);
        }
        return new Decision(resolve(epoch), null); // this server's cache is behind the partition: its epoch decides
    }

    /** The registered policy of {@code epoch}; 449 when no server registered it (retry once caches caught up). */
    CompiledIndexingPolicy resolve(long epoch) {
        CompiledIndexingPolicy p = registered.get(epoch);
        if (p != null) {
            return p;
        }
        MetaEntry e = store.metadata().get(registryKey(container.collId(), epoch));
        if (e == null) {
            throw new StoreException(PartitionCommit.RETRY_WITH, "the logical partition's index terms follow an "
                    + "indexing policy this server does not know yet: nothing was written; retry the operation");
        }
        try {
            p = CompiledIndexingPolicy.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(e.value()));
        } catch (java.io.IOException ex) {
            throw new IllegalStateException("corrupt registered indexing policy", ex);
        }
        registered.put(epoch, p);
        return p;
    }

    /** The epoch of the previous policy of a rebuilding state (from the rebuild record, read once per state). */
    long previousEpoch(IndexingState s) {
        Object[] cached = previousEpoch;
        if (cached[0] == s) {
            return (Long) cached[1];
        }
        MetaEntry e = store.metadata().get(Keys.indexRebuild(container.collId()));
        long epoch = e == null ? 0 : epochOf(RebuildRecord.decode(e.value()).previousPolicy());
        previousEpoch = new Object[]{s, epoch};
        return epoch;
    }

    /** Adds the decision's epoch, if any, to the transaction's write set: a side write of its partition. */
    static void addTo(Decision d, byte[] lpPrefix, WriteSet ws) {
        if (d != null && d.epochToWrite() != null) {
            ws.put(Space.META, partitionKey(lpPrefix), d.epochToWrite());
        }
    }
}
