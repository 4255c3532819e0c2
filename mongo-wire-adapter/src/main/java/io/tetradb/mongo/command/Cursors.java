package io.tetradb.mongo.command;

import org.bson.BsonDocument;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Open cursors by id. A cursor is a query or pipeline part-read; it holds the core's continuation and no storage
 * resources, so an abandoned one costs only memory until it has been idle for {@link #IDLE_TIMEOUT_MILLIS}
 * (MongoDB's default: 10 minutes).
 */
final class Cursors {
    static final long IDLE_TIMEOUT_MILLIS = 10 * 60 * 1000;
    /**
     * Open cursors kept at most; opening one more closes the least recently used, whose next getMore is then
     * CursorNotFound, as after a timeout. Why: an abandoned cursor holds its continuation's buffered documents (tens
     * of KB) for ten minutes, and a client that opens cursors without reading them to the end (a fuzzer did, 250,000
     * commands) grew the live heap by 420 MB. MongoDB keeps such cursors in its storage engine's cache instead.
     */
    static final int MAX_OPEN_CURSORS = 1000;
    private static final java.util.concurrent.atomic.AtomicLong TOUCHES = new java.util.concurrent.atomic.AtomicLong();
    private final Map<Long, Cursor> open = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final java.util.concurrent.atomic.LongAdder totalOpened = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder timedOut = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder moreThanOneBatch = new java.util.concurrent.atomic.LongAdder();

    static final class Cursor {
        final long id;
        final String namespace;
        final java.util.Iterator<BsonDocument> run;
        /** Where the documents are read from the core (for request charges), or null. */
        final io.tetradb.mongo.store.DocStream source;
        volatile long lastUsed = System.currentTimeMillis();
        /** Order of last use, for closing the least recently used past {@link #MAX_OPEN_CURSORS}. */
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
        while (open.size() >= MAX_OPEN_CURSORS) {
            open.values().stream().min(java.util.Comparator.comparingLong((Cursor c) -> c.touched))
                    .ifPresent(oldest -> open.remove(oldest.id));
        }
        long id;
        do {
            id = random.nextLong() & Long.MAX_VALUE;
        } while (id == 0 || open.containsKey(id));
        open.put(id, new Cursor(id, namespace, run, source));
        totalOpened.increment();
        return id;
    }

    Cursor get(long id) {
        Cursor c = open.get(id);
        if (c != null) {
            c.lastUsed = System.currentTimeMillis();
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

    private void expireIdle() {
        long now = System.currentTimeMillis();
        open.values().removeIf(c -> {
            boolean idle = now - c.lastUsed > IDLE_TIMEOUT_MILLIS;
            if (idle) {
                timedOut.increment();
            }
            return idle;
        });
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
