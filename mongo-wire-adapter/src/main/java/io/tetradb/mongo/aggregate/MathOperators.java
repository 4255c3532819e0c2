package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonDecimal128;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.BsonDocument;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Set;

/**
 * Arithmetic expression operators beyond the four operations: {@code $abs $ceil $floor $round $trunc $sqrt $pow
 * $exp $ln $log $log10 $rand}, with MongoDB's result types (an int stays an int where the value fits, else a long;
 * a decimal stays a decimal; the transcendental functions give doubles), null and missing giving null, and MongoDB's
 * error codes for bad arguments.
 */
final class MathOperators {
    static final Set<String> NAMES = Set.of("$abs", "$ceil", "$floor", "$round", "$trunc", "$sqrt", "$pow", "$exp",
            "$ln", "$log", "$log10", "$rand", "$sin", "$cos", "$tan", "$asin", "$acos", "$atan", "$atan2", "$sinh",
            "$cosh", "$tanh", "$asinh", "$acosh", "$atanh", "$degreesToRadians", "$radiansToDegrees", "$bitAnd",
            "$bitOr", "$bitXor", "$bitNot");
    private static final Set<String> TRIG = Set.of("$sin", "$cos", "$tan", "$asin", "$acos", "$atan", "$sinh",
            "$cosh", "$tanh", "$asinh", "$acosh", "$atanh", "$degreesToRadians", "$radiansToDegrees");

    private MathOperators() {
    }

    static BsonValue apply(String op, BsonValue arg, BsonDocument doc) {
        if (op.equals("$rand")) {
            return new BsonDouble(java.util.concurrent.ThreadLocalRandom.current().nextDouble());
        }
        List<BsonValue> a = Expressions.args(arg, doc);
        if (TRIG.contains(op)) {
            arity(op, a, 1);
            return trig(op, a.get(0));
        }
        switch (op) {
            case "$atan2" -> {
                arity(op, a, 2);
                if (nullish(a.get(0)) || nullish(a.get(1))) {
                    return BsonNull.VALUE;
                }
                if (!BsonOrder.isNumber(a.get(0)) || !BsonOrder.isNumber(a.get(1))) {
                    throw new MongoError(ErrorCode.ATAN2_NOT_NUMERIC, "$atan2 only supports numeric types");
                }
                double r = Math.atan2(BsonOrder.toDouble(a.get(0)), BsonOrder.toDouble(a.get(1)));
                return a.get(0).isDecimal128() || a.get(1).isDecimal128()
                        ? transcendental(a.get(0).isDecimal128() ? a.get(0) : a.get(1), r) : new BsonDouble(r);
            }
            case "$bitAnd", "$bitOr", "$bitXor", "$bitNot" -> {
                return bits(op, a);
            }
            case "$round", "$trunc" -> {
                if (a.isEmpty() || a.size() > 2) {
                    throw new MongoError(ErrorCode.ROUND_ARGUMENT_COUNT, "Expression " + op + " takes at least 1 "
                            + "argument, and at most 2, but " + a.size() + " were passed in.");
                }
                return round(op, a.get(0), a.size() == 2 ? a.get(1) : new BsonInt32(0));
            }
            case "$log", "$pow" -> {
                arity(op, a, 2);
                return op.equals("$log") ? log(a.get(0), a.get(1)) : pow(a.get(0), a.get(1));
            }
            default -> {
                arity(op, a, 1);
                BsonValue v = a.get(0);
                if (nullish(v)) {
                    return BsonNull.VALUE;
                }
                if (!BsonOrder.isNumber(v)) {
                    throw new MongoError(ErrorCode.NUMERIC_TYPES_ONLY, op + " only supports numeric types, not "
                            + Expressions.typeName(v));
                }
                return switch (op) {
                    case "$abs" -> abs(v);
                    case "$ceil" -> integral(v, RoundingMode.CEILING);
                    case "$floor" -> integral(v, RoundingMode.FLOOR);
                    case "$sqrt" -> {
                        if (BsonOrder.toDouble(v) < 0) {
                            throw new MongoError(ErrorCode.SQRT_NEGATIVE,
                                    "$sqrt's argument must be greater than or equal to 0");
                        }
                        yield v.isDecimal128() && finite(v)
                                ? decimal(v.asDecimal128().getValue().bigDecimalValue().sqrt(MathContext.DECIMAL128))
                                : new BsonDouble(Math.sqrt(BsonOrder.toDouble(v)));
                    }
                    case "$exp" -> transcendental(v, Math.exp(BsonOrder.toDouble(v)));
                    case "$ln" -> {
                        positive(v, ErrorCode.LN_NOT_POSITIVE, "$ln's argument must be a positive number, but is ");
                        yield transcendental(v, Math.log(BsonOrder.toDouble(v)));
                    }
                    case "$log10" -> {
                        positive(v, ErrorCode.LOG10_NOT_POSITIVE,
                                "$log10's argument must be a positive number, but is ");
                        yield transcendental(v, Math.log10(BsonOrder.toDouble(v)));
                    }
                    default -> throw new IllegalStateException(op);
                };
            }
        }
    }

