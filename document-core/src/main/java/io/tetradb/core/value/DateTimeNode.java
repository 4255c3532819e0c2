package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * A DateTime: a UTC instant in 100 ns ticks since 1970-01-01T00:00:00Z (Azure Tables' Edm.DateTime precision; BSON
 * dates are whole milliseconds, java.time instants finer ticks are truncated toward the past), with an optional UTC
 * offset in minutes that only says how to show it. Order and index keys use the instant alone (the same instant
 * written at two offsets compares equal); {@link #equals} also compares the offset, so a round trip is exact.
 * JSON view: ISO-8601 with seven fractional digits, {@code 2026-11-26T01:02:03.4560000Z} (the form of Cosmos SQL's
 * {@code GetCurrentDateTime()}), or with the offset instead of {@code Z} when it has one.
 */
public final class DateTimeNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    public static final int NO_OFFSET = Integer.MIN_VALUE;
    private static final long TICKS_PER_SECOND = 10_000_000L;

    private final long ticks;
    private final int offsetMinutes;

    private DateTimeNode(long ticks, int offsetMinutes) {
        if (offsetMinutes != NO_OFFSET && Math.abs(offsetMinutes) > 18 * 60) {
            throw new IllegalArgumentException("UTC offset out of range: " + offsetMinutes + " minutes");
        }
        this.ticks = ticks;
        this.offsetMinutes = offsetMinutes;
    }

    public static DateTimeNode ofTicks(long ticks) {
        return new DateTimeNode(ticks, NO_OFFSET);
    }

    public static DateTimeNode ofTicks(long ticks, int offsetMinutes) {
        return new DateTimeNode(ticks, offsetMinutes);
    }

    /** A BSON date: milliseconds since the epoch. */
    public static DateTimeNode ofEpochMillis(long millis) {
        return new DateTimeNode(Math.multiplyExact(millis, 10_000L), NO_OFFSET);
    }

    public static DateTimeNode of(Instant instant) {
        return new DateTimeNode(ticksOf(instant), NO_OFFSET);
    }

    public static DateTimeNode of(OffsetDateTime t) {
        return new DateTimeNode(ticksOf(t.toInstant()), t.getOffset().getTotalSeconds() / 60);
    }

    private static long ticksOf(Instant i) {
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), TICKS_PER_SECOND), i.getNano() / 100);
    }

    public long ticks() {
        return ticks;
    }

    public boolean hasOffset() {
        return offsetMinutes != NO_OFFSET;
    }

    /** The offset in minutes, or {@link #NO_OFFSET}. */
    public int offsetMinutes() {
        return offsetMinutes;
    }

    /** Milliseconds since the epoch (floor), the BSON date value. */
    public long epochMillis() {
        return Math.floorDiv(ticks, 10_000L);
    }

    public Instant instant() {
        return Instant.ofEpochSecond(Math.floorDiv(ticks, TICKS_PER_SECOND),
                Math.floorMod(ticks, TICKS_PER_SECOND) * 100);
    }

    @Override
    public ValueType valueType() {
        return ValueType.DATE_TIME;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_DATE_TIME;
    }

    @Override
    public JsonNode jsonView() {
        return TextNode.valueOf(iso());
    }

    /** ISO-8601 with seven fractional digits and {@code Z} or the offset. */
    public String iso() {
        int offsetSeconds = hasOffset() ? offsetMinutes * 60 : 0;
        Instant i = instant();
        LocalDateTime local = LocalDateTime.ofEpochSecond(i.getEpochSecond(), i.getNano(),
                ZoneOffset.ofTotalSeconds(offsetSeconds));
        StringBuilder sb = new StringBuilder(33);
        int year = local.getYear();
        if (year >= 0 && year <= 9999) {
            pad(sb, year, 4);
        } else {
            sb.append(year > 0 ? "+" : "-");
            pad(sb, Math.abs(year), 6);
        }
        sb.append('-');
        pad(sb, local.getMonthValue(), 2);
        sb.append('-');
        pad(sb, local.getDayOfMonth(), 2);
        sb.append('T');
        pad(sb, local.getHour(), 2);
        sb.append(':');
        pad(sb, local.getMinute(), 2);
        sb.append(':');
        pad(sb, local.getSecond(), 2);
        sb.append('.');
        pad(sb, local.getNano() / 100, 7);
        if (!hasOffset()) {
            sb.append('Z');
        } else {
            int m = Math.abs(offsetMinutes);
            sb.append(offsetMinutes < 0 ? '-' : '+');
            pad(sb, m / 60, 2);
            sb.append(':');
            pad(sb, m % 60, 2);
        }
        return sb.toString();
    }

    private static void pad(StringBuilder sb, int v, int width) {
        String s = Integer.toString(v);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }

    @Override
    int compareSameRank(TypedNode other) {
        return Long.compare(ticks, ((DateTimeNode) other).ticks);
    }

    @Override
    byte[] keyBody() {
        return KeyBytes.longKey(ticks ^ Long.MIN_VALUE);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DateTimeNode d && d.ticks == ticks && d.offsetMinutes == offsetMinutes;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(ticks) * 31 + offsetMinutes;
    }
}
