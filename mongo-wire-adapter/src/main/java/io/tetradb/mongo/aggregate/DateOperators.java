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
            "$dateFromString", "$dateAdd", "$dateSubtract", "$dateDiff");
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
        if (op.equals("$dateAdd") || op.equals("$dateSubtract")) {
            return dateAdd(op, arg, doc);
        }
        if (op.equals("$dateDiff")) {
            return dateDiff(arg, doc);
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

    private static final java.util.List<String> UNITS = java.util.List.of("year", "quarter", "month", "week", "day",
            "hour", "minute", "second", "millisecond");

    /** The named arguments of a date operator, each evaluated; unknown or missing required ones are refused. */
    private static java.util.Map<String, BsonValue> named(String op, BsonValue arg, BsonDocument doc,
                                                          java.util.List<String> required,
                                                          java.util.List<String> optional) {
        if (!arg.isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " only supports an object as its argument");
        }
        java.util.Map<String, BsonValue> out = new java.util.HashMap<>();
        for (java.util.Map.Entry<String, BsonValue> e : arg.asDocument().entrySet()) {
            if (!required.contains(e.getKey()) && !optional.contains(e.getKey())) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Unrecognized argument to " + op + ": "
                        + e.getKey() + ". Expected arguments are " + String.join(", ", required));
            }
            out.put(e.getKey(), Expressions.eval(e.getValue(), doc));
        }
        for (String r : required) {
            if (!arg.asDocument().containsKey(r)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Missing '" + r + "' parameter to " + op);
            }
        }
        return out;
    }

    private static String unit(String op, BsonValue v) {
        if (!v.isString()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " requires 'unit' to be a string, but got "
                    + Expressions.typeName(v));
        }
        String u = v.asString().getValue();
        if (!UNITS.contains(u)) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " parameter 'unit' value parsing failed :: caused "
                    + "by :: unknown time unit value: " + u);
        }
        return u;
    }

    private static ZoneId zoneOf(BsonValue tz) {
        if (tz == null || tz.isNull()) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(tz.asString().getValue());
        } catch (DateTimeException | org.bson.BsonInvalidOperationException e) {
            throw MongoError.badValue("unrecognized time zone identifier: \"" + tz + "\"");
        }
    }

    private static boolean nullish(BsonValue v) {
        return v == null || v.isNull() || v.getBsonType() == org.bson.BsonType.UNDEFINED;
    }

    /**
     * {@code $dateAdd}/{@code $dateSubtract}: calendar units (year, quarter, month, week, day) move the local date in
     * the time zone (a month from Jan 31 ends on the last day of February); smaller units are exact durations.
     */
    private static BsonValue dateAdd(String op, BsonValue arg, BsonDocument doc) {
        java.util.Map<String, BsonValue> a = named(op, arg, doc, java.util.List.of("startDate", "unit", "amount"),
                java.util.List.of("timezone"));
        if (nullish(a.get("startDate")) || nullish(a.get("unit")) || nullish(a.get("amount"))
                || a.containsKey("timezone") && nullish(a.get("timezone"))) {
            return BsonNull.VALUE;
        }
        long start = millis(op, a.get("startDate"));
        String unit = unit(op, a.get("unit"));
        BsonValue amountV = a.get("amount");
        if (!io.tetradb.mongo.query.BsonOrder.isNumber(amountV) || io.tetradb.mongo.query.BsonOrder.toDouble(amountV)
                != Math.rint(io.tetradb.mongo.query.BsonOrder.toDouble(amountV))) {
            throw new MongoError(ErrorCode.DATE_ARITHMETIC_AMOUNT, op + " expects integer amount of time units");
        }
        long amount = (long) io.tetradb.mongo.query.BsonOrder.toDouble(amountV);
        if (op.equals("$dateSubtract")) {
            amount = -amount;
        }
        ZonedDateTime t = Instant.ofEpochMilli(start).atZone(zoneOf(a.get("timezone")));
        try {
            long result = switch (unit) {
                case "year" -> t.plusYears(amount).toInstant().toEpochMilli();
                case "quarter" -> t.plusMonths(Math.multiplyExact(amount, 3)).toInstant().toEpochMilli();
                case "month" -> t.plusMonths(amount).toInstant().toEpochMilli();
                case "week" -> t.plusWeeks(amount).toInstant().toEpochMilli();
                case "day" -> t.plusDays(amount).toInstant().toEpochMilli();
                case "hour" -> Math.addExact(start, Math.multiplyExact(amount, 3_600_000L));
                case "minute" -> Math.addExact(start, Math.multiplyExact(amount, 60_000L));
                case "second" -> Math.addExact(start, Math.multiplyExact(amount, 1000L));
                default -> Math.addExact(start, amount);
            };
            return new BsonDateTime(result);
        } catch (ArithmeticException | DateTimeException e) {
            throw MongoError.badValue(op + " overflowed");
        }
    }

    /**
     * {@code $dateDiff}: how many unit boundaries lie between the two dates (in the time zone for calendar units;
     * weeks start on {@code startOfWeek}, Sunday by default), as a long.
     */
    private static BsonValue dateDiff(BsonValue arg, BsonDocument doc) {
        String op = "$dateDiff";
        java.util.Map<String, BsonValue> a = named(op, arg, doc, java.util.List.of("startDate", "endDate", "unit"),
                java.util.List.of("timezone", "startOfWeek"));
        if (nullish(a.get("startDate")) || nullish(a.get("endDate")) || nullish(a.get("unit"))
                || a.containsKey("timezone") && nullish(a.get("timezone"))
                || a.containsKey("startOfWeek") && nullish(a.get("startOfWeek"))) {
            return BsonNull.VALUE;
        }
        long start = millis(op, a.get("startDate"));
        long end = millis(op, a.get("endDate"));
        String unit = unit(op, a.get("unit"));
        ZoneId zone = zoneOf(a.get("timezone"));
        ZonedDateTime s = Instant.ofEpochMilli(start).atZone(zone);
        ZonedDateTime e = Instant.ofEpochMilli(end).atZone(zone);
        long n = switch (unit) {
            case "year" -> e.getYear() - s.getYear();
            case "quarter" -> (e.getYear() * 4L + (e.getMonthValue() - 1) / 3) - (s.getYear() * 4L
                    + (s.getMonthValue() - 1) / 3);
            case "month" -> (e.getYear() * 12L + e.getMonthValue()) - (s.getYear() * 12L + s.getMonthValue());
            case "week" -> {
                java.time.DayOfWeek first = java.time.DayOfWeek.SUNDAY;
                if (a.containsKey("startOfWeek")) {
                    String name = a.get("startOfWeek").isString() ? a.get("startOfWeek").asString().getValue() : "";
                    first = weekDay(name);
                }
                long anchor = (first.getValue() - 4 + 7) % 7; // 1970-01-01 was a Thursday
                yield Math.floorDiv(e.toLocalDate().toEpochDay() - anchor, 7)
                        - Math.floorDiv(s.toLocalDate().toEpochDay() - anchor, 7);
            }
            case "day" -> e.toLocalDate().toEpochDay() - s.toLocalDate().toEpochDay();
            case "hour" -> Math.floorDiv(local(e), 3_600_000L) - Math.floorDiv(local(s), 3_600_000L);
            case "minute" -> Math.floorDiv(end, 60_000L) - Math.floorDiv(start, 60_000L);
            case "second" -> Math.floorDiv(end, 1000L) - Math.floorDiv(start, 1000L);
            default -> end - start;
        };
        return new org.bson.BsonInt64(n);
    }

    /** The local wall-clock time as milliseconds (hours are counted on the local clock, as MongoDB does). */
    private static long local(ZonedDateTime t) {
        return t.toInstant().toEpochMilli() + t.getOffset().getTotalSeconds() * 1000L;
    }

    private static java.time.DayOfWeek weekDay(String name) {
        for (java.time.DayOfWeek d : java.time.DayOfWeek.values()) {
            String full = d.name().toLowerCase(java.util.Locale.ROOT);
            if (name.equalsIgnoreCase(full) || name.equalsIgnoreCase(full.substring(0, 3))) {
                return d;
            }
        }
        throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$dateDiff parameter 'startOfWeek' value cannot be "
                + "recognized as a day of a week: " + name);
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

    /**
     * ISO 8601 as MongoDB accepts it by default: a date, optionally a time (after T or a space), optionally an
     * offset ({@code Z}, {@code +05:00}, {@code +0500}, {@code +05}), optionally after a space.
     */
    private static final DateTimeFormatter ISO = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral('T').append(DateTimeFormatter.ISO_LOCAL_TIME).optionalEnd()
            .optionalStart().appendLiteral(' ').append(DateTimeFormatter.ISO_LOCAL_TIME).optionalEnd()
            .optionalStart().appendLiteral(' ').optionalEnd()
            .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
            .optionalStart().appendOffset("+HHMM", "Z").optionalEnd()
            .optionalStart().appendOffset("+HH", "Z").optionalEnd()
            .toFormatter();

    /** A date string in MongoDB's default ISO forms (UTC unless it has an offset), as {@code $toDate} reads it. */
    static Instant parseIso(String s) {
        return parse(s, ISO, ZoneOffset.UTC);
    }

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
