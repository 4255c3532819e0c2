package io.tetradb.table.http;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The response headers' cheap writers give the text the java.time and Formatter calls they replace gave. */
class HttpTextTest {
    /** Only a GET of one entity by its keys is answered on the event loop; queries and writes go to the pool. */
    @Test
    void pointReadsAreTellable() {
        assertTrue(RequestHandler.isPointRead("GET", "/devstoreaccount1/t(PartitionKey='p',RowKey='r')"));
        assertTrue(RequestHandler.isPointRead("GET", "/devstoreaccount1/t(PartitionKey='a,b',RowKey='(x)')"));
        org.junit.jupiter.api.Assertions.assertFalse(RequestHandler.isPointRead("GET", "/devstoreaccount1/t()"));
        org.junit.jupiter.api.Assertions.assertFalse(RequestHandler.isPointRead("GET", "/devstoreaccount1/t"));
        org.junit.jupiter.api.Assertions.assertFalse(RequestHandler.isPointRead("GET", "/devstoreaccount1/Tables"));
        org.junit.jupiter.api.Assertions.assertFalse(RequestHandler.isPointRead("MERGE",
                "/devstoreaccount1/t(PartitionKey='p',RowKey='r')"));
        org.junit.jupiter.api.Assertions.assertFalse(RequestHandler.isPointRead("DELETE",
                "/devstoreaccount1/t(PartitionKey='p',RowKey='r')"));
    }

    @Test
    void chargeIsFormattedAsPercentPointTwoF() {
        Random r = new Random(7);
        for (int i = 0; i < 50_000; i++) {
            double ru = switch (i % 4) {
                case 0 -> r.nextInt(100_000) / 1000.0;        // three decimals: ties like 1.005 and 2.675
                case 1 -> r.nextDouble() * 1000;
                case 2 -> r.nextInt(10_000) / 100.0;
                default -> r.nextInt(1000) + 0.005;
            };
            assertEquals(String.format(Locale.ROOT, "%.2f", ru), RequestHandler.formatCharge(ru), "charge " + ru);
        }
        assertEquals("0.00", RequestHandler.formatCharge(0));
        assertEquals("12345678.50", RequestHandler.formatCharge(12345678.5));
    }

    @Test
    void requestIdsAreVersion4Uuids() {
        java.util.Set<java.util.UUID> seen = new java.util.HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            java.util.UUID id = RequestHandler.requestId();
            assertEquals(4, id.version());
            assertEquals(2, id.variant());
            assertEquals(id, java.util.UUID.fromString(id.toString()));
            assertTrue(seen.add(id));
        }
    }

    @Test
    void datesAreRfc1123() {
        // the clock read before and after bracket it, however long the machine took between the reads
        long before = Instant.now().getEpochSecond();
        String now = HttpDates.now();
        long after = Instant.now().getEpochSecond();
        Instant at = ZonedDateTime.parse(now, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        assertTrue(at.getEpochSecond() >= before && at.getEpochSecond() <= after, now);
        assertEquals(DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(at, ZoneOffset.UTC)), now);
        assertEquals(Instant.parse("1994-11-06T08:49:37Z"), HttpDates.parse("Sun, 6 Nov 1994 08:49:37 GMT"));
        assertEquals(Instant.parse("1994-11-06T08:49:37Z"), HttpDates.parse("Sun, 6 Nov 1994 08:49:37 GMT"));
        assertEquals(Instant.parse("2026-11-23T21:11:31Z"), HttpDates.parse("Mon, 23 Nov 2026 21:11:31 GMT"));
        assertThrows(DateTimeParseException.class, () -> HttpDates.parse(""));
        assertThrows(DateTimeParseException.class, () -> HttpDates.parse("yesterday"));
    }
}
