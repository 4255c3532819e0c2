package io.tetradb.core.query.functions;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static io.tetradb.core.query.functions.Fn.check;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Date and time functions. Examples from https://learn.microsoft.com/azure/cosmos-db/nosql/query/{getcurrentdatetime,
 * getcurrenttimestamp,getcurrentticks,datetimeadd,datetimediff,datetimepart,datetimebin,datetimefromparts,
 * datetimetoticks,datetimetotimestamp,tickstodatetime,timestamptodatetime} and the samples repository
 * Azure-Samples/cosmos-db-nosql-query-samples.
 */
class DateTimeFunctionsTest {
    private static final String D = "\"2020-07-03T00:00:00.0000000\"";

    @Test
    void currentTimeIsTheQueryTime() {
        // Fn.NOW is 2024-05-06T07:08:09.123456789Z; Cosmos keeps 7 fractional digits (100 ns ticks)
        check("\"2024-05-06T07:08:09.1234567Z\"", "GetCurrentDateTime");
        check("\"2024-05-06T07:08:09.1234567Z\"", "GetCurrentDateTimeStatic");
        check(String.valueOf(Fn.NOW.toEpochMilli()), "GetCurrentTimestamp");
        check(String.valueOf(Fn.NOW.toEpochMilli()), "GetCurrentTimestampStatic");
        check("17149792891234567", "GetCurrentTicks");
        check("17149792891234567", "GetCurrentTicksStatic");
        check("1714979289123", "DateTimeToTimestamp", "\"2024-05-06T07:08:09.1234567Z\"");
    }

    @Test
    void currentTimeIsStableWithinAQueryContext() {
        FunctionContext ctx = FunctionContext.forQuery(
                Clock.fixed(Instant.parse("2021-01-01T00:00:00Z"), ZoneOffset.UTC));
        assertEquals(Fn.callIn(ctx, "GetCurrentDateTime"), Fn.callIn(ctx.withItemRid("x"), "GetCurrentDateTime"));
        Fn.assertResult("\"2021-01-01T00:00:00.0000000Z\"", Fn.callIn(ctx, "GetCurrentDateTime"));
    }

    @Test
    void dateTimeAdd() {
        check("\"2021-07-03T00:00:00.0000000Z\"", "DateTimeAdd", "\"yyyy\"", "1", D);
        check("\"2020-08-03T00:00:00.0000000Z\"", "DateTimeAdd", "\"mm\"", "1", D);
        check("\"2020-07-04T00:00:00.0000000Z\"", "DateTimeAdd", "\"dd\"", "1", D);
        check("\"2020-07-03T01:00:00.0000000Z\"", "DateTimeAdd", "\"hh\"", "1", D);
        check("\"2019-07-03T00:00:00.0000000Z\"", "DateTimeAdd", "\"yyyy\"", "-1", D);
        check("\"2020-06-03T00:00:00.0000000Z\"", "DateTimeAdd", "\"mm\"", "-1", D);
        check("\"2020-07-02T00:00:00.0000000Z\"", "DateTimeAdd", "\"dd\"", "-1", D);
        check("\"2020-07-02T23:00:00.0000000Z\"", "DateTimeAdd", "\"hh\"", "-1", D);
        check("\"2020-07-02T23:59:35.0000000Z\"", "DateTimeAdd", "\"ss\"", "-25", D);
        check("\"2020-07-03T00:01:00.0000000Z\"", "DateTimeAdd", "\"minute\"", "1", D);
        check("\"2020-07-03T00:00:00.0010000Z\"", "DateTimeAdd", "\"ms\"", "1", D);
        check("\"2020-07-03T00:00:00.0000010Z\"", "DateTimeAdd", "\"mcs\"", "1", D);
        check("\"2020-07-03T00:00:00.0000005Z\"", "DateTimeAdd", "\"ns\"", "500", D);
        check("\"2020-02-29T00:00:00.0000000Z\"", "DateTimeAdd", "\"mm\"", "1", "\"2020-01-31T00:00:00.0000000Z\"");
        check("undefined", "DateTimeAdd", "\"dd\"", "1.5", D);
        check("\"2020-07-04T00:00:00.0000000Z\"", "DateTimeAdd", "\"DAY\"", "1.0", D);
        check("undefined", "DateTimeAdd", "\"week\"", "1", D);
        check("undefined", "DateTimeAdd", "\"dd\"", "\"1\"", D);
        check("undefined", "DateTimeAdd", "\"dd\"", "1", "\"2020-13-03T00:00:00\"");
        check("undefined", "DateTimeAdd", "\"dd\"", "1", "\"not a date\"");
        check("undefined", "DateTimeAdd", "\"yyyy\"", "1", "\"9999-07-03T00:00:00Z\"");
    }

