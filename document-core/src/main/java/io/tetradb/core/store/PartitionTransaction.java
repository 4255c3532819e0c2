package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.patch.PatchApplier;
import io.tetradb.core.storage.Space;
import io.tetradb.core.store.ContainerStore.Prepared;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.ttl.ExpiryRule;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One logical-partition transaction of a container's items, run under the partition's lock: it reads the versions
 * its operations touch, applies the operations one by one (an operation that fails is undone, leaving the rest as
 * they were), and gives the engine one {@link WriteSet} with the items, their index, unique-key and expiry entries,
 * the partition's statistics and the change records. Its container ({@link ContainerStore}) owns the locks, the
 * policies and the engine; this class owns what one transaction keeps while it runs.
 */
final class PartitionTransaction {
    private final ContainerStore container;
    /** The container's own, read often: its store, its item reads and its unique key policy. */
    private final CoreStore store;
    private final io.tetradb.core.reads.ItemReads reads;
    private final io.tetradb.core.unique.UniqueKeyPolicy uniqueKeys;
    /** A point write's stored version when it is known absent without a read (read only). */
    private static final List<byte[]> ONE_ABSENT = java.util.Collections.singletonList(null);

    /**
     * What a transaction leaves of one item: its version ({@code null}: deleted), the lsn it was written at and its
     * index entries. Immutable, so undoing an operation puts the item's previous record back.
     */
    record Written(byte[] stored, long lsn, List<ByteBuffer> entries) {
    }

    private final PartitionKeyValue pk;
    final byte[] lpPrefix;
    private final List<Prepared> ops;
    /** The versions as stored before the transaction (null: absent). */
    private final Map<String, byte[]> before;
    /**
     * What the transaction leaves of each item it wrote, in first-touched order: one map and one small record per
     * item (txn-written, session 26: three id-keyed maps and a boxed lsn before, ≈ 200 B and two more hash
     * look-ups per written item).
     */
    final Map<String, Written> after;
    /** Each touched item's key, computed once. */
    private final Map<String, byte[]> keys;
    /**
     * Index entries of the stored versions, computed when first needed (those of the versions being written are in
     * {@link Written#entries}). Lists, not sets: a repeated array value repeats its entry, counted alike when added
     * and when removed.
     */
    private Map<String, List<ByteBuffer>> entriesBefore = Map.of(); // pw-fixed: made for the first stored version
    /**
     * Graph adjacency hook: the tree each written version was made from, by the identity of its stored bytes (so
     * a rolled-back operation's restored version still finds its own), letting writeSet() derive adjacency
     * entries without parsing the version again. Filled only when the container has adjacency.
     */
    private Map<byte[], ObjectNode> writtenTrees; // pw-lean: made on the first written tree of an adjacency container
    /** The container's adjacency mark read once for this transaction (AdjacencyPartitionMarks). */
    private boolean adjacencyMarkRead;
    final LogicalPartitionStats stats;
    /** pw-next: the statistics cache's entry {@link #stats} came from (its slot takes the next), or null. */
    final PartitionStatsCache.Entry cached;
    /**
     * pw-java: bytes no stored id of the partition exceeds before the transaction (see {@link PartitionStatsCache}),
     * or null when unknown.
     */
    private final byte[] idBound;
    /** id-classes: the partition's class bounds before the transaction (see {@link CreateCheck.ClassBounds}), or null. */
    private final byte[][] classBounds;
    /** id-classes: the class bounds as the transaction's writes raise them. */
    private final CreateCheck.ClassBounds classesWritten;
    /** The statistics as {@link #writeSet()} leaves them (the record it writes, or {@link #stats} unchanged). */
    LogicalPartitionStats statsAfter;

    /**
     * pw-java: the id bound once the transaction is applied: empty when it leaves the partition without items,
     * unknown when it was, else the bound raised to every id it wrote (a deleted one too: a bound need not be
     * tight).
     */
    byte[] idBoundAfter() {
        if (statsAfter.items() == 0) {
            return PartitionStatsCache.EMPTY_BOUND;
        }
        byte[] bound = idBound;
        if (bound == null) {
            return null;
        }
        // pw-lean: the highest key the transaction wrote, copied once; batch-path: noted as each write is made
        return highestWritten == null ? bound : CreateCheck.raised(bound, highestWritten, lpPrefix.length);
    }

    /** id-classes: the class bounds once the transaction is applied: none when it leaves the partition empty. */
    byte[][] classBoundsAfter() {
        return statsAfter.items() == 0 ? NO_CLASSES : classesWritten.after();
    }

    private static final byte[][] NO_CLASSES = new byte[0][];

    /**
     * batch-path: the key of the highest id written so far (an operation undone by {@link #step} stays noted:
     * the bound only needs to be above every stored id), so {@link #idBoundAfter()} walks no map.
     */
    private byte[] highestWritten;

