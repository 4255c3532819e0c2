package io.tetradb.core.ttl;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that stands still until moved: give it to {@code StoreConfig.withClock} so that tests decide when items
 * expire instead of sleeping.
 */
public final class ManualClock extends Clock {
    private final AtomicLong millis;

    public ManualClock(Instant start) {
        this.millis = new AtomicLong(start.toEpochMilli());
    }

    /** Starts at the system's current time. */
    public ManualClock() {
        this(Instant.now());
    }

    public void advance(Duration d) {
        millis.addAndGet(d.toMillis());
    }

    public void set(Instant at) {
        millis.set(at.toEpochMilli());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this; // time is what matters here, not its zone
    }
}