    @Test
    void dateTimeDiff() {
        String a = "\"2019-02-04T16:00:00.0000000\"";
        String b = "\"2018-03-05T05:00:00.0000000\"";
        check("-1", "DateTimeDiff", "\"yyyy\"", a, b);
        check("-11", "DateTimeDiff", "\"mm\"", a, b);
        check("-336", "DateTimeDiff", "\"dd\"", a, b);
        check("-8075", "DateTimeDiff", "\"hh\"", a, b);
        check("-29070000", "DateTimeDiff", "\"ss\"", a, b);
        check("1", "DateTimeDiff", "\"yyyy\"", b, a);
        check("11", "DateTimeDiff", "\"mm\"", b, a);
        check("336", "DateTimeDiff", "\"dd\"", b, a);
        check("8075", "DateTimeDiff", "\"hh\"", b, a);
        check("29070000", "DateTimeDiff", "\"ss\"", b, a);
        // boundaries crossed, not whole units elapsed (the examples of the older DateTimeDiff page)
        check("2", "DateTimeDiff", "\"day\"", "\"2020-01-01T01:02:03.1234527Z\"", "\"2020-01-03T01:02:03.1234567Z\"");
        check("-8", "DateTimeDiff", "\"yyyy\"", "\"2028-01-01T01:02:03.1234527Z\"", "\"2020-01-03T01:02:03.1234567Z\"");
        check("0", "DateTimeDiff", "\"hh\"", "\"2020-01-01T01:00:00.1234527Z\"", "\"2020-01-01T01:59:59.1234567Z\"");
        check("1", "DateTimeDiff", "\"yyyy\"", "\"2020-12-31T23:59:59Z\"", "\"2021-01-01T00:00:00Z\"");
        check("1", "DateTimeDiff", "\"dd\"", "\"2020-12-31T23:59:59Z\"", "\"2021-01-01T00:00:00Z\"");
        check("1000", "DateTimeDiff", "\"ms\"", "\"2020-01-01T00:00:00Z\"", "\"2020-01-01T00:00:01Z\"");
        check("100", "DateTimeDiff", "\"ns\"", "\"2020-01-01T00:00:00.0000000Z\"", "\"2020-01-01T00:00:00.0000001Z\"");
        check("undefined", "DateTimeDiff", "\"dd\"", "\"2020-01-01\"", "1");
        check("undefined", "DateTimeDiff", "\"fortnight\"", a, b);
    }

    @Test
    void dateTimePart() {
        String d = "\"2016-05-29T08:30:00.1301617\"";
        check("2016", "DateTimePart", "\"yyyy\"", d);
        check("5", "DateTimePart", "\"mm\"", d);
        check("29", "DateTimePart", "\"dd\"", d);
        check("8", "DateTimePart", "\"hh\"", d);
        check("30", "DateTimePart", "\"mi\"", d);
        check("0", "DateTimePart", "\"ss\"", d);
        check("130", "DateTimePart", "\"ms\"", d);
        check("130161", "DateTimePart", "\"mcs\"", d);
        check("130161700", "DateTimePart", "\"ns\"", d);
        check("2016", "DateTimePart", "\"year\"", d);
        check("undefined", "DateTimePart", "\"dw\"", d);
        check("undefined", "DateTimePart", "\"yyyy\"", "20160529");
    }