    private void noteWritten(byte[] key) {
        byte[] h = highestWritten;
        if (h == null || CreateCheck.compareIds(key, lpPrefix.length, key.length, h, lpPrefix.length, h.length) > 0) {
            highestWritten = key;
        }
        classesWritten.note(key, lpPrefix.length);
    }
    final List<ItemResult> results;
    private byte[] statsKey;
    private byte[] logicalPartitionKey;
    long lsn;
    long deltaBytes;
    long deltaItems;
    long deltaLogicalPartitions;
    int failedAt = -1;
    /** The store's clock (controllable in tests): the versions' {@code _ts} and what has expired. */
    private final long now;
    private final long ts;
    /** Reads inside batches and scripts read at the account's level: 2 under strong / bounded staleness. */
    final int readFactor; // consistency
    /** Read under the locks, so no rebuild chunk moves its cursor across this partition meanwhile. */
    private IndexingState policies; // shared engine: the partition's own policy epoch (constructor)
    /** Shared-engine hook: the policy of this partition's terms and the epoch to record with them, or null. */
    private PartitionPolicyEpochs.Decision epochDecision;
    /** Read after the partition's version (constructor): see {@link SharedExpiryRebuild}'s version bump. */
    private final io.tetradb.core.ttl.ExpiryRule rule;
    /**
     * The rule this partition's expiry entries follow: {@link #rule}, or on a shared engine the rule its last TTL
     * conversion recorded ({@link PartitionExpiryRules}), so a server whose catalog lags writes the right entries.
     */
    private final io.tetradb.core.ttl.ExpiryRule entryRule;
    /** Each written item's expiry after the transaction ({@link io.tetradb.core.ttl.ExpiryRule#NEVER}: none). */
    private Map<String, Long> expiryAfter = Map.of(); // pw-fixed: made on the first put (an expiry rule is active)
    /** Ids the purger deleted (their change records say so), and expiry entries that point nowhere. */
    private Set<String> purged = Set.of(); // pw-lean: a purge's own sets, made by purge(); no write has any
    /** The purged items' expiry as their expiry entry says (the purge needs no parse to know it). */
    private Map<String, Long> purgedAt = Map.of();
    List<byte[]> staleExpiry = List.of(); // pw-fixed: a purge's own list, made by purge()
    /** Shared engine: the right expiry entries of items whose listed entry was another rule's. */
    private List<byte[]> healedExpiry = List.of();
    /** pw-lean: null when the container has no unique key policy (every use is behind {@code uniqueKeys}). */
    private final UniqueKeyIndex.Changes unique; // item-reads hook
    /** pw-fixed: null when the container has no unique key policy (as {@link #unique}). */
    private final Map<String, List<ByteBuffer>> uniqueAfter;
    /** Face-defined unique indexes' changes, or null when the container has none. */
    final FaceUniqueIndexes.Changes faceUnique;
    /** What failed the transaction, when a face-defined unique index did. */
    io.tetradb.core.unique.UniqueIndexViolation violation;
    /** The stored versions parsed once (index entries, unique keys and expiry all read them). */
    private Map<String, ObjectNode> parsedBefore = Map.of(); // pw-fixed: made on the first parse
    /** core-stats: write the statistics record, not only the partition index key (a bulk chunk's transactions). */
    boolean statsRecordEveryWrite;
    /** graph-load: a bulk chunk's transaction (its change records are released when the chunk commits). */
    boolean inBulkChunk;
    /** The change-feed numbers {@link #writeSet()} took; released once the write set is applied. */
    long feedTicket;
    /** write-cost: the index terms recorded while the operation being applied had its body encoded, or null. */
    private io.tetradb.core.item.ItemTermRecorder recorded;
    private byte[] recordedBody;

    PartitionTransaction(ContainerStore container, PartitionKeyValue pk, byte[] lpPrefix, List<Prepared> ops) {
        this(container, pk, lpPrefix, ops, ops.size());
    }

    /** The size the per-item maps are made at (twice the items the transaction is expected to touch). */
    private final int capacity;

