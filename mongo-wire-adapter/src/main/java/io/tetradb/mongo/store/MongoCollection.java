package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.plan.LogicalPlan;
import io.tetradb.core.query.sql.Expr;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.bson.IdCodec;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.FilterTranslator;
import io.tetradb.mongo.txn.Transaction;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * One collection over its core container: every document in the collection's one logical partition, addressed by
 * its encoded {@code _id}. Writes are single-item core transactions; an update is read → compute → replace with the
 * read version's etag (so a concurrent writer in between makes it retry, never lose a write).
 */
public final class MongoCollection {
    private static final PartitionKeyValue PARTITION = PartitionKeyValue.none(1);

    private final String db;
    private final String name;
    private final ContainerStore container;
    /** The shard key field (top level, as the user names it), or null for an unsharded collection. */
    private final String shardField;
    /** Held by writers while unique secondary indexes are checked and the write applied. */
    final Object uniqueLock;
    /** The transaction this view writes into and reads through, or null (writes go straight to the core). */
    private final Transaction txn;
    /** The collection's index specs, read through {@link IndexCatalog#list}. */
    final IndexSpecCache indexSpecs;
    /** The collection's options (validator), read through {@link CollectionOptions}. */
    final CollectionOptions.OptionsCache options;
    /** False for an unjournaled view ({@code w: 1}): writes return once applied, before their WAL fsync. */
    private final boolean awaitJournal;
    /** Point finds' documents while the partition's write stamp is unchanged (shared by every view). */
    private final PointReplyCache replies;
    /**
     * A message view's writes ({@link #oneSyncPerMessage()}): applied at once, made durable together by
     * {@link #awaitMessage()}; null: each write of a journaled view waits for its own sync.
     */
    private final io.tetradb.core.store.DeferredCommits messageCommits;

    MongoCollection(String db, String name, ContainerStore container, PointReplyCache replies) {
        this.replies = replies;
        this.db = db;
        this.name = name;
        this.container = container;
        String path = container.definition().partitionKey().paths().get(0);
        this.shardField = path.equals(MongoCatalog.PARTITION_KEY_PATH) ? null
                : DocumentMapper.userName(path.substring(1));
        this.uniqueLock = new Object();
        this.txn = null;
        this.indexSpecs = new IndexSpecCache();
        this.options = new CollectionOptions.OptionsCache();
        this.awaitJournal = true;
        this.messageCommits = null;
    }

    private MongoCollection(MongoCollection base, Transaction txn, boolean awaitJournal,
                            io.tetradb.core.store.DeferredCommits messageCommits) {
        this.db = base.db;
        this.name = base.name;
        this.container = base.container;
        this.shardField = base.shardField;
        this.uniqueLock = base.uniqueLock;
        this.txn = txn;
        this.indexSpecs = base.indexSpecs;
        this.options = base.options;
        this.awaitJournal = awaitJournal;
        this.replies = base.replies;
        this.messageCommits = messageCommits;
    }

    /**
     * This collection for a write concern that does not ask for the journal ({@code w: 1} or {@code j: false}):
     * MongoDB acknowledges such writes once applied and commits its journal within 100 ms; so does this view (the
     * core syncs within 100 ms). Transactions always commit durably.
     */
    public MongoCollection unjournaled() {
        return txn != null || !awaitJournal ? this : new MongoCollection(this, null, false, null);
    }

    /**
     * This view for one {@code update} or {@code delete} message: journaled and outside a transaction, its
     * single-item writes are applied (visible) one after another and made durable together by one WAL sync in
     * {@link #awaitMessage()}, which the caller must call (in a {@code finally}) before it replies; the core's lazy
     * syncer leaves them to that sync. An unjournaled view or a transaction's is returned as it is.
     */
    public MongoCollection oneSyncPerMessage() {
        return txn != null || !awaitJournal || messageCommits != null ? this
                : new MongoCollection(this, null, true, container.awaitedCommits());
    }

