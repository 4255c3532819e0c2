package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MaxKeyNode;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.Map;

/**
 * A stored value (the core's typed value model, see {@code io.tetradb.core.value.ValueType}) as BSON — the Mongo
 * column of document-core's cross-face table: Int32 → int, Int64 → long, Double → double, Float → double (its exact
 * value), Decimal128 → decimal, BigInteger → long when it fits, else decimal when it has at most 34 digits, else its
 * decimal text; BigDecimal → decimal when Decimal128 holds it exactly, else its text; DateTime → date (milliseconds:
 * finer ticks truncated, an offset dropped); Binary → BinData of its subtype; UUID → BinData 4; ObjectId, Timestamp,
 * Regex, MinKey, MaxKey → their BSON types.
 *
 * <p>Objects whose first name starts with {@code $} (other than a DBRef's {@code $ref}) are the tagged Extended JSON
 * of the earlier mapping ({@code {"$date": …}}, {@code {"$oid": …}}; still written for the deprecated BSON types):
 * the bson library reads them back; one that is no Extended JSON (another face wrote it) is a plain document.
 */
final class TypedToBson {
    private TypedToBson() {
    }

    static BsonValue bson(JsonNode n) {
        if (n.isObject()) {
            return object(n);
        }
        if (n.isArray()) {
            BsonArray a = new BsonArray(new ArrayList<>(n.size()));
            for (JsonNode x : n) {
                a.add(bson(x));
            }
            return a;
        }
        if (n.isTextual()) {
            return new BsonString(n.textValue());
        }
        if (n.isNumber()) {
            return number(n);
        }
        if (n.isBoolean()) {
            return BsonBoolean.valueOf(n.booleanValue());
        }
        if (n instanceof ObjectIdNode o) {
            return new BsonObjectId(new ObjectId(o.bytes()));
        }
        if (n instanceof DateTimeNode d) {
            return new BsonDateTime(d.epochMillis());
        }
        if (n instanceof UuidNode u) {
            return new BsonBinary(u.uuid());
        }
        if (n instanceof BinaryDataNode b) {
            return new BsonBinary((byte) b.subtype(), b.bytes());
        }
        if (n instanceof TimestampNode t) {
            return new BsonTimestamp(t.value());
        }
        if (n instanceof RegexNode r) {
            return new BsonRegularExpression(r.pattern(), r.options());
        }
        if (n instanceof MinKeyNode) {
            return new BsonMinKey();
        }
        if (n instanceof MaxKeyNode) {
            return new BsonMaxKey();
        }
        if (n.isNull() || n.isMissingNode()) {
            return BsonNull.VALUE;
        }
        return new BsonString(n.asText()); // a value of no known type: its text, never a failed read
    }

    private static BsonValue object(JsonNode n) {
        String first = n.size() >= 1 ? n.fieldNames().next() : "";
        if (first.startsWith("$") && !first.equals(DbRefFields.REF)) {
            BsonValue tagged = LegacyItems.tagged(n);
            if (tagged != null) {
                return tagged;
            }
        }
        BsonDocument d = new BsonDocument();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            d.put(e.getKey(), bson(e.getValue()));
        }
        return d;
    }

    private static BsonValue number(JsonNode n) {
        if (n.isInt() || n.isShort()) {
            return new BsonInt32(n.intValue());
        }
        if (n.isLong()) {
            return new BsonInt64(n.longValue());
        }
        if (n instanceof Decimal128Node.Special s) {
            double v = s.doubleValue();
            return new BsonDecimal128(Double.isNaN(v) ? Decimal128.NaN
                    : v > 0 ? Decimal128.POSITIVE_INFINITY : Decimal128.NEGATIVE_INFINITY);
        }
        if (n.isDouble()) {
            return new BsonDouble(n.doubleValue());
        }
        if (n.isFloat()) {
            return new BsonDouble(n.floatValue());
        }
        if (n.isBigInteger()) {
            BigInteger b = n.bigIntegerValue();
            if (b.bitLength() < 64) {
                return new BsonInt64(b.longValue());
            }
            return decimalOrText(new BigDecimal(b));
        }
        return decimalOrText(n.decimalValue());
    }

    /** Decimal128 when it holds the value exactly, else the decimal's text (never a rounded number). */
    private static BsonValue decimalOrText(BigDecimal v) {
        try {
            return new BsonDecimal128(new Decimal128(v));
        } catch (NumberFormatException | ArithmeticException notDecimal128) {
            return new BsonString(v.toString());
        }
    }
}