    /** ttl-purge: with its maps sized for {@code items} items (a purge chunk has no operations, only entries). */
    PartitionTransaction(ContainerStore container, PartitionKeyValue pk, byte[] lpPrefix, List<Prepared> ops,
                         int items) {
        this.container = container;
        this.store = container.store;
        this.reads = container.reads;
        this.uniqueKeys = container.uniqueKeys;
        this.now = store.config().clock().millis();
        this.ts = now / 1000;
        this.readFactor = store.consistency().readChargeFactor(null);
        this.policies = container.indexing;
        this.unique = uniqueKeys.isEmpty() ? null
                : new UniqueKeyIndex.Changes(this::storedUniqueEntry, this::ownerGone);
        this.uniqueAfter = uniqueKeys.isEmpty() ? null : new HashMap<>();
        this.pk = pk;
        this.lpPrefix = lpPrefix;
        this.ops = ops;
        this.capacity = Math.max(ops.size(), items) * 2;
        // pw-next: sized (a point write's list held ten slots for its one result); an open transaction's grows
        this.results = ops.isEmpty() ? new ArrayList<>() : new ArrayList<>(ops.size());
        this.before = new HashMap<>(capacity);
        this.after = new LinkedHashMap<>(capacity);
        this.keys = new HashMap<>(capacity);
        // core-write: the per-item maps sized too (a 100-item batch resized each of them four times); pw-fixed:
        // those most writes never fill (stored versions' entries, expiry, parses) are made when first needed
        List<String> ids;
        List<byte[]> idKeys;
        if (ops.size() == 1) { // pw-lean: a point write's one id and key, without the lists a batch grows
            String id = ops.get(0).id();
            byte[] key = Keys.concatUtf8(lpPrefix, id);
            before.put(id, null);
            keys.put(id, key);
            ids = List.of(id);
            idKeys = List.of(key);
        } else {
            ids = new ArrayList<>(ops.size());
            idKeys = new ArrayList<>(ops.size());
            for (Prepared p : ops) {
                // txn-maps: keys' putIfAbsent says whether the id is new (before's can't: absent maps to null),
                // one look-up less per item; a repeated id builds its key once more, which batches rarely have
                byte[] key = Keys.concatUtf8(lpPrefix, p.id());
                if (keys.putIfAbsent(p.id(), key) == null) {
                    before.put(p.id(), null);
                    ids.add(p.id());
                    idKeys.add(key);
                }
            }
        }
        // shared-engine hook: the partition's version first, then its items. Another server may commit between the
        // two reads; read in this order, its commit moves the version past the one this transaction applies
        // against, so the apply is refused (449). Read the other way round, the stale items passed the apply's
        // version check and both writers were acknowledged (two winners of one duplicate-id or If-Match race).
        PartitionStatsCache cache = store.statsCache(); // core-write: the version from memory when known
        PartitionStatsCache.Entry known = cache == null ? null : cache.entry(lpPrefix);
        this.cached = known;
        this.stats = known != null ? known.stats()
                : neverWritten() ? LogicalPartitionStats.EMPTY
                : LogicalPartitionStats.decode(reads.partitionStats(statsKey()));
        if (stats.lsn() == 0) { // batch-stats: this transaction may write the partition's first record
            container.statsRecords.add(lpPrefix);
        }
        // pw-java: no stored id is above the bound (an empty partition's is empty); unknown after a store read
        this.idBound = known != null ? known.idBound()
                : stats.items() == 0 ? PartitionStatsCache.EMPTY_BOUND : null;
        this.classBounds = known != null ? known.classBounds() : stats.items() == 0 ? NO_CLASSES : null;
        this.classesWritten = new CreateCheck.ClassBounds(classBounds);
        this.statsAfter = stats;
        this.lsn = stats.lsn();
        // shared-engine hook: the expiry rule after the version: a TTL conversion committed after the version read
        // refuses this write (it bumps the version); one committed before came after every server followed the rule
        this.rule = container.expiry;
        if (store.onSharedEngine()) { // shared-engine hook: the partition's policy epoch, read after its version
            epochDecision = container.policyEpochs.decide(policies, container.definition.indexingPolicy(), lpPrefix,
                    stats.lsn());
            policies = IndexingState.settled(epochDecision.policy());
            entryRule = container.expiryRules.entriesRule(epochDecision.expiryRule(), rule); // read in the same slice
        } else {
            entryRule = rule;
        }
        List<byte[]> values = storedVersions(idKeys);
        for (int i = 0; i < ids.size(); i++) {
            byte[] v = values.get(i);
            if (v != null) { // pw-lean: absent ids are in the map already (null)
                before.put(ids.get(i), v);
            }
        }
        this.faceUnique = container.faceUnique.begin(lpPrefix, stats.lsn()); // shared: claims' version
    }

    /**
     * core-batch: the stored versions of {@code idKeys} (null: absent). On the embedded engine the partition's
     * statistics, read just before under its lock and written in every write of its items, say how many items it
     * holds: none, and nothing is read; few against the ids asked (or ids close together), one key range from the
     * smallest id to the largest is read instead of a multi-get of every id, given up for the multi-get once it
     * meets more keys than half the ids ({@link CreateCheck#budget}).
     */
    private List<byte[]> storedVersions(List<byte[]> idKeys) {
        int n = idKeys.size();
        if (n == 0) {
            return List.of();
        }
        if (reads.embedded() && CreateCheck.MODE != CreateCheck.Mode.MULTIGET) {
            if (stats.items() == 0) {
                return noneStored(n); // an empty partition holds none of them
            }
            if (CreateCheck.noneStored(idKeys, lpPrefix.length, idBound, classBounds)) {
                return noneStored(n); // pw-java: above every stored id (or id-classes: its class's), so not stored
            }
            if (n >= CreateCheck.RANGE_MIN_IDS && CreateCheck.MODE == CreateCheck.Mode.RANGE) {
                List<byte[]> found = CreateCheck.rangeRead(store.engine(), idKeys);
                if (found != null) {
                    return found;
                }
            }
        }
        return n == 1 ? Arrays.asList(reads.item(idKeys.get(0))) : reads.items(idKeys);
    }

    /** pw-next: {@code n} absent versions; a point write's one is a shared list (only read). */
    private static List<byte[]> noneStored(int n) {
        return n == 1 ? ONE_ABSENT : Arrays.asList(new byte[n][]);
    }

    /** A unique-key entry of this partition as stored (its owner's id), or null (item-reads hook). */
    private byte[] storedUniqueEntry(byte[] key) {
        return reads.derived(lpPrefix, Space.META, key);
    }

    /** The version stored before the transaction, parsed, or null. */
    private ObjectNode storedVersion(String id) {
        return before.get(id) == null ? null : parsedBefore(id);
    }

    private byte[] docKey(String id) {
        return keys.get(id);
    }

    /** pw-lean: the partition's {@code EPK · pk}, copied once per transaction (feed records, the commit). */
    private byte[] logicalPartitionKey() {
        if (logicalPartitionKey == null) {
            logicalPartitionKey = Arrays.copyOfRange(lpPrefix, container.collId.length, lpPrefix.length);
        }
        return logicalPartitionKey;
    }

    io.tetradb.core.storage.partition.LogicalPartition logicalPartition() {
        int container = ((lpPrefix[0] & 0xFF) << 24) | ((lpPrefix[1] & 0xFF) << 16) | ((lpPrefix[2] & 0xFF) << 8)
                | (lpPrefix[3] & 0xFF); // as LogicalPartition.ofPrefix reads it
        return new io.tetradb.core.storage.partition.LogicalPartition(container, logicalPartitionKey());
    }