    /** Returns once every write of this message view is durable (one WAL sync); nothing for any other view. */
    public void awaitMessage() {
        if (messageCommits != null) {
            messageCommits.awaitDurable();
        }
    }

    /** A single-item write: waiting for its fsync unless this view is unjournaled or a message's. */
    private ItemResult write(PartitionKeyValue pk, ItemOperation op) {
        // --storage cassandra: a write that lost its partition to another server is run again, as MongoDB retries
        return io.tetradb.core.store.PartitionRaceRetry.run(() -> messageCommits != null
                ? container.execute(pk, op, messageCommits)
                : awaitJournal ? container.execute(pk, op) : container.execute(pk, op, container.deferredCommits()));
    }

    /**
     * This collection as {@code txn} sees it: writes are buffered in the transaction (applied at its commit as one
     * core batch), reads show the transaction's own writes over the committed documents.
     */
    public MongoCollection in(Transaction txn) {
        return txn == null ? this : new MongoCollection(this, txn, true, null);
    }

    /** True for a view writing into a transaction (its writes reach the core at the commit). */
    public boolean inTransaction() {
        return txn != null;
    }

    /** The shard key field, or null when the collection is unsharded (one logical partition). */
    public String shardField() {
        return shardField;
    }

    /** The logical partition an item goes to; ShardKeyNotFound (61) when a sharded collection's key is missing. */
    private PartitionKeyValue partitionOf(BsonDocument doc, ObjectNode item) {
        if (shardField == null) {
            return PARTITION;
        }
        if (!doc.containsKey(shardField)) {
            throw new MongoError(ErrorCode.SHARD_KEY_NOT_FOUND, "document does not contain shard key for pattern { "
                    + shardField + ": \"hashed\" }");
        }
        return container.partitionKeyOf(item);
    }

    /** Writers of a collection with unique indexes hold this while they check and write. */
    public Object uniqueLock() {
        return uniqueLock;
    }

    public ContainerStore container() {
        return container;
    }

    public String database() {
        return db;
    }

    /** The namespace a reply names, {@code db.collection}. */
    private String ns() {
        return db + "." + name;
    }

    public String name() {
        return name;
    }

    public String namespace() {
        return db + "." + name;
    }

