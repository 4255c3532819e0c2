package io.tetradb.core.feed;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.store.ItemCodec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The change feed of one container. Writers append one {@link ChangeRecord} per changed item inside their own atomic
 * write ({@link #batch()}); readers page through the records by sequence ({@link #read(ChangeFeedRequest)}).
 *
 * <p>Latest-version mode reads the item itself for each create/replace record and shows it only if the record is
 * still the item's latest version (its lsn equals the stored item's), so an item changed many times appears once, at
 * its last change. Superseded records and old tombstones are removed later by the {@link FeedPruner}.
 */
public final class ChangeFeed {
    /** Records looked at per page at most, so a narrow scope over a busy container still answers promptly. */
    static final int MAX_SCANNED_PER_PAGE = 20_000;
    /**
     * core-batch: one partition index key per run of a transaction's records (a 100-item batch: 1 key, not 100);
     * {@code -Dtetradb.feed.partitionRuns=false} writes one key per record as before (for A/B runs). Read either way.
     */
    static final boolean PARTITION_RUNS = !"false".equals(System.getProperty("tetradb.feed.partitionRuns"));
    private static final byte[] LSN_FIELD = ",\"_lsn\":".getBytes(StandardCharsets.US_ASCII);

    private final ChangeFeeds feeds;
    private final int collId;
    private final int levels;
    private volatile ChangeFeedPolicy policy;
    /** Replaces and deletes since the pruner's last pass: each leaves a record behind to prune. */
    final AtomicLong superseded = new AtomicLong();
    /** feed-prune: the applied records' notes for the pruner, or null ({@code -Dtetradb.feed.prunerNotes=0}). */
    private final PrunerNotes notes;
    /**
     * feed-images ({@code docs/feed-images.md}): all-versions records refer to images the store holds (the item, or
     * the version-image key the superseding transaction writes) instead of copying them;
     * {@code -Dtetradb.feed.versionImages=false} writes the images inline as before (A/B runs). Read at each container
     * open, so one JVM can open a store each way. Both layouts are always read.
     */
    private final boolean versionImages = !"false".equals(System.getProperty("tetradb.feed.versionImages"));
    /** Tests: runs between a page's item reads and its version-image reads (a pruner pass racing a reader). */
    volatile Runnable beforeVersionImageReads;

    ChangeFeed(ChangeFeeds feeds, int collId, int levels) {
        this.feeds = feeds;
        this.collId = collId;
        this.levels = levels;
        this.policy = feeds.sharedPolicies() != null ? feeds.sharedPolicies().read(collId) // shared-policy hook
                : ChangeFeedPolicy.decode(feeds.engine().get(Space.FEED, FeedKeys.policy(collId)));
        superseded.set(1); // the pruner looks once at what an earlier run left (superseded records, expiries)
        // every record of this container numbered from here on is written through this object, so noted; all of
        // them when it has none yet (a container made in this run)
        this.notes = feeds.prunerNotesCapacity() > 0 ? new PrunerNotes(hasRecords() ? feeds.sequencer().last() : 0,
                feeds.prunerNotesCapacity(), () -> feeds.pruner().wake()) : null;
        this.reads = new io.tetradb.core.reads.EmbeddedItemReads(feeds.engine());
        byte[] since = feeds.engine().get(Space.FEED, FeedKeys.partitionIndexedSince(collId));
        if (since == null) { // before this container's first record of this run: every later one is indexed
            long last = feeds.sequencer().last();
            feeds.engine().apply(new WriteSet().put(Space.FEED, FeedKeys.partitionIndexedSince(collId),
                    ByteBuffer.allocate(8).putLong(last).array()));
            this.partitionIndexedSince = last;
        } else {
            this.partitionIndexedSince = ByteBuffer.wrap(since).getLong();
        }
    }

    private boolean hasRecords() {
        try (KeyCursor c = feeds.engine().cursor(Space.FEED, FeedKeys.record(collId, 0),
                FeedKeys.record(collId, Long.MAX_VALUE), true)) {
            return c.next();
        }
    }

    /** Every record numbered above this has its partition index key ({@link FeedKeys#partitionRecord}). */
    private final long partitionIndexedSince;
    /** Change records the reads looked at (for tests and metrics: a narrow scope reads its own only). */
    private final AtomicLong recordsRead = new AtomicLong();

    public long recordsRead() {
        return recordsRead.get();
    }

    void countRead() {
        recordsRead.incrementAndGet();
    }

    ChangeFeeds feeds() {
        return feeds;
    }

    // ---- item-reads hook: pages read records and latest items through the container's ItemReads ----
    private volatile io.tetradb.core.reads.ItemReads reads;

    /** The container's item reads (the embedded engine's keys, or the logical-partition contract). */
    public void readThrough(io.tetradb.core.reads.ItemReads reads) {
        this.reads = reads;
    }
    // ---- end item-reads hook ----

    // ---- feed-per-partition hook (FeedCursor, ContractFeedRead) ----
    /**
     * True when the container's items are read through the logical-partition contract: its feed is then read per
     * logical partition by lsn with a {@link FeedCursor} (positions every server of a shared engine agrees on).
     */
    public boolean readsPerPartition() {
        return reads.partitionStore() != null;
    }

    /** A cursor at the present of {@code request}'s scope ("start from now" on the contract). */
    public FeedCursor cursorAtNow(ChangeFeedRequest request) {
        Scope s = new Scope(request);
        return ContractFeedRead.now(contractStore(), collId, s.fromPartition(), s.toPartition());
    }

    /** The store's codec of cursors as face tokens (etags, resume tokens), valid on every server (feed-tokens hook). */
    public FeedCursorTokens cursorTokens() {
        return feeds.cursorTokens();
    }

    io.tetradb.core.storage.partition.PartitionStore contractStoreForPruner() {
        return contractStore();
    }

    private io.tetradb.core.storage.partition.PartitionStore contractStore() {
        io.tetradb.core.storage.partition.PartitionStore store = reads.partitionStore();
        if (store == null) {
            throw new StoreException(Status.BAD_REQUEST, "this change feed continuation was made by a server that "
                    + "reads the feed per logical partition (items on a shared engine); this one reads the store-wide "
                    + "sequence");
        }
        return store;
    }
    // ---- end feed-per-partition hook ----

    int collId() {
        return collId;
    }

    public ChangeFeedPolicy policy() {
        return policy;
    }

    /** Sets the container's change feed policy (durably). Changes written from now on follow it. */
    public void setPolicy(ChangeFeedPolicy next) {
        if (next.retention().compareTo(ChangeFeedPolicy.MAX_RETENTION) > 0) {
            throw new StoreException(Status.BAD_REQUEST, "the change feed retention is at most "
                    + ChangeFeedPolicy.MAX_RETENTION.toMinutes() + " minutes");
        }
        if (feeds.sharedPolicies() != null) { // shared-policy hook: every server's writers follow one policy
            feeds.sharedPolicies().write(collId, next);
        } else {
            feeds.engine().apply(new WriteSet().put(Space.FEED, FeedKeys.policy(collId), next.encode()));
        }
        policy = next;
        superseded.incrementAndGet();
    }

    /** A policy another server stored (shared-policy hook). */
    void policyFromElsewhere(ChangeFeedPolicy stored) {
        if (!stored.equals(policy)) {
            policy = stored;
            superseded.incrementAndGet();
        }
    }

    /** The position a "start from now" reader begins after. */
    public long currentPosition() {
        return feeds.stablePosition();
    }

    /**
     * Waits until a change beyond {@code position} may be readable (some container committed one) or {@code maxMillis}
     * pass; returns the stable position. Pollers react within a millisecond instead of sleeping a poll delay.
     */
    public long awaitBeyond(long position, long maxMillis) throws InterruptedException {
        return feeds.awaitBeyond(position, maxMillis);
    }

    // ---- writing -----------------------------------------------------------------------------------------------

    /** Collects the change records of one transaction; see {@link Batch#writeTo(WriteSet, long)}. */
    public Batch batch() {
        boolean images = policy.allVersionsAndDeletes();
        // feed-images: only where this engine's FEED holds the records and its own pruner deletes them (§6.2: a
        // contract writer's V key would be a side row no contract pruner deletes)
        return new Batch(images, images && versionImages && reads.embedded() && !feeds.pruneThroughContract());
    }

    /** The change records of one transaction, appended to its write set under its partition lock. */
    public final class Batch {
        private final boolean images;
        /** feed-images: records refer to their images; the superseded versions go under version-image keys. */
        private final boolean deferred;
        private final List<ChangeRecord> records = new ArrayList<>(2);
        /** deferred: per record, the stored version it superseded (null: a create), for its version-image key. */
        private final List<byte[]> supersededVersions;
        /**
         * pw-next: per record, the item key its id's UTF-8 bytes end (null: encode the id), made on the first record
         * added with one.
         */
        private byte[][] idKeys;
        /** graph-load: the transaction is a bulk chunk's ({@link #inBulkChunk}). */
        private boolean bulk;

        private Batch(boolean images, boolean deferred) {
            this.images = images;
            this.deferred = deferred;
            this.supersededVersions = deferred ? new ArrayList<>(2) : null;
        }

        /**
         * graph-load: this transaction is a bulk chunk's ({@code io.tetradb.core.bulk}): if it only creates, its
         * records keep no pruner note even while something is superseded (a pass reads them from the store when it
         * needs them; {@link PrunerNotes#onlySkippedCreatesIn}). A note per created item would stay live until the
         * chunk commits and then until a pass, for records that supersede nothing.
         */
        public void inBulkChunk() {
            bulk = true;
        }

        /**
         * One changed item.
         *
         * @param logicalPartition {@code EPK · pk} of the item's logical partition
         * @param now              the stored item after the change (null: deleted)
         * @param old              the stored item before the transaction (null: it did not exist)
         * @param ttlExpired       the delete is the TTL purge's
         */
        public void add(byte[] logicalPartition, String id, long lsn, byte[] now, byte[] old, long oldLsn,
                        boolean ttlExpired) {
            add(logicalPartition, null, id, lsn, now, old, oldLsn, ttlExpired);
        }

        /**
         * As above; {@code itemKey} (or null): the item's key, {@code collId(4) · logicalPartition · UTF-8(id)}, whose
         * last bytes the record's id is written from (pw-next: the id is not encoded again).
         */
        public void add(byte[] logicalPartition, byte[] itemKey, String id, long lsn, byte[] now, byte[] old,
                        long oldLsn, boolean ttlExpired) {
            if (itemKey != null) {
                if (idKeys == null) {
                    idKeys = new byte[Math.max(2, records.size() + 1)][];
                } else if (idKeys.length <= records.size()) {
                    idKeys = Arrays.copyOf(idKeys, records.size() * 2);
                }
                idKeys[records.size()] = itemKey;
            }
            ChangeRecord.OperationType type = now == null ? ChangeRecord.OperationType.DELETE
                    : old == null ? ChangeRecord.OperationType.CREATE : ChangeRecord.OperationType.REPLACE;
            if (deferred) { // no copy: the item holds `now`, and `old` (held anyway) goes under its version key
                records.add(new ChangeRecord(0, type, lsn, old == null ? 0 : oldLsn, 0, ttlExpired && now == null,
                        logicalPartition, id, null, null, (now != null ? ChangeRecord.CURRENT_AT_LSN : 0)
                        | (old != null ? ChangeRecord.PREVIOUS_AT_LSN : 0)));
                supersededVersions.add(old);
                return;
            }
            records.add(new ChangeRecord(0, type, lsn, old == null ? 0 : oldLsn, 0, ttlExpired && now == null,
                    logicalPartition, id, images && now != null ? json(now) : null,
                    images && old != null ? json(old) : null));
        }

        /** A lone record's value ({@link ChangeRecord#encode()}, numbered at {@code crtsMillis}). */
        private byte[] single(ChangeRecord r, int i, long crtsMillis) {
            byte[] key = idKeys == null || i >= idKeys.length ? null : idKeys[i];
            if (key == null) {
                byte[] id = r.idBytes();
                return r.encode(crtsMillis, id, 0, id.length);
            }
            int idAt = 4 + r.logicalPartition().length; // collId · EPK · pk · id
            return r.encode(crtsMillis, key, idAt, key.length - idAt);
        }

        private boolean onlyCreates() {
            for (ChangeRecord r : records) {
                if (r.operationType() != ChangeRecord.OperationType.CREATE) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Numbers the records and adds them to {@code ws}; returns the ticket to hand to {@link #release(long)} once
         * the write set is applied (or failed), or 0 when there was nothing to write.
         */
        public long writeTo(WriteSet ws, long crtsMillis) {
            return writeTo(ws, crtsMillis, null);
        }

        /**
         * As {@link #writeTo(WriteSet, long)}; {@code stats} (24 bytes, or null): the partition's statistics after the
         * transaction, carried by its last partition index key ({@link StoredPartitionStats}, core-stats). Returns 0
         * (nothing written, so nothing carried) when there were no records.
         */
        public long writeTo(WriteSet ws, long crtsMillis, byte[] stats) {
            if (records.isEmpty()) {
                return 0;
            }
            // feed-prune: the records (without images) go to the pruner's notes once applied, so it need not read them;
            // notes-ab: but not creates while nothing was replaced or deleted since the pruner's last pass (below),
            // nor a bulk chunk's creates (graph-load)
            boolean noting = notes != null && !feeds.pruneThroughContract();
            boolean quietCreates = noting && (bulk || superseded.get() == 0) && onlyCreates();
            List<ChangeRecord> told = noting && !quietCreates ? new ArrayList<>(records.size()) : null;
            long first = told == null ? feeds.sequencer().allocate(records.size())
                    : feeds.sequencer().allocate(records.size(), applied -> {
                        if (applied) {
                            notes.applied(told);
                        } else {
                            notes.lost(told.get(told.size() - 1).seq()); // written or not: passes read them
                        }
                    });
            if (quietCreates) {
                // a create supersedes nothing: no pass is due for it, so no note; the pass a later replace or delete
                // makes reads these records from the store (registers the items then), as a pass without notes did
                notes.skipped(first + records.size() - 1);
            }
            long seq = first;
            int run = 0; // core-batch: the records of one partition so far, one partition index key for them all
            // core-keys: a run's records in one FEED value (ChangeRuns) under its last number (notes-ab: always; the
            // layout with a key per record, still read, was 16 % more batch CPU and 202 keys per 100-item batch, not 103)
            List<ChangeRecord> folded = null; // pw-next: made for a run of several records only
            for (int i = 0; i < records.size(); i++) {
                ChangeRecord r = records.get(i);
                boolean runEnds = !PARTITION_RUNS || i + 1 == records.size()
                        || !Arrays.equals(records.get(i + 1).logicalPartition(), r.logicalPartition());
                boolean alone = runEnds && (folded == null || folded.isEmpty()); // a run of one: encoded directly
                ChangeRecord numbered = alone && told == null ? null : r.numbered(seq, crtsMillis);
                if (!alone) {
                    if (folded == null) {
                        folded = new ArrayList<>();
                    }
                    folded.add(numbered);
                }
                if (deferred && supersededVersions.get(i) != null) {
                    // feed-images: the superseded version, byte for byte (header and lsn included), once, owned by
                    // this record; written in this transaction's atomic write like the record itself
                    ws.put(Space.FEED, FeedKeys.versionImage(collId, r.logicalPartition(), r.previousLsn()),
                            supersededVersions.get(i));
                }
                run++;
                if (runEnds) {
                    ws.put(Space.FEED, FeedKeys.record(collId, seq), alone ? single(r, i, crtsMillis)
                            : ChangeRuns.encode(folded));
                    if (folded != null) {
                        folded.clear();
                    }
                    ws.put(Space.FEED, FeedKeys.partitionRecord(collId, r.logicalPartition(), seq),
                            stats != null && i + 1 == records.size() ? FeedKeys.runValue(run, stats)
                                    : FeedKeys.runValue(run));
                    run = 0;
                }
                if (told != null) {
                    told.add(numbered.current() == null && numbered.previous() == null ? numbered
                            : new ChangeRecord(seq, r.operationType(), r.lsn(), r.previousLsn(), crtsMillis,
                            r.ttlExpired(), r.logicalPartition(), r.id(), null, null, r.imageRefs()));
                }
                if (r.operationType() != ChangeRecord.OperationType.CREATE) {
                    superseded.incrementAndGet();
                }
                seq++;
            }
            return first;
        }
    }

    /** Gives back a {@link Batch#writeTo(WriteSet, long)} ticket of an applied write set: readers may now read past it. */
    public void release(long ticket) {
        if (ticket > 0) {
            feeds.sequencer().release(ticket, true);
        }
    }

    /**
     * Gives back the ticket of a write set whose apply failed or was dropped (written or not: the pruner reads its
     * numbers back from the store rather than trust its notes).
     */
    public void abandon(long ticket) {
        if (ticket > 0) {
            feeds.sequencer().release(ticket, false);
        }
    }

    /** feed-prune: what the commit path tells the pruner about this feed's records; null when it reads them all. */
    PrunerNotes notes() {
        return notes;
    }

    /** A record's image: the stored bytes after the header (JSON text, or a binary item's TB1 object and trailer). */
    private static byte[] json(byte[] stored) {
        return Arrays.copyOfRange(stored, ItemCodec.HEADER, stored.length);
    }

    /** True when a record's image is a binary item (TB1 and trailer) rather than JSON text ('{'). */
    private static boolean binaryImage(byte[] image) {
        return image.length > 0 && image[0] != '{';
    }

    /**
     * A record's image as an item tree with its typed values (a binary image) or as its JSON reads (a JSON-text one);
     * null for none. For faces that show the image in their own types rather than as JSON.
     */
    public static com.fasterxml.jackson.databind.node.ObjectNode imageItem(byte[] image,
                                                                          com.fasterxml.jackson.databind.ObjectMapper mapper) {
        if (image == null) {
            return null;
        }
        if (binaryImage(image)) {
            byte[] stored = new byte[io.tetradb.core.item.StoredItems.HEADER + image.length];
            stored[0] = io.tetradb.core.item.StoredItems.FORMAT;
            System.arraycopy(image, 0, stored, io.tetradb.core.item.StoredItems.HEADER, image.length);
            return io.tetradb.core.item.StoredItems.parse(stored);
        }
        try {
            return (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(image);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A record's image ({@link ChangeRecord#current()}, {@link ChangeRecord#previous()}) as JSON text, either format. */
    public static byte[] imageJson(byte[] image) {
        return image == null || !binaryImage(image) ? image : io.tetradb.core.item.ItemJsonWriter.json(image, 0, -1);
    }

    // ---- reading -----------------------------------------------------------------------------------------------

    /** One page of changes after {@code request.after()}, up to the stable end of the feed. */
    public ChangeFeedPage read(ChangeFeedRequest request) {
        if (request.mode() == ChangeFeedMode.ALL_VERSIONS_AND_DELETES && !policy.allVersionsAndDeletes()) {
            throw new StoreException(Status.BAD_REQUEST, "the all versions and deletes change feed needs a change feed "
                    + "policy with a retention on the container (Cosmos DB: ChangeFeedPolicy"
                    + ".createAllVersionsAndDeletesPolicy); this container keeps the latest version only");
        }
        long stable = feeds.stablePosition();
        long after = request.after();
        // ---- feed-per-partition hook: a cursor request reads each logical partition's records by lsn ----
        if (request.cursor() != null) {
            Scope s = new Scope(request);
            return new ContractFeedRead(this, contractStore(), request, s.fromPartition(), s.toPartition(),
                    s::includes, stable).read();
        }
        // ---- end feed-per-partition hook ----
        List<ChangeFeedPage.Change> out = new ArrayList<>();
        if (after >= stable) {
            return new ChangeFeedPage(out, Math.max(after, 0), true);
        }
        Scope scope = new Scope(request);
        if (request.partitionKey() != null && after >= partitionIndexedSince && reads.embedded()) {
            // the partition index is the embedded layout's; through the contract a partition's changes are its own rows
            return new PartitionFeedRead(this, request, scope::includes, stable).read();
        }
        if (request.partitionKey() == null && after >= partitionIndexedSince && reads.embedded()
                && RangeFeedRead.narrow(scope.range)) {
            // a feed range that is part of the container: its partitions' index keys, while they cost less
            ChangeFeedPage indexed = new RangeFeedRead(this, request, scope.range, scope::includes, stable).read();
            if (indexed != null) {
                return indexed;
            }
        }
        boolean latest = request.mode() == ChangeFeedMode.LATEST_VERSION;
        List<ChangeRecord> candidates = new ArrayList<>(); // latest: creates/replaces; all versions: every record
        long position = after;
        int scanned = 0;
        boolean caughtUp = true;
        try (KeyCursor c = reads.changes(FeedKeys.record(collId, after + 1), FeedKeys.record(collId, stable + 1),
                scope.fromPartition(), scope.toPartition())) { // item-reads hook
            List<ChangeRecord> run = new ArrayList<>();
            scan:
            while (c.next()) {
                run.clear(); // a key holds one record or a run of them (ChangeRuns): those after the position
                ChangeRuns.decode(FeedKeys.seqOf(c.key()), c.value(), after, stable, run);
                for (ChangeRecord r : run) {
                    recordsRead.incrementAndGet();
                    position = r.seq();
                    if (r.crtsMillis() < request.notBeforeMillis()) {
                        continue; // before the point in time: skipped without counting, so one page gets past them
                    }
                    if (scope.includes(r) && (!latest || r.operationType() != ChangeRecord.OperationType.DELETE)) {
                        candidates.add(r); // its item / images are read with the page's others below
                    }
                    if (candidates.size() >= request.maxItems() || ++scanned >= MAX_SCANNED_PER_PAGE) {
                        caughtUp = false;
                        break scan;
                    }
                }
            }
        }
        if (caughtUp) {
            position = stable;
        }
        if (latest) {
            latestItems(candidates, out);
        } else {
            allVersionsChanges(candidates, out);
        }
        return new ChangeFeedPage(out, position, caughtUp);
    }

    /**
     * The all-versions changes of {@code records} (feed order), their images filled in where the records refer to
     * them ({@link VersionImages}): one multi-get of the items, then one of the version-image keys. A record pruned
     * while its images were read is left out, as a reader arriving a moment later would not see it.
     */
    void allVersionsChanges(List<ChangeRecord> records, List<ChangeFeedPage.Change> out) {
        for (ChangeRecord r : new VersionImages(this, reads).resolve(records)) {
            out.add(new ChangeFeedPage.Change(r, null));
        }
    }

    /**
     * Whether record {@code seq} of logical partition {@code logicalPartition} is still stored: under its own key, or
     * in the run under the first key after it ({@link ChangeRuns}). Asked only when an image is missing.
     */
    boolean stillStored(long seq, byte[] logicalPartition) {
        try (KeyCursor c = reads.changes(FeedKeys.record(collId, seq), FeedKeys.record(collId, Long.MAX_VALUE),
                logicalPartition, Arrays.copyOf(logicalPartition, logicalPartition.length + 1))) {
            if (!c.next()) {
                return false;
            }
            // the first key at or after it: its run's (or its own), if it is stored
            for (long s : ChangeRuns.seqs(FeedKeys.seqOf(c.key()), c.value())) {
                if (s == seq) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Records whose items {@link #checkImages()} reads with one multi-get. */
    private static final int CHECK_PAGE = 256;

    /** What {@link #checkImages()} found: each count should be 0 (documented exceptions: docs/feed-images.md §3.3). */
    public record ImageCheck(long recordsWithMissingPrevious, long recordsWithMissingCurrent,
                             long orphanVersionImages) {
        public boolean clean() {
            return recordsWithMissingPrevious == 0 && recordsWithMissingCurrent == 0 && orphanVersionImages == 0;
        }
    }

    /**
     * feed-images' consistency check (like {@code checkIndexes()}; run it while no one writes or prunes): every
     * record with {@link ChangeRecord#PREVIOUS_AT_LSN} has its version-image key, every record with
     * {@link ChangeRecord#CURRENT_AT_LSN} has its image (the item at its lsn, or the version-image key), and every
     * version-image key has its owner record. One scan of the container's records and one of its version-image keys.
     */
    public ImageCheck checkImages() {
        StorageEngine engine = feeds.engine();
        Set<ByteBuffer> images = new HashSet<>();
        try (KeyCursor c = engine.cursor(Space.FEED, FeedKeys.versionImages(collId), FeedKeys.versionImagesEnd(collId),
                false)) {
            while (c.next()) {
                images.add(ByteBuffer.wrap(c.key()));
            }
        }
        Set<ByteBuffer> owned = new HashSet<>();
        long missingPrevious = 0;
        long missingCurrent = 0;
        List<ChangeRecord> currents = new ArrayList<>();
        try (KeyCursor c = engine.cursor(Space.FEED, FeedKeys.record(collId, 0), FeedKeys.record(collId, Long.MAX_VALUE),
                false)) {
            while (c.next()) {
                for (ChangeRecord r : ChangeRuns.decode(FeedKeys.seqOf(c.key()), c.value())) {
                    if (r.previousAtLsn()) {
                        ByteBuffer key = ByteBuffer.wrap(r.ownedVersionImageKey(collId));
                        owned.add(key);
                        if (!images.contains(key)) {
                            missingPrevious++;
                        }
                    }
                    if (r.currentAtLsn()) {
                        currents.add(r);
                    }
                }
            }
        }
        for (int from = 0; from < currents.size(); from += CHECK_PAGE) { // one multi-get per page of live records
            List<ChangeRecord> page = currents.subList(from, Math.min(currents.size(), from + CHECK_PAGE));
            List<byte[]> keys = new ArrayList<>(page.size());
            for (ChangeRecord r : page) {
                keys.add(docKey(r));
            }
            List<byte[]> items = engine.multiGet(Space.DOCS, keys);
            for (int i = 0; i < page.size(); i++) {
                ChangeRecord r = page.get(i);
                byte[] item = items.get(i);
                if ((item == null || ItemCodec.lsn(item) != r.lsn()) && !images.contains(
                        ByteBuffer.wrap(FeedKeys.versionImage(collId, r.logicalPartition(), r.lsn())))) {
                    missingCurrent++;
                }
            }
        }
        long orphans = 0;
        for (ByteBuffer key : images) {
            if (!owned.contains(key)) {
                orphans++;
            }
        }
        return new ImageCheck(missingPrevious, missingCurrent, orphans);
    }

    /**
     * The changes among {@code records} (creates and replaces, in feed order) that are still their item's latest
     * version, each with the stored item as JSON with {@code _lsn}: one multi-get for the page instead of one read per
     * record (the processor's per-change cost).
     */
    void latestItems(List<ChangeRecord> records, List<ChangeFeedPage.Change> out) {
        if (records.isEmpty()) {
            return;
        }
        List<byte[]> keys = new ArrayList<>(records.size());
        for (ChangeRecord r : records) {
            keys.add(docKey(r));
        }
        List<byte[]> stored = keys.size() == 1 ? Collections.singletonList(
                reads.item(keys.get(0))) : reads.items(keys); // item-reads hook
        for (int i = 0; i < records.size(); i++) {
            ChangeRecord r = records.get(i);
            byte[] s = stored.get(i);
            if (s != null && ItemCodec.lsn(s) == r.lsn()) { // else a later record stands for it
                out.add(ChangeFeedPage.Change.ofStored(r, s)); // its JSON is written only if a reader asks
            }
        }
    }

    byte[] docKey(ChangeRecord r) {
        byte[] id = r.id().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + r.logicalPartition().length + id.length).putInt(collId)
                .put(r.logicalPartition()).put(id).array();
    }

    /** The stored item's JSON with {@code "_lsn": lsn} added before its closing brace (a binary item written as JSON). */
    static byte[] withLsn(byte[] stored, long lsn) {
        if (io.tetradb.core.item.StoredItems.isBinary(stored)) {
            return io.tetradb.core.item.ItemJsonWriter.json(stored, io.tetradb.core.item.StoredItems.HEADER, lsn);
        }
        int start = ItemCodec.HEADER;
        int close = stored.length - 1;
        while (close > start && stored[close] != '}') {
            close--;
        }
        byte[] digits = Long.toString(lsn).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[close - start + LSN_FIELD.length + digits.length + 1];
        System.arraycopy(stored, start, out, 0, close - start);
        System.arraycopy(LSN_FIELD, 0, out, close - start, LSN_FIELD.length);
        System.arraycopy(digits, 0, out, close - start + LSN_FIELD.length, digits.length);
        out[out.length - 1] = '}';
        return out;
    }

    /** Adds {@code _lsn} to an image kept in a record (JSON without the stored header). */
    public static byte[] imageWithLsn(byte[] json, long lsn) {
        if (binaryImage(json)) {
            return io.tetradb.core.item.ItemJsonWriter.json(json, 0, lsn);
        }
        byte[] stored = new byte[ItemCodec.HEADER + json.length];
        System.arraycopy(json, 0, stored, ItemCodec.HEADER, json.length);
        return withLsn(stored, lsn);
    }

    /** Which records a request covers: an EPK range, one logical partition, or a hierarchical key prefix. */
    private final class Scope {
        private final EpkRange range;
        private final byte[] logicalPartition;

        Scope(ChangeFeedRequest request) {
            PartitionKeyValue pk = request.partitionKey();
            EpkRange r = request.range();
            byte[] lp = null;
            if (pk != null) {
                if (pk.levels() < levels && !pk.isNone()) {
                    EpkRange prefix = EpkRange.prefixOf(pk.epk());
                    r = new EpkRange(max(r.min(), prefix.min()), min(r.max(), prefix.max()));
                } else {
                    lp = new byte[pk.epk().length + pk.encoded().length];
                    System.arraycopy(pk.epk(), 0, lp, 0, pk.epk().length);
                    System.arraycopy(pk.encoded(), 0, lp, pk.epk().length, pk.encoded().length);
                }
            }
            this.range = r;
            this.logicalPartition = lp;
        }

        /** The first logical-partition key ({@code EPK · pk}) the scope covers. */
        byte[] fromPartition() {
            return logicalPartition != null ? logicalPartition : range.min();
        }

        /** The first logical-partition key past the scope. */
        byte[] toPartition() {
            return logicalPartition != null ? Arrays.copyOf(logicalPartition, logicalPartition.length + 1) : range.max();
        }

        boolean includes(ChangeRecord rec) {
            if (logicalPartition != null) {
                return Arrays.equals(rec.logicalPartition(), logicalPartition);
            }
            if (range.equals(EpkRange.FULL)) {
                return true;
            }
            byte[] epk = Arrays.copyOf(rec.logicalPartition(), 16 * levels);
            return range.contains(epk);
        }
    }

    private static byte[] max(byte[] a, byte[] b) {
        return EpkRange.compare(a, b) >= 0 ? a : b;
    }

    private static byte[] min(byte[] a, byte[] b) {
        return EpkRange.compare(a, b) <= 0 ? a : b;
    }

    /** For the pruner: the retention of all versions (zero: latest version only). */
    Duration retention() {
        return policy.retention();
    }

    int levels() {
        return levels;
    }
}
