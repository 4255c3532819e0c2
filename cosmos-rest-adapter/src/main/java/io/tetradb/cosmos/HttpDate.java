package io.tetradb.cosmos;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The {@code Date} response header: RFC 1123, one-second resolution, so formatted once per second and shared by
 * every answer of that second (formatting a {@code ZonedDateTime} per response was a measurable part of a cheap one).
 */
final class HttpDate {
    private record Formatted(long epochSecond, String text) {
    }

    private static volatile Formatted last = new Formatted(Long.MIN_VALUE, "");

    private HttpDate() {
    }

    static String now() {
        long second = System.currentTimeMillis() / 1000;
        Formatted f = last;
        if (f.epochSecond() != second) {
            f = new Formatted(second, DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC)));
            last = f;
        }
        return f.text();
    }
}
