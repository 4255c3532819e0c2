package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAccessor;
import java.util.Set;

/**
 * Date expression operators with MongoDB's {@code timezone} option (an Olson name or a {@code +hh:mm} offset; UTC
 * when absent): the field extractors, {@code $dateToString} with its {@code %} format specifiers and
 * {@code $dateFromString}. The JDK's {@code java.time} does the calendar arithmetic.
 */
final class DateOperators {
    static final Set<String> NAMES = Set.of("$year", "$month", "$dayOfMonth", "$hour", "$minute", "$second",
            "$millisecond", "$dayOfWeek", "$dayOfYear", "$isoWeek", "$isoWeekYear", "$isoDayOfWeek", "$dateToString",
            "$dateFromString");
    static final String DEFAULT_FORMAT = "%Y-%m-%dT%H:%M:%S.%LZ";

    private DateOperators() {
    }

    static BsonValue apply(String op, BsonValue arg, BsonDocument doc) {
        if (op.equals("$dateToString")) {
            return dateToString(arg, doc);
        }
        if (op.equals("$dateFromString")) {
            return dateFromString(arg, doc);
        }
        BsonValue dateExpr = arg;
        ZoneId zone = ZoneOffset.UTC;
        if (arg.isDocument() && arg.asDocument().containsKey("date")) {
            dateExpr = arg.asDocument().get("date");
            zone = zone(arg.asDocument(), doc);
        } else if (arg.isArray() && arg.asArray().size() == 1) {
            dateExpr = arg.asArray().get(0);
        }
        BsonValue v = Expressions.eval(dateExpr, doc);
        if (v == null || v.isNull()) {
            return BsonNull.VALUE;
        }
        ZonedDateTime t = Instant.ofEpochMilli(millis(op, v)).atZone(zone);
        int n = switch (op) {
            case "$year" -> t.getYear();
            case "$month" -> t.getMonthValue();
            case "$dayOfMonth" -> t.getDayOfMonth();
            case "$hour" -> t.getHour();
            case "$minute" -> t.getMinute();
            case "$second" -> t.getSecond();
            case "$millisecond" -> t.get(ChronoField.MILLI_OF_SECOND);
            case "$dayOfWeek" -> t.getDayOfWeek().getValue() % 7 + 1; // Sunday 1 … Saturday 7
            case "$dayOfYear" -> t.getDayOfYear();
            case "$isoWeek" -> t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case "$isoWeekYear" -> t.get(IsoFields.WEEK_BASED_YEAR);
            case "$isoDayOfWeek" -> t.getDayOfWeek().getValue();
            default -> throw new IllegalStateException(op);
        };
        return new BsonInt32(n);
    }

    static long millis(String op, BsonValue v) {
        if (v.isDateTime()) {
            return v.asDateTime().getValue();
        }
        if (v.isTimestamp()) {
            return v.asTimestamp().getTime() * 1000L;
        }
        if (v.isObjectId()) {
            return v.asObjectId().getValue().getTimestamp() * 1000L;
        }
        throw new MongoError(ErrorCode.TYPE_MISMATCH, "can't convert from BSON type " + Expressions.typeName(v)
                + " to Date (" + op + ")");
    }

