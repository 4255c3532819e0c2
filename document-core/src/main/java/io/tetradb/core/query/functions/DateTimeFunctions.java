package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tetradb.core.query.functions.Args.UNDEFINED;
import static io.tetradb.core.query.functions.Args.integer;
import static io.tetradb.core.query.functions.Args.isInt64;
import static io.tetradb.core.query.functions.Args.isNumber;
import static io.tetradb.core.query.functions.Args.isString;
import static io.tetradb.core.query.functions.Args.text;

/**
 * Date and time functions (Cosmos docs → "Date and time functions"). Date-times are UTC ISO 8601 strings, printed as
 * Cosmos prints them, {@code YYYY-MM-DDThh:mm:ss.fffffffZ} (seven fractional digits, 100 ns "ticks"). Inputs may omit
 * the {@code Z}, the fraction (1 to 7 digits), the seconds, or the whole time; anything else (offsets, out-of-range
 * fields, years outside 0001-9999) is not a date-time and makes the result undefined. Ticks and timestamps count from
 * the Unix epoch, in 100 ns and milliseconds.
 */
public final class DateTimeFunctions {
    static final long TICKS_PER_MS = 10_000L;
    static final long TICKS_PER_SECOND = 10_000_000L;

    private static final Pattern ISO = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})(?:T(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,7}))?)?)?Z?");

    private static final long MIN_TICKS = ticks(LocalDateTime.of(1, 1, 1, 0, 0));
    private static final long MAX_TICKS = ticks(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_900));

    /** The date-time parts, by every name Cosmos accepts for them. */
    enum Part {
        YEAR(0), MONTH(0), DAY(864_000_000_000L), HOUR(36_000_000_000L), MINUTE(600_000_000L),
        SECOND(TICKS_PER_SECOND), MILLISECOND(TICKS_PER_MS), MICROSECOND(10), NANOSECOND(0);

        /** The part's length in ticks, for the fixed-length parts down to microseconds. */
        final long ticks;

        Part(long ticks) {
            this.ticks = ticks;
        }

        private static final Map<String, Part> NAMES = Map.ofEntries(
                Map.entry("year", YEAR), Map.entry("yyyy", YEAR), Map.entry("yy", YEAR),
                Map.entry("month", MONTH), Map.entry("mm", MONTH), Map.entry("m", MONTH),
                Map.entry("day", DAY), Map.entry("dd", DAY), Map.entry("d", DAY),
                Map.entry("hour", HOUR), Map.entry("hh", HOUR),
                Map.entry("minute", MINUTE), Map.entry("mi", MINUTE), Map.entry("n", MINUTE),
                Map.entry("second", SECOND), Map.entry("ss", SECOND), Map.entry("s", SECOND),
                Map.entry("millisecond", MILLISECOND), Map.entry("ms", MILLISECOND),
                Map.entry("microsecond", MICROSECOND), Map.entry("mcs", MICROSECOND),
                Map.entry("nanosecond", NANOSECOND), Map.entry("ns", NANOSECOND));

        static Part of(JsonNode v) {
            return isString(v) ? NAMES.get(v.textValue().toLowerCase(Locale.ROOT)) : null;
        }
    }

    private DateTimeFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        // the query's start time: one value for every item of a query, so the Static variants are the same
        for (String suffix : new String[]{"", "Static"}) {
            r.register("GetCurrentDateTime" + suffix, 0, 0, (a, c) -> text(format(ticks(c.now()))));
            r.register("GetCurrentTimestamp" + suffix, 0, 0, (a, c) -> integer(c.now().toEpochMilli()));
            r.register("GetCurrentTicks" + suffix, 0, 0, (a, c) -> integer(ticks(c.now())));
        }
        r.register("DateTimeAdd", 3, 3, (a, c) -> {
            Part part = Part.of(a.get(0));
            LocalDateTime dt = parse(a.get(2));
            // "undefined if ... the numeric expression isn't a valid integer" (DateTimeAdd remarks)
            if (part == null || !isInt64(a.get(1)) || dt == null) {
                return UNDEFINED;
            }
            long amount = a.get(1).longValue();
            try {
                long result;
                switch (part) {
                    case YEAR -> result = ticks(dt.plusYears(amount));
                    case MONTH -> result = ticks(dt.plusMonths(amount));
                    case NANOSECOND -> result = Math.addExact(ticks(dt), amount / 100);
                    default -> result = Math.addExact(ticks(dt), Math.multiplyExact(amount, part.ticks));
                }
                return inRange(result) ? text(format(result)) : UNDEFINED;
            } catch (DateTimeException | ArithmeticException e) {
                return UNDEFINED;
            }
        });
        r.register("DateTimeDiff", 3, 3, (a, c) -> {
            Part part = Part.of(a.get(0));
            LocalDateTime start = parse(a.get(1));
            LocalDateTime end = parse(a.get(2));
            if (part == null || start == null || end == null) {
                return UNDEFINED;
            }
            // the number of part boundaries crossed, as SQL Server's DATEDIFF counts them
            if (part == Part.NANOSECOND) {
                try {
                    return integer(Math.multiplyExact(ticks(end) - ticks(start), 100L));
                } catch (ArithmeticException e) {
                    return UNDEFINED; // more than about 2,900 years apart
                }
            }
            return integer(switch (part) {
                case YEAR -> end.getYear() - start.getYear();
                case MONTH -> (end.getYear() * 12L + end.getMonthValue()) - (start.getYear() * 12L + start.getMonthValue());
                default -> Math.floorDiv(ticks(end), part.ticks) - Math.floorDiv(ticks(start), part.ticks);
            });
        });
        r.register("DateTimePart", 2, 2, (a, c) -> {
            Part part = Part.of(a.get(0));
            LocalDateTime dt = parse(a.get(1));
            if (part == null || dt == null) {
                return UNDEFINED;
            }
            return integer(switch (part) {
                case YEAR -> dt.getYear();
                case MONTH -> dt.getMonthValue();
                case DAY -> dt.getDayOfMonth();
                case HOUR -> dt.getHour();
                case MINUTE -> dt.getMinute();
                case SECOND -> dt.getSecond();
                case MILLISECOND -> dt.getNano() / 1_000_000;
                case MICROSECOND -> dt.getNano() / 1_000;
                case NANOSECOND -> dt.getNano();
            });
        });
        r.register("DateTimeBin", 2, 4, (a, c) -> {
            LocalDateTime dt = parse(a.get(0));
            Part part = Part.of(a.get(1));
            if (dt == null || part == null || part == Part.YEAR || part == Part.MONTH) {
                return UNDEFINED;
            }
            long size = 1;
            if (a.size() > 2) {
                if (!isInt64(a.get(2)) || a.get(2).longValue() <= 0) {
                    return UNDEFINED;
                }
                size = a.get(2).longValue();
            }
            long origin = 0;
            if (a.size() > 3) {
                LocalDateTime o = parse(a.get(3));
                // "undefined if ... the date and time for the bin start precedes the year 1601" (DateTimeBin remarks)
                if (o == null || o.getYear() < 1601) {
                    return UNDEFINED;
                }
                origin = ticks(o);
            }
            // in nanoseconds, with big integers: a bin may be smaller than a tick or larger than a long of ticks
            BigInteger hundred = BigInteger.valueOf(100);
            BigInteger unit = BigInteger.valueOf(part == Part.NANOSECOND ? 1 : part.ticks * 100)
                    .multiply(BigInteger.valueOf(size));
            BigInteger offset = BigInteger.valueOf(ticks(dt)).subtract(BigInteger.valueOf(origin)).multiply(hundred);
            BigInteger[] qr = offset.divideAndRemainder(unit);
            BigInteger bins = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
            BigInteger result = BigInteger.valueOf(origin).add(bins.multiply(unit).divide(hundred));
            if (result.bitLength() > 63 || !inRange(result.longValue())) {
                return UNDEFINED;
            }
            return text(format(result.longValue()));
        });
        r.register("DateTimeFromParts", 3, 7, (a, c) -> {
            long[] p = new long[7];
            for (int i = 0; i < a.size(); i++) {
                if (!isInt64(a.get(i))) {
                    return UNDEFINED;
                }
                p[i] = a.get(i).longValue();
                if (Math.abs(p[i]) > Integer.MAX_VALUE) {
                    return UNDEFINED;
                }
            }
            if (p[6] < 0 || p[6] >= TICKS_PER_SECOND || p[0] < 1 || p[0] > 9999) {
                return UNDEFINED;
            }
            try {
                LocalDateTime dt = LocalDateTime.of((int) p[0], (int) p[1], (int) p[2], (int) p[3], (int) p[4],
                        (int) p[5], (int) p[6] * 100);
                return text(format(ticks(dt)));
            } catch (DateTimeException | ArithmeticException e) {
                return UNDEFINED;
            }
        });
        r.register("DateTimeToTicks", 1, 1, (a, c) -> {
            LocalDateTime dt = parse(a.get(0));
            return dt == null ? UNDEFINED : integer(ticks(dt));
        });
        r.register("DateTimeToTimestamp", 1, 1, (a, c) -> {
            LocalDateTime dt = parse(a.get(0));
            return dt == null ? UNDEFINED : integer(Math.floorDiv(ticks(dt), TICKS_PER_MS));
        });
        r.register("TicksToDateTime", 1, 1, (a, c) -> {
            if (!isNumber(a.get(0))) {
                return UNDEFINED;
            }
            long t = a.get(0).isIntegralNumber() && a.get(0).canConvertToLong() ? a.get(0).longValue()
                    : (long) Math.floor(a.get(0).doubleValue());
            return inRange(t) ? text(format(t)) : UNDEFINED;
        });
        r.register("TimestampToDateTime", 1, 1, (a, c) -> {
            if (!isNumber(a.get(0))) {
                return UNDEFINED;
            }
            JsonNode v = a.get(0);
            long t;
            if (isInt64(v)) {
                if (v.longValue() > MAX_TICKS / TICKS_PER_MS || v.longValue() < -MAX_TICKS / TICKS_PER_MS) {
                    return UNDEFINED;
                }
                t = v.longValue() * TICKS_PER_MS;
            } else {
                double d = v.doubleValue() * TICKS_PER_MS;
                if (!(d >= MIN_TICKS && d <= MAX_TICKS)) {
                    return UNDEFINED;
                }
                t = (long) Math.floor(d);
            }
            return inRange(t) ? text(format(t)) : UNDEFINED;
        });
    }

    /** Parses a Cosmos date-time string; null when {@code v} is not one. */
    static LocalDateTime parse(JsonNode v) {
        if (!isString(v)) {
            return null;
        }
        Matcher m = ISO.matcher(v.textValue());
        if (!m.matches()) {
            return null;
        }
        int year = Integer.parseInt(m.group(1));
        if (year < 1) {
            return null;
        }
        String fraction = m.group(7) == null ? "0000000" : (m.group(7) + "000000").substring(0, 7);
        try {
            return LocalDateTime.of(year, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    m.group(4) == null ? 0 : Integer.parseInt(m.group(4)),
                    m.group(5) == null ? 0 : Integer.parseInt(m.group(5)),
                    m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
                    Integer.parseInt(fraction) * 100);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** 100 ns ticks since the Unix epoch. */
    static long ticks(LocalDateTime dt) {
        return ticks(dt.toInstant(ZoneOffset.UTC));
    }

    static long ticks(Instant i) {
        return i.getEpochSecond() * TICKS_PER_SECOND + i.getNano() / 100;
    }

    static boolean inRange(long ticks) {
        return ticks >= MIN_TICKS && ticks <= MAX_TICKS;
    }

    /** {@code YYYY-MM-DDThh:mm:ss.fffffffZ} for ticks since the Unix epoch. */
    static String format(long ticks) {
        long seconds = Math.floorDiv(ticks, TICKS_PER_SECOND);
        int fraction = (int) Math.floorMod(ticks, TICKS_PER_SECOND);
        LocalDateTime dt = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        return String.format(Locale.ROOT, "%04d-%02d-%02dT%02d:%02d:%02d.%07dZ", dt.getYear(), dt.getMonthValue(),
                dt.getDayOfMonth(), dt.getHour(), dt.getMinute(), dt.getSecond(), fraction);
    }
}
