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
        int n = s.length();
        if (n < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
                || s.charAt(16) != ':' || s.charAt(n - 1) != 'Z') {
            return null;
        }
        int nanos = 0;
        if (n > 20) {
            int digits = n - 21;
            if (s.charAt(19) != '.' || digits < 1 || digits > 9) {
                return null;
            }
            nanos = number(s, 20, n - 1);
            for (int i = digits; i < 9 && nanos >= 0; i++) {
                nanos *= 10;
            }
        }
        int year = number(s, 0, 4);
        int month = number(s, 5, 7);
        int day = number(s, 8, 10);
        int hour = number(s, 11, 13);
        int minute = number(s, 14, 16);
        int second = number(s, 17, 19);
        if ((year | month | day | hour | minute | second | nanos) < 0 || nanos % 100 != 0) {
            return null;
        }
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second, nanos).toInstant(ZoneOffset.UTC);
        } catch (java.time.DateTimeException invalid) {
            return null;
        }
    }

    /** The decimal number of {@code s[from, to)}, or -1 unless all of it is ASCII digits. */
    private static int number(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /** The current time, cut to whole 100 ns ticks. */
    public static Instant now() {
        Instant t = Instant.now();
        return t.minusNanos(t.getNano() % 100);
    }
}
