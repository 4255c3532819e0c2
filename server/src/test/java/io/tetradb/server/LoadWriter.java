package io.tetradb.server;

import com.azure.cosmos.CosmosException;
import com.azure.data.tables.models.TableServiceException;
import com.mongodb.MongoException;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One face's writer of the kill-a-node test: writes numbered units (an item, a document, an entity, a batch) until
 * stopped, each through one server or the other, and records which were acknowledged, and per phase (before, during,
 * after the kill) how many were tried, acknowledged, and which errors the client saw.
 */
final class LoadWriter implements Runnable {
    /** One numbered write through server {@code n % 2}; returns normally only when the client got an acknowledgement. */
    interface Unit {
        void write(int n) throws Exception;
    }

    /** Counts of one phase. */
    static final class Phase {
        int attempts;
        int acked;
        final Map<String, Integer> errors = new TreeMap<>();
        /** The first message of each kind of error (what threw, for the report). */
        final Map<String, String> firstMessages = new TreeMap<>();

        synchronized void record(String error, String message) {
            attempts++;
            if (error == null) {
                acked++;
            } else {
                errors.merge(error, 1, Integer::sum);
                firstMessages.putIfAbsent(error, message);
            }
        }

        synchronized int errorCount() {
            return attempts - acked;
        }

        @Override
        public synchronized String toString() {
            return "attempts=" + attempts + " acked=" + acked + " errors=" + (attempts - acked) + " " + errors
                    + (firstMessages.isEmpty() ? "" : " first=" + firstMessages);
        }
    }

    final String face;
    private final Unit unit;
    private final AtomicReference<String> phase;
    final Set<Integer> acked = ConcurrentHashMap.newKeySet();
    final Set<Integer> attempted = ConcurrentHashMap.newKeySet();
    final Map<String, Phase> phases = new ConcurrentHashMap<>();
    private volatile boolean stopped;
    private volatile Throwable crashed;

    LoadWriter(String face, AtomicReference<String> phase, Unit unit) {
        this.face = face;
        this.phase = phase;
        this.unit = unit;
    }

    @Override
    public void run() {
        try {
            for (int n = 0; !stopped; n++) {
                String in = phase.get();
                attempted.add(n);
                String error = null;
                String message = null;
                try {
                    unit.write(n);
                    acked.add(n);
                } catch (Exception e) {
                    error = describe(e);
                    message = String.valueOf(e.getMessage());
                    message = message.substring(0, Math.min(400, message.length()));
                }
                phases.computeIfAbsent(in, k -> new Phase()).record(error, message);
            }
        } catch (Throwable t) {
            crashed = t;
        }
    }

    /** Acknowledged writes in {@code name} so far. */
    int acked(String name) {
        Phase p = phases.get(name);
        return p == null ? 0 : p.acked;
    }

    void stop() {
        stopped = true;
    }

    Throwable crashed() {
        return crashed;
    }

    /** What the client saw, in its own terms: Cosmos status/sub-status, Mongo code, Tables status, or the class. */
    static String describe(Throwable e) {
        if (e instanceof CosmosException c) {
            return "cosmos " + c.getStatusCode() + "/" + c.getSubStatusCode();
        }
        if (e instanceof MongoException m) {
            return "mongo " + m.getCode() + " " + m.getClass().getSimpleName();
        }
        if (e instanceof TableServiceException t) {
            return "tables " + t.getResponse().getStatusCode();
        }
        return e.getClass().getSimpleName();
    }
}
