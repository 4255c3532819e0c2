package io.tetradb.core.value;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Reads the UTC timestamp form faces store ({@code 2016-03-01T09:30:00Z}, with 1 to 9 fractional digits or none) by
 * position: java.time's ISO parser costs several µs per value, and a page of documents reads one or two per item.
 */
public final class UtcInstants {
    private UtcInstants() {
    }

    /** The instant {@code s} writes, or null when it is not of that form or not a valid date (callers then use java.time). */
    public static Instant parse(String s) {
        int n = s.length();
        if (n < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
                || s.charAt(16) != ':' || s.charAt(n - 1) != 'Z') {
            return null;
        }
        int nanos = 0;
        if (n > 20) {
            int digits = n - 21; // between the '.' and the 'Z'
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
        if ((year | month | day | hour | minute | second | nanos) < 0) {
            return null;
        }
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second, nanos).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException invalid) {
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
}
