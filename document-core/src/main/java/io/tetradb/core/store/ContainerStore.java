package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeTerms;
import io.tetradb.core.index.IndexTerm;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.query.sql.SqlToPlan;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.ttl.ExpiryRule;
import io.tetradb.core.value.IndexKeyEncoding;
import org.apache.commons.codec.digest.MurmurHash3;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * The items of one container. Every write runs as a transaction inside one logical partition: under that partition's
 * striped lock it reads the current versions, computes the new ones and hands one {@link WriteSet} (items, their
 * index entries, change records, partition statistics) to the engine. Point reads take no lock at all.
 *
 * <p>Writers hold the container's map lock shared, so that a split (which holds it exclusively) always sees settled
 * statistics.
 */
public final class ContainerStore {
    final CoreStore store;
    volatile ContainerDefinition definition;
    final byte[] collId;
    final byte[] selfPrefix;
    private final byte[] ridPrefix;
    /** item-copies: the room a frame leaves for the stored trailer (rid, self prefix, etag, ts: all fixed-length). */
    private final int trailerRoom;
    /**
     * insert-frame (issue 17): the trailer room of every container this store makes — a rid, the self prefix
     * {@code dbs/<rid>/colls/<rid>/docs/} (a database's rid is base64 of 4 bytes, 8 chars; a container's of 8, 12) and
     * an etag — which {@link EncodedItem#of} leaves after the body, knowing no container. A container whose room
     * differs (a self prefix of another length) finishes such a frame by a copy, as a body.
     */
    static final int USUAL_TRAILER_ROOM = io.tetradb.core.item.StoredItems.trailerLength(ContainerStore.RID_LENGTH,
            "dbs/".length() + 8 + "/colls/".length() + 12 + "/docs/".length(), ItemEtags.LENGTH);
    final ReentrantReadWriteLock mapLock = new ReentrantReadWriteLock();
    volatile PartitionMap map;
    private volatile boolean deleted;
    /** Which policy the stored entries follow (two, by key, while a rebuild runs); swapped whole. */
    volatile IndexingState indexing;
    /** The background rebuild after a policy change, or null. */
    private volatile IndexRebuild rebuild;
    /** Shared-engine hook: which policy each logical partition's index terms follow (PartitionPolicyEpochs). */
    final PartitionPolicyEpochs policyEpochs;
    /** Shared-engine hook: the rule a partition's expiry entries follow, read with its epoch. */
    final PartitionExpiryRules expiryRules = new PartitionExpiryRules();
    final PathDictionary paths;
    /** When items expire (see {@link ExpiryIndex}); swapped whole, under the exclusive {@link #mapLock}. */
    volatile io.tetradb.core.ttl.ExpiryRule expiry;
    /** The unique keys the core enforces (see {@link UniqueKeyIndex}); fixed at creation, as in Cosmos DB. */
    final io.tetradb.core.unique.UniqueKeyPolicy uniqueKeys;
    /** Unique indexes whose keys a face computes (see {@link FaceUniqueIndexes}). */
    final FaceUniqueIndexes faceUnique;

    /**
     * Adds a face-defined unique index (see {@link io.tetradb.core.unique.ItemUniqueIndex}), with the entries of
     * every stored item, writers held off meanwhile; a key two items hold fails it with
     * {@link io.tetradb.core.unique.UniqueIndexViolation}, adding nothing. False if one of that name exists.
     */
    public boolean addUniqueIndex(io.tetradb.core.unique.UniqueIndexDefinition index) {
        mapLock.writeLock().lock();
        try {
            checkNotDeleted();
            return faceUnique.add(this, index);
        } finally {
            mapLock.writeLock().unlock();
        }
    }

    /** Removes a face-defined unique index and its entries; false if there is none of that name. */
    public boolean dropUniqueIndex(String name) {
        mapLock.writeLock().lock();
        try {
            checkNotDeleted();
            return faceUnique.drop(name);
        } finally {
            mapLock.writeLock().unlock();
        }
    }

    /**
     * Shared engine, at a catalog refresh: the face-defined unique indexes and the date-field expiries (Mongo TTL
     * indexes) another server added, changed or dropped.
     */
    void followUniqueIndexes() {
        faceUnique.follow();
        ExpiryRule stored = SharedExpiryRebuild.loadRule(store.metadata(), definition);
        if (!stored.dateFields().equals(expiry.dateFields())) {
            expiry = new ExpiryRule(expiry.defaultTtl(), stored.dateFields());
        }
    }

    /** The face-defined unique indexes, as stored. */
    public List<io.tetradb.core.unique.UniqueIndexDefinition> uniqueIndexes() {
        return faceUnique.definitions();
    }

    ContainerStore(CoreStore store, ContainerDefinition definition, String databaseRid, int dbId, PartitionMap map) {
        this(store, definition, databaseRid, dbId, map,
                IndexingState.settled(CompiledIndexingPolicy.of(definition.indexingPolicy())));
    }

    ContainerStore(CoreStore store, ContainerDefinition definition, String databaseRid, int dbId, PartitionMap map,
                   IndexingState indexing) {
        this.store = store;
        this.definition = definition;
        this.collId = Keys.collId(definition.collId());
        this.selfPrefix = ("dbs/" + databaseRid + "/colls/" + definition.rid() + "/docs/")
                .getBytes(StandardCharsets.US_ASCII);
        this.ridPrefix = Keys.concat(Keys.collId(dbId), collId);
        this.trailerRoom = io.tetradb.core.item.StoredItems.trailerLength(RID_LENGTH, selfPrefix.length,
                ItemEtags.LENGTH);
        this.map = map;
        this.indexing = indexing;
        this.policyEpochs = new PartitionPolicyEpochs(store, this); // shared-engine hook
        this.paths = new PathDictionary(store.metadata(), definition.collId()); // metadata contract
        this.expiry = store.onSharedEngine() ? SharedExpiryRebuild.loadRule(store.metadata(), definition) // shared
                : ExpiryIndex.load(store.engine(), definition);
        this.uniqueKeys = io.tetradb.core.unique.UniqueKeyPolicy.of(definition.uniqueKeyPolicy());
        this.faceUnique = new FaceUniqueIndexes(store.engine(), definition.collId(), store.uniqueIndexKinds(),
                store.onSharedEngine() ? new SharedUniqueOwners(store, this, definition.collId()) : null); // shared
        this.reads = store.itemReads(definition.partitionKey().levels()); // item-reads hook
        this.statsRecords = store.statsRecords(definition.collId()); // batch-stats
        this.feed = store.changeFeeds().open(definition.collId(), definition.partitionKey().levels());
        this.feed.readThrough(reads); // item-reads hook
        // graph adjacency (GraphAdjacency): on when the container carries its durable mark
        this.adjacency = (AdjacencyContractPath.applies(this) // items on another engine: the mark in the metadata
                ? !AdjacencyContractPath.marked(store, definition.collId())
                : store.engine().get(Space.META, GraphAdjacency.metaKey(definition.collId())) == null)
                ? null : new GraphAdjacency(this, store);
    }

    // ---- item-reads hook: every item read goes through this container's ItemReads (io.tetradb.core.reads) ----
    final io.tetradb.core.reads.ItemReads reads;

    /** batch-stats: the logical partitions that may hold a statistics record (a partition never written is not read). */
    final StatsRecordFilter statsRecords;

    StatsRecordFilter statsRecords() {
        return statsRecords;
    }

    /** Where this container's item reads go: the embedded engine's keys, or the logical-partition contract. */
    public io.tetradb.core.reads.ItemReads reads() {
        return reads;
    }
    // ---- end item-reads hook ----

    // ---- change feed (io.tetradb.core.feed) ---------------------------------------------------------------------
    final io.tetradb.core.feed.ChangeFeed feed;