    /**
     * batch-stats: the partition certainly holds no statistics record (so no statistics at all: a partition's
     * first write puts its record), known without a read — only on the core's own embedded store.
     */
    private boolean neverWritten() {
        return store.versionsReadUnderOwnLock() && !container.statsRecords.mayHold(lpPrefix);
    }

    private byte[] statsKey() {
        if (statsKey == null) { // pw-lean: built once per transaction
            statsKey = Keys.withByte(Keys.LOGICAL_PARTITION_STATS, lpPrefix);
        }
        return statsKey;
    }

    private byte[] current(String id) {
        Written w = after.get(id);
        return w != null ? w.stored() : before.get(id);
    }

    /** Whether the stored item {@code id} of this partition is absent or expired now (its unique keys are free). */
    private boolean ownerGone(String id) {
        load(id);
        return visible(id) == null;
    }

    List<ItemResult> run() {
        long limit = store.config().logicalPartitionLimitBytes();
        for (int i = 0; i < ops.size(); i++) {
            Prepared p = ops.get(i);
            if (faceUnique != null) { // shared engine: the batch's unique claims are sent at once (below)
                faceUnique.claimAtOnce(i);
            }
            try {
                results.add(apply(p));
            } catch (UniqueClaimYielded e) {
                throw e; // wait-die: the whole transaction gives way (449), not one operation
            } catch (StoreException e) {
                List<ItemResult> earlier = failAtAnEarlierClaim(i);
                if (earlier != null) {
                    return earlier;
                }
                violation = e instanceof io.tetradb.core.unique.UniqueIndexViolation v ? v : null;
                return fail(i, e.status(), e.getMessage());
            }
            if (deltaBytes > 0 && stats.bytes() + deltaBytes > limit) {
                List<ItemResult> earlier = failAtAnEarlierClaim(i);
                if (earlier != null) {
                    return earlier;
                }
                return fail(i, Status.FORBIDDEN, "Partition key reached maximum size of " + limit
                        + " bytes: logical partition " + pk + " holds " + stats.bytes()
                        + " bytes and this write would grow it by " + deltaBytes);
            }
        }
        List<ItemResult> refused = failAtAnEarlierClaim(ops.size());
        return refused != null ? refused : results;
    }

    /**
     * Shared engine: the batch's unique claims sent so far, settled; the batch failed at the earliest operation
     * before {@code before} whose key another item holds (as when each claim was made in turn), else null.
     */
    private List<ItemResult> failAtAnEarlierClaim(int before) {
        BatchUniqueClaims.Failure refused = faceUnique == null ? null : faceUnique.settleClaims();
        if (refused != null && refused.error() instanceof UniqueClaimYielded yielded) {
            throw yielded; // wait-die: the whole transaction gives way (449), not one operation
        }
        if (refused == null || refused.operation() >= before) {
            return null;
        }
        if (!(refused.error() instanceof StoreException e)) {
            throw refused.error();
        }
        violation = e instanceof io.tetradb.core.unique.UniqueIndexViolation v ? v : null;
        return fail(refused.operation(), e.status(), e.getMessage());
    }

    /** One operation of an open transaction: loads its item if new to the transaction, applies it, checks the limit. */
    ItemResult step(Prepared p) {
        load(p.id());
        Map<ByteBuffer, String> uniqueWas = uniqueKeys.isEmpty() ? null : unique.snapshot();
        Object faceUniqueWas = faceUnique == null ? null : faceUnique.snapshot();
        List<ByteBuffer> uniqueTermsWas = uniqueAfter == null ? null : uniqueAfter.get(p.id());
        Long expiryWas = expiryAfter.get(p.id());
        long bytesBefore = deltaBytes;
        long itemsBefore = deltaItems;
        long lsnBefore = lsn;
        Written was = after.get(p.id()); // immutable: a later write of the item puts a new record
        ItemResult r = apply(p);
        long limit = store.config().logicalPartitionLimitBytes();
        if (deltaBytes > 0 && stats.bytes() + deltaBytes > limit) {
            // undo this one operation: the transaction stays as it was before it
            deltaBytes = bytesBefore;
            deltaItems = itemsBefore;
            lsn = lsnBefore;
            if (uniqueWas != null) {
                unique.restore(uniqueWas);
            }
            if (faceUniqueWas != null) {
                faceUnique.restore(faceUniqueWas);
            }
            if (uniqueAfter != null) {
                restore(uniqueAfter, p.id(), uniqueTermsWas);
            }
            if (!expiryAfter.isEmpty()) { // empty: nothing was put, so nothing to restore
                restore(expiryAfter, p.id(), expiryWas);
            }
            if (was != null) {
                after.put(p.id(), was);
            } else {
                after.remove(p.id());
            }
            throw new StoreException(Status.FORBIDDEN, Status.SUB_PARTITION_KEY_QUOTA_EXCEEDED,
                    "Partition key reached maximum size of " + limit + " bytes: logical partition " + pk
                            + " holds " + stats.bytes() + " bytes and this write would grow it by " + deltaBytes);
        }
        return r;
    }

    private List<ItemResult> fail(int index, int status, String error) {
        failedAt = index;
        List<ItemResult> out = container.failed(ops, index, status, error);
        results.clear();
        results.addAll(out);
        return out;
    }

