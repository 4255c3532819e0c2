package io.tetradb.core.ttl;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * When a version of an item expires, in epoch milliseconds ({@link #NEVER}: it does not). Two sources, the earlier
 * wins:
 * <ul>
 *   <li>Cosmos DB's time to live: with the container's {@code defaultTtl} set, {@code _ts} plus the item's {@code ttl}
 *       (-1: never) or else plus {@code defaultTtl} (-1: never); with it absent nothing expires this way.</li>
 *   <li>date fields (MongoDB TTL indexes): the date at a path plus some seconds; in an array the earliest date counts;
 *       a value that is not a date never expires. A date is the core's interchange form of one, Extended JSON's
 *       {@code {"$date": ISO-8601 | {"$numberLong": ms} | ms}}.</li>
 * </ul>
 */
public final class ExpiryRule {
    public static final long NEVER = Long.MAX_VALUE;
    public static final ExpiryRule OFF = new ExpiryRule(null, List.of());

    /** A date path (segments) whose documents expire {@code seconds} after the date; named for its owner's index. */
    public record DateField(String name, List<String> path, long seconds) {
    }

    private final Integer defaultTtl;
    private final List<DateField> dateFields;
    private final java.util.Set<String> fieldsRead;

    public ExpiryRule(Integer defaultTtl, List<DateField> dateFields) {
        this.defaultTtl = defaultTtl;
        this.dateFields = List.copyOf(dateFields);
        java.util.Set<String> read = new java.util.LinkedHashSet<>();
        if (defaultTtl != null) {
            read.add("ttl");
        }
        for (DateField f : this.dateFields) {
            if (!f.path().isEmpty()) {
                read.add(f.path().get(0));
            }
        }
        this.fieldsRead = java.util.Collections.unmodifiableSet(read);
    }

    public Integer defaultTtl() {
        return defaultTtl;
    }

    public List<DateField> dateFields() {
        return dateFields;
    }

    /** False when no item of the container can expire: reads and writes then skip every expiry check. */
    public boolean active() {
        return defaultTtl != null || !dateFields.isEmpty();
    }

    public ExpiryRule withDefaultTtl(Integer ttl) {
        return new ExpiryRule(ttl, dateFields);
    }

    /** This rule with {@code field} added, or replacing the one of the same name. */
    public ExpiryRule withDateField(DateField field) {
        List<DateField> next = new ArrayList<>(dateFields);
        next.removeIf(f -> f.name().equals(field.name()));
        next.add(field);
        return new ExpiryRule(defaultTtl, next);
    }

    public ExpiryRule withoutDateField(String name) {
        List<DateField> next = new ArrayList<>(dateFields);
        next.removeIf(f -> f.name().equals(name));
        return new ExpiryRule(defaultTtl, next);
    }

    /** The top-level fields {@link #expiresAt} reads besides {@code _ts} (so a reader may decode just these). */
    public java.util.Set<String> fieldsRead() {
        return fieldsRead;
    }

    /** The expiry of a stored item (its {@code _ts} read from it). */
    public long expiresAt(JsonNode stored) {
        return expiresAt(stored, stored.path("_ts").asLong());
    }

    /** The expiry of a version written at {@code tsSeconds}. */
    public long expiresAt(JsonNode item, long tsSeconds) {
        long at = NEVER;
        if (defaultTtl != null) {
            JsonNode t = item.get("ttl");
            long seconds = t != null && TimeToLive.validItemTtl(t) ? t.longValue() : defaultTtl;
            if (seconds > 0) {
                at = Math.multiplyExact(tsSeconds + seconds, 1000L);
            }
        }
        for (DateField f : dateFields) {
            JsonNode v = item;
            for (String s : f.path()) {
                v = v.isArray() ? earliestIn(v, s) : v.path(s);
            }
            long date = earliestDate(v);
            if (date != NEVER) {
                at = Math.min(at, saturatedAdd(date, f.seconds() * 1000L));
            }
        }
        return at;
    }

    /** Below an array, a path segment reaches into each element (as MongoDB's dotted paths do). */
    private static JsonNode earliestIn(JsonNode array, String segment) {
        JsonNode best = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        long bestAt = NEVER;
        for (JsonNode e : array) {
            JsonNode v = e.path(segment);
            long d = earliestDate(v);
            if (d < bestAt) {
                bestAt = d;
                best = v;
            }
        }
        return best;
    }

    private static long earliestDate(JsonNode v) {
        if (v.isArray()) {
            long min = NEVER;
            for (JsonNode e : v) {
                min = Math.min(min, dateMillis(e));
            }
            return min;
        }
        return dateMillis(v);
    }

    /** The milliseconds of a typed date or an Extended JSON date, or {@link #NEVER} for any other value. */
    public static long dateMillis(JsonNode v) {
        if (v instanceof io.tetradb.core.value.DateTimeNode typed) { // the Mongo face's dates as typed values
            return typed.epochMillis();
        }
        if (!v.isObject() || v.size() != 1) {
            return NEVER;
        }
        JsonNode d = v.get("$date");
        if (d == null) {
            return NEVER;
        }
        try {
            if (d.isTextual()) {
                return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(d.textValue(), java.time.Instant::from)
                        .toEpochMilli();
            }
            if (d.isIntegralNumber()) {
                return d.longValue();
            }
            JsonNode n = d.get("$numberLong");
            if (n != null && n.isTextual()) {
                return Long.parseLong(n.textValue());
            }
        } catch (RuntimeException notADate) {
            return NEVER;
        }
        return NEVER;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (b > 0 ? NEVER : Long.MIN_VALUE) : r;
    }
}