    /** The container's change feed: its records are written by every transaction below. */
    public io.tetradb.core.feed.ChangeFeed changeFeed() {
        return feed;
    }

    // ---- graph adjacency (see GraphAdjacency) ------------------------------------------------------------------

    final WriteStamps writeStamps = new WriteStamps();

    /** Write counters by logical partition, for exact caches above the core (see {@link WriteStamps}). */
    public WriteStamps writeStamps() {
        return writeStamps;
    }

    /** Adjacency entries of a graph container, or null when the container has none. */
    volatile GraphAdjacency adjacency;

    /** The container's graph adjacency, or null if {@link #enableGraphAdjacency()} was never called on it. */
    public GraphAdjacency graphAdjacency() {
        return adjacency;
    }

    /**
     * Keeps adjacency entries for the container's edge items from now on (durably), building them for the edges it
     * already holds; writers wait meanwhile. Only for containers with a one-path partition key.
     */
    public GraphAdjacency enableGraphAdjacency() {
        GraphAdjacency a = adjacency;
        if (a != null) {
            return a;
        }
        GraphAdjacency.refuseUnless(definition.partitionKey().levels() == 1,
                "graph adjacency needs a partition key with one path");
        mapLock.writeLock().lock();
        try {
            checkNotDeleted();
            if (adjacency == null) {
                GraphAdjacency built = new GraphAdjacency(this, store);
                built.rebuild();
                adjacency = built;
            }
            return adjacency;
        } finally {
            mapLock.writeLock().unlock();
        }
    }

    /**
     * A partition a transaction writes carries another server's adjacency backfill mark (AdjacencyPartitionMarks):
     * entries from that transaction on. Without the map lock, which the transaction may hold for reading.
     */
    void adoptGraphAdjacencyInFlight() {
        synchronized (writeStamps) {
            if (adjacency == null) {
                adjacency = new GraphAdjacency(this, store);
            }
        }
    }

    /** Another server enabled adjacency here (AdjacencyContractPath.followMarks): entries from now on, no backfill. */
    void adoptGraphAdjacency() {
        mapLock.writeLock().lock();
        try {
            if (adjacency == null) {
                adjacency = new GraphAdjacency(this, store);
            }
        } finally {
            mapLock.writeLock().unlock();
        }
    }

    public ContainerDefinition definition() {
        return definition;
    }

    public PartitionMap partitionMap() {
        return map;
    }

    // ---- indexing policy and its rebuild ------------------------------------------------------------------------

    /**
     * The policy a query may plan index seeks with: the container's policy, or — while an index rebuild runs — a
     * policy that indexes nothing (so queries scan: during a rebuild a path's entries exist only for part of the
     * items, and the planner cannot know which).
     */
    public CompiledIndexingPolicy seekablePolicy() {
        return indexing.seekable();
    }

    /** True while a policy change is being applied to the stored items' index entries. */
    public boolean isIndexRebuilding() {
        return indexing.rebuilding();
    }

    /**
     * Cosmos DB's index transformation progress: 100 when no rebuild runs, else the share of items converted so far
     * (0–99; items written meanwhile move it a little).
     */
    public long indexTransformationProgress() {
        if (store.onSharedEngine()) { // shared-engine hook: any server's rebuild, from its record in the metadata
            return PartitionIndexRebuild.progress(store, this);
        }
        IndexingState s = indexing;
        if (!s.rebuilding()) {
            return 100;
        }
        long total = 0;
        for (PhysicalPartition pp : map.partitions()) {
            total += pp.items();
        }
        return total <= 0 ? 0 : Math.min(99, s.converted() * 100 / total);
    }

    /** For tests and tools: waits until the running index rebuild, if any, has ended (finished or stopped). */
    public void awaitIndexRebuild() throws InterruptedException {
        IndexRebuild r = rebuild;
        if (r != null) {
            r.await();
        }
    }

    IndexingState indexingState() {
        return indexing;
    }

    /** Swapped only under {@link #mapLock} (exclusively, or shared plus the lock of the partition the cursor moves in). */
    void indexingState(IndexingState next) {
        indexing = next;
    }

    /** A replaced definition (new policy); under the exclusive {@link #mapLock}. */
    void replaceDefinition(ContainerDefinition next, IndexingState nextIndexing) {
        definition = next;
        indexing = nextIndexing;
        if (!java.util.Objects.equals(expiry.defaultTtl(), next.defaultTimeToLive())) {
            replaceExpiryRule(expiry.withDefaultTtl(next.defaultTimeToLive()), new WriteSet()); // TTL hook
        }
    }

    IndexRebuild indexRebuild() {
        return rebuild;
    }

    void indexRebuild(IndexRebuild job) {
        rebuild = job;
    }

    /** Stops the rebuild job, if any (it resumes from its cursor at the next open); waits for it to end. */
    void stopIndexRebuild() {
        IndexRebuild r = rebuild;
        if (r != null) {
            r.stop();
        }
    }

    byte[] collIdBytes() {
        return collId;
    }

    /** {@code collId · EPK · pk} of a DOCS key: its logical partition's prefix. */
    byte[] logicalPartitionOf(byte[] docKey) {
        int levels = definition.partitionKey().levels();
        int pkStart = collId.length + 16 * levels;
        return Arrays.copyOf(docKey, pkStart + PartitionKeyValue.encodedLength(docKey, pkStart, levels));
    }

    /** Reads stored item bytes back as JSON or POJOs. */
    public ItemCodec codec() {
        return store.codec();
    }

    void replaceMap(PartitionMap next) {
        map = next;
    }

    int collId() {
        return definition.collId();
    }

    /** Set once at load: items found sharing unique key values when an older directory's entries were built. */
    volatile List<io.tetradb.core.unique.UniqueKeyCollision> uniqueKeyCollisions = List.of();

    /**
     * Items of a data directory written before unique keys were enforced that hold values another item holds (see
     * {@link UniqueKeyBackfill}); empty for containers created since.
     */
    public List<io.tetradb.core.unique.UniqueKeyCollision> uniqueKeyCollisions() {
        return uniqueKeyCollisions;
    }

    io.tetradb.core.unique.UniqueKeyPolicy uniqueKeyPolicy() {
        return uniqueKeys;
    }

    /** The container's self link, {@code dbs/<database rid>/colls/<container rid>/}. */
    public String selfLink() {
        String docs = new String(selfPrefix, StandardCharsets.US_ASCII);
        return docs.substring(0, docs.length() - "docs/".length());
    }

    /** The container's name-based link, {@code dbs/<database>/colls/<container>}. */
    public String altLink() {
        return "dbs/" + definition.database() + "/colls/" + definition.id();
    }

    /** The container's stored scripts (stored procedures, triggers, UDFs). */
    public ScriptDefinitions scriptDefinitions() {
        return scriptDefinitions;
    }

    private final ScriptDefinitions scriptDefinitions = new ScriptDefinitions(this);
    private volatile io.tetradb.core.script.ContainerScripts scripts;

    /** The container's server-side scripts with their rules and runtime (created on first use). */
    public io.tetradb.core.script.ContainerScripts scripts() {
        io.tetradb.core.script.ContainerScripts s = scripts;
        if (s == null) {
            synchronized (this) {
                s = scripts;
                if (s == null) {
                    s = new io.tetradb.core.script.ContainerScripts(this, store.scriptEngine());
                    scripts = s;
                }
            }
        }
        return s;
    }

    /** The store this container belongs to (metadata contract: scripts reach the metadata store through it). */
    CoreStore core() {
        return store;
    }

    void markDeleted() {
        deleted = true;
    }

    /** True once the container was deleted; a container created again under the same name is another object. */
    public boolean isDeleted() {
        return deleted;
    }

