package io.tetradb.core.net;

import java.time.Duration;

/**
 * What one network face lets its clients hold: open connections in all and from one client address, how long a
 * request may take to arrive once its first byte has (slow-loris clients), and how many requests per second one
 * connection may send (0: no limit). The defaults protect a 2-core machine while leaving room for the SDKs' own pools
 * (the MongoDB drivers open up to 100 connections per client, the Cosmos SDK's gateway pool up to 1000).
 *
 * @param maxConnections            open connections this face accepts in all; beyond, a new one is closed at once
 * @param maxConnectionsPerAddress  open connections from one client IP address; beyond, a new one is closed at once
 * @param requestReadTimeout        longest time from a request's first byte to its last; then the connection closes
 * @param maxRequestsPerSecond      requests per second one connection may send: beyond, each further request of that
 *                                  second gets the face's refusal (Mongo 462, HTTP 429, Gremlin 429) and is not run;
 *                                  0 means unlimited (the default, as mongod's ingress rate limiter is off by default)
 * @param clock                     the clock the request rate and the request time limit are counted on (tests move
 *                                  it by hand)
 * @param requestTimeLimit          longest a request may run in the core once read (the Cosmos REST face: then 408
 *                                  RequestTimeout, the core's loops stopped by {@link io.tetradb.core.cancel.CallStop});
 *                                  a face with its own limit (Mongo maxTimeMS, Gremlin's evaluation timeout) keeps it
 */
public record ConnectionLimits(int maxConnections, int maxConnectionsPerAddress, Duration requestReadTimeout,
                               int maxRequestsPerSecond, NanoClock clock, Duration requestTimeLimit) {
    public static final int DEFAULT_MAX_CONNECTIONS = 1000;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 500;
    public static final Duration DEFAULT_REQUEST_READ_TIMEOUT = Duration.ofSeconds(30);
    /** As Gremlin's default evaluation timeout: one request cannot hold one of two cores for longer. */
    public static final Duration DEFAULT_REQUEST_TIME_LIMIT = Duration.ofSeconds(30);

    public ConnectionLimits {
        if (maxConnections < 1 || maxConnectionsPerAddress < 1) {
            throw new IllegalArgumentException("connection limits must be at least 1");
        }
        if (requestReadTimeout == null || requestReadTimeout.isNegative() || requestReadTimeout.isZero()) {
            throw new IllegalArgumentException("the request read timeout must be positive");
        }
        if (maxRequestsPerSecond < 0) {
            throw new IllegalArgumentException("the request rate must be 0 (unlimited) or positive");
        }
        if (clock == null) {
            throw new IllegalArgumentException("the clock is required");
        }
        if (requestTimeLimit == null || requestTimeLimit.isNegative() || requestTimeLimit.isZero()) {
            throw new IllegalArgumentException("the request time limit must be positive");
        }
    }

    public ConnectionLimits(int maxConnections, int maxConnectionsPerAddress, Duration requestReadTimeout,
                            int maxRequestsPerSecond, NanoClock clock) {
        this(maxConnections, maxConnectionsPerAddress, requestReadTimeout, maxRequestsPerSecond, clock,
                DEFAULT_REQUEST_TIME_LIMIT);
    }

    public ConnectionLimits(int maxConnections, int maxConnectionsPerAddress, Duration requestReadTimeout,
                            int maxRequestsPerSecond) {
        this(maxConnections, maxConnectionsPerAddress, requestReadTimeout, maxRequestsPerSecond, NanoClock.SYSTEM);
    }

    public static ConnectionLimits defaults() {
        return new ConnectionLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
                DEFAULT_REQUEST_READ_TIMEOUT, 0);
    }

    public ConnectionLimits withMaxConnections(int total, int perAddress) {
        return new ConnectionLimits(total, perAddress, requestReadTimeout, maxRequestsPerSecond, clock,
                requestTimeLimit);
    }

    public ConnectionLimits withRequestReadTimeout(Duration timeout) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerAddress, timeout, maxRequestsPerSecond, clock,
                requestTimeLimit);
    }

    public ConnectionLimits withMaxRequestsPerSecond(int perSecond) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerAddress, requestReadTimeout, perSecond, clock,
                requestTimeLimit);
    }

    /** The same limits with the request rate counted on {@code clock}. */
    public ConnectionLimits withClock(NanoClock clock) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerAddress, requestReadTimeout, maxRequestsPerSecond,
                clock, requestTimeLimit);
    }

    /** The same limits with another request time limit. */
    public ConnectionLimits withRequestTimeLimit(Duration limit) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerAddress, requestReadTimeout, maxRequestsPerSecond,
                clock, limit);
    }

    /** Stops the core calls of a request read now when its {@link #requestTimeLimit} has run out. */
    public io.tetradb.core.cancel.StopSignal requestDeadline() {
        return io.tetradb.core.cancel.StopSignal.deadline(clock, clock.nanoTime() + requestTimeLimit.toNanos());
    }
}
