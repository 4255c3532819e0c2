package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaVersion;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The core store over one data directory: databases, containers and their items. Thread-safe; one instance per
 * directory (RocksDB locks it).
 */
public final class CoreStore implements AutoCloseable {
    private static final int LOCK_STRIPES = 4096;

    private final StoreConfig config;
    private final StorageEngine engine;
    // like the Cosmos SDK: reading an item into a POJO ignores properties it does not know (_rid, _etag, ...)
    private final ObjectMapper mapper = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private final ItemCodec codec;
    private final ReentrantLock[] stripes = new ReentrantLock[LOCK_STRIPES];
    private final Map<String, ContainerStore> containers = new ConcurrentHashMap<>();
    private final PartitionSplitter splitter;
    /** Serialises creating and deleting databases and containers. */
    private final Object ddl = new Object();
    private volatile boolean closed;
    /** Items per index-rebuild chunk (one atomic write each); tests make it small to see many chunks. */
    volatile int rebuildChunkItems = 256;
    /** Test hook the rebuild jobs call after each chunk. */
    volatile IndexRebuild.ChunkHook rebuildHook;

    private CoreStore(StoreConfig config, StorageEngine engine, MetadataStore metadata,
                      io.tetradb.core.storage.partition.PartitionStore partitions) {
        this.config = config;
        this.engine = engine;
        this.partitions = partitions != null ? partitions
                : new io.tetradb.core.storage.partition.EmbeddedPartitionStore(engine); // storage-spi hook
        this.metadata = metadata != null ? metadata : new EmbeddedMetadataStore(engine); // metadata contract
        this.catalogWatch = new CatalogWatch(this.metadata);
        this.embeddedReads = new io.tetradb.core.reads.EmbeddedItemReads(engine); // item-reads hook
        if (partitions != null) {
            this.readsThroughContract = true; // items on another engine: read them there too
        }
        this.sharedEngine = metadata != null && partitions != null; // shared-engine hook
        this.ownPartitions = partitions == null ? this.partitions : null; // write-cost hook
        this.containerDrops = partitions != null ? new ContainerDrops(this.metadata, partitions) : null; // drops hook
        this.codec = new ItemCodec(mapper, config.limits().maxNestingDepth());
        for (int i = 0; i < LOCK_STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
        this.splitter = new PartitionSplitter(this);
        MetaEntry counter = this.metadata.get(Keys.counter("container"));
        byte[] containers = counter == null ? null : counter.value();
        this.changeFeeds = new io.tetradb.core.feed.ChangeFeeds(engine,
                containers == null ? 0 : (int) Keys.readLong(containers, 0),
                partitions != null ? java.time.Duration.ofMillis(Long.getLong("tetradb.feed.sharedPruneIntervalMillis",
                        60_000)) // shared-feed hook: prunes through the item store, a listing of its partitions a pass
                        : java.time.Duration.ofMillis(Long.getLong("tetradb.feed.pruneIntervalMillis", 5_000)));
        changeFeeds.pruneThroughContract(partitions != null); // shared-feed hook: the records are on the item store
        changeFeeds.cursorTokens(new io.tetradb.core.feed.FeedCursorTokens(this.metadata)); // feed-tokens hook
        if (sharedEngine) { // shared-policy hook: every server's writers follow the policy in the shared metadata
            changeFeeds.sharedPolicies(new io.tetradb.core.feed.SharedFeedPolicies(this.metadata));
        }
        this.ttlPurger = new TtlPurger(this); // after the feeds: its deletes write change records
    }

    /** The containers' change feeds: the store-wide sequence, the readers' wake-ups, the pruner. */
    private final io.tetradb.core.feed.ChangeFeeds changeFeeds;

    public io.tetradb.core.feed.ChangeFeeds changeFeeds() {
        return changeFeeds;
    }

    private final TtlPurger ttlPurger;

    /** Bumped by every container creation, replacement and deletion: the TTL purger re-lists containers only then. */
    private final java.util.concurrent.atomic.AtomicLong catalogVersion = new java.util.concurrent.atomic.AtomicLong();

    public long catalogVersion() { // public: the Mongo face's index cache on a shared engine follows it
        return catalogVersion.get();
    }

    /** The kinds of face-defined unique indexes the running faces compute keys for (see FaceUniqueIndexes). */
    private final io.tetradb.core.unique.UniqueIndexKinds uniqueIndexKinds = new io.tetradb.core.unique.UniqueIndexKinds();

    public io.tetradb.core.unique.UniqueIndexKinds uniqueIndexKinds() {
        return uniqueIndexKinds;
    }

    /** The background deletion of expired items, with its rate and counters (see {@link TtlPurger}). */
    public TtlPurger ttlPurger() {
        return ttlPurger;
    }

    /** Opens (or creates) the store; a crash before is recovered here (write-ahead log replay). */
    public static CoreStore open(StoreConfig config) {
        return open(config, null, null);
    }

    /**
     * Opens the store with its items on {@code items} (another engine's logical-partition store, e.g. Cassandra's;
     * null: the embedded engine's): item transactions apply and item reads go through it (ItemReads); databases,
     * containers and the other metadata stay in the data directory.
     */
    public static CoreStore open(StoreConfig config, io.tetradb.core.storage.partition.PartitionStore items) {
        return open(config, null, items);
    }

    /**
     * Opens the store with its metadata in {@code metadata} and its items on {@code partitions} (null: the embedded
     * ones in the data directory): item transactions apply and item reads go through it (ItemReads). Several stores
     * may share one non-embedded metadata store: their caches follow each other's changes ({@link CatalogWatch}).
     */
    public static CoreStore open(StoreConfig config, MetadataStore metadata,
                                 io.tetradb.core.storage.partition.PartitionStore partitions) {
        // local-engine hook: with metadata and items both shared nothing durable is local, so no RocksDB is opened
        io.tetradb.core.storage.StorageEngine local = metadata != null && partitions != null ? new io.tetradb.core.storage.ProcessMemoryEngine()
                : RocksEngine.open(config.dataDirectory(), config.durability(), config.blockCacheBytes());
        CoreStore store = new CoreStore(config, local, metadata, partitions);
        store.resumeIndexRebuilds(); // on a shared engine through the contracts (PartitionIndexRebuild)
        store.ttlPurger.start(); // on a shared engine through the contracts (TtlContractPath)
        return store;
    }

    // ---- container-drops hook: a deleted container's rows on another item engine (ContainerDrops) ----
    private final ContainerDrops containerDrops;

    /** Drops the rows of deleted containers from the item engine now (tests; a background job does it anyway). */
    public int dropDeletedContainersNow() {
        return containerDrops == null ? 0 : containerDrops.passOnce();
    }
    // ---- end container-drops hook ----

    // ---- shared-engine hook: a core with metadata and items on another engine (SharedEngineLimits) ----
    private final boolean sharedEngine;

    /**
     * True when metadata and items are on another engine (Cassandra): every request goes through the contracts and
     * the background jobs of {@link io.tetradb.core.storage.SharedEngineLimits} are off.
     */
    public boolean onSharedEngine() {
        return sharedEngine;
    }

    /** True once {@link #close()} began: background jobs of the shared engine's paths stop quietly. */
    boolean isClosing() {
        return closed;
    }
    // ---- end shared-engine hook ----

    /** Loads every container whose index rebuild was unfinished at the last close or crash; loading resumes it. */
    private void resumeIndexRebuilds() {
        List<RebuildRecord> unfinished = new ArrayList<>();
        for (MetaEntry e : metadata.list(new byte[]{Keys.INDEX_REBUILD})) {
            unfinished.add(RebuildRecord.decode(e.value()));
        }
        for (RebuildRecord r : unfinished) {
            container(r.database(), r.container());
        }
    }

    public StoreConfig config() {
        return config;
    }

    /**
     * For tools and benchmarks: waits (at most {@code maxMillis}) until the engine's flushes and compactions are
     * done; returns the milliseconds waited.
     */
    public long awaitBackgroundWork(long maxMillis) throws InterruptedException {
        return engine().awaitBackgroundWork(maxMillis);
    }

    StorageEngine engine() {
        return engine;
    }

    // ---- storage-spi hook: item transactions apply through the logical-partition contract (PartitionCommit) ----
    private volatile io.tetradb.core.storage.partition.PartitionStore partitions;

    /** The logical-partition contract the containers' item transactions apply through. */
    public io.tetradb.core.storage.partition.PartitionStore partitions() {
        return partitions;
    }

    /** write-cost hook: the embedded partition store this core made on its own engine, which nobody else writes. */
    private final io.tetradb.core.storage.partition.PartitionStore ownPartitions;

    /**
     * write-cost hook: whether the partition version a transaction reads under its partition lock is current when it
     * applies (the core's own embedded store, so the store may skip re-reading it); false for another engine, or a
     * store put in by a test, which checks as the contract says.
     */
    boolean versionsReadUnderOwnLock() {
        return partitions == ownPartitions;
    }

    /** Tests: puts another implementation (a decorator of the current one) under the containers' transactions. */
    void usePartitions(io.tetradb.core.storage.partition.PartitionStore partitions) {
        this.partitions = partitions;
        statsCache.clear(); // what the other store's writers did is not in it
    }

    /**
     * core-write (issue 17): the logical partitions' statistics as their last transactions wrote them, so a write
     * reads its partition's version from memory; off with {@code -Dtetradb.write.statsCache=false} (for A/B runs).
     */
    private final PartitionStatsCache statsCache = new PartitionStatsCache();
    private volatile boolean statsCacheOn = Boolean.parseBoolean(System.getProperty("tetradb.write.statsCache", "true"));

    /** The statistics cache, or null when it must not be used (not the core's own embedded store, or switched off). */
    PartitionStatsCache statsCache() {
        return statsCacheOn && versionsReadUnderOwnLock() ? statsCache : null;
    }

    /**
     * Probes (bench's {@code PointWriteCpuProbe}, by reflection): the cache switched on or off between rounds, with
     * no write under way; switched on it starts empty (writes made while it was off did not keep it).
     */
    synchronized void useStatsCache(boolean on) {
        if (on && !statsCacheOn) {
            statsCache.clear();
        }
        statsCacheOn = on;
    }

    /**
     * core-stats (issue 17): a transaction's statistics ride in its change feed partition index key
     * ({@link io.tetradb.core.feed.StoredPartitionStats}) and the META record is written on the partition's first write
     * and when the lsn passes a multiple of {@code -Dtetradb.write.statsRecordEvery} (1024: a 100-item batch moves the
     * lsn by 100, so a smaller interval would write it in most batches); 0 writes the record in every transaction, as
     * before (either way every directory reads). Read when the store opens. notes-ab: the A/B switch
     * {@code tetradb.write.statsInRuns} is gone (it only set this to 0; every measured median favoured the runs).
     */
    private final int statsRecordEvery = Math.max(0, Integer.getInteger("tetradb.write.statsRecordEvery", 1024));

    /**
     * How many lsns a partition's statistics record may lag its newest partition index key by, or 0: written in every
     * transaction (switched off, or an engine other than the core's own embedded one, whose contract reads the record).
     */
    int statsRecordEvery() {
        return versionsReadUnderOwnLock() ? statsRecordEvery : 0;
    }

    /**
     * Forgets a partition's cached statistics: for writers of its record outside the core's transactions (under the
     * partition's lock); batch-stats: the partition may hold a record from now on ({@link StatsRecordFilter}).
     */
    void forgetPartitionStats(byte[] lpPrefix) {
        StatsRecordFilter records = statsRecords.get((int) Keys.readInt(lpPrefix, 0));
        if (records != null) {
            records.add(lpPrefix);
        }
        statsCache.forget(lpPrefix);
    }

    /** batch-stats: per container id, the logical partitions that may hold a statistics record. */
    private final Map<Integer, StatsRecordFilter> statsRecords = new ConcurrentHashMap<>();

    /** The container's filter of partitions that may hold a statistics record (one per container id). */
    StatsRecordFilter statsRecords(int collId) {
        return statsRecords.computeIfAbsent(collId, k -> new StatsRecordFilter());
    }

    /**
     * True when item reads go through the contract too (an item store of another engine, or
     * {@code -Dtetradb.itemReads=contract}, which runs the embedded engine's reads through it for tests).
     */
    private volatile boolean readsThroughContract = "contract".equals(System.getProperty("tetradb.itemReads"));

    /** Where a container's item reads go (see io.tetradb.core.reads.ItemReads). */
    io.tetradb.core.reads.ItemReads itemReads(int partitionKeyLevels) {
        return readsThroughContract
                ? new io.tetradb.core.reads.ContractItemReads(partitions, partitionKeyLevels)
                : embeddedReads;
    }

    private final io.tetradb.core.reads.ItemReads embeddedReads;
    // ---- end storage-spi hook ----

    // ---- metadata contract: everything written outside item transactions (io.tetradb.core.storage.meta) ----
    private final MetadataStore metadata;
    private final CatalogWatch catalogWatch;
    /** The version of the definition entry each cached container was loaded or last written at. */
    private final Map<String, Long> definitionVersions = new ConcurrentHashMap<>();

    /** Where databases, containers, partition maps and the rest of the metadata are kept. */
    public MetadataStore metadata() {
        return metadata;
    }

    /** Applies META writes (the core's key layout) through the metadata contract, unconditionally. */
    void applyMeta(WriteSet ws, boolean catalogChange) {
        MetaWrite w = new MetaWrite().include(ws);
        if (catalogChange) {
            w.catalogChange();
        }
        applyMeta(w);
    }

    /** Applies {@code w}; the item engine's writes that go with it are applied after when the store cannot. */
    boolean applyMeta(MetaWrite w) {
        boolean applied = metadata.apply(w);
        if (applied && w.local() != null && !metadata.appliesLocalWrites()) {
            engine.apply(w.local());
        }
        return applied;
    }

    /** How often (ms) a store sharing its metadata re-reads the catalog stamp; 0: at every container lookup. */
    public void catalogCheckMillis(long millis) {
        catalogWatch.intervalMillis(millis);
    }

    long catalogCheckMillis() {
        return catalogWatch.intervalMillis();
    }
    // ---- end metadata contract ----

    public ItemCodec codec() {
        return codec;
    }

    private final io.tetradb.core.script.ScriptEngine scriptEngine = new io.tetradb.core.script.ScriptEngine();

    /** The JavaScript runtime of stored procedures, triggers and UDFs (its limits are settable). */
    public io.tetradb.core.script.ScriptEngine scriptEngine() {
        return scriptEngine;
    }

    PartitionSplitter splitter() {
        return splitter;
    }

    // ---- throughput (see ThroughputCatalog, RateLimiter) --------------------------------------------------------
    private final ThroughputCatalog throughput = new ThroughputCatalog(this);
    private final RateLimiter rateLimiter = new RateLimiter(this);

    /** Provisioned throughput of databases and containers: read, replace (raises split partitions). */
    public ThroughputCatalog throughput() {
        return throughput;
    }

    /** Every container's RU consumption per physical partition over the last {@code windowSeconds} seconds. */
    public List<ThroughputMetrics.Container> throughputMetrics(int windowSeconds) {
        return ThroughputMetrics.of(this, windowSeconds);
    }

    /** Per-partition RU budgets: metering always, 429s when {@link RateLimiter#setEnabled(boolean) enabled}. */
    public RateLimiter rateLimiter() {
        return rateLimiter;
    }

    // ---- consistency (io.tetradb.core.consistency) --------------------------------------------------------------
    private final io.tetradb.core.consistency.AccountConsistency consistency =
            new io.tetradb.core.consistency.AccountConsistency();

    /** The account's default consistency level (Session unless set) and the rule for a request's own level. */
    public io.tetradb.core.consistency.AccountConsistency consistency() {
        return consistency;
    }

    ReentrantLock lockFor(byte[] logicalPartitionPrefix) {
        int h = java.util.Arrays.hashCode(logicalPartitionPrefix);
        return stripes[(h ^ (h >>> 16)) & (LOCK_STRIPES - 1)];
    }

    // ---- databases ---------------------------------------------------------------------------------------------

    /** Creates a database; 409 if it exists. */
    public DatabaseDefinition createDatabase(String id, Integer throughput) {
        validateName("database", id);
        synchronized (ddl) {
            while (true) {
                if (metadata.get(Keys.database(id)) != null) {
                    throw new StoreException(Status.CONFLICT, "database " + id + " already exists");
                }
                MetaEntry counter = metadata.get(Keys.counter("database"));
                int dbId = (int) nextCounter(counter);
                DatabaseDefinition db = new DatabaseDefinition(id, dbId, rid(Keys.collId(dbId)), throughput,
                        System.currentTimeMillis() / 1000);
                MetaWrite w = new MetaWrite().create(Keys.database(id), json(db)).catalogChange();
                advanceCounter(w, "database", counter, dbId);
                if (applyMeta(w)) {
                    return db;
                }
                // another server created it or took the number: decide again
            }
        }
    }

    /** The database, or 404. */
    public DatabaseDefinition readDatabase(String id) {
        MetaEntry e = metadata.get(Keys.database(id));
        if (e == null) {
            throw new StoreException(Status.NOT_FOUND, "database " + id + " does not exist");
        }
        return parse(e.value(), DatabaseDefinition.class);
    }

    public List<DatabaseDefinition> listDatabases() {
        List<DatabaseDefinition> out = new ArrayList<>();
        for (MetaEntry e : metadata.list(new byte[]{Keys.DATABASE})) {
            out.add(parse(e.value(), DatabaseDefinition.class));
        }
        return out;
    }

    /** Deletes a database with all its containers and items; 404 if absent. */
    public void deleteDatabase(String id) {
        synchronized (ddl) {
            readDatabase(id);
            for (ContainerDefinition c : listContainers(id)) {
                deleteContainer(id, c.id());
            }
            applyMeta(new MetaWrite().delete(Keys.database(id)).catalogChange());
        }
    }

    // ---- containers --------------------------------------------------------------------------------------------

    /**
     * Creates a container with {@code max(1, ceil(throughput / 10000))} physical partitions; 409 if it exists, 404 if
     * its database does not.
     */
    public ContainerStore createContainer(String database, String id, PartitionKeyDefinition partitionKey,
                                          JsonNode indexingPolicy, Integer defaultTimeToLive, Integer throughput,
                                          JsonNode uniqueKeyPolicy) {
        return createContainer(database, id, partitionKey, indexingPolicy, defaultTimeToLive, throughput,
                uniqueKeyPolicy, null);
    }

    /** The largest per-container item limit: items are read whole into memory, and Jackson parses one in one go. */
    public static final int MAX_CONTAINER_ITEM_BYTES = 256 * 1024 * 1024;

    /**
     * As above, with the container's own item size limit ({@code maxItemBytes}; null: the store's), which a face
     * with larger documents than Cosmos DB's 2 MB sets (the Mongo face: 16 MiB of BSON). 400 unless it lies in
     * [1 KiB, {@link #MAX_CONTAINER_ITEM_BYTES}].
     */
    public ContainerStore createContainer(String database, String id, PartitionKeyDefinition partitionKey,
                                          JsonNode indexingPolicy, Integer defaultTimeToLive, Integer throughput,
                                          JsonNode uniqueKeyPolicy, Integer maxItemBytes) {
        validateName("container", id);
        if (maxItemBytes != null && (maxItemBytes < 1024 || maxItemBytes > MAX_CONTAINER_ITEM_BYTES)) {
            throw new StoreException(Status.BAD_REQUEST, "maxItemBytes must be between 1024 and "
                    + MAX_CONTAINER_ITEM_BYTES + ", got " + maxItemBytes);
        }
        if (throughput != null && throughput < 400) {
            throw new StoreException(Status.BAD_REQUEST, "throughput must be at least 400 RU/s, got " + throughput);
        }
        io.tetradb.core.index.CompiledIndexingPolicy.of(indexingPolicy); // refuses an invalid policy with 400
        io.tetradb.core.ttl.TimeToLive.validateDefault(defaultTimeToLive);
        io.tetradb.core.unique.UniqueKeyPolicy.of(uniqueKeyPolicy); // 400 if Cosmos DB would refuse it
        synchronized (ddl) {
          while (true) { // metadata contract: a lost race with another server decides again
            MetaEntry dbEntry = metadata.get(Keys.database(database));
            if (dbEntry == null) {
                throw new StoreException(Status.NOT_FOUND, "database " + database + " does not exist");
            }
            DatabaseDefinition db = parse(dbEntry.value(), DatabaseDefinition.class);
            if (metadata.get(Keys.container(database, id)) != null) {
                throw new StoreException(Status.CONFLICT, "container " + id + " already exists in database " + database);
            }
            MetaEntry counter = metadata.get(Keys.counter("container"));
            int collId = (int) nextCounter(counter);
            ContainerDefinition def = new ContainerDefinition(database, id, collId,
                    rid(Keys.concat(Keys.collId(db.dbId()), Keys.collId(collId))), partitionKey,
                    indexingPolicy, defaultTimeToLive, throughput, uniqueKeyPolicy, System.currentTimeMillis() / 1000,
                    maxItemBytes);
            int count = throughput == null ? 1 : Math.max(1, (throughput + 9_999) / 10_000);
            EpkRange[] ranges = EpkRange.initialRanges(count);
            List<PhysicalPartition> partitions = new ArrayList<>();
            byte[] defBytes = json(def);
            MetaWrite w = new MetaWrite().require(dbEntry).create(Keys.container(database, id), defBytes)
                    .catalogChange();
            advanceCounter(w, "container", counter, collId);
            WriteSet ws = new WriteSet();
            for (int i = 0; i < count; i++) {
                PhysicalPartition p = new PhysicalPartition(i, ranges[i], -1);
                partitions.add(p);
                ws.put(Space.META, Keys.physicalPartition(collId, i), PartitionSplitter.record(p, 0));
            }
            UniqueKeyBackfill.markBuilt(ws, collId); // unique keys: its entries are complete from the start
            if (!applyMeta(w.include(ws))) {
                continue;
            }
            ContainerStore store = new ContainerStore(this, def, db.rid(), db.dbId(), new PartitionMap(partitions, 0));
            store.statsRecords().complete(); // batch-stats: a new container id has no statistics record
            containers.put(key(database, id), store);
            definitionVersions.put(key(database, id), MetaVersion.of(defBytes));
            catalogVersion.incrementAndGet(); // ttl: the purger lists containers again
            return store;
          }
        }
    }

    /** The container, or 404. */
    public ContainerStore container(String database, String id) {
        Long behind = catalogWatch.behind();
        if (behind != null) {
            refreshCatalog(behind); // another server changed containers: the cached ones follow
        }
        ContainerStore c = containers.get(key(database, id));
        if (c != null) {
            return c;
        }
        synchronized (ddl) {
            c = containers.get(key(database, id));
            if (c == null) {
                c = load(database, id);
                containers.put(key(database, id), c);
            }
            return c;
        }
    }

    /**
     * A face's own metadata container (e.g. {@code system.cosmos}): the container, or null when it does not exist and
     * {@code create} is false; created with default policies when {@code create} is true (a concurrent creation by
     * another request is fine). The database must exist.
     */
    public ContainerStore metadataContainer(String database, String id, PartitionKeyDefinition partitionKey,
                                            boolean create) {
        try {
            return container(database, id);
        } catch (io.tetradb.core.StoreException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
        if (!create) {
            return null;
        }
        try {
            return createContainer(database, id, partitionKey, null, null, null, null);
        } catch (io.tetradb.core.StoreException e) {
            if (e.status() == 409) { // made meanwhile by another request
                return container(database, id);
            }
            throw e;
        }
    }

    public List<ContainerDefinition> listContainers(String database) {
        readDatabase(database);
        List<ContainerDefinition> out = new ArrayList<>();
        for (MetaEntry e : metadata.list(Keys.containerPrefix(database))) {
            out.add(parse(e.value(), ContainerDefinition.class));
        }
        return out;
    }

    /**
     * Replaces a container's definition. Only the indexing policy (and the default TTL) may change: another partition
     * key is 400. A new policy is stored at once and the container's index entries are rebuilt in the background
     * ({@link IndexRebuild}); a rebuild still running from an earlier change is waited for first (one cursor separates
     * two policies, not three).
     */
    public ContainerDefinition replaceContainer(String database, String id, PartitionKeyDefinition partitionKey,
                                                JsonNode indexingPolicy, Integer defaultTimeToLive) {
        io.tetradb.core.index.CompiledIndexingPolicy next =
                io.tetradb.core.index.CompiledIndexingPolicy.of(indexingPolicy); // 400 if invalid
        io.tetradb.core.ttl.TimeToLive.validateDefault(defaultTimeToLive);
        while (true) {
            ContainerStore c = container(database, id);
            try {
                c.awaitIndexRebuild();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(Status.INTERNAL_SERVER_ERROR, "interrupted while an index rebuild ran");
            }
            synchronized (ddl) {
                checkOpen();
                c = container(database, id);
                if (c.isIndexRebuilding()) {
                    IndexRebuild job = c.indexRebuild();
                    if (job == null && metadata.isShared()) { // another server's rebuild: wait for its end
                        awaitOthersRebuild(database, id);
                        continue;
                    }
                    if (job == null || !job.isAlive()) {
                        throw new StoreException(Status.INTERNAL_SERVER_ERROR, "the index rebuild of container " + id
                                + " stopped unfinished; it resumes when the store is opened again");
                    }
                    continue; // another replace started a rebuild meanwhile
                }
                ContainerDefinition old = c.definition();
                if (partitionKey != null && !partitionKey.equals(old.partitionKey())) {
                    throw new StoreException(Status.BAD_REQUEST, "the partition key of container " + id + " is "
                            + old.partitionKey().paths() + " and cannot change (got " + partitionKey.paths() + ")");
                }
                ContainerDefinition def = new ContainerDefinition(old.database(), old.id(), old.collId(), old.rid(),
                        old.partitionKey(), indexingPolicy, defaultTimeToLive, old.throughput(),
                        old.uniqueKeyPolicy(), old.ts(), old.maxItemBytes());
                boolean policyChanged = !java.util.Objects.equals(old.indexingPolicy(), indexingPolicy);
                boolean ttlChanged = !java.util.Objects.equals(old.defaultTimeToLive(), defaultTimeToLive);
                io.tetradb.core.ttl.ExpiryRule oldRule = c.expiryRule();
                byte[] defBytes = json(def);
                Long read = definitionVersions.get(key(database, id));
                MetaWrite ws = read == null ? new MetaWrite().put(Keys.container(database, id), defBytes)
                        : new MetaWrite().replace(Keys.container(database, id), read, defBytes);
                ws.catalogChange();
                if (ttlChanged && sharedEngine) { // shared-engine hook: the expiry entries' conversion, resumable
                    SharedExpiryRebuild.record(ws, old.collId(), oldRule);
                }
                if (policyChanged) {
                    ws.put(Keys.indexRebuild(old.collId()),
                            new RebuildRecord(database, id, old.indexingPolicy(), null, 0).encode());
                    if (sharedEngine) { // shared-engine hook: any server resolves a partition's policy epoch
                        PartitionPolicyEpochs.register(ws, old.collId(), old.indexingPolicy());
                        PartitionPolicyEpochs.register(ws, old.collId(), indexingPolicy);
                    }
                }
                c.mapLock.writeLock().lock(); // no writer between the policy switch in META and in memory
                try {
                    if (!applyMeta(ws)) { // changed by another server since it was read: read it again
                        c.mapLock.writeLock().unlock();
                        try {
                            refreshCatalog();
                        } finally {
                            c.mapLock.writeLock().lock();
                        }
                        continue;
                    }
                    definitionVersions.put(key(database, id), MetaVersion.of(defBytes));
                    IndexingState current = c.indexingState();
                    c.replaceDefinition(def, policyChanged
                            ? new IndexingState(next, current.current(), null, 0) : current);
                } finally {
                    c.mapLock.writeLock().unlock();
                }
                catalogVersion.incrementAndGet(); // ttl: the purger lists containers again
                if (policyChanged) {
                    startIndexRebuild(c, old.indexingPolicy());
                }
                if (ttlChanged && sharedEngine) {
                    SharedExpiryRebuild.start(this, c, oldRule);
                }
                return def;
            }
        }
    }

    /** Waits (at most a minute) until the index rebuild another server runs on the container has ended. */
    private void awaitOthersRebuild(String database, String id) {
        long until = System.nanoTime() + 60_000_000_000L;
        while (rebuildRecord(container(database, id).collId()) != null) {
            if (System.nanoTime() > until) {
                throw new StoreException(503, "the index rebuild another server runs on "
                        + "container " + id + " has not ended; retry the replace later");
            }
            try {
                ddl.wait(20); // releases ddl meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(Status.INTERNAL_SERVER_ERROR, "interrupted while an index rebuild ran");
            }
        }
        refreshCatalog();
    }

    /** Under {@link #ddl}: the store is open, so {@link #close()} will stop the job. */
    private void startIndexRebuild(ContainerStore c, JsonNode previousPolicy) {
        checkOpen();
        IndexRebuild job = new IndexRebuild(this, c, previousPolicy);
        c.indexRebuild(job);
        job.start();
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreException(Status.INTERNAL_SERVER_ERROR, "the store is closed");
        }
    }

    /** Deletes a container and every item, change record and statistic of it in one atomic write; 404 if absent. */
    public void deleteContainer(String database, String id) {
        synchronized (ddl) {
            ContainerStore c = container(database, id);
            c.mapLock.writeLock().lock();
            try {
                int collId = c.collId();
                byte[] coll = Keys.collId(collId);
                byte[] next = Keys.collId(collId + 1);
                WriteSet ws = new WriteSet()
                        .deleteRange(Space.DOCS, coll, next)
                        .deleteRange(Space.FEED, coll, next)
                        .deleteRange(Space.INDEX, coll, next)
                        .deleteRange(Space.ADJACENCY, coll, next)
                        .delete(Space.META, GraphAdjacency.metaKey(collId))
                        .deleteRange(Space.META, Keys.pathPrefix(collId), Keys.pathPrefix(collId + 1))
                        .deleteRange(Space.META, Keys.statsPrefix(collId), Keys.statsPrefix(collId + 1))
                        .deleteRange(Space.META, Keys.physicalPartitionPrefix(collId), Keys.physicalPartitionPrefix(collId + 1))
                        .delete(Space.META, Keys.indexRebuild(collId))
                        .deleteRange(Space.META, PartitionPolicyEpochs.containerPrefix(PartitionPolicyEpochs.PARTITION_EPOCH,
                                collId), PartitionPolicyEpochs.containerPrefix(PartitionPolicyEpochs.PARTITION_EPOCH,
                                collId + 1)) // shared-engine hook: partitions' policy epochs and registered policies
                        .deleteRange(Space.META, PartitionPolicyEpochs.containerPrefix(
                                PartitionPolicyEpochs.REGISTERED_POLICY, collId), PartitionPolicyEpochs.containerPrefix(
                                PartitionPolicyEpochs.REGISTERED_POLICY, collId + 1))
                        .deleteRange(Space.META, Keys.scriptPrefix(collId), Keys.scriptPrefix(collId + 1))
                        ;
                ExpiryIndex.dropAll(ws, collId);
                UniqueKeyIndex.dropAll(ws, collId);
                FaceUniqueIndexes.dropAll(ws, collId);
                changeFeeds.keepHighWater(ws);
                io.tetradb.core.feed.SharedFeedPolicies.dropWith(ws, collId); // shared-policy hook
                // the definition goes only if no other server changed it since it was read (else 404 or read again)
                Long read = definitionVersions.get(key(database, id));
                MetaWrite w = read == null ? new MetaWrite().delete(Keys.container(database, id))
                        : new MetaWrite().deleteIf(Keys.container(database, id), read);
                if (containerDrops != null) {
                    ContainerDrops.mark(w, collId); // drops hook: its rows on the item engine, in the background
                }
                if (!applyMeta(w.include(ws).catalogChange())) {
                    dropCached(key(database, id), c);
                    throw new StoreException(Status.CONFLICT, "container " + id + " was changed by another server "
                            + "while it was being deleted; read it and delete it again");
                }
                c.markDeleted();
                if (containerDrops != null) {
                    containerDrops.wake();
                }
                containers.remove(key(database, id));
                definitionVersions.remove(key(database, id));
                catalogVersion.incrementAndGet(); // ttl: the purger lists containers again
                changeFeeds.forget(collId);
                statsRecords.remove(collId); // batch-stats: its records are gone, its id is never used again
                rateLimiter.forget(c); // throughput: its budgets go with it
            } finally {
                c.mapLock.writeLock().unlock();
            }
            c.stopIndexRebuild(); // it sees the container deleted at its next chunk and ends
        }
    }

    /** Every container's partition statistics, for the partition storage page. */
    public List<PartitionStatistics> partitionStatistics() {
        List<PartitionStatistics> out = new ArrayList<>();
        for (DatabaseDefinition db : listDatabases()) {
            for (ContainerDefinition c : listContainers(db.id())) {
                out.add(container(db.id(), c.id()).statistics());
            }
        }
        return out;
    }

    private ContainerStore load(String database, String id) {
        DatabaseDefinition db = readDatabase(database);
        MetaEntry entry = metadata.get(Keys.container(database, id));
        if (entry == null) {
            throw new StoreException(Status.NOT_FOUND, "container " + id + " does not exist in database " + database);
        }
        ContainerDefinition def = parse(entry.value(), ContainerDefinition.class);
        RebuildRecord unfinished = rebuildRecord(def.collId());
        ContainerStore c = new ContainerStore(this, def, db.rid(), db.dbId(), storedMap(def.collId()),
                indexingState(def, unfinished));
        definitionVersions.put(key(database, id), entry.version());
        recountPartitions(c, c.partitionMap().partitions());
        c.statsRecords().complete(); // batch-stats: the recount visited every record of the container
        if (!sharedEngine) { // shared-engine hook: containers there are created with their unique keys built
            c.uniqueKeyCollisions = UniqueKeyBackfill.ensure(c, engine, c.uniqueKeyPolicy()); // unique keys: older dirs
        }
        if (unfinished != null) {
            startIndexRebuild(c, unfinished.previousPolicy()); // resumes from the stored cursor
        }
        if (sharedEngine) { // shared-engine hook: an expiry conversion a crash cut short
            SharedExpiryRebuild.resume(this, c);
        }
        return c;
    }

    /** Recomputes the sizes of {@code partitions} from the per-logical-partition statistics. */
    void recountPartitions(ContainerStore c, List<PhysicalPartition> partitions) {
        int levels = c.definition().partitionKey().levels();
        byte[] prefix = Keys.statsPrefix(c.collId());
        for (PhysicalPartition p : partitions) {
            p.add(-p.bytes(), -p.items(), -p.logicalPartitions());
            java.util.function.Predicate<io.tetradb.core.storage.KeyValue> count = kv -> {
                LogicalPartitionStats s = LogicalPartitionStats.decode(kv.value());
                p.add(s.bytes(), s.items(), s.items() > 0 ? 1 : 0);
                c.statsRecords().addRecordKey(kv.key()); // batch-stats: a partition holding a record
                return true;
            };
            // embedded: StoredPartitionStats.scan (two merged forward scans, not a seek per partition: a Tables
            // container has one per entity); item-reads hook: through the partition contract (items on another engine)
            c.reads().scanPartitionStats(Keys.concat(prefix, p.range().min()), Keys.concat(prefix, p.range().max()),
                    count);
        }
    }

    /** For tests and tools: waits until every scheduled split has finished. */
    public void awaitSplits() throws InterruptedException {
        splitter.awaitIdle();
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    private static long nextCounter(MetaEntry counter) {
        return (counter == null ? 0 : Keys.readLong(counter.value(), 0)) + 1;
    }

    /** Moves the counter to {@code value} only if nobody moved it since {@code read}: numbers are never shared. */
    private static void advanceCounter(MetaWrite w, String name, MetaEntry read, long value) {
        byte[] v = Keys.withLong(new byte[0], value);
        if (read == null) {
            w.create(Keys.counter(name), v);
        } else {
            w.replace(Keys.counter(name), read.version(), v);
        }
    }

    private RebuildRecord rebuildRecord(int collId) {
        MetaEntry rebuild = metadata.get(Keys.indexRebuild(collId));
        return rebuild == null ? null : RebuildRecord.decode(rebuild.value());
    }

    private static IndexingState indexingState(ContainerDefinition def, RebuildRecord unfinished) {
        io.tetradb.core.index.CompiledIndexingPolicy policy =
                io.tetradb.core.index.CompiledIndexingPolicy.of(def.indexingPolicy());
        return unfinished == null ? IndexingState.settled(policy)
                : new IndexingState(policy, io.tetradb.core.index.CompiledIndexingPolicy.of(unfinished.previousPolicy()),
                unfinished.cursor(), unfinished.converted());
    }

    /** The container's physical partitions as stored, with the map's epoch. */
    private PartitionMap storedMap(int collId) {
        List<PhysicalPartition> partitions = new ArrayList<>();
        long epoch = 0;
        for (MetaEntry e : metadata.list(Keys.physicalPartitionPrefix(collId))) {
            JsonNode n = parse(e.value(), JsonNode.class);
            partitions.add(new PhysicalPartition(n.get("id").asInt(),
                    EpkRange.ofHex(n.get("min").asText(), n.get("max").asText()), n.get("parent").asInt()));
            epoch = Math.max(epoch, n.get("epoch").asLong());
        }
        return new PartitionMap(partitions, epoch);
    }

    /**
     * Brings the cached containers up to the stored catalog after another server changed it: a deleted one (or one
     * deleted and created again under its name) is dropped and marked deleted, so holders look it up again; a
     * replaced definition or a changed partition map is swapped in.
     */
    void refreshCatalog() {
        refreshCatalog(null);
    }

    /** As {@link #refreshCatalog()}, up to {@code stamp} (null: whatever is stored now), once per stamp. */
    private void refreshCatalog(Long stamp) {
        synchronized (ddl) {
            if (stamp != null && catalogWatch.isRefreshedTo(stamp)) {
                return; // another thread did it while this one waited
            }
            for (Map.Entry<String, ContainerStore> cached : containers.entrySet()) {
                ContainerStore c = cached.getValue();
                ContainerDefinition def = c.definition();
                MetaEntry e = metadata.get(Keys.container(def.database(), def.id()));
                ContainerDefinition stored = e == null ? null : parse(e.value(), ContainerDefinition.class);
                if (stored == null || stored.collId() != def.collId()) {
                    dropCached(cached.getKey(), c);
                    continue;
                }
                Long version = definitionVersions.get(cached.getKey());
                PartitionMap map = storedMap(def.collId());
                boolean newDefinition = version == null || version != e.version();
                boolean newMap = map.epoch() != c.partitionMap().epoch();
                // a rebuild another server ran (none of ours) and ended: its record is gone
                boolean rebuildEnded = !newDefinition && c.isIndexRebuilding()
                        && (c.indexRebuild() == null || !c.indexRebuild().isAlive()) // shared engine: a job of ours ended
                        && rebuildRecord(def.collId()) == null;
                if (!newDefinition && !newMap && !rebuildEnded) {
                    continue;
                }
                c.mapLock.writeLock().lock();
                try {
                    if (newDefinition) {
                        c.replaceDefinition(stored, indexingState(stored, rebuildRecord(stored.collId())));
                        definitionVersions.put(cached.getKey(), e.version());
                    }
                    if (rebuildEnded) {
                        c.indexingState(IndexingState.settled(c.indexingState().current()));
                    }
                    if (newMap) {
                        recountPartitions(c, map.partitions());
                        c.replaceMap(map);
                    }
                } finally {
                    c.mapLock.writeLock().unlock();
                }
                RebuildRecord unfinished;
                if (sharedEngine && !closed && c.isIndexRebuilding() // shared-engine hook: every server runs the job
                        && (c.indexRebuild() == null || !c.indexRebuild().isAlive())
                        && (unfinished = rebuildRecord(def.collId())) != null) {
                    startIndexRebuild(c, unfinished.previousPolicy());
                }
            }
            catalogVersion.incrementAndGet(); // ttl: the purger lists containers again
            changeFeeds.reloadSharedPolicies(); // shared-policy hook: a policy another server set
            AdjacencyContractPath.followMarks(this, containers.values()); // adjacency another server enabled
            if (sharedEngine) { // shared-engine hook: unique indexes another server added or dropped
                containers.values().forEach(ContainerStore::followUniqueIndexes);
            }
            if (stamp != null) {
                catalogWatch.refreshed(stamp);
            }
        }
    }

    /** Forgets a cached container that another server deleted. */
    private void dropCached(String key, ContainerStore c) {
        c.markDeleted();
        containers.remove(key, c);
        definitionVersions.remove(key);
        changeFeeds.forget(c.collId());
        rateLimiter.forget(c);
        c.stopIndexRebuild();
    }

    private static String key(String database, String id) {
        return database + '\u0000' + id;
    }

    private static String rid(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes).replace('/', '-');
    }

    private static void validateName(String kind, String id) {
        if (id == null || id.isEmpty() || id.length() > 255) {
            throw new StoreException(Status.BAD_REQUEST, "a " + kind + " id must have 1 to 255 characters");
        }
        for (char c : new char[]{'/', '\\', '?', '#'}) {
            if (id.indexOf(c) >= 0) {
                throw new StoreException(Status.BAD_REQUEST, "the " + kind + " id '" + id
                        + "' contains '" + c + "'; ids cannot contain / \\ ? or #");
            }
        }
        if (id.endsWith(" ")) {
            throw new StoreException(Status.BAD_REQUEST, "a " + kind + " id cannot end with a space");
        }
    }

    private byte[] json(Object o) {
        try {
            return mapper.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private <T> T parse(byte[] v, Class<T> type) {
        try {
            return mapper.readValue(v, type);
        } catch (IOException e) {
            throw new IllegalStateException("corrupt metadata", e);
        }
    }

    @Override
    public void close() {
        synchronized (ddl) { // rebuild jobs start under this lock: none starts after this
            closed = true;
        }
        for (ContainerStore c : containers.values()) {
            c.stopIndexRebuild(); // after its current chunk; the next open resumes from the cursor
        }
        ttlPurger.stop();
        if (containerDrops != null) {
            containerDrops.close();
        }
        splitter.close();
        changeFeeds.close();
        throughput.close();
        metadata.close();
        engine.close();
    }
}