    void checkNotDeleted() {
        if (deleted) {
            throw new StoreException(Status.NOT_FOUND, "container " + definition.id() + " does not exist");
        }
    }

    /**
     * The factor on a read's charge at the account's consistency level (2 under strong or bounded staleness), for
     * faces that charge reads they answer from their own caches (Gremlin) as the core charges its reads.
     */
    public int accountReadChargeFactor() { // consistency
        return store.consistency().readChargeFactor(null);
    }

    /** The RU budgets this container's requests are admitted and charged by (see {@link RateLimiter}). */
    /**
     * A read a face answers without the core (from a cache it keeps exact, or from an adjacency or key scan) pays the
     * partition's budget as a core read does: admitted first (a {@code RequestRateTooLargeException} when the budget
     * is spent), then settled at {@code ru}.
     */
    public void payFaceRead(PartitionKeyValue pk, double ru) { // throughput
        io.tetradb.core.throughput.PartitionBudget budget = store.rateLimiter().admit(this, pk.epk());
        store.rateLimiter().settle(budget, ru, pk);
    }

    /** As {@link #payFaceRead(PartitionKeyValue, double)} for a read over every partition (a key scan). */
    public void payFaceRead(double ru) { // throughput
        store.rateLimiter().settle(store.rateLimiter().admit(this, (EpkRange) null), ru);
    }

    public RateLimiter rateLimiter() {
        return store.rateLimiter();
    }

    /** The partition key of an item under this container's definition. */
    public PartitionKeyValue partitionKeyOf(JsonNode item) {
        return definition.partitionKey().extract(item);
    }

    // ---- reads -------------------------------------------------------------------------------------------------

    /** A point read; 404 if absent, 304 (no body) if {@code ifNoneMatch} is the current etag. */
    public ItemResult read(PartitionKeyValue pk, String id, String ifNoneMatchETag) {
        return read(pk, id, ifNoneMatchETag, null);
    }

    /**
     * A point read at a consistency level ({@code null}: the account's; a level stronger than the account's is 400):
     * strong and bounded-staleness reads charge the request and the partition's budget twice.
     */
    public ItemResult read(PartitionKeyValue pk, String id, String ifNoneMatchETag,
                           io.tetradb.core.consistency.ConsistencyLevel consistency) {
        checkNotDeleted();
        checkLevels(pk);
        int factor = store.consistency().readChargeFactor(consistency); // consistency
        io.tetradb.core.throughput.PartitionBudget budget = store.rateLimiter().admit(this, pk.epk()); // throughput
        byte[] key = Keys.concat(collId, pk.epk(), pk.encoded(), Keys.utf8(id));
        byte[] stored = reads.item(key);
        if (stored == null || isExpired(stored)) {
            store.rateLimiter().settle(budget, RequestCharge.atFactor(RequestCharge.miss(), factor), pk); // throughput
            throw new StoreException(Status.NOT_FOUND, "item " + id + " does not exist in partition " + pk);
        }
        String etag = etag(ItemCodec.lsn(stored));
        if (ifNoneMatchETag != null && etagMatches(ifNoneMatchETag, etag)) {
            double miss = RequestCharge.atFactor(RequestCharge.miss(), factor);
            store.rateLimiter().settle(budget, miss, pk); // throughput
            return new ItemResult(ItemOperation.Type.READ, id, Status.NOT_MODIFIED, null, etag, miss, null);
        }
        double charge = RequestCharge.atFactor(RequestCharge.read(key.length + stored.length), factor);
        store.rateLimiter().settle(budget, charge, pk); // throughput
        return new ItemResult(ItemOperation.Type.READ, id, Status.OK, stored, etag, charge, null);
    }

    /**
     * What {@link #read} of the item {@code id} of {@code pk} charges now (at the account's consistency) when its stored
     * version is {@code storedLength} bytes: for a face that keeps a version it wrote and answers a later point read
     * from it (the Mongo face's point replies), so the read is charged as the core's would be.
     */
    public double readCharge(PartitionKeyValue pk, String id, int storedLength) {
        int keyLength = collId.length + pk.epk().length + pk.encoded().length + Keys.utf8(id).length;
        return RequestCharge.atFactor(RequestCharge.read(keyLength + storedLength), accountReadChargeFactor());
    }

    /**
     * One change feed page as a metered read at a consistency level ({@code null}: the account's): admitted and
     * charged by the budgets of the partitions it reads (see {@link ChangeFeedCharges}).
     */
    public ChargedChangeFeedPage readChangeFeed(io.tetradb.core.feed.ChangeFeedRequest request,
                                                io.tetradb.core.consistency.ConsistencyLevel consistency) {
        checkNotDeleted();
        return ChangeFeedCharges.read(this, store.consistency(), request, consistency);
    }

    /** Visits every item whose EPK is in {@code range}, in key order, until the visitor returns false. */
    public void scan(EpkRange range, Predicate<byte[]> visitor) {
        checkNotDeleted();
        byte[] from = Keys.concat(collId, range.min());
        byte[] to = Keys.concat(collId, range.max());
        reads.scanItems(from, to, kv -> isExpired(kv.value()) || visitor.test(kv.value()));
    }

    /** Visits every item of one logical partition, in id order. */
    public void scan(PartitionKeyValue pk, Predicate<byte[]> visitor) {
        checkNotDeleted();
        byte[] prefix = Keys.concat(collId, pk.epk(), pk.encoded());
        reads.scanItems(prefix, Keys.prefixEnd(prefix),
                kv -> isExpired(kv.value()) || visitor.test(kv.value()));
    }

    /**
     * Item counts from a composite index's keys (no item read): see {@link CompositeEntryCounts#count}; null when
     * they would not be exact. Expired items not yet purged are counted (as the index still holds them).
     */
    public Map<JsonNode, Long> countByComposite(List<String> paths, List<JsonNode> leading) { // graph-perf hook
        checkNotDeleted();
        return new CompositeEntryCounts(this).count(paths, leading);
    }

    /**
     * Point reads of several items in one storage multi-get: per address, what {@link #read} gives (without
     * If-None-Match), or null where the item does not exist (or expired). Each item is admitted and charged as its
     * own point read (a miss as a miss).
     */
    public List<ItemResult> readMany(List<ItemAddress> addresses) { // graph-perf hook
        checkNotDeleted();
        List<byte[]> keys = new ArrayList<>(addresses.size());
        for (ItemAddress a : addresses) {
            checkLevels(a.pk());
            keys.add(Keys.concat(collId, a.pk().epk(), a.pk().encoded(), Keys.utf8(a.id())));
        }
        List<byte[]> values = keys.isEmpty() ? List.of() : reads.items(keys);
        List<ItemResult> out = new ArrayList<>(addresses.size());
        int factor = store.consistency().readChargeFactor(null); // consistency: the account's level
        for (int i = 0; i < addresses.size(); i++) {
            ItemAddress a = addresses.get(i);
            byte[] stored = values.get(i);
            io.tetradb.core.throughput.PartitionBudget budget = store.rateLimiter().admit(this, a.pk().epk()); // throughput
            if (stored == null || isExpired(stored)) {
                store.rateLimiter().settle(budget, RequestCharge.atFactor(RequestCharge.miss(), factor), a.pk()); // throughput
                out.add(null);
                continue;
            }
            double charge = RequestCharge.atFactor(RequestCharge.read(keys.get(i).length + stored.length), factor);
            store.rateLimiter().settle(budget, charge, a.pk()); // throughput
            out.add(new ItemResult(ItemOperation.Type.READ, a.id(), Status.OK, stored, etag(ItemCodec.lsn(stored)),
                    charge, null));
        }
        return out;
    }