    /** The trigonometric and angle functions: doubles (decimals for decimals), MongoDB's domain checks (50989). */
    private static BsonValue trig(String op, BsonValue v) {
        if (nullish(v)) {
            return BsonNull.VALUE;
        }
        if (!BsonOrder.isNumber(v)) {
            throw new MongoError(ErrorCode.NUMERIC_TYPES_ONLY, op + " only supports numeric types, not "
                    + Expressions.typeName(v));
        }
        double x = BsonOrder.toDouble(v);
        String domain = switch (op) {
            case "$sin", "$cos", "$tan" -> Double.isInfinite(x) ? "(-inf,inf)" : null;
            case "$asin", "$acos", "$atanh" -> x < -1 || x > 1 ? "[-1,1]" : null;
            case "$acosh" -> x < 1 ? "[1,inf]" : null;
            default -> null;
        };
        if (domain != null) {
            throw new MongoError(ErrorCode.TRIG_DOMAIN, "cannot apply " + op + " to " + show(v) + ", value must in "
                    + domain);
        }
        double r = switch (op) {
            case "$sin" -> Math.sin(x);
            case "$cos" -> Math.cos(x);
            case "$tan" -> Math.tan(x);
            case "$asin" -> Math.asin(x);
            case "$acos" -> Math.acos(x);
            case "$atan" -> Math.atan(x);
            case "$sinh" -> Math.sinh(x);
            case "$cosh" -> Math.cosh(x);
            case "$tanh" -> Math.tanh(x);
            case "$asinh" -> Double.isInfinite(x) ? x : Math.log(x + Math.sqrt(x * x + 1));
            case "$acosh" -> Math.log(x + Math.sqrt(x * x - 1));
            case "$atanh" -> 0.5 * Math.log((1 + x) / (1 - x));
            case "$degreesToRadians" -> Math.toRadians(x);
            default -> Math.toDegrees(x);
        };
        return transcendental(v, r);
    }

    /** {@code $bitAnd $bitOr $bitXor $bitNot} over ints and longs (a long if any operand is one). */
    private static BsonValue bits(String op, List<BsonValue> a) {
        if (op.equals("$bitNot")) {
            arity(op, a, 1);
        }
        long acc = op.equals("$bitAnd") ? -1L : 0L;
        boolean isLong = false;
        for (BsonValue v : a) {
            if (nullish(v)) {
                return BsonNull.VALUE;
            }
            if (!v.isInt32() && !v.isInt64()) {
                throw new MongoError(ErrorCode.BIT_OPERATOR_NOT_INTEGRAL, "All operands of " + op + " must be "
                        + "ints or longs, but found a " + Expressions.typeName(v));
            }
            isLong |= v.isInt64();
            long x = v.asNumber().longValue();
            acc = switch (op) {
                case "$bitAnd" -> acc & x;
                case "$bitOr" -> acc | x;
                case "$bitXor" -> acc ^ x;
                default -> ~x;
            };
        }
        return isLong ? new BsonInt64(acc) : new BsonInt32((int) acc);
    }