    private ItemResult apply(Prepared p) {
        recorded = p.terms(); // write-cost: used by write() for p's own body only
        recordedBody = p.body();
        ItemOperation op = p.op();
        String id = p.id();
        byte[] cur = visible(id);
        String curEtag = cur == null ? null : container.etag(ItemCodec.lsn(cur));
        switch (op.type()) {
            case READ -> {
                if (cur == null) {
                    throw new StoreException(Status.NOT_FOUND, "item " + id + " does not exist in partition " + pk);
                }
                if (op.ifNoneMatchETag() != null && ContainerStore.etagMatches(op.ifNoneMatchETag(), curEtag)) {
                    return new ItemResult(op.type(), id, Status.NOT_MODIFIED, null, curEtag,
                            RequestCharge.atFactor(RequestCharge.miss(), readFactor), null); // consistency
                }
                return new ItemResult(op.type(), id, Status.OK, cur, curEtag, RequestCharge.atFactor(
                        RequestCharge.read(docKey(id).length + cur.length), readFactor), null); // consistency
            }
            case CREATE -> {
                if (cur != null) {
                    throw new StoreException(Status.CONFLICT, "an item with id " + id
                            + " already exists in partition " + pk);
                }
                return write(op.type(), id, p.body(), itemOf(op), Status.CREATED, isEncoded(op));
            }
            case UPSERT -> {
                checkIfMatch(op, id, curEtag);
                return write(op.type(), id, p.body(), itemOf(op), cur == null ? Status.CREATED : Status.OK,
                        isEncoded(op));
            }
            case REPLACE -> {
                requireExists(cur, id);
                checkIfMatch(op, id, curEtag);
                return write(op.type(), id, p.body(), itemOf(op), Status.OK, isEncoded(op));
            }
            case PATCH -> {
                requireExists(cur, id);
                checkIfMatch(op, id, curEtag);
                if (op.patch() == null || op.patch().isEmpty()) {
                    throw new StoreException(Status.BAD_REQUEST, "a patch needs at least one operation");
                }
                int max = store.config().limits().maxPatchOperations();
                if (op.patch().size() > max) {
                    throw new StoreException(Status.BAD_REQUEST, "a patch has at most " + max
                            + " operations, this one has " + op.patch().size());
                }
                for (var po : op.patch()) {
                    checkPatchable(po.path());
                    if (po.from() != null) {
                        checkPatchable(po.from());
                    }
                }
                ObjectNode patched = PatchApplier.apply(store.codec().parse(cur), op.patch());
                io.tetradb.core.ttl.TimeToLive.validateItem(patched, container.definition.defaultTimeToLive());
                byte[] body = store.codec().body(patched);
                container.checkSize(body.length);
                ItemResult r = write(op.type(), id, body, patched, Status.OK);
                return new ItemResult(r.type(), id, r.status(), r.stored(), r.etag(),
                        Math.round((RequestCharge.patch(cur.length, r.stored().length)
                                + RequestCharge.indexEntries(after.get(id).entries().size())) * 100) / 100.0, null);
            }
            case DELETE -> {
                requireExists(cur, id);
                checkIfMatch(op, id, curEtag);
                return remove(op.type(), id, cur);
            }
            default -> throw new IllegalStateException();
        }
    }

    /**
     * write-path: the tree {@link #write} reads: the caller's, or for an encoded item the fields the write reads
     * (id, ttl, partition key) when its entry's expiry reads the ttl, else none (null), or the whole item where
     * unique keys, date-field expiry, face-unique indexes or adjacency read more of it.
     */
    private ObjectNode itemOf(ItemOperation op) {
        if (op.item() != null || op.encoded() == null) {
            return op.item();
        }
        boolean whole = !uniqueKeys.isEmpty() || faceUnique != null // graph adjacency reads the stored bytes
                || !rule.dateFields().isEmpty() || !entryRule.dateFields().isEmpty() || !store.codec().writesBinary() || !BinaryIndexEntries.ON;
        // insert-frame: else write() reads the tree only for a ttl's expiry; no tree at all without one
        return whole ? op.encoded().tree()
                : entryRule.active() ? op.encoded().keyFields(container.definition.partitionKey()) : null;
    }

    private ItemResult remove(ItemOperation.Type type, String id, byte[] cur) {
        long size = docKey(id).length + cur.length;
        List<ByteBuffer> removed = currentEntries(id);
        if (!uniqueKeys.isEmpty()) {
            unique.replace(id, currentUniqueTerms(id), List.of());
            uniqueAfter.put(id, List.of());
        }
        if (faceUnique != null) {
            faceUnique.record(id, docKey(id), () -> storedVersion(id), null);
        }
        if (rule.active() || entryRule.active()) { // batch-path: read by writeSet() only then (no boxed NEVER)
            expiryAfter().put(id, io.tetradb.core.ttl.ExpiryRule.NEVER);
        }
        lsn++;
        after.put(id, new Written(null, lsn, List.of()));
        noteWritten(docKey(id));
        deltaBytes -= size + ContainerStore.bytes(removed);
        deltaItems--;
        return new ItemResult(type, id, Status.NO_CONTENT, null, null,
                RequestCharge.write(size, removed.size()), null);
    }

    /** The item as the transaction's operations see it: absent when its version has expired. */
    private byte[] visible(String id) {
        byte[] cur = current(id);
        if (cur == null || !rule.active()) {
            return cur;
        }
        ObjectNode node = after.containsKey(id) ? store.codec().parse(cur) : parsedBefore(id);
        return rule.expiresAt(node) <= now ? null : cur;
    }

    /**
     * ttl-purge: what the expiry rule reads of the stored version of {@code id}: the whole tree when the delete parses
     * it anyway (unique keys), else just the rule's fields and {@code _ts} of a binary item (the purge's index keys
     * come from the bytes; a whole parse only for this was an eighth of the purger's time).
     */
    private JsonNode expiryViewBefore(String id) {
        byte[] stored = before.get(id);
        return parsedBefore.containsKey(id) || !uniqueKeys.isEmpty() || faceUnique != null
                || !io.tetradb.core.item.StoredItems.isBinary(stored) ? parsedBefore(id)
                : io.tetradb.core.item.StoredItems.partial(stored, rule.fieldsRead());
    }