    /** The items holding {@code value} at {@code path}, from index keys: see {@link TermAddresses#of}; null if unindexed. */
    public List<ItemAddress> addressesByTerm(List<String> path, JsonNode value) { // graph-perf hook
        checkNotDeleted();
        return new TermAddresses(this).of(path, value);
    }

    // ---- time to live (see ExpiryIndex, TtlPurger) ----------------------------------------------------------------

    /** When this container's items expire. */
    public ExpiryRule expiryRule() {
        return expiry;
    }

    /** True when the stored version has expired by the store's clock: reads, feeds and queries then skip it. */
    boolean isExpired(byte[] stored) {
        ExpiryRule r = expiry;
        if (!r.active()) {
            return false;
        }
        JsonNode item = io.tetradb.core.item.StoredItems.isBinary(stored) // just the fields the rule reads
                ? io.tetradb.core.item.StoredItems.partial(stored, r.fieldsRead()) : store.codec().parse(stored);
        return r.expiresAt(item) <= store.config().clock().millis();
    }

    /** As {@link #isExpired(byte[])} for a parsed stored item. */
    boolean isExpired(JsonNode storedItem) {
        ExpiryRule r = expiry;
        return r.active() && r.expiresAt(storedItem) <= store.config().clock().millis();
    }

    /**
     * Adds (or, with {@code seconds} null, removes) a date-field expiry: items expire {@code seconds} after the date
     * at {@code path} (segments). A MongoDB TTL index is one. Existing items' expiry entries are recomputed at once,
     * with the container's writers held off meanwhile.
     */
    public void setDateFieldExpiry(String name, List<String> path, Long seconds) {
        mapLock.writeLock().lock();
        try {
            checkNotDeleted();
            if (store.onSharedEngine()) { // shared-engine hook: the field in the metadata, entries converted after
                ExpiryRule.DateField f = seconds == null ? null
                        : new ExpiryRule.DateField(name, List.copyOf(path), seconds);
                ExpiryRule previous = expiry;
                if (SharedExpiryRebuild.changeDateField(store, collId(), name, f, previous)) {
                    expiry = f == null ? expiry.withoutDateField(name) : expiry.withDateField(f);
                    SharedExpiryRebuild.start(store, this, previous);
                }
                return;
            }
            WriteSet ws = new WriteSet();
            ExpiryRule next;
            if (seconds == null) {
                ws.delete(Space.META, ExpiryIndex.dateFieldKey(collId(), name));
                next = expiry.withoutDateField(name);
            } else {
                ExpiryRule.DateField f = new ExpiryRule.DateField(name, List.copyOf(path), seconds);
                ws.put(Space.META, ExpiryIndex.dateFieldKey(collId(), name), ExpiryIndex.encode(f));
                next = expiry.withDateField(f);
            }
            replaceExpiryRule(next, ws);
        } finally {
            mapLock.writeLock().unlock();
        }
    }

    /** Under the exclusive {@link #mapLock}: the new rule and the expiry index rebuilt for it, in one write. */
    private void replaceExpiryRule(ExpiryRule next, WriteSet ws) {
        if (store.onSharedEngine()) { // shared-engine hook: the rule is metadata; SharedExpiryRebuild moves entries
            expiry = next;
            return;
        }
        ExpiryIndex.rebuild(this, next, ws);
        store.engine().apply(ws);
        expiry = next;
    }

    /**
     * Deletes up to {@code max} items expired at {@code nowMillis}, earliest first, one transaction per logical
     * partition (each under its lock, briefly); returns how many it deleted.
     */
    /** The most deletes one purge transaction makes while it holds a logical partition's lock. */
    private static final int PURGE_TRANSACTION_ITEMS = 128;

    /** Where the purger's next round starts (the least key after the last entry it took), or null: the start. */
    private volatile byte[] purgeCursor;

    int purgeExpired(long nowMillis, int max) {
        if (deleted || !expiry.active()) {
            return 0;
        }
        // from where the last round stopped: the entries before it are deleted, and seeking through their
        // tombstones every round would make a long purge quadratic; a round that reaches the end starts over
        byte[] from = purgeCursor;
        List<byte[]> entries = reads.embedded() ? ExpiryIndex.expired(store.engine(), collId(), from, nowMillis, max)
                : ExpiryIndex.expired(reads, collId(), from, nowMillis, max); // item-reads hook: the contract's seek
        purgeCursor = entries.size() < max ? null : Arrays.copyOf(entries.get(entries.size() - 1),
                entries.get(entries.size() - 1).length + 1);
        Map<java.nio.ByteBuffer, List<byte[]>> byPartition = new LinkedHashMap<>();
        for (byte[] e : entries) {
            byte[] lp = logicalPartitionOf(ExpiryIndex.docKeyOf(e));
            byPartition.computeIfAbsent(ByteBuffer.wrap(lp), k -> new ArrayList<>()).add(e);
        }
        List<java.util.concurrent.Callable<Integer>> chunks = new ArrayList<>();
        for (Map.Entry<ByteBuffer, List<byte[]>> e : byPartition.entrySet()) {
            List<byte[]> all = e.getValue();
            for (int i = 0; i < all.size(); i += PURGE_TRANSACTION_ITEMS) { // short lock holds: writers wait little
                List<byte[]> chunk = all.subList(i, Math.min(all.size(), i + PURGE_TRANSACTION_ITEMS));
                chunks.add(() -> purgePartition(e.getKey().array(), chunk));
            }
        }
        return store.ttlPurger().runChunks(chunks); // partitions' chunks side by side on the purger's threads
    }

    private int purgePartition(byte[] lpPrefix, List<byte[]> entries) {
        int levels = definition.partitionKey().levels();
        PartitionKeyValue pk = PartitionKeyValue.decode(lpPrefix, collId.length + 16 * levels, lpPrefix.length);
        mapLock.readLock().lock();
        try {
            if (deleted) {
                return 0;
            }
            ReentrantLock lock = store.lockFor(lpPrefix);
            lock.lock();
            PartitionTransaction tx = null;
            int n;
            try {
                tx = new PartitionTransaction(this, pk, lpPrefix, List.of(), entries.size());
                n = tx.purge(entries);
                if (n == 0 && tx.staleExpiry.isEmpty()) {
                    return 0;
                }
                // no wait for the fsync: nobody is acknowledged; the WAL sync that follows covers it
                PartitionTransaction purging = tx;
                if (!TtlContractPath.applied(() -> applyReleasingFeedOnFailure(purging))) { // shared-engine hook
                    return 0; // another server's purge or write moved the partition on: a later round sees it
                }
                feed.release(tx.feedTicket); // applied: feed readers may read past the purge's records
                writeStamps.bump(pk); // expired items leave the caches above the core too
            } finally {
                releaseFaceUnique(tx);
                lock.unlock();
            }
            map.route(pk.epk()).add(tx.deltaBytes, tx.deltaItems, tx.deltaLogicalPartitions);
            return n;
        } finally {
            mapLock.readLock().unlock();
        }
    }

    // ---- queries -----------------------------------------------------------------------------------------------

    /**
     * One page of a query over one logical partition ({@code pk}), one EPK range, or the whole container; see
     * {@link ContainerQuery}. {@code continuation} is the previous page's token (null for the first page).
     */
    public ContainerQuery.Page queryPage(LogicalPlan plan, Map<String, JsonNode> parameters, PartitionKeyValue pk,
                                         EpkRange range, String continuation, int maxItems, long maxBytes) {
        return queryPage(plan, parameters, pk, range, continuation, maxItems, maxBytes, null);
    }

