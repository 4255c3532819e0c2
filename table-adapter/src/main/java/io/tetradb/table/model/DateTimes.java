package io.tetradb.table.model;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * Edm.DateTime text: ISO-8601 in UTC with exactly seven fractional digits ({@code 2016-03-01T09:30:00.1234567Z}),
 * the form Azure Tables returns. The fixed width makes the text order the time order, which the stored items rely
 * on (indexes compare strings).
 */
public final class DateTimes {
    private static final DateTimeFormatter SEVEN_DIGITS = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd'T'HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 7, 7, true)
            .appendLiteral('Z')
            .toFormatter()
            .withZone(ZoneOffset.UTC);

    private DateTimes() {
    }

    /** The seven-digit UTC form. */
    public static String format(Instant t) {
        LocalDateTime d = LocalDateTime.ofEpochSecond(t.getEpochSecond(), t.getNano(), ZoneOffset.UTC);
        if (d.getYear() < 1 || d.getYear() > 9999) {
            return SEVEN_DIGITS.format(t); // the formatter's year-of-era and signed forms
        }
        // the same text as SEVEN_DIGITS, written directly: every entity read formats its Timestamp
        StringBuilder b = new StringBuilder(28);
        digits(b, d.getYear(), 4).append('-');
        digits(b, d.getMonthValue(), 2).append('-');
        digits(b, d.getDayOfMonth(), 2).append('T');
        digits(b, d.getHour(), 2).append(':');
        digits(b, d.getMinute(), 2).append(':');
        digits(b, d.getSecond(), 2).append('.');
        return digits(b, d.getNano() / 100, 7).append('Z').toString();
    }

    private static StringBuilder digits(StringBuilder b, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(s);
    }

    /**
     * Parses an ISO-8601 date-time (with {@code Z}, an offset, or none: then UTC) with at most seven fractional
     * digits; anything finer than 100 ns is refused, as Azure does.
     */
    public static Instant parse(String text) {
        Instant t = parseCanonical(text);
        if (t != null) {
            return t;
        }
        try {
            t = OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                t = LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                throw TableException.badValue("'" + text + "' is not a valid Edm.DateTime value");
            }
        }
        if (t.getNano() % 100 != 0) {
            throw TableException.badValue("'" + text + "' has more than seven fractional digits (Edm.DateTime is "
                    + "precise to 100 ns)");
        }
        return t;
    }

    /**
     * The UTC form with seconds and up to nine fractional digits ({@code 2016-03-01T09:30:00.1234567Z}, what
     * {@link #format} writes and every stored item holds; {@code 2016-03-01T09:30:00.5Z}, what SDKs send) read by
     * position: the general ISO parser costs several µs per value, and a query page reads two per entity. Null when
     * the text is not of that form, not a valid date, or finer than 100 ns (the general parser then decides).
     */
    private static Instant parseCanonical(String s) {
        Instant t = io.tetradb.core.value.UtcInstants.parse(s);
        return t == null || t.getNano() % 100 != 0 ? null : t;
    }

    /** The current time, cut to whole 100 ns ticks. */
    public static Instant now() {
        Instant t = Instant.now();
        return t.minusNanos(t.getNano() % 100);
    }

    /** The last write time handed out, in 100 ns ticks since the epoch. */
    private static final java.util.concurrent.atomic.AtomicLong LAST_WRITE = new java.util.concurrent.atomic.AtomicLong();

    /**
     * The Timestamp of a write: the current time in 100 ns ticks, but always later than every earlier write's in
     * this process, so that a Timestamp (and the ETag made of it) names one version of an entity.
     */
    public static Instant nextWriteTime() {
        Instant t = Instant.now();
        long now = t.getEpochSecond() * 10_000_000L + t.getNano() / 100;
        long ticks = LAST_WRITE.accumulateAndGet(now, (last, n) -> Math.max(last + 1, n));
        return Instant.ofEpochSecond(Math.floorDiv(ticks, 10_000_000L), Math.floorMod(ticks, 10_000_000L) * 100);
    }
}
