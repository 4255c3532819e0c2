package io.tetradb.mongo.command;

import org.bson.BsonDocument;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Open cursors by id. A cursor is a query or pipeline part-read; it holds the core's continuation and no storage
 * resources, so an abandoned one costs only memory. What bounds that memory ({@link CursorLimits}): the idle timeout
 * (MongoDB's 10 minutes; the next getMore is CursorNotFound), a cap on open cursors (opening one more closes the
 * least recently used: a client that opens cursors without reading them to the end — a fuzzer did, 250,000
 * commands — had grown the live heap by 420 MB; MongoDB keeps such cursors in its storage engine's cache instead),
 * the end of the connection for a cursor opened without a session, and the end of its session otherwise.
 */
final class Cursors {
    /**
     * Who opens a cursor: the connection, and the session ({@code lsid.id}) or null; whether that connection has closed
     * (a command queued on it may finish after its close, and must not leave a cursor nothing can reach); the
     * transaction's {@code txnNumber} when it was opened in one, else null (its getMores must name the same one).
     */
    record Owner(int connection, org.bson.BsonValue session, java.util.function.BooleanSupplier connectionClosed,
                 SessionOwner user, Long txnNumber) {
        Owner(int connection, org.bson.BsonValue session, java.util.function.BooleanSupplier connectionClosed,
              SessionOwner user) {
            this(connection, session, connectionClosed, user, null);
        }

        Owner(int connection, org.bson.BsonValue session, java.util.function.BooleanSupplier connectionClosed) {
            this(connection, session, connectionClosed, SessionOwner.UNAUTHENTICATED);
        }

        Owner(int connection, org.bson.BsonValue session) {
            this(connection, session, () -> false);
        }

        /** A cursor of this owner can no longer be continued: opened without a session on a closed connection. */
        boolean orphaned() {
            return session == null && connectionClosed.getAsBoolean();
        }
    }

    /** The command running on this thread's owner (set by the dispatcher around each command). */
    private static final ThreadLocal<Owner> RUNNING_FOR = new ThreadLocal<>();
    private static final java.util.concurrent.atomic.AtomicLong TOUCHES = new java.util.concurrent.atomic.AtomicLong();
    private final CursorLimits limits;
    private final Map<Long, Cursor> open = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final java.util.concurrent.atomic.LongAdder totalOpened = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder timedOut = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder moreThanOneBatch = new java.util.concurrent.atomic.LongAdder();
    /** Document bytes the open cursors hold between batches (each cursor's last measure); guarded by {@code this}. */
    private long heldBytes;

    Cursors() {
        this(CursorLimits.defaults());
    }

    Cursors(CursorLimits limits) {
        this.limits = limits;
    }

    /** Marks the commands this thread runs until {@link #leave} as {@code owner}'s; answers the previous owner. */
    static Owner enter(Owner owner) {
        Owner previous = RUNNING_FOR.get();
        RUNNING_FOR.set(owner);
        return previous;
    }

    static void leave(Owner previous) {
        RUNNING_FOR.set(previous); // not remove(): the next command's set() would make the thread's map entry again
    }

    static final class Cursor {
        final long id;
        final String namespace;
        final java.util.Iterator<BsonDocument> run;
        /** Where the documents are read from the core (for request charges), or null. */
        final io.tetradb.mongo.store.DocStream source;
        /** Who opened it, or null (opened outside a command, e.g. by a test). */
        final Owner owner = RUNNING_FOR.get();
        volatile long lastUsed;
        /** Order of last use, for closing the least recently used past {@link CursorLimits#maxOpen()}. */
        volatile long touched = TOUCHES.incrementAndGet();
        volatile boolean continued;
        /**
         * What its commands have left of the opening command's maxTimeMS ({@link MaxTime#NONE}: no limit), for the
         * next getMore, as mongod's {@code leftoverMaxTimeMicros}: the time between getMores does not count.
         */
        volatile long leftoverMillis = MaxTime.NONE;
        /** What it held at its last measure ({@link io.tetradb.mongo.store.HeldBytes}), counted in the total. */
        long held;

        Cursor(long id, String namespace, java.util.Iterator<BsonDocument> run, io.tetradb.mongo.store.DocStream source) {
            this.id = id;
            this.namespace = namespace;
            this.run = run;
            this.source = source;
        }

        double takeRequestCharge() {
            return source == null ? 0 : source.takeRequestCharge();
        }
    }

    /**
     * Registers a cursor for what is left of {@code run}; its id (never 0). ExceededMemoryLimit (146) when what it
     * holds would take the open cursors past {@link CursorLimits#maxBytes()}: the command fails and holds nothing.
     */
    long open(String namespace, java.util.Iterator<BsonDocument> run, io.tetradb.mongo.store.DocStream source) {
        expireIdle();
        long held = measure(run, source);
        synchronized (this) {
            while (open.size() >= limits.maxOpen()) {
                open.values().stream().min(java.util.Comparator.comparingLong((Cursor c) -> c.touched))
                        .ifPresent(oldest -> remove(oldest));
            }
            if (held > 0 && heldBytes + held > limits.maxBytes()) {
                throw tooMuchHeld(held);
            }
            long id;
            do {
                id = random.nextLong() & Long.MAX_VALUE;
            } while (id == 0 || open.containsKey(id));
            Cursor cursor = new Cursor(id, namespace, run, source);
            cursor.lastUsed = limits.clock().millis();
            cursor.held = held;
            Operations.Op opener = Interruption.current();
            cursor.leftoverMillis = opener == null ? MaxTime.NONE : opener.remainingMillis();
            heldBytes += held;
            open.put(id, cursor);
            totalOpened.increment();
            // checked after the put: either connectionClosed's sweep sees this cursor or this sees the close
            if (cursor.owner != null && cursor.owner.orphaned()) {
                remove(cursor);
            }
            // likewise a kill of the command's session marks the command before it sweeps the session's cursors
            Operations.Op running = Interruption.current();
            if (running != null && running.killed()) {
                remove(cursor);
                throw new MongoError(ErrorCode.INTERRUPTED, "operation was interrupted");
            }
            return id;
        }
    }

    /**
     * After a getMore's batch: measures again what the cursor holds (a new page may have been read). When that
     * growth would take the open cursors past the limit, the cursor is closed and the getMore fails with 146, as
     * mongod kills a cursor whose getMore fails.
     */
    void remeasure(Cursor c) {
        long now = measure(c.run, c.source);
        synchronized (this) {
            if (open.get(c.id) != c) {
                return; // closed meanwhile (killCursors, its session's end): nothing is counted for it
            }
            if (now > c.held && heldBytes - c.held + now > limits.maxBytes()) {
                remove(c);
                throw tooMuchHeld(now);
            }
            heldBytes += now - c.held;
            c.held = now;
        }
    }

    private static long measure(java.util.Iterator<BsonDocument> run, io.tetradb.mongo.store.DocStream source) {
        if (run instanceof io.tetradb.mongo.store.HeldBytes h) {
            return h.heldBytes();
        }
        return source == null ? 0 : source.heldBytes(); // a pipeline: what its source holds
    }

    private MongoError tooMuchHeld(long wanted) {
        return new MongoError(ErrorCode.EXCEEDED_MEMORY_LIMIT, "cursor would hold " + wanted + " bytes of "
                + "documents while open cursors already hold " + heldBytes + ": more than the server's limit of "
                + limits.maxBytes() + " bytes for open cursors (--max-cursor-memory). Read cursors to the end, "
                + "close them (killCursors), use a smaller batch or a more selective query.");
    }

    /** Removes this cursor if it is still open, and what it held from the total. */
    private synchronized boolean remove(Cursor c) {
        if (!open.remove(c.id, c)) {
            return false;
        }
        heldBytes -= c.held;
        return true;
    }

    /** Removes the open cursors {@code which} selects; how many. */
    private int removeWhere(java.util.function.Predicate<Cursor> which) {
        int removed = 0;
        for (Cursor c : open.values()) {
            if (which.test(c) && remove(c)) {
                removed++;
            }
        }
        return removed;
    }

    /** Document bytes the open cursors hold now. */
    synchronized long heldBytes() {
        return heldBytes;
    }

    Cursor get(long id) {
        Cursor c = open.get(id);
        if (c != null && idle(c, limits.clock().millis()) && remove(c)) {
            timedOut.increment(); // timed out before the reaper came by: gone all the same
            return null;
        }
        if (c != null) {
            c.lastUsed = limits.clock().millis();
            c.touched = TOUCHES.incrementAndGet();
            if (!c.continued) {
                c.continued = true;
                moreThanOneBatch.increment();
            }
        }
        return c;
    }

    boolean kill(long id) {
        Cursor c = open.get(id);
        return c != null && remove(c);
    }

    void closeAll() {
        removeWhere(c -> true);
    }

    /** The connection closed: the cursors it opened without a session go (nothing can continue them usefully). */
    void connectionClosed(int connection) {
        removeWhere(c -> c.owner != null && c.owner.connection() == connection && c.owner.session() == null);
    }

    /** Who opened cursor {@code id} (user, session); null if none is open or it was opened outside a command. */
    Owner openedBy(long id) {
        Cursor c = open.get(id);
        return c == null ? null : c.owner;
    }

    /** The user that opened cursor {@code id}; null if none is open or it was opened outside a command (anyone's). */
    SessionOwner ownerOf(long id) {
        Cursor c = open.get(id);
        return c == null || c.owner == null ? null : c.owner.user();
    }

    /**
     * Sessions ended or killed ({@code endSessions}, {@code killSessions}, {@code killAllSessions…}): the cursors of
     * the sessions {@code which} selects by {@code lsid.id} and the user that started them go.
     */
    void sessionsKilled(java.util.function.BiPredicate<org.bson.BsonValue, SessionOwner> which) {
        removeWhere(c -> c.owner != null && c.owner.session() != null && which.test(c.owner.session(), c.owner.user()));
    }

    /** Closes the cursors idle past the timeout (also run periodically, as mongod's cursor monitor does). */
    void expireIdle() {
        long now = limits.clock().millis();
        timedOut.add(removeWhere(c -> idle(c, now)));
    }

    private boolean idle(Cursor c, long now) {
        return now - c.lastUsed > limits.idleTimeout().toMillis();
    }

    /**
     * serverStatus' {@code metrics.cursor}: cursors opened, timed out, continued by a getMore, and open now. No
     * cursor is exempt from the idle timeout here ({@code noCursorTimeout} is not honoured), so {@code noTimeout}
     * is 0; {@code pinned} is the number of getMores reading their cursor at this moment.
     */
    org.bson.BsonDocument metrics(long pinned) {
        expireIdle();
        return new org.bson.BsonDocument("moreThanOneBatch", new org.bson.BsonInt64(moreThanOneBatch.sum()))
                .append("timedOut", new org.bson.BsonInt64(timedOut.sum()))
                .append("totalOpened", new org.bson.BsonInt64(totalOpened.sum()))
                .append("open", new org.bson.BsonDocument("noTimeout", new org.bson.BsonInt64(0))
                        .append("pinned", new org.bson.BsonInt64(pinned))
                        .append("total", new org.bson.BsonInt64(open.size())));
    }

    /** Up to {@code max} documents of {@code run} (0: no count limit), and no more than fit in one reply. */
    static List<BsonDocument> batch(java.util.Iterator<BsonDocument> run, int max) {
        List<BsonDocument> out = new ArrayList<>();
        long bytes = 0;
        while ((max <= 0 || out.size() < max) && run.hasNext()) {
            Interruption.check(); // a killed command stops between two documents
            BsonDocument d = run.next();
            bytes += io.tetradb.mongo.store.MongoCollection.approxSize(d);
            out.add(d);
            if (bytes >= Limits.MAX_BATCH_BYTES / 2) { // estimated sizes: keep well inside one 16 MB reply
                break;
            }
        }
        return out;
    }
}
