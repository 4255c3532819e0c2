package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.tetradb.core.storage.StorageUnavailableException;

import java.util.function.Supplier;

/**
 * The driver's failures in the core's terms, so that each face answers them in its own convention instead of as an
 * internal error (the node-kill test once saw a MongoDB client get code 1 while a node was down: a driver exception
 * reaching the face unmapped, its message not recorded; the likeliest a QUORUM read waiting on the node just killed).
 * <ul>
 * <li>A <b>read</b> that could not be served (too few replicas, a timeout, no node reachable, the connection lost)
 * changed nothing: {@link StorageUnavailableException} (503), which the client may retry.</li>
 * <li>A plain (unconditional) <b>write</b> refused before it was sent anywhere (too few replicas alive, no node) did
 * nothing either; one that timed out or lost its connection after being sent may have applied:
 * {@link OutcomeUnknownException} (408).</li>
 * </ul>
 * Conditional batches are settled by {@link ConditionalApply}, which sees the driver's exceptions themselves. Anything
 * else (a syntax or schema error: a bug, not the cluster's state) is left as it is.
 */
final class DriverFailures {
    private DriverFailures() {
    }

    /** {@code read} run with the driver's failures translated (see the class comment). */
    static <T> T reading(String what, Supplier<T> read) {
        try {
            return read.get();
        } catch (DriverException e) {
            throw ofRead(what, e);
        }
    }

    /** {@code write} (an unconditional one) run with the driver's failures translated. */
    static <T> T writing(String what, Supplier<T> write) {
        try {
            return write.get();
        } catch (DriverException e) {
            throw ofWrite(what, e);
        }
    }

    /** A read's failure: not served, nothing changed (503), unless it is not the cluster's state at all. */
    static RuntimeException ofRead(String what, DriverException e) {
        return unavailable(e) || mayHaveApplied(e)
                ? new StorageUnavailableException("Cassandra could not serve " + what + ": " + e.getMessage(), e) : e;
    }

    /** An unconditional write's failure: refused before it was sent (503), or sent and unanswered (408). */
    static RuntimeException ofWrite(String what, DriverException e) {
        if (unavailable(e)) {
            return new StorageUnavailableException("Cassandra could not serve " + what + ": " + e.getMessage(), e);
        }
        return mayHaveApplied(e) ? new OutcomeUnknownException(what, e) : e;
    }

    /** Refused before anything was sent to a replica, or by the coordinator before it started: nothing applied. */
    static boolean unavailable(DriverException e) {
        if (e instanceof NoNodeAvailableException) {
            return true;
        }
        if (e instanceof AllNodesFailedException all) {
            // every node tried refused the request before running it (none was left with it in flight)
            return !all.getAllErrors().isEmpty() && all.getAllErrors().values().stream().flatMap(java.util.List::stream)
                    .allMatch(t -> t instanceof DriverException d && unavailable(d));
        }
        return e instanceof UnavailableException || e instanceof OverloadedException
                || e instanceof BootstrappingException || e instanceof BusyConnectionException;
    }

    /** Sent, then no answer: a timeout, a replica's failure, the connection lost with the request in flight. */
    static boolean mayHaveApplied(DriverException e) {
        if (e instanceof AllNodesFailedException all) {
            return all.getAllErrors().values().stream().flatMap(java.util.List::stream)
                    .anyMatch(t -> t instanceof DriverException d && mayHaveApplied(d));
        }
        return e instanceof ReadTimeoutException || e instanceof WriteTimeoutException
                || e instanceof CASWriteUnknownException || e instanceof ReadFailureException
                || e instanceof WriteFailureException || e instanceof DriverTimeoutException
                || e instanceof ClosedConnectionException || e instanceof HeartbeatException
                || e instanceof TruncateException;
    }
}