    @Test
    void dateTimeBin() {
        String d = "\"2021-01-08T18:35:00.0000000\"";
        check("\"2021-01-08T00:00:00.0000000Z\"", "DateTimeBin", d, "\"dd\"");
        check("\"2021-01-08T18:00:00.0000000Z\"", "DateTimeBin", d, "\"hh\"");
        check("\"2021-01-08T18:35:00.0000000Z\"", "DateTimeBin", d, "\"ss\"");
        check("\"2021-01-08T15:00:00.0000000Z\"", "DateTimeBin", d, "\"hh\"", "5");
        check("\"2021-01-07T00:00:00.0000000Z\"", "DateTimeBin", d, "\"dd\"", "7");
        check("\"2021-01-04T00:00:00.0000000Z\"", "DateTimeBin", d, "\"dd\"", "7", "\"1601-01-01T00:00:00.0000000\"");
        check("\"1969-12-31T00:00:00.0000000Z\"", "DateTimeBin", "\"1969-12-31T23:00:00Z\"", "\"dd\"");
        check("undefined", "DateTimeBin", d, "\"dd\"", "7", "\"1600-12-31T00:00:00.0000000\"");
        check("undefined", "DateTimeBin", d, "\"yyyy\"");
        check("undefined", "DateTimeBin", d, "\"mm\"");
        check("undefined", "DateTimeBin", d, "\"hh\"", "0");
        check("undefined", "DateTimeBin", d, "\"hh\"", "-1");
        check("undefined", "DateTimeBin", d, "\"hh\"", "1.5");
        check("undefined", "DateTimeBin", d, "\"hh\"", "1", "\"yesterday\"");
    }

    @Test
    void dateTimeFromParts() {
        check("\"2017-04-20T00:00:00.0000000Z\"", "DateTimeFromParts", "2017", "4", "20");
        check("\"2017-04-20T00:00:00.0000000Z\"", "DateTimeFromParts", "2017", "4", "20", "0", "0", "0", "0");
        check("\"2017-04-20T13:15:20.3456789Z\"", "DateTimeFromParts", "2017", "4", "20", "13", "15", "20", "3456789");
        check("\"2017-04-20T13:15:00.0000000Z\"", "DateTimeFromParts", "2017", "4", "20", "13", "15");
        check("undefined", "DateTimeFromParts", "-2000", "-1", "-1");
        check("undefined", "DateTimeFromParts", "2017", "2", "30");
        check("undefined", "DateTimeFromParts", "2017", "4", "20", "24");
        check("undefined", "DateTimeFromParts", "2017", "4", "\"20\"");
        check("undefined", "DateTimeFromParts", "2017", "4", "20.5");
    }

    @Test
    void ticksAndTimestamps() {
        check("14320368000000000", "DateTimeToTicks", "\"2015-05-19T12:00:00.0000000\"");
        check("1432036800000", "DateTimeToTimestamp", "\"2015-05-19T12:00:00.0000000\"");
        check("\"2020-08-13T23:19:54.3002652Z\"", "TicksToDateTime", "15973607943002652");
        check("\"1970-01-01T00:00:00.0000000Z\"", "TicksToDateTime", "0");
        check("\"1601-01-01T00:00:00.0000000Z\"", "TicksToDateTime", "-116444736000000000");
        check("\"2020-08-13T23:19:54.3000000Z\"", "TimestampToDateTime", "1597360794300");
        check("\"1970-01-01T00:00:00.0000000Z\"", "TimestampToDateTime", "0");
        check("\"1601-01-01T00:00:00.0000000Z\"", "TimestampToDateTime", "-11644473600000");
        check("undefined", "TicksToDateTime", "\"0\"");
        check("undefined", "TimestampToDateTime", "\"0\"");
        check("undefined", "TimestampToDateTime", "1e300");
        check("undefined", "TimestampToDateTime", "-9223372036854775808");
        check("undefined", "TicksToDateTime", "9223372036854775807");
        check("undefined", "DateTimeFromParts", "2017", "4294967300", "20");
        check("undefined", "DateTimeDiff", "\"ns\"", "\"0001-01-01T00:00:00Z\"", "\"9999-01-01T00:00:00Z\"");
        check("undefined", "DateTimeToTicks", "\"2015-05-19 12:00:00\"");
        check("undefined", "DateTimeToTimestamp", "undefined");
    }

    @Test
    void acceptedInputForms() {
        check("1432036800000", "DateTimeToTimestamp", "\"2015-05-19T12:00:00Z\"");
        check("1432036800000", "DateTimeToTimestamp", "\"2015-05-19T12:00\"");
        check("1432036800000", "DateTimeToTimestamp", "\"2015-05-19T12:00:00.000Z\"");
        check("1432036800000", "DateTimeToTimestamp", "\"2015-05-19T12:00:00.0000000Z\"");
        check("1431993600000", "DateTimeToTimestamp", "\"2015-05-19\"");
        check("undefined", "DateTimeToTimestamp", "\"2015-05-19T12:00:00+01:00\"");
        check("undefined", "DateTimeToTimestamp", "\"2015-05-19T12:00:00.12345678Z\"");
        check("undefined", "DateTimeToTimestamp", "\"2015-02-29T12:00:00Z\"");
    }
}
