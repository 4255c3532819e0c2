package io.tetradb.core.query.functions;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a built-in function may read besides its arguments: the query's start time (fixed for the whole query, so
 * {@code GetCurrentDateTime()} returns one value for every item, as Cosmos does), the current item's {@code _rid}
 * (for {@code DocumentId}) and a random source (for {@code RAND}).
 *
 * <p>Create one per query with {@link #forQuery} (or {@link #at} in tests), then derive one per item with
 * {@link #withItemRid}.
 */
public final class FunctionContext {
    private final Instant now;
    private final String itemRid;
    private final Random random;
    private final UdfResolver udfs;

    private FunctionContext(Instant now, String itemRid, Random random) {
        this(now, itemRid, random, null);
    }

    private FunctionContext(Instant now, String itemRid, Random random, UdfResolver udfs) {
        this.now = Objects.requireNonNull(now, "now");
        this.itemRid = itemRid;
        this.random = random;
        this.udfs = udfs;
    }

    /** The same context calling the container's user-defined functions through {@code udfs}. */
    public FunctionContext withUdfs(UdfResolver udfs) {
        return new FunctionContext(now, itemRid, random, udfs);
    }

    /** The container's user-defined functions, or null where none can be called. */
    public UdfResolver udfs() {
        return udfs;
    }

    /** A context for one query, reading the clock once. */
    public static FunctionContext forQuery(Clock clock) {
        return new FunctionContext(clock.instant(), null, null);
    }

    /** A context with a fixed time (tests). */
    public static FunctionContext at(Instant now) {
        return new FunctionContext(now, null, null);
    }

    /** The same query time, for the item whose system property {@code _rid} is {@code rid}. */
    public FunctionContext withItemRid(String rid) {
        return new FunctionContext(now, rid, random, udfs);
    }

    /** The same context with a seeded random source (tests). */
    public FunctionContext withRandom(Random random) {
        return new FunctionContext(now, itemRid, random, udfs);
    }

    /** The query's start time. */
    public Instant now() {
        return now;
    }

    /** The current item's {@code _rid}, or null outside an item. */
    public String itemRid() {
        return itemRid;
    }

    double nextRandom() {
        return random != null ? random.nextDouble() : ThreadLocalRandom.current().nextDouble();
    }
}
