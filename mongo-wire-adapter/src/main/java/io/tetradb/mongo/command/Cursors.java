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
    private final Map<Long, Cursor> open = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    static final class Cursor {
        final long id;
        final String namespace;
        final java.util.Iterator<BsonDocument> run;
        /** Where the documents are read from the core (for request charges), or null. */
        final io.tetradb.mongo.store.DocStream source;
        volatile long lastUsed = System.currentTimeMillis();

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
        long id;
        do {
            id = random.nextLong() & Long.MAX_VALUE;
        } while (id == 0 || open.containsKey(id));
        open.put(id, new Cursor(id, namespace, run, source));
        return id;
    }

    Cursor get(long id) {
        Cursor c = open.get(id);
        if (c != null) {
            c.lastUsed = System.currentTimeMillis();
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
        open.values().removeIf(c -> now - c.lastUsed > IDLE_TIMEOUT_MILLIS);
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