    /** As above at a consistency level ({@code null}: the account's); strong and bounded staleness charge twice. */
    public ContainerQuery.Page queryPage(LogicalPlan plan, Map<String, JsonNode> parameters, PartitionKeyValue pk,
                                         EpkRange range, String continuation, int maxItems, long maxBytes,
                                         io.tetradb.core.consistency.ConsistencyLevel consistency) {
        checkNotDeleted();
        int factor = store.consistency().readChargeFactor(consistency); // consistency
        if (pk != null && pk.levels() < definition.partitionKey().levels() && !pk.isNone()) {
            // a prefix of a hierarchical key: every item under it has an EPK that starts with the prefix's EPK
            range = ContainerQuery.intersect(range, EpkRange.prefixOf(pk.epk()));
            pk = null;
        }
        if (pk != null) {
            checkLevels(pk);
        }
        List<io.tetradb.core.throughput.PartitionBudget> budgets = pk != null // throughput
                ? List.of(store.rateLimiter().admit(this, pk.epk())) : store.rateLimiter().admit(this, range);
        ContainerQuery.Page page = ContainerQuery.atFactor(new ContainerQuery(this).page(plan, parameters, pk, range,
                continuation, maxItems, maxBytes), factor); // consistency
        store.rateLimiter().settle(budgets, page.requestCharge()); // throughput
        return page;
    }

    /** One page of a Cosmos SQL query (see {@link #queryPage(LogicalPlan, Map, PartitionKeyValue, EpkRange, String, int, long)}). */
    public ContainerQuery.Page queryPage(SqlQuery query, Map<String, JsonNode> parameters, PartitionKeyValue pk,
                                         EpkRange range, String continuation, int maxItems, long maxBytes) {
        return queryPage(query, parameters, pk, range, continuation, maxItems, maxBytes, null);
    }

    /** As above at a consistency level ({@code null}: the account's); strong and bounded staleness charge twice. */
    public ContainerQuery.Page queryPage(SqlQuery query, Map<String, JsonNode> parameters, PartitionKeyValue pk,
                                         EpkRange range, String continuation, int maxItems, long maxBytes,
                                         io.tetradb.core.consistency.ConsistencyLevel consistency) {
        LogicalPlan plan = SqlToPlan.compile(query);
        if (plan == null) {
            checkNotDeleted();
            int factor = store.consistency().readChargeFactor(consistency); // consistency
            List<io.tetradb.core.throughput.PartitionBudget> budgets = pk != null // throughput
                    ? List.of(store.rateLimiter().admit(this, pk.epk())) : store.rateLimiter().admit(this, range);
            ContainerQuery.Page page = ContainerQuery.atFactor(new ContainerQuery(this).interpreted(query, parameters,
                    pk, range, continuation, maxItems, maxBytes), factor); // consistency
            store.rateLimiter().settle(budgets, page.requestCharge()); // throughput
            return page;
        }
        return queryPage(plan, parameters, pk, range, continuation, maxItems, maxBytes, consistency);
    }

    /** Every result of a query at once, with the summed metrics of its pages. */
    public QueryResult query(SqlQuery query, PartitionKeyValue pk, EpkRange range, Map<String, JsonNode> parameters) {
        List<JsonNode> results = new ArrayList<>();
        long loaded = 0;
        long bytes = 0;
        long hits = 0;
        double charge = 0;
        String access = null;
        String token = null;
        do {
            ContainerQuery.Page page = queryPage(query, parameters, pk, range, token, Integer.MAX_VALUE, Long.MAX_VALUE);
            results.addAll(page.results());
            loaded += page.documentsLoaded();
            bytes += page.bytesLoaded();
            hits += page.indexHits();
            charge += page.requestCharge();
            access = access == null ? page.access() : access;
            token = page.continuation();
        } while (token != null);
        return new QueryResult(results, loaded, bytes, hits, charge, access);
    }

    /** The container's own policy (what a rebuild converges to). */
    CompiledIndexingPolicy indexingPolicy() {
        return indexing.current();
    }

    PathDictionary paths() {
        return paths;
    }

    io.tetradb.core.storage.StorageEngine engine() {
        return store.engine();
    }

    // ---- writes ------------------------------------------------------------------------------------------------

    /** One operation as its own transaction; a failure is thrown. */
    public ItemResult execute(PartitionKeyValue pk, ItemOperation op) {
        return execute(pk, op, null);
    }

    /**
     * As {@link #execute(PartitionKeyValue, ItemOperation)}; with {@code deferred} non-null it returns once the write
     * is applied, before it is durable (the store syncs it within a moment even if nobody waits, see
     * {@link DeferredCommits}).
     */
    public ItemResult execute(PartitionKeyValue pk, ItemOperation op, DeferredCommits deferred) {
        List<ItemResult> all = run(pk, List.of(op), false, deferred);
        ItemResult r = all.get(0);
        if (all instanceof ViolatedResults v) {
            throw v.violation; // a face-defined unique index's own exception, with its key
        }
        if (!r.isSuccess()) {
            throw new StoreException(r.status(), r.status() == Status.FORBIDDEN ? Status.SUB_PARTITION_KEY_QUOTA_EXCEEDED : 0,
                    r.error());
        }
        return r;
    }

    /**
     * A transactional batch: every operation or none. When one fails it keeps its own status and every other
     * operation reports 424.
     */
    public List<ItemResult> executeBatch(PartitionKeyValue pk, List<ItemOperation> ops) {
        return executeBatch(pk, ops, null);
    }

    /** A collector for batches whose durability a caller waits for once, after several of them. */
    public DeferredCommits deferredCommits() {
        return new DeferredCommits(store.partitions(), false); // storage-spi: tickets are the item store's
    }

    /**
     * As {@link #deferredCommits()}, for a caller that always calls {@link DeferredCommits#awaitDurable()} (in a
     * {@code finally}) before it returns: the background WAL syncer leaves its commits to that wait.
     */
    public DeferredCommits awaitedCommits() {
        return new DeferredCommits(store.partitions(), true);
    }

    /**
     * As {@link #executeBatch(PartitionKeyValue, List)}; with {@code deferred} non-null it returns once the batch is
     * applied, before it is durable, and the caller acknowledges it only after {@link DeferredCommits#awaitDurable()}.
     */
    public List<ItemResult> executeBatch(PartitionKeyValue pk, List<ItemOperation> ops, DeferredCommits deferred) {
        Limits limits = store.config().limits();
        if (ops.isEmpty()) {
            throw new StoreException(Status.BAD_REQUEST, "a transactional batch needs at least one operation");
        }
        if (ops.size() > limits.maxBatchOperations()) {
            throw new StoreException(Status.BAD_REQUEST, "a transactional batch has at most "
                    + limits.maxBatchOperations() + " operations, this one has " + ops.size());
        }
        return run(pk, ops, true, deferred);
    }

    // ---- graph-bulk: the bulk load's exclusive mode (io.tetradb.core.bulk) ---------------------------------------

    /** The bulk load holding this container, or null. */
    volatile io.tetradb.core.bulk.BulkLoad bulk;

    /**
     * Starts a bulk load (see {@link io.tetradb.core.bulk.BulkLoad}): creates go to sorted SST files ingested chunk
     * by chunk; until it is closed, the container's other writers wait. Null when this container cannot have one
     * (then write batches as before): items on another engine than the local RocksDB (a shared engine keeps the
     * batched path), expiring items (the TTL purger writes partitions on its own), face-defined unique indexes
     * (container-wide keys a chunk could not check against another chunk's), an index rebuild under way. Waits for
     * writes under way; a second bulk load of the container waits for the first to end.
     */
    public io.tetradb.core.bulk.BulkLoad beginBulkLoad() {
        if (!(store.engine() instanceof io.tetradb.core.storage.RocksEngine rocks) || store.onSharedEngine()
                || !reads.embedded() || !store.versionsReadUnderOwnLock()) {
            return null;
        }
        while (true) {
            io.tetradb.core.bulk.BulkLoad other = bulk;
            if (other != null) {
                other.awaitEnd();
            }
            mapLock.writeLock().lock(); // no write under way (each holds the map lock shared)
            try {
                checkNotDeleted();
                if (bulk != null) {
                    continue;
                }
                if (expiry.active() || !faceUnique.definitions().isEmpty() || indexing.rebuilding()) {
                    return null;
                }
                IndexingState at = indexing;
                bulk = new io.tetradb.core.bulk.BulkLoad(bulkLoadWrites.target(at, expiry), rocks);
                return bulk;
            } finally {
                mapLock.writeLock().unlock();
            }
        }
    }

