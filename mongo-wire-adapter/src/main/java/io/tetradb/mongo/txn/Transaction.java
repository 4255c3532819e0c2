package io.tetradb.mongo.txn;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import org.bson.BsonDocument;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One multi-document transaction of a session: its writes, buffered until commit and then applied as ONE core
 * transactional batch. The core's batches address one logical partition of one container, so every write of a
 * transaction must fall in the logical partition its first write chose (an unsharded collection is one partition;
 * a sharded collection's writes must share the shard key value). Each buffered write remembers the etag of the
 * version it started from (null: the document did not exist), so the batch fails as a whole if anyone else changed
 * one of those documents meanwhile.
 */
public final class Transaction {
    /**
     * The core's transactional batch limits (operations; bytes kept below its 2 MB with room for system fields). A
     * transaction writing one document may write one of any size: the core's batch always holds one item.
     */
    static final int MAX_WRITES = 100;
    static final int MAX_BYTES = 1_500_000;

    enum State { ACTIVE, COMMITTED, ABORTED, COMMIT_UNKNOWN }

    /** A buffered write: the document's next content (null: deleted) and the etag it started from. */
    public record Pending(BsonDocument doc, String baseEtag, ItemOperation create) {
        /**
         * encoded-writes: the document as a read sees it, a copy of its own when it is still an insert's wire bytes
         * (immutable; the reader's update may change its copy in place, and writes it back).
         */
        public BsonDocument view() {
            return doc instanceof org.bson.RawBsonDocument raw ? raw.decode(new org.bson.codecs.BsonDocumentCodec())
                    : doc;
        }
    }

    private final BsonDocument lsid;
    private final long txnNumber;
    private final long startedNanos = System.nanoTime();
    private final TransactionTable table;
    private volatile State state = State.ACTIVE;
    private MongoCollection collection;
    private PartitionKeyValue partition;
    private final Map<String, Pending> writes = new LinkedHashMap<>();

    Transaction(BsonDocument lsid, long txnNumber, TransactionTable table) {
        this.lsid = lsid;
        this.txnNumber = txnNumber;
        this.table = table;
    }

    public long txnNumber() {
        return txnNumber;
    }

    BsonDocument lsid() {
        return lsid;
    }

    long startedNanos() {
        return startedNanos;
    }

    State state() {
        return state;
    }

    /** Whether reads of {@code coll}'s {@code partition} must see this transaction's writes. */
    public synchronized boolean covers(MongoCollection coll, PartitionKeyValue pk) {
        return collection != null && collection.namespace().equals(coll.namespace())
                && (pk == null || partition.equals(pk));
    }

    /** The buffered write of document {@code id} of {@code coll}, or null if the transaction did not write it. */
    public synchronized Pending pending(MongoCollection coll, PartitionKeyValue pk, String id) {
        return covers(coll, pk) ? writes.get(id) : null;
    }

    /** The documents this transaction inserted (they are not in the core yet), as the reads see them. */
    public synchronized List<StoredDoc> inserted(MongoCollection coll) {
        List<StoredDoc> out = new ArrayList<>();
        if (covers(coll, null)) {
            for (Map.Entry<String, Pending> e : writes.entrySet()) {
                if (e.getValue().doc() != null && e.getValue().baseEtag() == null) {
                    out.add(new StoredDoc(e.getValue().view(), e.getKey(), null, partition));
                }
            }
        }
        return out;
    }

    /**
     * Buffers a write of document {@code id}: {@code doc} (null: delete) replacing the version with {@code baseEtag}
     * (null: it did not exist). Fails if the write leaves the transaction's logical partition, if another open
     * transaction wrote the document first (WriteConflict, as MongoDB's first writer wins) or past the batch limits.
     */
    public synchronized void write(MongoCollection coll, PartitionKeyValue pk, String id, BsonDocument doc,
                                   String baseEtag) {
        write(coll, pk, id, doc, baseEtag, null);
    }

    /**
     * encoded-writes: as {@link #write(MongoCollection, PartitionKeyValue, String, BsonDocument, String)}, for an
     * insert whose create operation (its item encoded from the wire bytes) is already made: the commit applies it.
     */
    public synchronized void write(MongoCollection coll, PartitionKeyValue pk, String id, BsonDocument doc,
                                   String baseEtag, ItemOperation create) {
        checkActive();
        if (collection == null) {
            collection = coll;
            partition = pk;
        } else if (!collection.namespace().equals(coll.namespace()) || !partition.equals(pk)) {
            throw new TransactionError(ErrorCode.OPERATION_NOT_SUPPORTED_IN_TRANSACTION, "a transaction must write "
                    + "within one logical partition (one unsharded collection, or one shard key value of a sharded "
                    + "collection): it wrote " + collection.namespace() + describe(collection, partition)
                    + " and now writes " + coll.namespace() + describe(coll, pk), false);
        }
        Pending before = writes.get(id);
        if (before == null && writes.size() >= MAX_WRITES) {
            throw new TransactionError(ErrorCode.TRANSACTION_TOO_LARGE, "a transaction writes at most " + MAX_WRITES
                    + " documents (one core transactional batch)", false);
        }
        table.claim(new TransactionTable.DocKey(coll.namespace(), pk, id), this);
        writes.put(id, new Pending(doc, before != null ? before.baseEtag() : baseEtag, create));
        if (writes.size() > 1 && bytes() > MAX_BYTES) {
            throw new TransactionError(ErrorCode.TRANSACTION_TOO_LARGE, "the documents a transaction writes must "
                    + "fit one core transactional batch (about " + MAX_BYTES + " bytes)", false);
        }
    }

    private static String describe(MongoCollection coll, PartitionKeyValue pk) {
        return coll.shardField() == null ? "" : " (shard key " + coll.shardField() + " = " + pk + ")";
    }

    private int bytes() {
        int n = 0;
        for (Pending p : writes.values()) {
            n += p.doc() == null ? 64 : MongoCollection.approxSize(p.doc()) + 200;
        }
        return n;
    }

    private void checkActive() {
        if (state == State.ACTIVE && table.expired(this)) {
            abort();
            throw new TransactionError(ErrorCode.NO_SUCH_TRANSACTION, "Transaction with txnNumber " + txnNumber
                    + " has been aborted: it ran past the transaction lifetime limit", true);
        }
        if (state != State.ACTIVE) {
            throw TransactionError.noSuchTransaction(txnNumber, "has been " + state.name().toLowerCase());
        }
    }

    /** Applies every buffered write as one core transactional batch, or none of them (then aborts). */
    synchronized void commit() {
        if (state == State.COMMITTED) {
            return; // a retried commitTransaction
        }
        if (state == State.COMMIT_UNKNOWN) { // a retried commit learns no more; unlabelled, so the driver stops
            throw TransactionError.commitStillUnknown(txnNumber);
        }
        checkActive();
        try {
            List<ItemOperation> ops = new ArrayList<>();
            for (Map.Entry<String, Pending> e : writes.entrySet()) {
                Pending p = e.getValue();
                if (p.doc() == null) {
                    if (p.baseEtag() != null) {
                        ops.add(ItemOperation.delete(e.getKey(), p.baseEtag()));
                    }
                } else if (p.baseEtag() == null) {
                    ops.add(p.create() != null ? p.create() : ItemOperation.create(DocumentMapper.toItem(p.doc())));
                } else {
                    ops.add(ItemOperation.replace(e.getKey(), DocumentMapper.toItem(p.doc()), p.baseEtag()));
                }
            }
            if (!ops.isEmpty()) {
                List<ItemResult> results;
                try {
                    // --storage cassandra: a commit that lost its partition to another server is run again (its
                    // operations' etags still decide: a document changed meanwhile fails it as a write conflict)
                    results = io.tetradb.core.store.PartitionRaceRetry.run(
                            () -> collection.container().executeBatch(partition, ops));
                } catch (io.tetradb.core.storage.WriteOutcomeUnknownException e) {
                    // --storage cassandra: the batch may have applied. mongod's answer to a commit it cannot confirm:
                    // the UnknownTransactionCommitResult label; never "aborted" (the driver would run it all again)
                    state = State.COMMIT_UNKNOWN;
                    writes.clear();
                    table.release(this);
                    throw TransactionError.unknownCommitResult(e.getMessage());
                } catch (io.tetradb.core.throughput.RequestRateTooLargeException e) {
                    // Cosmos DB's API for MongoDB: 16500 with the wait; nothing was applied, so the whole transaction
                    // may be retried (TransientTransactionError, which withTransaction acts on)
                    throw new TransactionError(ErrorCode.REQUEST_RATE_TOO_LARGE,
                            io.tetradb.mongo.command.MongoErrors.of(e).getMessage(), true);
                } catch (io.tetradb.core.storage.StorageUnavailableException e) {
                    // --storage cassandra: refused before anything applied (too few replicas, a read timed out): the
                    // whole transaction may be run again, as after mongod's retriable errors in a transaction
                    throw new TransactionError(ErrorCode.PRIMARY_STEPPED_DOWN, e.getMessage(), true);
                } catch (StoreException e) {
                    throw new TransactionError(e.status() == Status.REQUEST_ENTITY_TOO_LARGE
                            || e.status() == Status.BAD_REQUEST ? ErrorCode.TRANSACTION_TOO_LARGE
                            : ErrorCode.OPERATION_FAILED, "the transaction's batch was refused: " + e.getMessage(),
                            false);
                }
                for (ItemResult r : results) {
                    if (!r.isSuccess() && r.status() != Status.FAILED_DEPENDENCY) {
                        if (r.status() == Status.PRECONDITION_FAILED || r.status() == Status.CONFLICT
                                || r.status() == Status.NOT_FOUND) {
                            throw TransactionError.writeConflict("document " + r.id() + " was changed by another "
                                    + "operation after this transaction read it");
                        }
                        throw new TransactionError(r.status() == Status.REQUEST_ENTITY_TOO_LARGE
                                ? ErrorCode.TRANSACTION_TOO_LARGE : ErrorCode.OPERATION_FAILED,
                                "the transaction's batch failed: " + r.error(), false);
                    }
                }
            }
            state = State.COMMITTED;
            table.release(this);
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Discards every buffered write. */
    synchronized void abort() {
        if (state == State.ACTIVE) {
            state = State.ABORTED;
            writes.clear();
            table.release(this);
        }
    }
}
