package io.tetradb.mongo.bson;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.wire.ReplyEncoder;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.BsonValue;

import java.math.BigDecimal;
import java.util.Base64;

/**
 * A Mongo {@code _id} of any BSON type ↔ the core's string item id. The encoding is canonical (values MongoDB holds
 * equal as {@code _id}s — 1, 1.0, NumberLong(1) — get one id, so the core's per-partition uniqueness of ids is
 * MongoDB's duplicate-key rule), uses only characters the core accepts (never {@code / \ ? #}) and is at most 255
 * characters.
 *
 * <p>A string {@code _id} is the item id as it is, as in Cosmos DB's API for MongoDB (so SQL, Gremlin and Tables see
 * the {@code _id} {@code "m1"} as the id {@code "m1"}); only the five characters {@code ~ / \ ? #} are escaped, one by
 * one, as {@code ~0 … ~4}. Every other type is {@code ~} + a letter + its value: ObjectId {@code ~o} + 24 lower-case
 * hex digits (sorting as the ObjectIds do), numbers {@code ~n} + the canonical number, {@code ~btrue}/{@code ~bfalse},
 * null {@code ~z}, a date {@code ~d} + its milliseconds, the empty string {@code ~s}, the rest {@code ~x} + base64url
 * of its BSON. Unambiguous because in a string's id a {@code ~} is always followed by a digit: no string — not even
 * {@code "~o…"} or 24 hex digits — has the id of an ObjectId or any other non-string value. Because the escape works
 * character by character, the ids of all strings starting with {@code p} (non-empty) are exactly the ids starting
 * with {@code encodePrefix(p)}: {@code {_id: /^p/}} is a key range of the partition.
 *
 * <p>Data directories of the earlier encoding ({@code "s"} + string, {@code "o"} + hex, {@code "n"}…: {@link
 * #legacy}) are converted when a collection is first opened ({@code store.ItemIdUpgrade}).
 */
public final class IdCodec {
    public static final int MAX_ID_CHARS = 255;

    private IdCodec() {
    }

    public static String encode(BsonValue id) {
        if (id.getBsonType() == BsonType.STRING) {
            String s = id.asString().getValue();
            return checked(s.isEmpty() ? TYPED + "s" : escape(s));
        }
        return checked(TYPED + typed(id));
    }

    /**
     * The id the encoding before this one gave {@code id} ({@code "s"} + escaped string, {@code "o"} + hex, …): what
     * {@code ItemIdUpgrade} converts from, and what other faces may still find before a collection is opened.
     */
    public static String legacy(BsonValue id) {
        return id.getBsonType() == BsonType.STRING ? "s" + escape(id.asString().getValue()) : typed(id);
    }

    /** The mark of a non-string {@code _id}'s id: {@code ~} followed by a letter, which no string's id holds. */
    private static final String TYPED = "~";

    private static String checked(String out) {
        if (out.length() > MAX_ID_CHARS) {
            throw new MongoError(ErrorCode.BAD_VALUE, "the _id value is too long: it encodes to " + out.length()
                    + " characters and this server stores at most " + MAX_ID_CHARS);
        }
        return out;
    }

    /** A non-string {@code _id}: a type letter and its canonical text. */
    private static String typed(BsonValue id) {
        return switch (id.getBsonType()) {
            case OBJECT_ID -> "o" + id.asObjectId().getValue().toHexString();
            case INT32, INT64, DOUBLE, DECIMAL128 -> "n" + canonicalNumber(id);
            case BOOLEAN -> id.asBoolean().getValue() ? "btrue" : "bfalse";
            case NULL -> "z";
            case DATE_TIME -> "d" + id.asDateTime().getValue();
            case ARRAY -> throw new MongoError(ErrorCode.INVALID_ID_FIELD, "The '_id' value cannot be of type array");
            case REGULAR_EXPRESSION, UNDEFINED ->
                    throw new MongoError(ErrorCode.INVALID_ID_FIELD, "can't use a " + id.getBsonType() + " for _id");
            default -> "x" + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(ReplyEncoder.bson(new BsonDocument("", id)));
        };
    }

    /** The id prefix of every string {@code _id} that starts with {@code prefix} (not empty). */
    public static String encodePrefix(String prefix) {
        return escape(prefix);
    }

    static String escape(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int code = switch (c) {
                case '~' -> 0;
                case '/' -> 1;
                case '\\' -> 2;
                case '?' -> 3;
                case '#' -> 4;
                default -> -1;
            };
            if (code >= 0 && sb == null) {
                sb = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (sb != null) {
                if (code >= 0) {
                    sb.append('~').append((char) ('0' + code));
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static String canonicalNumber(BsonValue v) {
        if (v.getBsonType() == BsonType.DOUBLE) {
            double d = v.asDouble().getValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return Double.toString(d);
            }
            return plain(new BigDecimal(d));
        }
        if (v.getBsonType() == BsonType.DECIMAL128) {
            org.bson.types.Decimal128 d = v.asDecimal128().getValue();
            if (d.isNaN() || d.isInfinite()) {
                return d.isNaN() ? "NaN" : d.isNegative() ? "-Infinity" : "Infinity";
            }
            return plain(d.bigDecimalValue());
        }
        return Long.toString(v.isInt32() ? v.asInt32().getValue() : v.asInt64().getValue());
    }

    private static String plain(BigDecimal d) {
        if (d.signum() == 0) {
            return "0";
        }
        BigDecimal s = d.stripTrailingZeros();
        return s.scale() <= 0 && s.precision() - s.scale() <= 20 ? s.toBigInteger().toString() : s.toString();
    }
}