    /** Takes the map lock shared; a writer outside the bulk load holding the container ({@code chunk} null) waits for it. */
    private void lockMapOutsideBulk(io.tetradb.core.bulk.BulkChunk chunk) {
        while (true) {
            mapLock.readLock().lock();
            io.tetradb.core.bulk.BulkLoad b = bulk;
            if (chunk != null || b == null) {
                return;
            }
            mapLock.readLock().unlock();
            b.awaitEnd();
        }
    }

    /** A bulk load's transactions, into its chunks (see {@link BulkLoadWrites}). */
    private final BulkLoadWrites bulkLoadWrites = new BulkLoadWrites(this);

    /** A prepared operation: id, partition key and serialised body resolved outside the lock. */
    record Prepared(ItemOperation op, String id, byte[] body, String error, int errorStatus,
                            io.tetradb.core.item.ItemTermRecorder terms) { // write-cost: terms from the body's pass
        Prepared(ItemOperation op, String id, byte[] body, String error, int errorStatus) {
            this(op, id, body, error, errorStatus, null);
        }

        /** The item's bytes without a frame's header and room (item-copies), 0 without a body. */
        int bodyLength() {
            return body == null ? 0 : io.tetradb.core.item.StoredItems.bodyLength(body);
        }
    }

    Prepared prepare(PartitionKeyValue pk, ItemOperation op, ItemCodec.BodyWriter writer) {
        try {
            String id = op.id();
            byte[] body = null;
            io.tetradb.core.item.ItemTermRecorder terms = null;
            EncodedItem encoded = op.item() == null ? op.encoded() : null;
            if (op.item() != null || encoded != null) {
                // insert-frame: an encoded item's id, partition key and ttl checked from its bytes; its key fields'
                // tree only where the bytes cannot tell (a refusal's words, a number key, an own ttl)
                String checked = encoded == null ? null
                        : encoded.idIfChecksPass(id, definition.partitionKey(), pk, definition.defaultTimeToLive());
                id = checked != null ? checked
                        : checkedId(op.item() != null ? op.item() : encoded.keyFields(definition.partitionKey()), id, pk);
                if (op.item() != null) {
                    // write-cost: a caller's tree is encoded and its index terms recorded in one pass (binary only);
                    // item-copies: as a frame, the stored item to be, which the transaction finishes in place
                    terms = store.codec().writesBinary() ? OnePassTerms.recorder(indexing) : null;
                    body = writer.writeFrame(op.item(), terms, trailerRoom);
                } else {
                    body = encoded.storedBody(store.codec(), writer); // insert-frame: its frame, when it has one
                }
                checkSize(io.tetradb.core.item.StoredItems.bodyLength(body));
            }
            validateId(id);
            return new Prepared(op, id, body, null, 0, terms);
        } catch (StoreException e) {
            return new Prepared(op, op.id(), null, e.getMessage(), e.status());
        }
    }

    /** The id of {@code item} once its id, partition key and ttl pass the write's checks (else a 400). */
    private String checkedId(ObjectNode item, String id, PartitionKeyValue pk) {
        JsonNode idNode = item.get("id");
        if (idNode == null || idNode.isNull()) {
            throw new StoreException(Status.BAD_REQUEST, "the item has no 'id' property; every item needs a string id");
        }
        if (!idNode.isTextual()) {
            throw new StoreException(Status.BAD_REQUEST, "the item's 'id' must be a string, not " + idNode);
        }
        if (id != null && !id.equals(idNode.textValue())) {
            throw new StoreException(Status.BAD_REQUEST, "the item's id '" + idNode.textValue()
                    + "' differs from the id '" + id + "' it replaces; an id cannot change");
        }
        if (!definition.partitionKey().matches(item, pk)) {
            throw new StoreException(Status.BAD_REQUEST, "the partition key of the item "
                    + partitionKeyOf(item) + " does not match the partition key of the request " + pk);
        }
        io.tetradb.core.ttl.TimeToLive.validateItem(item, definition.defaultTimeToLive());
        return idNode.textValue();
    }

    /** This container's item limit (its definition's own, else the store's). */
    public int maxItemBytes() {
        return definition.effectiveMaxItemBytes(store.config().limits());
    }

    /**
     * The bytes of items a transactional batch may hold: the store's batch limit, but never less than one item of
     * this container, so an item the container accepts can always be written in a batch of its own.
     */
    public int maxBatchBytes() {
        return Math.max(store.config().limits().maxBatchBytes(), maxItemBytes());
    }

    void checkSize(int bodyBytes) {
        int max = maxItemBytes();
        if (bodyBytes + 200 > max) { // 200: room for the system properties
            throw new StoreException(Status.REQUEST_ENTITY_TOO_LARGE,
                    "the item is " + bodyBytes + " bytes; the largest item allowed is " + max + " bytes");
        }
    }