    /** The stored version (before the transaction) of {@code id}, parsed once; not to be changed. */
    private ObjectNode parsedBefore(String id) {
        if (parsedBefore.isEmpty()) {
            parsedBefore = new HashMap<>();
        }
        return parsedBefore.computeIfAbsent(id, i -> store.codec().parse(before.get(i)));
    }

    private void load(String id) {
        if (!before.containsKey(id)) {
            byte[] key = Keys.concat(lpPrefix, Keys.utf8(id));
            keys.put(id, key);
            before.put(id, reads.item(key));
        }
    }

    /** pw-fixed: each written item's expiry, the map made on the first one (an expiry rule is active). */
    private Map<String, Long> expiryAfter() {
        if (expiryAfter.isEmpty()) {
            expiryAfter = new HashMap<>(capacity);
        }
        return expiryAfter;
    }

    /** A purge's expiry entry that points nowhere (or not at its item's expiry): deleted with the purge. */
    private void stale(byte[] entry) {
        if (staleExpiry.isEmpty()) {
            staleExpiry = new ArrayList<>();
        }
        staleExpiry.add(entry);
    }

    private <V> void restore(Map<String, V> map, String id, V was) {
        if (was == null) {
            map.remove(id);
        } else {
            map.put(id, was);
        }
    }

    /** The unique-key entries the item has at this point of the transaction. */
    private List<ByteBuffer> currentUniqueTerms(String id) {
        List<ByteBuffer> t = uniqueAfter.get(id);
        if (t != null) {
            return t;
        }
        byte[] old = before.get(id);
        return old == null ? List.of() : UniqueKeyIndex.terms(uniqueKeys, lpPrefix, parsedBefore(id));
    }

    /**
     * The purger's work in this partition: deletes the items of {@code entries} (expiry-index keys) whose stored
     * version has expired at {@code now}, as deletes flagged as expired; entries that no longer match their
     * item are dropped.
     */
    int purge(List<byte[]> entries) {
        List<String> ids = new ArrayList<>(entries.size());
        List<byte[]> docKeys = new ArrayList<>(entries.size());
        for (byte[] entry : entries) {
            byte[] docKey = ExpiryIndex.docKeyOf(entry);
            String id = new String(docKey, lpPrefix.length, docKey.length - lpPrefix.length, StandardCharsets.UTF_8);
            ids.add(id);
            if (!before.containsKey(id)) {
                keys.put(id, docKey);
                before.put(id, null);
                docKeys.add(docKey);
            }
        }
        List<byte[]> stored = docKeys.isEmpty() ? List.of() : reads.items(docKeys);
        // Is each entry still its item's expiry? The item's own value says, but needs a parse; when the delete
        // needs no parse (no index entries, unique keys or adjacency to remove), the entry itself says: one still
        // there (read under the lock) is current, as every write moves it in the item's own write set and a
        // rule change rebuilds them all; one gone was moved or deleted since it was listed.
        boolean deleteParses = !uniqueKeys.isEmpty() || faceUnique != null || container.adjacency != null
                || store.onSharedEngine() // shared engine: an entry may predate a rule change; the item decides
                || entries.stream().anyMatch(en -> policies.policyFor(ExpiryIndex.docKeyOf(en)).enabled());
        List<byte[]> present = deleteParses ? null : reads.embedded() ? store.engine().multiGet(Space.META, entries)
                : TtlContractPath.present(reads, lpPrefix, entries); // item-reads hook
        for (int i = 0; i < stored.size(); i++) { // one multi-get for the batch, not a get per item
            byte[] k = docKeys.get(i);
            before.put(new String(k, lpPrefix.length, k.length - lpPrefix.length, StandardCharsets.UTF_8),
                    stored.get(i));
        }
        int n = 0;
        for (int e = 0; e < entries.size(); e++) {
            byte[] entry = entries.get(e);
            String id = ids.get(e);
            byte[] cur = current(id);
            if (present != null && (present.get(e) == null || after.containsKey(id))) {
                continue; // its item's entry moved (or went) since it was listed; a later round sees the new one
            }
            if (cur == null) {
                stale(entry);
                continue;
            }
            long at = ExpiryIndex.expiresAtOf(entry);
            if (present == null) { // the item parsed (its delete parses it anyway): its own expiry
                at = rule.expiresAt(after.containsKey(id) ? store.codec().parse(cur) : expiryViewBefore(id));
                if (at != ExpiryIndex.expiresAtOf(entry)) {
                    stale(entry); // the item's own entry (if any) is at its real expiry
                    if (store.onSharedEngine() && at != ExpiryRule.NEVER && at > now) {
                        if (healedExpiry.isEmpty()) {
                            healedExpiry = new ArrayList<>();
                        }
                        healedExpiry.add(ExpiryIndex.key(keys.get(id), at)); // shared: it may have had none
                    }
                }
            }
            if (at > now) {
                continue;
            }
            if (purged.isEmpty()) {
                purged = new HashSet<>();
                purgedAt = new HashMap<>();
            }
            purgedAt.put(id, at);
            results.add(remove(ItemOperation.Type.DELETE, id, cur));
            purged.add(id);
            n++;
        }
        return n;
    }