    private static ZoneId zone(BsonDocument spec, BsonDocument doc) {
        if (!spec.containsKey("timezone")) {
            return ZoneOffset.UTC;
        }
        BsonValue tz = Expressions.eval(spec.get("timezone"), doc);
        if (tz == null || tz.isNull()) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(tz.asString().getValue());
        } catch (DateTimeException e) {
            throw MongoError.badValue("unrecognized time zone identifier: \"" + tz.asString().getValue() + "\"");
        }
    }

    private static BsonValue dateToString(BsonValue arg, BsonDocument doc) {
        if (!arg.isDocument() || !arg.asDocument().containsKey("date")) {
            throw MongoError.badValue("$dateToString requires an object with a 'date' field");
        }
        BsonDocument spec = arg.asDocument();
        BsonValue v = Expressions.eval(spec.get("date"), doc);
        if (v == null || v.isNull()) {
            BsonValue onNull = spec.containsKey("onNull") ? Expressions.eval(spec.get("onNull"), doc) : null;
            return onNull == null ? BsonNull.VALUE : onNull;
        }
        String format = spec.containsKey("format") ? Expressions.eval(spec.get("format"), doc).asString().getValue()
                : DEFAULT_FORMAT;
        ZonedDateTime t = Instant.ofEpochMilli(millis("$dateToString", v)).atZone(zone(spec, doc));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (++i == format.length()) {
                throw MongoError.badValue("$dateToString: unmatched '%' at end of format string");
            }
            char f = format.charAt(i);
            switch (f) {
                case 'Y' -> out.append(String.format("%04d", t.getYear()));
                case 'm' -> out.append(String.format("%02d", t.getMonthValue()));
                case 'd' -> out.append(String.format("%02d", t.getDayOfMonth()));
                case 'H' -> out.append(String.format("%02d", t.getHour()));
                case 'M' -> out.append(String.format("%02d", t.getMinute()));
                case 'S' -> out.append(String.format("%02d", t.getSecond()));
                case 'L' -> out.append(String.format("%03d", t.get(ChronoField.MILLI_OF_SECOND)));
                case 'j' -> out.append(String.format("%03d", t.getDayOfYear()));
                case 'w' -> out.append(t.getDayOfWeek().getValue() % 7 + 1);
                case 'u' -> out.append(t.getDayOfWeek().getValue());
                case 'V' -> out.append(String.format("%02d", t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR)));
                case 'G' -> out.append(String.format("%04d", t.get(IsoFields.WEEK_BASED_YEAR)));
                case 'z' -> {
                    int secs = t.getOffset().getTotalSeconds();
                    out.append(secs < 0 ? '-' : '+').append(String.format("%02d%02d", Math.abs(secs) / 3600,
                            Math.abs(secs) / 60 % 60));
                }
                case 'Z' -> out.append(t.getOffset().getTotalSeconds() / 60);
                case '%' -> out.append('%');
                default -> throw MongoError.badValue("$dateToString: invalid format character '%" + f + "'");
            }
        }
        return new BsonString(out.toString());
    }

    private static BsonValue dateFromString(BsonValue arg, BsonDocument doc) {
        if (!arg.isDocument() || !arg.asDocument().containsKey("dateString")) {
            throw MongoError.badValue("$dateFromString requires an object with a 'dateString' field");
        }
        BsonDocument spec = arg.asDocument();
        BsonValue v = Expressions.eval(spec.get("dateString"), doc);
        if (v == null || v.isNull()) {
            BsonValue onNull = spec.containsKey("onNull") ? Expressions.eval(spec.get("onNull"), doc) : null;
            return onNull == null ? BsonNull.VALUE : onNull;
        }
        try {
            if (!v.isString()) {
                throw new DateTimeException("$dateFromString requires that 'dateString' be a string, found: "
                        + Expressions.typeName(v));
            }
            ZoneId zone = zone(spec, doc);
            DateTimeFormatter formatter = spec.containsKey("format")
                    ? formatter(Expressions.eval(spec.get("format"), doc).asString().getValue())
                    : ISO;
            return new BsonDateTime(parse(v.asString().getValue(), formatter, zone).toEpochMilli());
        } catch (DateTimeException e) {
            if (spec.containsKey("onError")) {
                BsonValue onError = Expressions.eval(spec.get("onError"), doc);
                return onError == null ? BsonNull.VALUE : onError;
            }
            throw new MongoError(ErrorCode.CONVERSION_FAILURE, "Error parsing date string '"
                    + v.asString().getValue() + "': " + e.getMessage());
        }
    }

    /** ISO 8601 as MongoDB accepts it by default: a date, optionally a time, optionally an offset or Z. */
    private static final DateTimeFormatter ISO = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral('T').append(DateTimeFormatter.ISO_LOCAL_TIME).optionalEnd()
            .optionalStart().appendLiteral(' ').append(DateTimeFormatter.ISO_LOCAL_TIME).optionalEnd()
            .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
            .optionalStart().appendOffset("+HHMM", "Z").optionalEnd()
            .toFormatter();

    static Instant parse(String s, DateTimeFormatter formatter, ZoneId zone) {
        TemporalAccessor t;
        try {
            t = formatter.parse(s);
        } catch (DateTimeParseException e) {
            throw new DateTimeException(e.getMessage());
        }
        LocalDate date = LocalDate.from(t);
        LocalDateTime local = t.isSupported(ChronoField.HOUR_OF_DAY)
                ? LocalDateTime.of(date, java.time.LocalTime.from(t)) : date.atStartOfDay();
        if (t.isSupported(ChronoField.OFFSET_SECONDS)) {
            return local.toInstant(ZoneOffset.ofTotalSeconds(t.get(ChronoField.OFFSET_SECONDS)));
        }
        return local.atZone(zone).toInstant();
    }

    /** A MongoDB {@code %} format as a JDK formatter. */
    private static DateTimeFormatter formatter(String format) {
        DateTimeFormatterBuilder b = new DateTimeFormatterBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                b.appendLiteral(c);
                continue;
            }
            char f = format.charAt(++i);
            switch (f) {
                case 'Y' -> b.appendValue(ChronoField.YEAR, 4);
                case 'm' -> b.appendValue(ChronoField.MONTH_OF_YEAR, 2);
                case 'd' -> b.appendValue(ChronoField.DAY_OF_MONTH, 2);
                case 'H' -> b.appendValue(ChronoField.HOUR_OF_DAY, 2);
                case 'M' -> b.appendValue(ChronoField.MINUTE_OF_HOUR, 2);
                case 'S' -> b.appendValue(ChronoField.SECOND_OF_MINUTE, 2);
                case 'L' -> b.appendValue(ChronoField.MILLI_OF_SECOND, 3);
                case 'j' -> b.appendValue(ChronoField.DAY_OF_YEAR, 3);
                case 'z' -> b.appendOffset("+HHMM", "+0000");
                case '%' -> b.appendLiteral('%');
                default -> throw MongoError.badValue("$dateFromString: invalid format character '%" + f + "'");
            }
        }
        return b.parseDefaulting(ChronoField.HOUR_OF_DAY, 0).toFormatter();
    }
}
