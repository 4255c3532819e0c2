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
        return SEVEN_DIGITS.format(t);
    }

    /**
     * Parses an ISO-8601 date-time (with {@code Z}, an offset, or none: then UTC) with at most seven fractional
     * digits; anything finer than 100 ns is refused, as Azure does.
     */
    public static Instant parse(String text) {
        Instant t;
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

    /** The current time, cut to whole 100 ns ticks. */
    public static Instant now() {
        Instant t = Instant.now();
        return t.minusNanos(t.getNano() % 100);
    }
}
