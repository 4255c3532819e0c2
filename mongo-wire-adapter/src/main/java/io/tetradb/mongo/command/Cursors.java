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
    /** Who opens a cursor: the connection, and the session ({@code lsid.id}) or null. */
    record Owner(int connection, org.bson.BsonValue session) {
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
        if (previous == null) {
            RUNNING_FOR.remove();
        } else {
            RUNNING_FOR.set(previous);
        }
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

    /** Registers a cursor for what is left of {@code run}; its id (never 0). */
    long open(String namespace, java.util.Iterator<BsonDocument> run, io.tetradb.mongo.store.DocStream source) {
        expireIdle();
        while (open.size() >= limits.maxOpen()) {
            open.values().stream().min(java.util.Comparator.comparingLong((Cursor c) -> c.touched))
                    .ifPresent(oldest -> open.remove(oldest.id));
        }
        long id;
        do {
            id = random.nextLong() & Long.MAX_VALUE;
        } while (id == 0 || open.containsKey(id));
        Cursor cursor = new Cursor(id, namespace, run, source);
        cursor.lastUsed = limits.clock().millis();
        open.put(id, cursor);
        totalOpened.increment();
        return id;
    }

    Cursor get(long id) {
        Cursor c = open.get(id);
        if (c != null && idle(c, limits.clock().millis()) && open.remove(id, c)) {
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
        return open.remove(id) != null;
    }

    void closeAll() {
        open.clear();
    }

    /** The connection closed: the cursors it opened without a session go (nothing can continue them usefully). */
    void connectionClosed(int connection) {
        open.values().removeIf(c -> c.owner != null && c.owner.connection() == connection && c.owner.session() == null);
    }

    /** {@code endSessions}/{@code killSessions}: the cursors of these sessions ({@code [{id: UUID}, …]}) go. */
    void sessionsEnded(org.bson.BsonValue sessions) {
        if (sessions == null || !sessions.isArray() || open.isEmpty()) {
            return;
        }
        java.util.Set<org.bson.BsonValue> ids = new java.util.HashSet<>();
        for (org.bson.BsonValue s : sessions.asArray()) {
            if (s.isDocument() && s.asDocument().containsKey("id")) {
                ids.add(s.asDocument().get("id"));
            }
        }
        open.values().removeIf(c -> c.owner != null && c.owner.session() != null && ids.contains(c.owner.session()));
    }

    /** Closes the cursors idle past the timeout (also run periodically, as mongod's cursor monitor does). */
    void expireIdle() {
        long now = limits.clock().millis();
        open.values().removeIf(c -> {
            boolean idle = idle(c, now);
            if (idle) {
                timedOut.increment();
            }
            return idle;
        });
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
