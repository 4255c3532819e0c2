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
            "$dateFromString", "$dateAdd", "$dateSubtract", "$dateDiff", "$week", "$dateTrunc", "$dateToParts",
            "$dateFromParts");
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
        if (op.equals("$dateTrunc")) {
            return dateTrunc(arg, doc);
        }
        if (op.equals("$dateToParts")) {
            return dateToParts(arg, doc);
        }
        if (op.equals("$dateFromParts")) {
            return dateFromParts(arg, doc);
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
            case "$week" -> (t.getDayOfYear() - 1 + 7 - t.getDayOfWeek().getValue() % 7) / 7; // %U: Sunday weeks

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

    /**
     * {@code $dateTrunc}: the start of the {@code binSize}-unit bin the date falls in, bins counted in the time zone
     * from 2000-01-01 (weeks from the {@code startOfWeek} day on or before it), as MongoDB does.
     */
    private static BsonValue dateTrunc(BsonValue arg, BsonDocument doc) {
        String op = "$dateTrunc";
        java.util.Map<String, BsonValue> a = named(op, arg, doc, java.util.List.of("date", "unit"),
                java.util.List.of("binSize", "timezone", "startOfWeek"));
        for (BsonValue v : a.values()) {
            if (nullish(v)) {
                return BsonNull.VALUE;
            }
        }
        long millis = millis(op, a.get("date"));
        String unit = unit(op, a.get("unit"));
        long bin = 1;
        if (a.containsKey("binSize")) {
            BsonValue b = a.get("binSize");
            if (!io.tetradb.mongo.query.BsonOrder.isNumber(b) || io.tetradb.mongo.query.BsonOrder.toDouble(b) < 1
                    || io.tetradb.mongo.query.BsonOrder.toDouble(b)
                    != Math.rint(io.tetradb.mongo.query.BsonOrder.toDouble(b))) {
                throw new MongoError(ErrorCode.DATE_TRUNC_BIN_SIZE, "$dateTrunc requires 'binSize' to be a "
                        + "positive 64-bit integer value");
            }
            bin = (long) io.tetradb.mongo.query.BsonOrder.toDouble(b);
        }
        ZoneId zone = zoneOf(a.get("timezone"));
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone);
        LocalDateTime ref = LocalDateTime.of(2000, 1, 1, 0, 0);
        LocalDateTime out = switch (unit) {
            case "year" -> ref.plusYears(Math.floorDiv(t.getYear() - 2000L, bin) * bin);
            case "quarter", "month" -> {
                long months = (t.getYear() - 2000L) * 12 + t.getMonthValue() - 1;
                long size = unit.equals("quarter") ? 3 * bin : bin;
                yield ref.plusMonths(Math.floorDiv(months, size) * size);
            }
            case "week" -> {
                java.time.DayOfWeek first = a.containsKey("startOfWeek") && a.get("startOfWeek").isString()
                        ? weekDay(a.get("startOfWeek").asString().getValue()) : java.time.DayOfWeek.SUNDAY;
                LocalDateTime start = ref.with(java.time.temporal.TemporalAdjusters.previousOrSame(first));
                long days = java.time.temporal.ChronoUnit.DAYS.between(start.toLocalDate(), t.toLocalDate());
                yield start.plusDays(Math.floorDiv(days, 7 * bin) * 7 * bin);
            }
            case "day" -> {
                long days = java.time.temporal.ChronoUnit.DAYS.between(ref.toLocalDate(), t.toLocalDate());
                yield ref.plusDays(Math.floorDiv(days, bin) * bin);
            }
            default -> {
                long unitMillis = switch (unit) {
                    case "hour" -> 3_600_000L;
                    case "minute" -> 60_000L;
                    case "second" -> 1000L;
                    default -> 1L;
                };
                long since = java.time.Duration.between(ref, t).toMillis();
                yield ref.plus(java.time.Duration.ofMillis(Math.floorDiv(since, unitMillis * bin) * unitMillis * bin));
            }
        };
        return new BsonDateTime(out.atZone(zone).toInstant().toEpochMilli());
    }

    /** {@code $dateToParts}: the date's calendar fields in the time zone (ISO week fields with {@code iso8601}). */
    private static BsonValue dateToParts(BsonValue arg, BsonDocument doc) {
        String op = "$dateToParts";
        java.util.Map<String, BsonValue> a = named(op, arg, doc, java.util.List.of("date"),
                java.util.List.of("timezone", "iso8601"));
        if (nullish(a.get("date")) || a.containsKey("timezone") && nullish(a.get("timezone"))) {
            return BsonNull.VALUE;
        }
        ZonedDateTime t = Instant.ofEpochMilli(millis(op, a.get("date"))).atZone(zoneOf(a.get("timezone")));
        BsonDocument out = new BsonDocument();
        if (a.containsKey("iso8601") && Expressions.truthy(a.get("iso8601"))) {
            out.append("isoWeekYear", new BsonInt32(t.get(IsoFields.WEEK_BASED_YEAR)))
                    .append("isoWeek", new BsonInt32(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR)))
                    .append("isoDayOfWeek", new BsonInt32(t.getDayOfWeek().getValue()));
        } else {
            out.append("year", new BsonInt32(t.getYear())).append("month", new BsonInt32(t.getMonthValue()))
                    .append("day", new BsonInt32(t.getDayOfMonth()));
        }
        return out.append("hour", new BsonInt32(t.getHour())).append("minute", new BsonInt32(t.getMinute()))
                .append("second", new BsonInt32(t.getSecond()))
                .append("millisecond", new BsonInt32(t.get(ChronoField.MILLI_OF_SECOND)));
    }

    /**
     * {@code $dateFromParts}: a date from calendar (or ISO week) parts in the time zone; parts past their range carry
     * over (month 14 is February of the next year), as in MongoDB.
     */
    private static BsonValue dateFromParts(BsonValue arg, BsonDocument doc) {
        String op = "$dateFromParts";
        java.util.List<String> parts = java.util.List.of("year", "month", "day", "isoWeekYear", "isoWeek",
                "isoDayOfWeek", "hour", "minute", "second", "millisecond", "timezone");
        java.util.Map<String, BsonValue> a = named(op, arg, doc, java.util.List.of(), parts);
        boolean iso = a.containsKey("isoWeekYear");
        if (iso == a.containsKey("year")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$dateFromParts requires either 'year' or "
                    + "'isoWeekYear' (and not both)");
        }
        for (BsonValue v : a.values()) {
            if (nullish(v)) {
                return BsonNull.VALUE;
            }
        }
        long[] n = new long[parts.size() - 1];
        for (int i = 0; i < n.length; i++) {
            String p = parts.get(i);
            BsonValue v = a.get(p);
            long dflt = p.equals("month") || p.equals("day") || p.equals("isoWeek") || p.equals("isoDayOfWeek") ? 1 : 0;
            if (v == null) {
                n[i] = dflt;
                continue;
            }
            double d = io.tetradb.mongo.query.BsonOrder.isNumber(v) ? io.tetradb.mongo.query.BsonOrder.toDouble(v)
                    : Double.NaN;
            boolean year = p.equals("year") || p.equals("isoWeekYear");
            if (d != Math.rint(d) || (year ? d < 1 || d > 9999 : d < -32768 || d > 32767)) {
                throw new MongoError(ErrorCode.DATE_FROM_PARTS_RANGE, "'" + p + "' must evaluate to an integer in "
                        + "the range " + (year ? "1 to 9999" : "-32768 to 32767") + ", found "
                        + (io.tetradb.mongo.query.BsonOrder.isNumber(v) ? MathOperators.show(v)
                        : Expressions.typeName(v)));
            }
            n[i] = (long) d;
        }
        LocalDateTime t;
        if (iso) {
            LocalDate week1 = LocalDate.of((int) n[3], 1, 4).with(java.time.temporal.TemporalAdjusters
                    .previousOrSame(java.time.DayOfWeek.MONDAY));
            t = week1.plusWeeks(n[4] - 1).plusDays(n[5] - 1).atStartOfDay();
        } else {
            t = LocalDate.of((int) n[0], 1, 1).plusMonths(n[1] - 1).plusDays(n[2] - 1).atStartOfDay();
        }
        t = t.plusHours(n[6]).plusMinutes(n[7]).plusSeconds(n[8]).plus(java.time.Duration.ofMillis(n[9]));
        return new BsonDateTime(t.atZone(zoneOf(a.get("timezone"))).toInstant().toEpochMilli());
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
