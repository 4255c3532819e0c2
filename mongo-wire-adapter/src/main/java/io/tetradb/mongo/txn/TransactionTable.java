package io.tetradb.mongo.txn;

import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.SessionId;
import io.tetradb.mongo.command.SessionOwner;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The server's transactions: the current one of every session (by {@code lsid}) and which open transaction wrote
 * which document first. A second transaction writing the same document gets WriteConflict at once (MongoDB's rule:
 * the first writer wins, the other retries the whole transaction). A transaction older than the lifetime limit
 * (60 s, MongoDB's {@code transactionLifetimeLimitSeconds}) is aborted when next touched and owns nothing.
 */
public final class TransactionTable {
    static final long LIFETIME_NANOS = 60_000_000_000L;

    /** A document of one logical partition of a collection. */
    record DocKey(String namespace, PartitionKeyValue partition, String id) {
    }

    /** Each session's current transaction; a session is its lsid.id and its user, as mongod keys it. */
    private final Map<SessionId, Transaction> sessions = new HashMap<>();
    /** Written documents → their transaction; concurrent so claims never take the table's lock (no lock order). */
    private final Map<DocKey, Transaction> owners = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The transaction a command of {@code owner} runs in: started by {@code startTransaction: true}, continued by
     * {@code autocommit: false}; null for a command outside transactions. NoSuchTransaction (251) for an unknown or
     * finished one, and for another user's session of the same {@code lsid.id}.
     */
    public Transaction forCommand(BsonDocument command, SessionOwner owner) {
        BsonValue autocommit = command.get("autocommit");
        if (autocommit == null || !autocommit.isBoolean() || autocommit.asBoolean().getValue()) {
            return null;
        }
        BsonDocument lsid = lsid(command);
        SessionId session = new SessionId(lsid.get("id"), owner);
        long txnNumber = txnNumber(command);
        if (!command.getBoolean("startTransaction", org.bson.BsonBoolean.FALSE).getValue()) {
            Transaction current;
            synchronized (this) {
                current = sessions.get(session);
            }
            if (current == null || current.txnNumber() != txnNumber || current.state() != Transaction.State.ACTIVE) {
                throw TransactionError.noSuchTransaction(txnNumber, "is not in progress for this session");
            }
            return current;
        }
        Transaction t = new Transaction(lsid, txnNumber, this);
        java.util.List<Transaction> ended = new java.util.ArrayList<>();
        synchronized (this) {
            Transaction current = sessions.get(session);
            if (current != null && current.txnNumber() >= txnNumber) {
                throw new TransactionError(ErrorCode.BAD_VALUE, "txnNumber " + txnNumber + " was already used by "
                        + "this session", false);
            }
            if (current != null) {
                ended.add(current);
            }
            sweepExpired(ended);
            sessions.put(session, t);
        }
        // aborted outside the table's lock: a transaction's lock is never taken while holding the table's
        ended.forEach(Transaction::abort);
        return t;
    }

    /** commitTransaction: applies the session's transaction (again OK if it already committed). */
    public void commit(BsonDocument command, SessionOwner owner) {
        find(command, owner).commit();
    }

    /** abortTransaction: discards the session's transaction. */
    public void abort(BsonDocument command, SessionOwner owner) {
        Transaction t = find(command, owner);
        if (t.state() == Transaction.State.COMMITTED) {
            throw new TransactionError(ErrorCode.BAD_VALUE, "Cannot abort a transaction that has been committed",
                    false);
        }
        t.abort();
    }

    /** endSessions / killSessions: their open transactions are aborted. */
    public void endSession(SessionId session) {
        Transaction t;
        synchronized (this) {
            t = sessions.remove(session);
        }
        if (t != null) {
            t.abort();
        }
    }

    /**
     * killSessions, killAllSessions, killAllSessionsByPattern: the sessions {@code which} selects (by lsid.id and
     * the user they belong to) end, their open transactions aborted.
     */
    public void endSessionsWhere(java.util.function.BiPredicate<BsonValue, SessionOwner> which) {
        java.util.List<Transaction> ended = new java.util.ArrayList<>();
        synchronized (this) {
            for (Iterator<Map.Entry<SessionId, Transaction>> it = sessions.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<SessionId, Transaction> e = it.next();
                if (which.test(e.getKey().id(), e.getKey().owner())) {
                    ended.add(e.getValue());
                    it.remove();
                }
            }
        }
        ended.forEach(Transaction::abort); // outside the table's lock, as everywhere here
    }

    private Transaction find(BsonDocument command, SessionOwner owner) {
        SessionId session = new SessionId(lsid(command).get("id"), owner);
        long txnNumber = txnNumber(command);
        Transaction t;
        synchronized (this) {
            t = sessions.get(session);
        }
        if (t == null || t.txnNumber() != txnNumber || t.state() == Transaction.State.ABORTED) {
            throw TransactionError.noSuchTransaction(txnNumber, "is not in progress for this session");
        }
        return t;
    }

    /** Records that {@code t} writes {@code key}; WriteConflict if another open transaction wrote it first. */
    void claim(DocKey key, Transaction t) {
        owners.compute(key, (k, owner) -> {
            if (owner != null && owner != t && owner.state() == Transaction.State.ACTIVE && !expired(owner)) {
                throw TransactionError.writeConflict("another transaction is writing document " + key.id());
            }
            return t;
        });
    }

    void release(Transaction t) {
        owners.values().removeIf(owner -> owner == t);
    }

    boolean expired(Transaction t) {
        return System.nanoTime() - t.startedNanos() > LIFETIME_NANOS;
    }

    private void sweepExpired(java.util.List<Transaction> ended) {
        for (Iterator<Map.Entry<SessionId, Transaction>> it = sessions.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<SessionId, Transaction> e = it.next();
            if (expired(e.getValue())) {
                ended.add(e.getValue());
                it.remove();
            }
        }
    }

    private static BsonDocument lsid(BsonDocument command) {
        BsonValue v = command.get("lsid");
        if (v == null || !v.isDocument()) {
            throw new TransactionError(ErrorCode.INVALID_OPTIONS, "a transaction needs a session (lsid)", false);
        }
        return v.asDocument();
    }

    private static long txnNumber(BsonDocument command) {
        BsonValue v = command.get("txnNumber");
        if (v == null || !v.isNumber()) {
            throw new TransactionError(ErrorCode.INVALID_OPTIONS, "a transaction needs a txnNumber", false);
        }
        return v.asNumber().longValue();
    }
}
