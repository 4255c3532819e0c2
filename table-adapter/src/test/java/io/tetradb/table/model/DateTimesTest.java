package io.tetradb.table.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The direct seven-digit writer and reader agree with java.time's formatter and parser. */
class DateTimesTest {
    private static final DateTimeFormatter REFERENCE = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd'T'HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 7, 7, true)
            .appendLiteral('Z')
            .toFormatter()
            .withZone(ZoneOffset.UTC);

    @Test
    void formatAndParseAgreeWithJavaTimeForRandomInstants() {
        Random r = new Random(42);
        long min = Instant.parse("0001-01-01T00:00:00Z").getEpochSecond();
        long max = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 20_000; i++) {
            long sec = min + (long) (r.nextDouble() * (max - min));
            Instant t = Instant.ofEpochSecond(sec, r.nextInt(10_000_000) * 100L);
            String text = DateTimes.format(t);
            assertEquals(REFERENCE.format(t), text);
            assertEquals(t, DateTimes.parse(text));
            assertEquals(OffsetDateTime.parse(text).toInstant(), DateTimes.parse(text));
        }
        assertEquals(REFERENCE.format(Instant.parse("0000-06-01T00:00:00Z")), DateTimes.format(Instant.parse("0000-06-01T00:00:00Z")));
        Instant epoch = Instant.EPOCH;
        assertEquals("1970-01-01T00:00:00.0000000Z", DateTimes.format(epoch));
        assertEquals(REFERENCE.format(Instant.parse("+10000-01-01T00:00:00Z")),
                DateTimes.format(Instant.parse("+10000-01-01T00:00:00Z")));
    }

    @Test
    void sdkFormsWithAnyNumberOfFractionalDigitsReadAsJavaTimeReadsThem() {
        Random r = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            long nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> r.nextInt(1000) * 1_000_000L;
                case 2 -> r.nextInt(10_000_000) * 100L;
                default -> r.nextInt(1_000_000_000);
            };
            Instant t = Instant.ofEpochSecond(r.nextInt(2_000_000_000), nanos);
            for (String text : new String[] {t.toString(), OffsetDateTime.ofInstant(t, ZoneOffset.UTC).toString(),
                    DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(OffsetDateTime.ofInstant(t, ZoneOffset.UTC))}) {
                if (nanos % 100 == 0) {
                    assertEquals(OffsetDateTime.parse(text).toInstant(), DateTimes.parse(text), text);
                } else {
                    assertThrows(TableException.class, () -> DateTimes.parse(text), text);
                }
            }
        }
        assertEquals(Instant.parse("2016-03-01T09:30:00.1234567Z"), DateTimes.parse("2016-03-01T09:30:00.123456700Z"));
        assertEquals(Instant.parse("2016-03-01T09:30:00Z"), DateTimes.parse("2016-03-01T09:30:00.Z")); // java.time allows it
        assertThrows(TableException.class, () -> DateTimes.parse("2016-03-01T09:30:00.1234567890Z"));
    }

    @Test
    void canonicalLookingTextThatIsNoDateIsRefusedAsBefore() {
        for (String bad : new String[] {"2016-02-30T00:00:00.0000000Z", "2016-13-01T00:00:00.0000000Z",
                "2016-01-01T24:00:00.0000000Z", "2016-01-01T00:60:00.0000000Z", "2016-01-01T00:00:00.00000a0Z",
                "2016-01-01T00:00:00.0000000X", "２016-01-01T00:00:00.0000000Z"}) {
            TableException e = assertThrows(TableException.class, () -> DateTimes.parse(bad), bad);
            assertEquals(400, e.status());
        }
        assertEquals(Instant.parse("2016-03-01T09:30:00.1234567Z"), DateTimes.parse("2016-03-01T09:30:00.1234567Z"));
        assertEquals(Instant.parse("2016-03-01T09:30:00.12Z"), DateTimes.parse("2016-03-01T09:30:00.12Z"));
        assertEquals(Instant.parse("2016-03-01T08:30:00Z"), DateTimes.parse("2016-03-01T09:30:00+01:00"));
        assertEquals(Instant.parse("2016-03-01T09:30:00Z"), DateTimes.parse("2016-03-01T09:30:00"));
    }

    /** ETags are the percent-encoded Timestamp in Azure's form, read back by If-Match; write times only grow. */
    @Test
    void etagsRoundTripAndWriteTimesGrow() {
        Random r = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(r.nextLong(-62_135_596_800L, 253_402_300_799L), r.nextInt(10_000_000) * 100);
            String etag = ETags.of(t);
            assertEquals("W/\"datetime'" + java.net.URLEncoder.encode(DateTimes.format(t),
                    java.nio.charset.StandardCharsets.UTF_8) + "'\"", etag);
            assertEquals(t, ETags.condition(etag));
        }
        assertEquals(null, ETags.condition("*"));
        assertEquals(Instant.MIN, ETags.condition("W/\"abc\""), "a weak ETag of another form matches nothing");
        for (String bad : new String[]{"\"abc\"", "abc", "W/abc", "W/\"a\"b\"", ""}) {
            assertEquals(400, assertThrows(TableException.class, () -> ETags.condition(bad)).status(), bad);
        }
        Instant last = DateTimes.nextWriteTime();
        for (int i = 0; i < 100_000; i++) {
            Instant next = DateTimes.nextWriteTime();
            assertEquals(true, next.isAfter(last), next + " after " + last);
            last = next;
        }
    }
}
