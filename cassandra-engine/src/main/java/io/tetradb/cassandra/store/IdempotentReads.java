package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * The stores' reads are marked idempotent, so the driver sends a read whose connection was lost, or whose coordinator
 * answered with an error of its own, to the next node of its plan by itself (the driver's default retry policy
 * retries only idempotent requests there) instead of failing it: with a node killed, the reads in flight on its
 * connections are served by the others rather than answered 503. A read changes nothing, so running it twice is
 * harmless; a SERIAL read may finish a Paxos round in progress, which any SERIAL read may do. Never the writes: a
 * conditional batch sent twice is settled by {@code ConditionalApply}, and the plain writes keep the driver's default.
 * {@code -Dtetradb.cassandra.idempotentReads=false} leaves the reads unmarked, as before (for A/B runs and the test
 * that counts the 503s both ways).
 */
final class IdempotentReads {
    static final String PROPERTY = "tetradb.cassandra.idempotentReads";

    private IdempotentReads() {
    }

    /** Whether stores opened now mark their reads (true unless the property says {@code false}). */
    static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());
    }

    /** {@code s} marked idempotent when {@code on}, else left to the driver's default (not idempotent). */
    static <S extends Statement<S>> S mark(S s, boolean on) {
        return on ? s.setIdempotent(true) : s;
    }
}