    /** The current version of a document read before (same partition and id), or null if it is gone. */
    public StoredDoc reread(StoredDoc old, double[] charge) {
        Transaction.Pending p = txn == null ? null : txn.pending(this, old.partition(), old.id());
        if (p != null) {
            return p.doc() == null ? null : new StoredDoc(p.view(), old.id(), old.etag(), old.partition());
        }
        try {
            ItemResult r = container.read(old.partition(), old.id(), null);
            charge[0] += r.requestCharge();
            return new StoredDoc(DocumentMapper.fromStored(container.codec(), r.stored()), old.id(), r.etag(),
                    old.partition());
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    /**
     * A point find's whole reply in {@code ns}: {@code wrap} of the document stored under core id {@code id}
     * (unsharded, outside a transaction; null when there is none), or null when {@code wrap} gives null. The
     * document is the bytes a reply copies ({@link io.tetradb.mongo.bson.BinaryItemRawBson}, immutable) where the
     * item allows; a reply in bytes is kept ({@link PointReplyCache}), so a hit reads, transcodes and builds nothing.
     * {@code wrap} must depend on nothing but the document, {@code id} and {@code ns}.
     */
    public BsonDocument readPointReply(String id, String ns,
                                       java.util.function.Function<BsonDocument, BsonDocument> wrap, double[] charge) {
        long stamp = replies.stampBeforeRead(container, PARTITION, id); // before the read (see PointReplyCache)
        org.bson.RawBsonDocument cached = replies.get(container, PARTITION, id, ns, stamp, charge);
        if (cached != null) {
            return cached;
        }
        ItemResult r;
        try {
            r = container.read(PARTITION, id, null);
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return wrap.apply(null);
            }
            throw e;
        }
        charge[0] += r.requestCharge();
        BsonDocument doc = DocumentMapper.fromStoredForReply(container.codec(), r.stored());
        BsonDocument reply = wrap.apply(doc);
        if (doc instanceof org.bson.RawBsonDocument && reply instanceof org.bson.RawBsonDocument raw) {
            replies.put(container, PARTITION, id, ns, stamp, raw, r.requestCharge());
        }
        return reply;
    }

    /** The document with this {@code _id}, or null (the first found, in a sharded collection). */
    public StoredDoc findById(BsonValue id, double[] charge) {
        DocStream s = candidates(new BsonDocument("_id", id));
        StoredDoc d = s.hasNext() ? s.next() : null;
        charge[0] += s.takeRequestCharge();
        return d;
    }

    /** Inserts a document (with its {@code _id}); DuplicateKey (11000) if the {@code _id} exists. */
    public double insert(BsonDocument doc) {
        return insertMapped(doc, null);
    }

    /**
     * As {@link #insert(BsonDocument)}, with the document's create already mapped ({@code mapped}: bounds-fold, the
     * insert command's transcode that checked it) or, when null, mapped here.
     */
    public double insertMapped(BsonDocument doc, ItemOperation mapped) {
        // encoded-writes: the item straight from the wire bytes where it can (no tree)
        ItemOperation op = mapped != null ? mapped : DocumentMapper.createOperation(doc, container.codec());
        if (txn == null) {
            return insert(doc, op);
        }
        PartitionKeyValue pk = op.item() != null ? partitionOf(doc, op.item()) : partitionOf(doc, op.encoded());
        String id = op.item() != null ? op.item().get("id").asText() : op.encoded().field("id").asText();
        return insertInTransaction(doc, pk, id, op);
    }

    /** encoded-writes: the partition of an encoded item, read from its key fields only. */
    private PartitionKeyValue partitionOf(BsonDocument doc, io.tetradb.core.store.EncodedItem item) {
        return shardField == null ? PARTITION
                : partitionOf(doc, item.keyFields(container.definition().partitionKey()));
    }

    /** encoded-writes: inserts {@code doc} by {@code op}, its create (as {@link DocumentMapper#createOperation}). */
    private double insert(BsonDocument doc, ItemOperation op) {
        return insert(doc, op, null);
    }

    /**
     * As {@link #insert(BsonDocument, ItemOperation)}; {@code asIsId}, when not null, the core id of a document whose
     * item reads back as exactly its bytes: kept as its point find's reply ({@link PointReplyCache#putInserted}).
     */
    private double insert(BsonDocument doc, ItemOperation op, String asIsId) {
        PartitionKeyValue pk = op.item() != null ? partitionOf(doc, op.item()) : partitionOf(doc, op.encoded());
        long before = asIsId == null || shardField != null ? -1 : replies.stampBeforeRead(container, pk, asIsId);
        try {
            ItemResult written = write(pk, op);
            if (before >= 0) {
                replies.putInserted(container, pk, asIsId, ns(), before, doc, written);
            }
            return written.requestCharge();
        } catch (io.tetradb.core.unique.UniqueIndexViolation v) {
            throw MongoUniqueIndexes.duplicate(this, v); // a unique index the core keeps
        } catch (StoreException e) {
            if (e.status() == Status.CONFLICT) {
                throw duplicateId(doc.get("_id"));
            }
            throw e;
        }
    }

    private double insertInTransaction(BsonDocument doc, PartitionKeyValue pk, String id, ItemOperation create) {
        Transaction.Pending p = txn.pending(this, pk, id);
        double charge = 0;
        if (p == null) {
            try {
                charge = container.read(pk, id, null).requestCharge();
                throw duplicateId(doc.get("_id"));
            } catch (StoreException e) {
                if (e.status() != Status.NOT_FOUND) {
                    throw e;
                }
            }
        } else if (p.doc() != null) {
            throw duplicateId(doc.get("_id"));
        }
        // encoded-writes: the wire bytes are kept (reads get a copy of their own: Pending.view) and the commit
        // applies this create; a later update of the document replaces both
        txn.write(this, pk, id, doc, p == null ? null : p.baseEtag(), create);
        return charge;
    }

    /**
     * Inserts documents (each with its {@code _id}) in core transactional batches, all made durable by one fsync
     * before this returns (instead of one per document or per batch). Returns, per document, null when it was inserted or its error. A batch the core
     * refuses as a whole (a duplicate, a too-large document) is retried document by document, so every document gets
     * its own outcome exactly as single inserts would give; with {@code ordered} nothing after the first failure is
     * written.
     */
    public List<RuntimeException> insertAll(List<BsonDocument> docs, boolean ordered, double[] charge) {
        return insertAll(docs, null, null, ordered, charge);
    }

    /**
     * As {@link #insertAll(List, boolean, double[])}, with some documents' creates already mapped ({@code mapped},
     * aligned with {@code docs}, null entries mapped here; null: none) and, for those whose items read back as exactly
     * their bytes, their core ids ({@code asIs}, aligned too, null entries and null for none): an inserted document of
     * those is kept as its point find's reply ({@link PointReplyCache#putInserted}).
     */
    public List<RuntimeException> insertAll(List<BsonDocument> docs, List<ItemOperation> mapped, List<String> asIs,
                                            boolean ordered, double[] charge) {
        java.util.function.IntFunction<ItemOperation> premapped = k -> mapped == null ? null : mapped.get(k);
        // an as-is id belongs to its premapped create: a document mapped here has none
        java.util.function.IntFunction<String> asIsId = k -> asIs == null || shardField != null
                || premapped.apply(k) == null ? null : asIs.get(k);
        List<RuntimeException> outcome = new ArrayList<>(java.util.Collections.nCopies(docs.size(), null));
        if (txn != null) {
            // buffered in the transaction one by one; a TransactionError ends the whole command
            for (int k = 0; k < docs.size(); k++) {
                io.tetradb.mongo.command.Interruption.check(); // killed or out of time: the command fails whole
                try {
                    charge[0] += insertMapped(docs.get(k), premapped.apply(k));
                } catch (MongoError | StoreException e) {
                    outcome.set(k, e);
                    if (ordered) {
                        for (int rest = k + 1; rest < docs.size(); rest++) {
                            outcome.set(rest, SKIPPED);
                        }
                        break;
                    }
                }
            }
            return outcome;
        }
        // the batches are applied one after another and made durable together (one fsync), before the reply; journaled,
        // they are promised to that fsync, so the core's lazy syncer leaves them to it
        io.tetradb.core.store.DeferredCommits commits = awaitJournal ? container.awaitedCommits()
                : container.deferredCommits();
        try {
            return insertBatches(docs, premapped, asIsId, ordered, charge, outcome, commits);
        } finally {
            if (awaitJournal) {
                commits.awaitDurable();
            }
        }
    }

    private List<RuntimeException> insertBatches(List<BsonDocument> docs,
                                                 java.util.function.IntFunction<ItemOperation> premapped,
                                                 java.util.function.IntFunction<String> asIs,
                                                 boolean ordered, double[] charge,
                                                 List<RuntimeException> outcome,
                                                 io.tetradb.core.store.DeferredCommits commits) {
        int maxOps = shardField == null ? 100 : 1; // the core's batch limit; a batch is one logical partition
        int i = 0;
        while (i < docs.size()) {
            // between two core batches (a batch is one core transaction): a killed command, or one past its
            // maxTimeMS, stops here and fails whole, and what the batches before wrote stays written (as on mongod)
            io.tetradb.mongo.command.Interruption.check();
            List<ItemOperation> ops = new ArrayList<>();
            int bytes = 0;
            int start = i;
            try {
                while (i < docs.size() && ops.size() < maxOps) {
                    ItemOperation op = premapped.apply(i);
                    if (op == null) {
                        op = DocumentMapper.createOperation(docs.get(i), container.codec()); // write-path
                    }
                    // the encoded item's size where there is one (no second look at the document's bytes)
                    int size = (op.encoded() != null ? op.encoded().bodyLength() : approxSize(docs.get(i)))
                            + 200; // + the core's system properties
                    if (!ops.isEmpty() && bytes + size > BATCH_BYTES) {
                        break;
                    }
                    ops.add(op);
                    bytes += size;
                    i++;
                }
            } catch (RuntimeException badDocument) {
                // this document cannot even be mapped: the ones before it go as a batch, then it fails alone
            }
            boolean applied = false;
            if (ops.size() > 1 && shardField == null) {
                try {
                    long[] before = replies.stampsBeforeInserts(container, PARTITION, start, ops.size(), asIs);
                    List<ItemResult> results = container.executeBatch(PARTITION, ops, commits);
                    applied = results.stream().allMatch(ItemResult::isSuccess);
                    String ns = before == null ? null : ns();
                    if (applied) {
                        for (int k = 0; k < results.size(); k++) {
                            ItemResult r = results.get(k);
                            charge[0] += r.requestCharge();
                            if (before != null && before[k] >= 0) {
                                replies.putInserted(container, PARTITION, asIs.apply(start + k), ns, before[k],
                                        docs.get(start + k), r);
                            }
                        }
                    }
                } catch (StoreException refused) {
                    applied = false;
                }
            }
            if (!applied) {
                int end = Math.max(i, start + 1);
                for (int k = start; k < end; k++) {
                    if (k > start) {
                        io.tetradb.mongo.command.Interruption.check(); // written one by one: between documents
                    }
                    try {
                        // encoded-writes: a document already mapped is written by its operation, not mapped again
                        charge[0] += k - start < ops.size() ? insert(docs.get(k), ops.get(k - start), asIs.apply(k))
                                : insertMapped(docs.get(k), premapped.apply(k));
                    } catch (RuntimeException e) {
                        outcome.set(k, e);
                        if (ordered) {
                            for (int rest = k + 1; rest < docs.size(); rest++) {
                                outcome.set(rest, SKIPPED);
                            }
                            return outcome;
                        }
                    }
                }
                i = end;
            }
        }
        return outcome;
    }

    /** About the stored size of a document (its JSON with system properties): enough to cut batches below 2 MB. */
    public static int approxSize(BsonValue v) {
        if (v instanceof org.bson.RawBsonDocument raw) { // an insert's document in its wire bytes: their size
            return raw.getByteBuffer().remaining();
        }
        if (v instanceof io.tetradb.mongo.bson.UncheckedRawDocument raw) { // its size field, without a walk
            return raw.byteSize();
        }
        return switch (v.getBsonType()) {
            case DOCUMENT -> {
                int n = 2;
                for (java.util.Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
                    n += e.getKey().length() + 4 + approxSize(e.getValue());
                }
                yield n;
            }
            case ARRAY -> {
                int n = 2;
                for (BsonValue x : v.asArray()) {
                    n += 1 + approxSize(x);
                }
                yield n;
            }
            case STRING -> 2 + v.asString().getValue().length() * 3 / 2;
            case BINARY -> 64 + v.asBinary().getData().length * 4 / 3;
            default -> 48;
        };
    }

    /** Marks documents an ordered insert did not reach. */
    public static final RuntimeException SKIPPED = new RuntimeException("not attempted") {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    /** Below the core's 2 MB batch limit, counting the system properties the core adds. */
    private static final int BATCH_BYTES = 1_500_000;

    /**
     * Replaces the version {@code old} read with {@code next} (same {@code _id}); false if another write came
     * between (the caller reads again and retries).
     */
    public boolean replace(StoredDoc old, BsonDocument next, double[] charge) {
        return replace(old, next, charge, false);
    }

    /** As {@link #replace(StoredDoc, BsonDocument, double[])}; a replacement is marked for change streams. */
    public boolean replace(StoredDoc old, BsonDocument next, double[] charge, boolean replacement) {
        ObjectNode item = DocumentMapper.toItem(next);
        if (replacement) {
            item.put(DocumentMapper.REPLACED, true);
        }
        if (!partitionOf(next, item).equals(old.partition())) {
            throw new MongoError(ErrorCode.IMMUTABLE_FIELD, "the shard key field '" + shardField
                    + "' cannot be changed");
        }
        if (txn != null) {
            txn.write(this, old.partition(), old.id(), next, old.etag());
            return true;
        }
        try {
            charge[0] += write(old.partition(), ItemOperation.replace(old.id(), item, old.etag())).requestCharge();
            return true;
        } catch (io.tetradb.core.unique.UniqueIndexViolation v) {
            throw MongoUniqueIndexes.duplicate(this, v); // a unique index the core keeps
        } catch (StoreException e) {
            if (e.status() == Status.PRECONDITION_FAILED || e.status() == Status.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /** Deletes the version read; false if it changed or went away meanwhile. */
    public boolean delete(StoredDoc old, double[] charge) {
        if (txn != null) {
            txn.write(this, old.partition(), old.id(), null, old.etag());
            return true;
        }
        try {
            charge[0] += write(old.partition(), ItemOperation.delete(old.id(), old.etag())).requestCharge();
            return true;
        } catch (StoreException e) {
            if (e.status() == Status.PRECONDITION_FAILED || e.status() == Status.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /** The documents {@code filter} may match, found through the core's planner (index seeks where it can). */
    public DocStream candidates(BsonDocument filter) {
        return candidates(filter, io.tetradb.mongo.query.BsonOrder.INSTANCE);
    }

    /** As {@link #candidates(BsonDocument)} for a query compared with {@code order} (a collation's). */
    public DocStream candidates(BsonDocument filter, io.tetradb.mongo.query.BsonOrder order) {
        if (!order.isSimple()) {
            filter = FilterTranslator.withoutStringComparisons(filter);
        }
        BsonValue id = filter.size() == 1 ? filter.get("_id") : null;
        if (id != null && id.isDocument() && id.asDocument().size() == 1 && id.asDocument().containsKey("$eq")) {
            id = id.asDocument().get("$eq");
        }
        if (shardField == null && id != null && !id.isDocument() && !id.isArray() && !id.isRegularExpression()) {
            return withOverlay(DocStream.point(container, PARTITION, IdCodec.encode(id)));
        }
        // a sharded collection: the planner routes to the partitions the shard key's equality pins, else fans out
        return withOverlay(new DocStream(container, shardField == null ? PARTITION : null, plan(filter, shardField)));
    }

    private DocStream withOverlay(DocStream s) {
        return txn == null ? s : s.overlay(txn, this);
    }

    static LogicalPlan plan(BsonDocument filter, String shardField) {
        Expr c = new Expr.Identifier(FilterTranslator.ALIAS);
        LogicalPlan plan = new LogicalPlan.Scan();
        plan = new LogicalPlan.Unwind(plan, FilterTranslator.ALIAS, new Expr.Identifier(LogicalPlan.ITEM), false);
        Expr condition = FilterTranslator.translate(filter, shardField);
        if (condition != null) {
            plan = new LogicalPlan.Filter(plan, condition);
        }
        return new LogicalPlan.Project(plan, new Projection.Value(c), FilterTranslator.ALIAS);
    }

    /** MongoDB's E11000 for the {@code _id_} index: {@code … collection: db.c index: _id_ dup key: { _id: 1 }}. */
    MongoError duplicateId(BsonValue id) {
        return IndexCatalog.duplicateKey(this, new BsonDocument("key", new BsonDocument("_id", new BsonInt32(1)))
                .append("name", new org.bson.BsonString("_id_")), new BsonDocument("_id", id));
    }
}