    private void validateId(String id) {
        if (id == null || id.isEmpty()) {
            throw new StoreException(Status.BAD_REQUEST, "an item id must be a non-empty string");
        }
        int max = store.config().limits().maxIdLength();
        if (id.length() > max) {
            throw new StoreException(Status.BAD_REQUEST, "the id is " + id.length()
                    + " characters long; the maximum is " + max);
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                throw new StoreException(Status.BAD_REQUEST, "the id '" + id
                        + "' contains '" + c + "'; ids cannot contain / \\ ? or #");
            }
        }
        // an unpaired surrogate has no UTF-8 form: stored keys would hold '?' for it, and two such ids collide
        int bad = io.tetradb.core.value.Utf16.unpairedSurrogate(id);
        if (bad >= 0) {
            throw new StoreException(Status.BAD_REQUEST, "the id contains an unpaired surrogate (U+"
                    + Integer.toHexString(id.charAt(bad)).toUpperCase() + " at " + bad + "), which is not a character");
        }
    }

    private void checkLevels(PartitionKeyValue pk) {
        if (pk.levels() != definition.partitionKey().levels()) {
            throw new StoreException(Status.BAD_REQUEST, "the partition key " + pk + " has " + pk.levels()
                    + " components; this container's key " + definition.partitionKey().paths() + " has "
                    + definition.partitionKey().levels());
        }
    }

    private List<ItemResult> run(PartitionKeyValue pk, List<ItemOperation> ops, boolean batch,
                                 DeferredCommits deferred) {
        return run(pk, ops, batch, deferred, null);
    }

    /** graph-bulk: {@code chunk} non-null: a bulk load's transaction, whose write set joins the chunk. */
    List<ItemResult> run(PartitionKeyValue pk, List<ItemOperation> ops, boolean batch,
                         DeferredCommits deferred, io.tetradb.core.bulk.BulkChunk chunk) {
        checkLevels(pk);
        io.tetradb.core.throughput.PartitionBudget budget = store.rateLimiter().admit(this, pk.epk()); // throughput
        List<ItemResult> results;
        try {
            results = runAdmitted(pk, ops, batch, deferred, chunk);
        } catch (UniqueClaimYielded y) {
            y.awaitOlder(); // its claims released, no lock held: the older transaction settles before a retry
            throw y;
        }
        double charge = 0;
        for (ItemResult r : results) {
            charge += r.requestCharge();
        }
        store.rateLimiter().settle(budget, charge, pk); // throughput
        return results;
    }

    private List<ItemResult> runAdmitted(PartitionKeyValue pk, List<ItemOperation> ops, boolean batch,
                                         DeferredCommits deferred, io.tetradb.core.bulk.BulkChunk chunk) {
        List<Prepared> prepared = new ArrayList<>(ops.size());
        long batchBytes = 0;
        try (ItemCodec.BodyWriter writer = store.codec().new BodyWriter()) {
            for (ItemOperation op : ops) {
                Prepared p = prepare(pk, op, writer);
                prepared.add(p);
                batchBytes += p.bodyLength();
                if (p.error() != null) {
                    break; // a batch stops at its first failing operation
                }
            }
        }
        if (batch && batchBytes > maxBatchBytes()) {
            throw new StoreException(Status.BAD_REQUEST, "a transactional batch holds at most "
                    + maxBatchBytes() + " bytes of items, this one " + batchBytes);
        }
        Prepared last = prepared.get(prepared.size() - 1);
        if (last.error() != null) {
            int index = prepared.size() - 1;
            for (int i = prepared.size(); i < ops.size(); i++) {
                ItemOperation op = ops.get(i);
                String id = op.id() != null || op.item() == null ? op.id() : op.item().path("id").asText(null);
                if (id == null && op.encoded() != null) { // write-path
                    JsonNode idNode = op.encoded().field("id");
                    id = idNode == null ? null : idNode.asText(null);
                }
                prepared.add(new Prepared(op, id, null, null, 0));
            }
            return failed(prepared, index, last.errorStatus(), last.error());
        }
        byte[] lpPrefix = Keys.concat(collId, pk.epk(), pk.encoded());
        lockMapOutsideBulk(chunk); // graph-bulk: other writers wait while a bulk load holds the container
        try {
            checkNotDeleted();
            if (chunk != null) { // graph-bulk
                return bulkLoadWrites.run(chunk, pk, lpPrefix, prepared);
            }
            ReentrantLock lock = store.lockFor(lpPrefix);
            lock.lock();
            PartitionTransaction tx = null;
            long durable;
            try {
                tx = new PartitionTransaction(this, pk, lpPrefix, prepared);
                List<ItemResult> results = tx.run();
                if (tx.failedAt >= 0) {
                    return tx.violation == null ? results : new ViolatedResults(results, tx.violation);
                }
                // waiters: group commit; a deferred caller awaits later, so its write never syncs inline (graph bulk load)
                durable = applyReleasingFeedOnFailure(tx, deferred != null || lock.hasQueuedThreads());
                // after the write is visible (see WriteStamps)
                writeStamps.bump(pk, tx.after.keySet(), tx.adjacencyTouched, tx.adjacencyTouchedCount);
            } finally {
                releaseFaceUnique(tx);
                lock.unlock();
            }
            // the fsync happens outside the partition lock: the partition's next writers share it (group commit)
            try {
                if (deferred == null) {
                    store.partitions().awaitDurable(durable);
                } else {
                    deferred.add(durable);
                }
            } finally {
                feed.release(tx.feedTicket); // feed readers may read past it once it is durable (or handed over)
            }
            PhysicalPartition pp = map.route(pk.epk());
            pp.add(tx.deltaBytes, tx.deltaItems, tx.deltaLogicalPartitions);
            if (tx.deltaBytes > 0) {
                store.splitter().maybeSplit(this, pp);
            }
            return tx.results;
        } finally {
            mapLock.readLock().unlock();
        }
    }

    /**
     * Opens a transaction over one logical partition that takes its operations one at a time (a stored procedure or
     * a trigger): it holds the partition's lock (and the container's map lock shared) until {@link
     * OpenTransaction#commit()} or {@link OpenTransaction#close()}, so concurrent writers of the partition wait and
     * nobody sees its effects before the commit, which hands one {@link WriteSet} to the engine as a batch does.
     * Must be closed by the thread that opened it.
     */
    public OpenTransaction begin(PartitionKeyValue pk) {
        checkLevels(pk);
        byte[] lpPrefix = Keys.concat(collId, pk.epk(), pk.encoded());
        lockMapOutsideBulk(null); // graph-bulk
        ReentrantLock lock = null;
        try {
            checkNotDeleted();
            lock = store.lockFor(lpPrefix);
            lock.lock();
            return new OpenTransaction(this, pk, lpPrefix, lock,
                    new PartitionTransaction(this, pk, lpPrefix, List.of()));
        } catch (RuntimeException e) {
            if (lock != null) {
                lock.unlock();
            }
            mapLock.readLock().unlock();
            throw e;
        }
    }

    /** A failed transaction's results when a face-defined unique index refused it: the exception goes along. */
    static final class ViolatedResults extends ArrayList<ItemResult> {
        final io.tetradb.core.unique.UniqueIndexViolation violation;

        ViolatedResults(List<ItemResult> results, io.tetradb.core.unique.UniqueIndexViolation violation) {
            super(results);
            this.violation = violation;
        }
    }

    /** The face-defined unique index violation that failed a batch ({@link #executeBatch}'s results), or null. */
    public static io.tetradb.core.unique.UniqueIndexViolation violationOf(List<ItemResult> batchResults) {
        return batchResults instanceof ViolatedResults v ? v.violation : null;
    }

    /** Face unique indexes: a transaction's hold on container-wide keys ends once its write is applied (or dropped). */
    static void releaseFaceUnique(PartitionTransaction tx) {
        if (tx != null && tx.faceUnique != null) {
            tx.faceUnique.release();
        }
    }

    /** Applies the transaction's write set; if that fails, its change-feed numbers are given back at once. */
    long applyReleasingFeedOnFailure(PartitionTransaction tx) {
        return applyReleasingFeedOnFailure(tx, true);
    }

    /** As above; {@code othersWaiting}: writers queue for the partition's lock, so the fsync must come after it. */
    private long applyReleasingFeedOnFailure(PartitionTransaction tx, boolean othersWaiting) {
        try {
            // storage-spi hook: one conditional apply of the partition's write against the version the transaction read
            long durable = PartitionCommit.apply(store.partitions(), tx.logicalPartition(), tx.stats.lsn(), tx.lsn,
                    tx.writeSet(), othersWaiting, store.versionsReadUnderOwnLock()); // write-cost: no second stats read
            PartitionStatsCache cache = store.statsCache();
            if (cache != null) { // core-write: applied, under the partition's lock: the next write starts from it
                if (tx.cached != null) { // pw-next: into the slot the transaction found it in, no second probe
                    cache.putAt(tx.cached, tx.statsAfter, tx.idBoundAfter(), tx.classBoundsAfter());
                } else {
                    cache.put(tx.lpPrefix, tx.statsAfter, tx.idBoundAfter(), tx.classBoundsAfter());
                }
            }
            if (tx.faceUnique != null) {
                tx.faceUnique.applied(); // shared engine: its claims stand, its freed keys are released
            }
            return durable;
        } catch (RuntimeException | Error e) {
            store.forgetPartitionStats(tx.lpPrefix); // applied or not: the store knows
            feed.abandon(tx.feedTicket); // nor does the pruner: it reads these numbers back rather than trust notes
            throw e;
        }
    }

    /** A logical partition as an open transaction sees it. */
    public record PartitionView(List<ObjectNode> items, long bytes) {
    }

    static int compareUtf8(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    List<ItemResult> failed(List<Prepared> ops, int index, int status, String error) {
        List<ItemResult> out = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            Prepared p = ops.get(i);
            if (i == index) {
                out.add(new ItemResult(p.op().type(), p.id(), status, null, null, 0, error));
            } else {
                out.add(new ItemResult(p.op().type(), p.id(), Status.FAILED_DEPENDENCY, null, null, 0,
                        "operation " + index + " of the batch failed, so nothing was applied"));
            }
        }
        return out;
    }

    /**
     * The index keys of one version of the item stored under {@code docKey} under {@code policy}: its single-path
     * entries, then one entry per composite index ({@code collId · pathId(name) · enc(v1)…enc(vn) · EPK · pk · id},
     * same suffix).
     */
    List<ByteBuffer> indexEntries(byte[] docKey, ObjectNode item, long versionTs, CompiledIndexingPolicy policy) {
        List<IndexTerm> terms = IndexTerms.ofVersion(item, policy, versionTs);
        List<CompositeTerms.CompositeTerm> composites = CompositeTerms.ofVersion(item, policy, versionTs);
        if (terms.isEmpty() && composites.isEmpty()) {
            return List.of();
        }
        int address = collId.length; // the entry's suffix is the doc key's EPK · pk · id
        List<ByteBuffer> out = new ArrayList<>(terms.size() + composites.size());
        for (IndexTerm t : terms) {
            if (t.underArray()) {
                paths.markMultikey(t.path());
            }
            out.add(ByteBuffer.wrap(IndexKeyEncoding.encodeEntry(paths.entryPrefix(t.path()), t.value(), docKey,
                    address)));
        }
        for (CompositeTerms.CompositeTerm t : composites) {
            byte[] prefix = paths.entryPrefix(t.index().name());
            out.add(ByteBuffer.wrap(Keys.concat(prefix, t.encoded(),
                    Arrays.copyOfRange(docKey, address, docKey.length))));
        }
        return out;
    }

    /** What {@link #checkIndexes()} found: entries the items call for, entries stored, and the differences. */
    public record IndexCheck(long expected, long stored, long missing, long extra) {
        public boolean consistent() {
            return missing == 0 && extra == 0;
        }
    }

    /**
     * Recomputes every item's index entries and compares them with the stored ones (a consistency check for tests
     * and operators; it reads the whole container). During a rebuild each item is checked against the policy its key
     * follows at the start of the check, so run it when no rebuild chunk commits meanwhile.
     */
    public IndexCheck checkIndexes() {
        checkNotDeleted();
        IndexingState policies = indexing;
        Set<ByteBuffer> expected = new HashSet<>();
        byte[] end = Keys.collId(definition.collId() + 1);
        reads.scanItems(collId, end, kv -> {
            ObjectNode item = store.codec().parse(kv.value());
            expected.addAll(indexEntries(kv.key(), item, item.path("_ts").asLong(), policies.policyFor(kv.key())));
            return true;
        });
        long[] stored = {0, 0};
        reads.scanEntries(collId, end, kv -> {
            stored[0]++;
            if (!expected.contains(ByteBuffer.wrap(kv.key()))) {
                stored[1]++;
            }
            return true;
        });
        long present = stored[0] - stored[1];
        return new IndexCheck(expected.size(), stored[0], expected.size() - present, stored[1]);
    }

    static long bytes(List<ByteBuffer> entries) {
        if (entries instanceof IndexEntryKeys keys) return keys.keyBytes(); // index-write: no wrap per entry
        long n = 0;
        for (int i = 0; i < entries.size(); i++) { // index-write: no iterator (List.of()'s too) per write
            n += entries.get(i).capacity();
        }
        return n;
    }

    // ---- identities --------------------------------------------------------------------------------------------

    /** Unique per (container, logical partition, lsn); the quoted form is what clients see. */
    String etag(long lsn) {
        return ItemEtags.of(definition.collId(), lsn); // read-path: Latin-1 bytes, no char[] to compress
    }

    static boolean etagMatches(String given, String etag) {
        String g = given.length() >= 2 && given.startsWith("\"") && given.endsWith("\"")
                ? given.substring(1, given.length() - 1) : given;
        return g.equals(etag);
    }

    /**
     * A stable resource id (base64, "/" as "-", as Cosmos does: database, container, hash of the item's address) of
     * the item whose key is {@code docKey} ({@code collId · EPK · pk · id}, the id's UTF-8 from {@code idAt}): the hash
     * of {@code collId · id}, laid out in a per-thread scratch array (the key already built is reused, not the id
     * encoded and concatenated anew).
     */
    byte[] rid(byte[] docKey, int idAt) {
        int idLength = docKey.length - idAt;
        int n = collId.length + idLength;
        byte[] scratch = RID_SCRATCH.get();
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, 2 * scratch.length)];
            RID_SCRATCH.set(scratch);
        }
        System.arraycopy(collId, 0, scratch, 0, collId.length);
        System.arraycopy(docKey, idAt, scratch, collId.length, idLength);
        return ridOf(scratch, 0, n);
    }

    /** The length of every rid {@link #ridOf} makes: base64 of 16 bytes. */
    private static final int RID_LENGTH = 24;

    private static final ThreadLocal<byte[]> RID_SCRATCH = ThreadLocal.withInitial(() -> new byte[256]);

    private byte[] ridOf(byte[] address, int from, int length) {
        long h = MurmurHash3.hash128x64(address, from, length, 0)[0];
        byte[] rid = Arrays.copyOf(ridPrefix, 16);
        for (int i = 0; i < 8; i++) {
            rid[8 + i] = (byte) (h >>> (56 - 8 * i));
        }
        byte[] b64 = Base64.getEncoder().encode(rid);
        for (int i = 0; i < b64.length; i++) {
            if (b64[i] == '/') {
                b64[i] = '-';
            }
        }
        return b64;
    }

    // ---- statistics --------------------------------------------------------------------------------------------

    /** Per physical partition: range, bytes, items, logical partitions and the five largest of them. */
    public PartitionStatistics statistics() {
        checkNotDeleted();
        int levels = definition.partitionKey().levels();
        long limit = store.config().logicalPartitionLimitBytes();
        List<PartitionStatistics.Physical> physical = new ArrayList<>();
        for (PhysicalPartition pp : map.partitions()) {
            // the five largest, kept in a min-heap while the partition's statistics stream by
            java.util.PriorityQueue<PartitionStatistics.Logical> heap =
                    new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(PartitionStatistics.Logical::bytes));
            byte[] prefix = Keys.statsPrefix(definition.collId());
            reads.scanPartitionStats(Keys.concat(prefix, pp.range().min()),
                    Keys.concat(prefix, pp.range().max()), kv -> {
                        LogicalPartitionStats s = LogicalPartitionStats.decode(kv.value());
                        if (s.items() > 0 && (heap.size() < 5 || s.bytes() > heap.peek().bytes())) {
                            heap.add(logical(kv, levels, s, limit));
                            if (heap.size() > 5) {
                                heap.poll();
                            }
                        }
                        return true;
                    });
            List<PartitionStatistics.Logical> top = new ArrayList<>(heap);
            top.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
            physical.add(new PartitionStatistics.Physical(pp.id(), pp.range().minHex(), pp.range().maxHex(),
                    pp.bytes(), pp.items(), pp.logicalPartitions(), top));
        }
        return new PartitionStatistics(definition.database(), definition.id(), definition.partitionKey().paths(),
                limit, store.config().splitThresholdBytes(), physical);
    }

    private static PartitionStatistics.Logical logical(KeyValue kv, int levels, LogicalPartitionStats s, long limit) {
        int epkStart = Keys.statsPrefix(0).length;
        int epkEnd = epkStart + 16 * levels;
        byte[] epk = Arrays.copyOfRange(kv.key(), epkStart, epkEnd);
        PartitionKeyValue pk = PartitionKeyValue.decode(kv.key(), epkEnd, kv.key().length);
        return new PartitionStatistics.Logical(pk.toJson(), io.tetradb.core.partition.EffectivePartitionKey.toHex(epk),
                s.bytes(), s.items(), s.bytes() >= limit * 0.8);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