    private void checkPatchable(String path) {
        String top = path.indexOf('/', 1) < 0 ? path : path.substring(0, path.indexOf('/', 1));
        if (top.equals("/id") || ItemCodec.SYSTEM_PROPERTIES.contains(top.substring(1))) {
            throw new StoreException(Status.BAD_REQUEST, "patch cannot change " + top + ": it is a system property");
        }
        if (container.definition.partitionKey().touches(path)) {
            throw new StoreException(Status.BAD_REQUEST, "patch cannot change the partition key path " + path);
        }
    }

    private void requireExists(byte[] cur, String id) {
        if (cur == null) {
            throw new StoreException(Status.NOT_FOUND, "item " + id + " does not exist in partition " + pk);
        }
    }

    private void checkIfMatch(ItemOperation op, String id, String curEtag) {
        String expected = op.ifMatchETag();
        if (expected == null) {
            return;
        }
        if (curEtag == null || !(expected.equals("*") || ContainerStore.etagMatches(expected, curEtag))) {
            throw new StoreException(Status.PRECONDITION_FAILED, "the etag " + expected + " of item " + id
                    + " is stale: the item changed or no longer exists");
        }
    }

    /** write-path: an encoded item's tree is partial, so its index entries come from its bytes. */
    private boolean isEncoded(ItemOperation op) {
        return op.item() == null && op.encoded() != null;
    }

    private ItemResult write(ItemOperation.Type type, String id, byte[] body, ObjectNode item, int status) {
        return write(type, id, body, item, status, false);
    }

    private ItemResult write(ItemOperation.Type type, String id, byte[] body, ObjectNode item, int status,
                             boolean encoded) {
        boolean binaryBody = io.tetradb.core.item.StoredItems.isBinaryBody(body)
                || io.tetradb.core.item.StoredItems.isFrame(body);
        if (!binaryBody) {
            item = io.tetradb.core.index.JsonTextForm.of(item); // keyed as JSON text reads it back (doubles)
        }
        byte[] cur = current(id);
        byte[] key = docKey(id); // batch-path: looked up once
        List<ByteBuffer> faceTerms = faceUnique == null ? null // checked before anything changes, as below
                : faceUnique.check(id, key, () -> storedVersion(id), item);
        if (!uniqueKeys.isEmpty()) { // checked before anything changes: a violation leaves the transaction as it was
            List<ByteBuffer> terms = UniqueKeyIndex.terms(uniqueKeys, lpPrefix, item);
            unique.replace(id, currentUniqueTerms(id), terms);
            uniqueAfter.put(id, terms);
        }
        if (faceUnique != null) {
            faceUnique.record(id, key, () -> storedVersion(id), faceTerms);
        }
        if (rule.active() || entryRule.active()) { // batch-path: read by writeSet() only then (no boxed NEVER)
            expiryAfter().put(id, entryRule.active() ? entryRule.expiresAt(item, ts) : ExpiryRule.NEVER);
        }
        List<ByteBuffer> previous = currentEntries(id);
        lsn++;
        String etag = container.etag(lsn);
        byte[] stored = ItemCodec.finish(body, lsn, container.rid(key, lpPrefix.length), container.selfPrefix, etag,
                ts);
        // write-path: a tree the caller built is walked (cheaper than the bytes); an encoded item has no tree
        List<ByteBuffer> entries = encoded && BinaryIndexEntries.ON && binaryBody // insert-frame: or its frame
                ? binaryEntries(id, stored, ts)
                : recorded != null && body == recordedBody && recorded.policy() == policies.policyFor(key)
                ? OnePassTerms.entries(container.paths, key, container.collId.length, body, recorded, ts,
                        item) // write-cost
                : entries(id, item, ts);
        int keyBytes = key.length;
        long size = keyBytes + stored.length;
        deltaBytes += size - (cur == null ? 0 : keyBytes + cur.length) + ContainerStore.bytes(entries)
                - ContainerStore.bytes(previous);
        deltaItems += cur == null ? 1 : 0;
        after.put(id, new Written(stored, lsn, entries));
        noteWritten(key);
        if (container.adjacency != null && !encoded) { // an encoded item's tree is partial: adjacency reads its bytes
            if (writtenTrees == null) {
                writtenTrees = new java.util.IdentityHashMap<>();
            }
            writtenTrees.put(stored, item);
        }
        return new ItemResult(type, id, status, stored, etag,
                RequestCharge.write(size, entries.size()), null);
    }

    /** The index entries the item has at this point of the transaction. */
    private List<ByteBuffer> currentEntries(String id) {
        Written w = after.get(id);
        return w != null ? w.entries() : storedEntries(id);
    }

    /** The index entries of the version stored before the transaction. */
    private List<ByteBuffer> storedEntries(String id) {
        if (before.get(id) == null) {
            return List.of(); // pw-lean: nothing stored (a create): no entry kept, no lambda made
        }
        if (entriesBefore.isEmpty()) {
            entriesBefore = new HashMap<>(capacity);
        }
        return entriesBefore.computeIfAbsent(id, i -> {
            byte[] old = before.get(i);
            if (old == null || !policies.policyFor(docKey(i)).enabled()) {
                return List.of();
            }
            if (BinaryIndexEntries.ON && io.tetradb.core.item.StoredItems.isBinary(old)) { // write-path: no parse
                return binaryEntries(i, old, io.tetradb.core.item.StoredItems.ts(old));
            }
            ObjectNode node = parsedBefore(i);
            return entries(i, node, node.path("_ts").asLong());
        });
    }

