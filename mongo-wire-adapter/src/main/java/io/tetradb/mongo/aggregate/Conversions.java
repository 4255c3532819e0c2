package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;

/**
 * Type conversion: {@code $convert} ({@code to}, {@code onError}, {@code onNull}) and its shorthands {@code $toString
 * $toInt $toLong $toDouble $toDecimal $toBool $toDate $toObjectId}, by MongoDB's conversion table. A conversion that
 * is not possible fails with ConversionFailure (241) unless {@code onError} is given.
 */
final class Conversions {
    static final Set<String> NAMES = Set.of("$convert", "$toString", "$toInt", "$toLong", "$toDouble", "$toDecimal",
            "$toBool", "$toDate", "$toObjectId");

    private static final Map<String, String> SHORTHANDS = Map.of("$toString", "string", "$toInt", "int",
            "$toLong", "long", "$toDouble", "double", "$toDecimal", "decimal", "$toBool", "bool", "$toDate", "date",
            "$toObjectId", "objectId");
    private static final Map<Integer, String> TYPE_NUMBERS = Map.of(1, "double", 2, "string", 7, "objectId",
            8, "bool", 9, "date", 16, "int", 18, "long", 19, "decimal");

    private Conversions() {
    }

    static BsonValue apply(String op, BsonValue arg, BsonDocument doc) {
        if (!op.equals("$convert")) {
            BsonValue v = Expressions.args(arg, doc).get(0);
            return v == null || v.isNull() ? BsonNull.VALUE : to(SHORTHANDS.get(op), v);
        }
        if (!arg.isDocument() || !arg.asDocument().containsKey("input") || !arg.asDocument().containsKey("to")) {
            throw MongoError.badValue("$convert requires an object with 'input' and 'to'");
        }
        BsonDocument spec = arg.asDocument();
        BsonValue v = Expressions.eval(spec.get("input"), doc);
        BsonValue toV = Expressions.eval(spec.get("to"), doc);
        if (v == null || v.isNull()) {
            BsonValue onNull = spec.containsKey("onNull") ? Expressions.eval(spec.get("onNull"), doc) : null;
            return onNull == null ? BsonNull.VALUE : onNull;
        }
        if (toV == null || toV.isNull()) {
            return BsonNull.VALUE; // MongoDB: a null or missing target type gives null
        }
        String to = toV.isString() ? toV.asString().getValue()
                : BsonOrder.isNumber(toV) ? TYPE_NUMBERS.get((int) BsonOrder.toDouble(toV)) : null;
        if (to == null) {
            throw MongoError.badValue("$convert: unknown target type " + toV);
        }
        try {
            return to(to, v);
        } catch (MongoError e) {
            if (e.code() == ErrorCode.CONVERSION_FAILURE && spec.containsKey("onError")) {
                BsonValue onError = Expressions.eval(spec.get("onError"), doc);
                return onError == null ? BsonNull.VALUE : onError;
            }
            throw e;
        }
    }

    static BsonValue to(String type, BsonValue v) {
        try {
            return switch (type) {
                case "string" -> new BsonString(string(v));
                case "int" -> new BsonInt32(Math.toIntExact(integral(v, type)));
                case "long" -> new BsonInt64(integral(v, type));
                case "double" -> new BsonDouble(decimal(v, type).doubleValue());
                case "decimal" -> new BsonDecimal128(new Decimal128(decimal(v, type)));
                case "bool" -> bool(v);
                case "date" -> new BsonDateTime(date(v));
                case "objectId" -> {
                    if (v.isObjectId()) {
                        yield v;
                    }
                    if (!v.isString() || !ObjectId.isValid(v.asString().getValue())) {
                        throw failure(v, type);
                    }
                    yield new BsonObjectId(new ObjectId(v.asString().getValue()));
                }
                default -> throw MongoError.badValue("$convert: unknown target type " + type);
            };
        } catch (ArithmeticException | NumberFormatException e) {
            throw failure(v, type);
        }
    }

    private static MongoError failure(BsonValue v, String type) {
        return new MongoError(ErrorCode.CONVERSION_FAILURE, "Failed to convert " + Expressions.typeName(v) + " "
                + (v.isString() ? "'" + v.asString().getValue() + "'" : v.toString()) + " to " + type);
    }

    static String string(BsonValue v) {
        return switch (v.getBsonType()) {
            case STRING -> v.asString().getValue();
            case INT32 -> String.valueOf(v.asInt32().getValue());
            case INT64 -> String.valueOf(v.asInt64().getValue());
            case DOUBLE -> {
                double d = v.asDouble().getValue();
                yield d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
            }
            case DECIMAL128 -> v.asDecimal128().getValue().toString();
            case BOOLEAN -> String.valueOf(v.asBoolean().getValue());
            case OBJECT_ID -> v.asObjectId().getValue().toHexString();
            case DATE_TIME -> DateOperators.apply("$dateToString", new BsonDocument("date", v), new BsonDocument())
                    .asString().getValue();
            default -> throw failure(v, "string");
        };
    }

    private static long integral(BsonValue v, String type) {
        return switch (v.getBsonType()) {
            case INT32, INT64 -> v.asNumber().longValue();
            case DOUBLE, DECIMAL128 -> {
                BigDecimal d = decimal(v, type);
                yield d.toBigInteger().longValueExact(); // truncates toward zero, as MongoDB does
            }
            case BOOLEAN -> v.asBoolean().getValue() ? 1 : 0;
            case DATE_TIME -> {
                if (type.equals("int")) {
                    throw failure(v, type);
                }
                yield v.asDateTime().getValue();
            }
            case STRING -> Long.parseLong(v.asString().getValue().trim()); // "1.5" is not an integer: fails
            default -> throw failure(v, type);
        };
    }

    private static BigDecimal decimal(BsonValue v, String type) {
        return switch (v.getBsonType()) {
            case INT32, INT64 -> BigDecimal.valueOf(v.asNumber().longValue());
            case DOUBLE -> {
                double d = v.asDouble().getValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw failure(v, type);
                }
                yield BigDecimal.valueOf(d);
            }
            case DECIMAL128 -> v.asDecimal128().getValue().bigDecimalValue();
            case BOOLEAN -> v.asBoolean().getValue() ? BigDecimal.ONE : BigDecimal.ZERO;
            case DATE_TIME -> BigDecimal.valueOf(v.asDateTime().getValue());
            case STRING -> new BigDecimal(v.asString().getValue().trim());
            default -> throw failure(v, type);
        };
    }

    private static BsonValue bool(BsonValue v) {
        return switch (v.getBsonType()) {
            case BOOLEAN -> v;
            case INT32, INT64, DOUBLE, DECIMAL128 -> BsonBoolean.valueOf(BsonOrder.toDouble(v) != 0);
            default -> BsonBoolean.TRUE; // strings (even empty), dates, ObjectIds, documents: true
        };
    }

    private static long date(BsonValue v) {
        return switch (v.getBsonType()) {
            case DATE_TIME -> v.asDateTime().getValue();
            case INT64, DOUBLE, DECIMAL128 -> decimal(v, "date").longValue();
            case OBJECT_ID -> v.asObjectId().getValue().getTimestamp() * 1000L;
            case TIMESTAMP -> v.asTimestamp().getTime() * 1000L;
            case STRING -> {
                try {
                    yield DateOperators.parseIso(v.asString().getValue().trim()).toEpochMilli();
                } catch (java.time.DateTimeException e) {
                    throw failure(v, "date");
                }
            }
            default -> throw failure(v, "date");
        };
    }
}