    private static void arity(String op, List<BsonValue> a, int n) {
        if (a.size() != n) {
            throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression " + op + " takes exactly " + n
                    + " arguments. " + a.size() + " were passed in.");
        }
    }

    private static boolean nullish(BsonValue v) {
        return v == null || v.isNull() || v.getBsonType() == org.bson.BsonType.UNDEFINED;
    }

    private static boolean finite(BsonValue v) {
        return v.isDecimal128() ? v.asDecimal128().getValue().isFinite()
                : Double.isFinite(BsonOrder.toDouble(v));
    }

    private static BsonValue decimal(BigDecimal d) {
        return new BsonDecimal128(new Decimal128(d.round(MathContext.DECIMAL128)));
    }

    /** A double result, as a decimal for a decimal input. */
    private static BsonValue transcendental(BsonValue input, double result) {
        return input.isDecimal128() && Double.isFinite(result)
                ? decimal(new BigDecimal(result, MathContext.DECIMAL64)) : new BsonDouble(result);
    }

    private static void positive(BsonValue v, ErrorCode code, String message) {
        if (BsonOrder.toDouble(v) <= 0) { // NaN passes through, as in MongoDB
            throw new MongoError(code, message + show(v));
        }
    }

    /** A number as MongoDB prints it in messages. */
    static String show(BsonValue v) {
        if (v.isDouble()) {
            double d = v.asDouble().getValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
        }
        if (v.isDecimal128()) {
            return v.asDecimal128().getValue().toString();
        }
        return BsonOrder.isNumber(v) ? String.valueOf(v.asNumber().longValue()) : Expressions.typeName(v);
    }

    private static BsonValue abs(BsonValue v) {
        return switch (v.getBsonType()) {
            case INT32 -> v.asInt32().getValue() == Integer.MIN_VALUE ? new BsonInt64(-(long) Integer.MIN_VALUE)
                    : new BsonInt32(Math.abs(v.asInt32().getValue()));
            case INT64 -> {
                if (v.asInt64().getValue() == Long.MIN_VALUE) {
                    throw new MongoError(ErrorCode.ABS_OF_MIN_LONG, "can't take $abs of long long min");
                }
                yield new BsonInt64(Math.abs(v.asInt64().getValue()));
            }
            case DOUBLE -> new BsonDouble(Math.abs(v.asDouble().getValue()));
            default -> finite(v) ? decimal(v.asDecimal128().getValue().bigDecimalValue().abs())
                    : v.asDecimal128().getValue().isNaN() ? v
                    : new BsonDecimal128(Decimal128.POSITIVE_INFINITY);
        };
    }

    private static BsonValue integral(BsonValue v, RoundingMode mode) {
        return switch (v.getBsonType()) {
            case INT32, INT64 -> v;
            case DOUBLE -> new BsonDouble(mode == RoundingMode.CEILING ? Math.ceil(v.asDouble().getValue())
                    : Math.floor(v.asDouble().getValue()));
            default -> finite(v) ? decimal(v.asDecimal128().getValue().bigDecimalValue().setScale(0, mode)) : v;
        };
    }

    /** {@code $round} (half to even, as MongoDB) or {@code $trunc} to {@code place} decimal places (-20 to 100). */
    private static BsonValue round(String op, BsonValue v, BsonValue placeV) {
        if (nullish(v) || nullish(placeV)) {
            return BsonNull.VALUE;
        }
        if (!BsonOrder.isNumber(v)) {
            throw new MongoError(ErrorCode.ROUND_NOT_NUMERIC, op + " only supports numeric types, not "
                    + Expressions.typeName(v));
        }
        if (!BsonOrder.isNumber(placeV) || BsonOrder.toDouble(placeV) != Math.rint(BsonOrder.toDouble(placeV))) {
            throw new MongoError(ErrorCode.ROUND_PLACE_NOT_INTEGRAL, "precision argument to  " + op
                    + " must be a integral value");
        }
        long place = (long) BsonOrder.toDouble(placeV);
        if (place < -20 || place > 100) {
            throw new MongoError(ErrorCode.ROUND_PLACE_RANGE, "cannot apply " + op + " with precision value "
                    + place + " value must be in [-20, 100]");
        }
        if (!finite(v)) {
            return v;
        }
        RoundingMode mode = op.equals("$round") ? RoundingMode.HALF_EVEN : RoundingMode.DOWN;
        return switch (v.getBsonType()) {
            case INT32, INT64 -> {
                if (place >= 0) {
                    yield v;
                }
                BigInteger r = BigDecimal.valueOf(v.asNumber().longValue()).setScale((int) place, mode)
                        .toBigIntegerExact();
                yield r.bitLength() < 32 && v.isInt32() ? new BsonInt32(r.intValue())
                        : r.bitLength() < 64 ? new BsonInt64(r.longValue()) : new BsonDouble(r.doubleValue());
            }
            case DOUBLE -> new BsonDouble(BigDecimal.valueOf(v.asDouble().getValue()).setScale((int) place, mode)
                    .doubleValue());
            default -> new BsonDecimal128(new Decimal128(v.asDecimal128().getValue().bigDecimalValue()
                    .setScale((int) place, mode)));
        };
    }

    private static BsonValue log(BsonValue v, BsonValue base) {
        if (nullish(v) || nullish(base)) {
            return BsonNull.VALUE;
        }
        if (!BsonOrder.isNumber(v)) {
            throw new MongoError(ErrorCode.LOG_ARGUMENT_NOT_NUMERIC, "$log's argument must be numeric, not "
                    + Expressions.typeName(v));
        }
        if (!BsonOrder.isNumber(base)) {
            throw new MongoError(ErrorCode.LOG_BASE_NOT_NUMERIC, "$log's base must be numeric, not "
                    + Expressions.typeName(base));
        }
        double x = BsonOrder.toDouble(v);
        double b = BsonOrder.toDouble(base);
        if (x <= 0) {
            throw new MongoError(ErrorCode.LOG_ARGUMENT_NOT_POSITIVE, "$log's argument must be a positive number, "
                    + "but is " + show(v));
        }
        if (b <= 0 || b == 1) {
            throw new MongoError(ErrorCode.LOG_BASE_INVALID, "$log's base must be a positive number not equal to 1, "
                    + "but is " + show(base));
        }
        double r = Math.log(x) / Math.log(b);
        return v.isDecimal128() || base.isDecimal128() ? transcendental(v.isDecimal128() ? v : base, r)
                : new BsonDouble(r);
    }

    /** {@code $pow}: integers stay integers while the result fits (int, then long), else a double. */
    private static BsonValue pow(BsonValue base, BsonValue exp) {
        if (nullish(base) || nullish(exp)) {
            return BsonNull.VALUE;
        }
        if (!BsonOrder.isNumber(base)) {
            throw new MongoError(ErrorCode.POW_BASE_NOT_NUMERIC, "$pow's base must be numeric, not "
                    + Expressions.typeName(base));
        }
        if (!BsonOrder.isNumber(exp)) {
            throw new MongoError(ErrorCode.POW_EXPONENT_NOT_NUMERIC, "$pow's exponent must be numeric, not "
                    + Expressions.typeName(exp));
        }
        double b = BsonOrder.toDouble(base);
        double e = BsonOrder.toDouble(exp);
        if (b == 0 && e < 0) {
            throw new MongoError(ErrorCode.POW_ZERO_NEGATIVE, "$pow cannot take a base of 0 and a negative exponent");
        }
        if (base.isDecimal128() || exp.isDecimal128()) {
            BigDecimal bd = base.isDecimal128() ? base.asDecimal128().getValue().bigDecimalValue()
                    : new BigDecimal(b);
            if (e == Math.rint(e) && Math.abs(e) <= 999_999_999 && finite(base)) {
                return decimal(bd.pow((int) e, MathContext.DECIMAL128));
            }
            return transcendental(base.isDecimal128() ? base : exp, Math.pow(b, e));
        }
        boolean integers = (base.isInt32() || base.isInt64()) && (exp.isInt32() || exp.isInt64());
        if (integers) {
            long bl = base.asNumber().longValue();
            long el = exp.asNumber().longValue();
            if (el < 0) {
                if (bl == 1) {
                    return base;
                }
                if (bl == -1) {
                    return Expressions.longOrInt(el % 2 == 0 ? 1 : -1);
                }
                return new BsonDouble(Math.pow(b, e));
            }
            BigInteger r = el > 64 && Math.abs(bl) > 1 ? null : BigInteger.valueOf(bl).pow((int) Math.min(el, 64));
            if (Math.abs(bl) <= 1) {
                r = BigInteger.valueOf(bl).pow((int) (el % 2 == 0 ? Math.min(el, 2) : 1));
            }
            if (r != null && r.bitLength() < 32 && base.isInt32() && exp.isInt32()) {
                return new BsonInt32(r.intValue());
            }
            if (r != null && r.bitLength() < 64) {
                return new BsonInt64(r.longValue());
            }
        }
        return new BsonDouble(Math.pow(b, e));
    }
}
