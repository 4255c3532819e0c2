package io.tetradb.table.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * RFC 1123 dates of HTTP headers, remembered for the second they name: every response carries the current one and
 * every signed request one the client wrote, and the SDK's requests of one second share it. java.time's formatter
 * and parser cost several µs a call; a hit here costs a string comparison.
 */
final class HttpDates {
    /** A date's text and its instant. */
    private record Dated(String text, Instant at) {
    }

    private static volatile Dated lastWritten;
    private static volatile Dated lastRead;

    private HttpDates() {
    }

    /** The current time for a {@code Date} header. */
    static String now() {
        long second = System.currentTimeMillis() / 1000;
        Dated d = lastWritten;
        if (d == null || d.at().getEpochSecond() != second) {
            Instant at = Instant.ofEpochSecond(second);
            d = new Dated(DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(at, ZoneOffset.UTC)),
                    at);
            lastWritten = d;
        }
        return d.text();
    }

    /** The instant of an RFC 1123 date; {@link DateTimeParseException} when it is none. */
    static Instant parse(String text) {
        Dated d = lastRead;
        if (d == null || !d.text().equals(text)) {
            d = new Dated(text, ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            lastRead = d;
        }
        return d.at();
    }
}