    /** write-path: the entries of a binary stored version, from its bytes (the same keys as from its tree). */
    private List<ByteBuffer> binaryEntries(String id, byte[] stored, long versionTs) {
        return BinaryIndexEntries.of(container.paths, docKey(id), container.collId.length, stored,
                io.tetradb.core.item.StoredItems.HEADER, versionTs, policies.policyFor(docKey(id)));
    }

    private List<ByteBuffer> entries(String id, ObjectNode item, long versionTs) {
        // the policy the item's key follows (old or new during a rebuild): the diff removes exactly what is stored
        return container.indexEntries(docKey(id), item, versionTs, policies.policyFor(docKey(id)));
    }

    /**
     * The adjacency lists ({@code GraphAdjacency.vertexDirection}) the last {@link #writeSet()} put or deleted entries
     * of, {@code [0, adjacencyTouchedCount)}: their write stamps move once the write is visible.
     */
    int[] adjacencyTouched;
    int adjacencyTouchedCount;

    private void touchedAdjacency(int vertexDirection) {
        if (adjacencyTouched == null) {
            adjacencyTouched = new int[4];
        } else if (adjacencyTouchedCount == adjacencyTouched.length) {
            adjacencyTouched = Arrays.copyOf(adjacencyTouched, 2 * adjacencyTouchedCount);
        }
        adjacencyTouched[adjacencyTouchedCount++] = vertexDirection;
    }

    WriteSet writeSet() {
        adjacencyTouchedCount = 0;
        WriteSet ws = new WriteSet(2 * after.size() + 4); // pw-lean: items and records, the statistics, no regrowth
        IndexWrites index = new IndexWrites();
        io.tetradb.core.feed.ChangeFeed.Batch feedBatch = container.feed.batch();
        if (inBulkChunk) {
            feedBatch.inBulkChunk();
        }
        byte[] logicalPartition = logicalPartitionKey(); // core-write: once per write set, not once per item
        for (Map.Entry<String, Written> e : after.entrySet()) {
            String id = e.getKey();
            Written written = e.getValue();
            byte[] old = before.get(id);
            byte[] now = written.stored();
            if (now == null && old == null) {
                continue; // created and deleted inside the transaction
            }
            byte[] key = docKey(id);
            if (now == null) {
                ws.delete(Space.DOCS, key);
            } else {
                ws.put(Space.DOCS, key, now);
            }
            List<ByteBuffer> was = storedEntries(id);
            index.diff(was, written.entries());
            if (container.adjacency == null && !adjacencyMarkRead && store.onSharedEngine()) {
                // adjacency hook: an edge through an object older than the container's mark (AdjacencyPartitionMarks)
                adjacencyMarkRead = AdjacencyPartitionMarks.followContainerMarkForEdge(container, store,
                        old, now);
            }
            if (container.adjacency != null) { // graph adjacency: the edge's entries in the same write set
                container.adjacency.addWrites(pk, old, now,
                        now == null || writtenTrees == null ? null : writtenTrees.get(now),
                        ws, inBulkChunk ? null : this::touchedAdjacency); // a chunk's bump names nothing
            }
            // one change record per changed item; the feed's pruner removes superseded ones later
            feedBatch.add(logicalPartition, key, id, written.lsn(),
                    now, old, old == null ? 0 : ItemCodec.lsn(old), purged.contains(id));
            if (rule.active() || entryRule.active()) { // TTL hook: the item's expiry entry moves with it
                Long known = purgedAt.get(id); // the purge knows it from the entry: no parse
                long wasAt = old == null || known == null && !entryRule.active() ? ExpiryRule.NEVER
                        : known != null ? known : entryRule.expiresAt(parsedBefore(id));
                ExpiryIndex.move(ws, key, wasAt, expiryAfter.getOrDefault(id, wasAt));
            }
        }
        for (byte[] stale : staleExpiry) {
            ws.delete(Space.META, stale);
        }
        for (byte[] healed : healedExpiry) { // shared engine only (see purge)
            ws.put(Space.META, healed, new byte[0]);
        }
        if (unique != null) {
            unique.addTo(ws);
        }
        if (faceUnique != null) {
            faceUnique.addTo(ws);
        }
        index.addTo(ws);
        long items = stats.items() + deltaItems;
        if (stats.items() == 0 && items > 0) {
            deltaLogicalPartitions = 1;
        } else if (stats.items() > 0 && items == 0) {
            deltaLogicalPartitions = -1;
        }
        byte[] carried = null;
        if (lsn != stats.lsn()) {
            statsAfter = new LogicalPartitionStats(stats.bytes() + deltaBytes, items, lsn);
            byte[] encoded = statsAfter.encode();
            // core-stats: on the core's own embedded store the statistics ride in the transaction's partition
            // index key (StoredPartitionStats); the record is written on the partition's first write (so scans
            // of the records find every partition) and whenever the lsn passes a multiple of the interval
            int every = store.statsRecordEvery();
            if (every > 0 && !statsRecordEveryWrite && stats.lsn() > 0) {
                carried = encoded;
            }
            if (carried == null || stats.lsn() / every != lsn / every) {
                ws.put(Space.META, statsKey(), encoded);
            }
            PartitionPolicyEpochs.addTo(epochDecision, lpPrefix, ws); // shared-engine hook: a partition without one
        }
        feedTicket = feedBatch.writeTo(ws, System.currentTimeMillis(), carried); // last: nothing can fail after it
        if (carried != null && feedTicket == 0 && stats.lsn() / store.statsRecordEvery()
                == lsn / store.statsRecordEvery()) {
            ws.put(Space.META, statsKey(), carried); // no change record carries them
        }
        return ws;
    }
}
