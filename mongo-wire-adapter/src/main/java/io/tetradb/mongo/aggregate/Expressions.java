package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Aggregation expressions: field paths ({@code "$a.b"}), literals, object expressions, and the common operators
 * (arithmetic, comparison, boolean, conditional, string, array, type). A missing value is null-like as in MongoDB;
 * here it is Java {@code null} (so {@code $project} can leave a field out).
 */
public final class Expressions {
    private Expressions() {
    }

    /** The operators {@link #operator} answers itself (the others are in the operator classes' NAMES). */
    private static final java.util.Set<String> OWN = java.util.Set.of("$add", "$and", "$arrayElemAt", "$avg",
            "$binarySize", "$bsonSize", "$cmp", "$concat", "$cond", "$divide", "$eq", "$gt", "$gte", "$ifNull", "$in",
            "$isNumber", "$literal", "$lt", "$lte", "$max", "$min", "$mod", "$multiply", "$ne", "$not", "$or", "$size",
            "$stdDevPop", "$stdDevSamp", "$subtract", "$sum", "$switch", "$toLower", "$toUpper", "$tsIncrement",
            "$tsSecond", "$type", "$median", "$percentile");

    static boolean isOperator(String name) {
        return OWN.contains(name) || ArrayOperators.NAMES.contains(name) || StringOperators.NAMES.contains(name)
                || DateOperators.NAMES.contains(name) || Conversions.NAMES.contains(name)
                || MathOperators.NAMES.contains(name) || SetOperators.NAMES.contains(name)
                || ObjectOperators.NAMES.contains(name);
    }

    /**
     * Refuses an expression naming an unknown operator before anything runs (MongoDB parses a pipeline's
     * expressions first: 168 even over an empty collection). {@code $literal}'s content is not looked into.
     */
    static void check(BsonValue expr) {
        if (expr.isArray()) {
            expr.asArray().forEach(Expressions::check);
        } else if (expr.isDocument()) {
            BsonDocument d = expr.asDocument();
            if (d.size() == 1 && d.getFirstKey().startsWith("$")) {
                String op = d.getFirstKey();
                if (!isOperator(op)) {
                    throw new MongoError(ErrorCode.INVALID_PIPELINE_OPERATOR, "Unrecognized expression '" + op + "'");
                }
                if (!op.equals("$literal")) {
                    check(d.get(op));
                }
            } else {
                d.values().forEach(Expressions::check);
            }
        }
    }

    /** Whether {@code expr} is true for {@code doc} ({@code $expr} in a filter). */
    public static boolean isTrue(BsonValue expr, BsonDocument doc) {
        return truthy(eval(expr, doc));
    }

    public static BsonValue eval(BsonValue expr, BsonDocument doc) {
        if (expr.isString()) {
            String s = expr.asString().getValue();
            if (s.startsWith("$$")) {
                if (s.equals("$$ROOT") || s.equals("$$CURRENT")) {
                    return doc;
                }
                if (s.startsWith("$$ROOT.") || s.startsWith("$$CURRENT.")) {
                    return path(doc, s.substring(s.indexOf('.') + 1));
                }
                if (s.equals("$$REMOVE")) {
                    return null; // missing: $project and $addFields leave the field out
                }
                if (s.equals("$$NOW")) {
                    return new org.bson.BsonDateTime(System.currentTimeMillis());
                }
                if (s.equals("$$CLUSTER_TIME")) {
                    return new org.bson.BsonTimestamp((int) (System.currentTimeMillis() / 1000), 1);
                }
                if (s.equals("$$DESCEND") || s.equals("$$PRUNE") || s.equals("$$KEEP")) {
                    return expr; // $redact's answers
                }
                String name = s.substring(2, s.indexOf('.') < 0 ? s.length() : s.indexOf('.'));
                throw new MongoError(ErrorCode.UNDEFINED_VARIABLE, "Use of undefined variable: " + name);
            }
            if (s.startsWith("$")) {
                return path(doc, s.substring(1));
            }
            return expr;
        }
        if (expr.isArray()) {
            BsonArray out = new BsonArray();
            for (BsonValue e : expr.asArray()) {
                BsonValue v = eval(e, doc);
                out.add(v == null ? BsonNull.VALUE : v);
            }
            return out;
        }
        if (!expr.isDocument()) {
            return expr;
        }
        BsonDocument d = expr.asDocument();
        if (d.size() == 1 && d.getFirstKey().startsWith("$")) {
            return operator(d.getFirstKey(), d.get(d.getFirstKey()), doc);
        }
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : d.entrySet()) {
            BsonValue v = eval(e.getValue(), doc);
            if (v != null) {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    /** A field path's value: through arrays of documents it is the array of the values found (as MongoDB does). */
    static BsonValue path(BsonValue cur, String dotted) {
        for (String seg : dotted.split("\\.")) {
            if (cur instanceof BsonDocument d) {
                cur = d.get(seg);
            } else if (cur instanceof BsonArray a) {
                BsonArray out = new BsonArray();
                for (BsonValue el : a) {
                    BsonValue v = el.isDocument() ? path(el, seg) : null;
                    if (v != null) {
                        out.add(v);
                    }
                }
                cur = out;
            } else {
                return null;
            }
            if (cur == null) {
                return null;
            }
        }
        return cur;
    }

    static List<BsonValue> args(BsonValue arg, BsonDocument doc) {
        List<BsonValue> out = new ArrayList<>();
        if (arg.isArray()) {
            for (BsonValue a : arg.asArray()) {
                out.add(eval(a, doc));
            }
        } else {
            out.add(eval(arg, doc));
        }
        return out;
    }

    private static boolean nullish(BsonValue v) {
        return v == null || v.isNull() || v.getBsonType() == org.bson.BsonType.UNDEFINED;
    }

    static boolean truthy(BsonValue v) {
        if (nullish(v)) {
            return false;
        }
        if (v.isBoolean()) {
            return v.asBoolean().getValue();
        }
        if (BsonOrder.isNumber(v)) {
            return BsonOrder.toDouble(v) != 0;
        }
        return true;
    }

    private static BsonValue operator(String op, BsonValue arg, BsonDocument doc) {
        switch (op) {
            case "$literal":
                return arg;
            case "$add":
            case "$multiply":
                return addOrMultiply(op, args(arg, doc));
            case "$subtract": {
                List<BsonValue> a = args(arg, doc);
                arity(op, a, 2);
                return subtract(a.get(0), a.get(1));
            }
            case "$divide", "$mod": {
                List<BsonValue> a = args(arg, doc);
                arity(op, a, 2);
                return divide(op, a.get(0), a.get(1));
            }
            case "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$cmp": {
                List<BsonValue> a = args(arg, doc);
                int c = BsonOrder.INSTANCE.compare(a.get(0) == null ? BsonNull.VALUE : a.get(0),
                        a.get(1) == null ? BsonNull.VALUE : a.get(1));
                return switch (op) {
                    case "$eq" -> BsonBoolean.valueOf(c == 0);
                    case "$ne" -> BsonBoolean.valueOf(c != 0);
                    case "$gt" -> BsonBoolean.valueOf(c > 0);
                    case "$gte" -> BsonBoolean.valueOf(c >= 0);
                    case "$lt" -> BsonBoolean.valueOf(c < 0);
                    case "$lte" -> BsonBoolean.valueOf(c <= 0);
                    default -> new BsonInt32(Integer.signum(c));
                };
            }
            case "$and":
                return BsonBoolean.valueOf(args(arg, doc).stream().allMatch(Expressions::truthy));
            case "$or":
                return BsonBoolean.valueOf(args(arg, doc).stream().anyMatch(Expressions::truthy));
            case "$not":
                return BsonBoolean.valueOf(!truthy(args(arg, doc).get(0)));
            case "$cond": {
                BsonValue ifV;
                BsonValue thenV;
                BsonValue elseV;
                if (arg.isDocument()) {
                    ifV = arg.asDocument().get("if");
                    thenV = arg.asDocument().get("then");
                    elseV = arg.asDocument().get("else");
                } else {
                    ifV = arg.asArray().get(0);
                    thenV = arg.asArray().get(1);
                    elseV = arg.asArray().get(2);
                }
                return truthy(eval(ifV, doc)) ? eval(thenV, doc) : eval(elseV, doc);
            }
            case "$ifNull": {
                for (BsonValue v : args(arg, doc)) {
                    if (!nullish(v)) {
                        return v;
                    }
                }
                return BsonNull.VALUE;
            }
            case "$concat": {
                StringBuilder sb = new StringBuilder();
                for (BsonValue v : args(arg, doc)) {
                    if (nullish(v)) {
                        return BsonNull.VALUE;
                    }
                    if (!v.isString()) {
                        throw new MongoError(ErrorCode.CONCAT_NOT_STRING, "$concat only supports strings, not "
                                + typeName(v));
                    }
                    sb.append(v.asString().getValue());
                }
                return new BsonString(sb.toString());
            }
            case "$toUpper", "$toLower": {
                BsonValue v = args(arg, doc).get(0);
                String s = StringOperators.coerceToString(v);
                return new BsonString(op.equals("$toUpper") ? s.toUpperCase(Locale.ROOT) : s.toLowerCase(Locale.ROOT));
            }
            case "$size": {
                BsonValue v = args(arg, doc).get(0);
                if (v == null || !v.isArray()) {
                    throw new MongoError(ErrorCode.SIZE_NOT_ARRAY, "The argument to $size must be an array. Type of "
                            + "argument: " + (v == null ? "missing" : typeName(v)));
                }
                return new BsonInt32(v.asArray().size());
            }
            case "$arrayElemAt": {
                List<BsonValue> a = args(arg, doc);
                arity(op, a, 2);
                if (nullish(a.get(0)) || nullish(a.get(1))) {
                    return BsonNull.VALUE;
                }
                if (!a.get(0).isArray()) {
                    throw new MongoError(ErrorCode.ARRAY_ELEM_AT_ARRAY, "$arrayElemAt's first argument must be an "
                            + "array, but is " + typeName(a.get(0)));
                }
                if (!BsonOrder.isNumber(a.get(1))) {
                    throw new MongoError(ErrorCode.ARRAY_ELEM_AT_INDEX, "$arrayElemAt's second argument must be a "
                            + "numeric value, but is " + typeName(a.get(1)));
                }
                double d = BsonOrder.toDouble(a.get(1));
                if (d != Math.rint(d) || d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
                    throw new MongoError(ErrorCode.ARRAY_ELEM_AT_INTEGRAL, "$arrayElemAt's second argument must be "
                            + "representable as a 32-bit integer: " + MathOperators.show(a.get(1)));
                }
                List<BsonValue> arr = a.get(0).asArray().getValues();
                long i = (long) d;
                i = i < 0 ? arr.size() + i : i;
                return i >= 0 && i < arr.size() ? arr.get((int) i) : null;
            }
            case "$in": {
                List<BsonValue> a = args(arg, doc);
                if (a.get(1) == null || !a.get(1).isArray()) {
                    throw new MongoError(ErrorCode.IN_NOT_ARRAY, "$in requires an array as a second argument, found: "
                            + (a.get(1) == null ? "missing" : typeName(a.get(1))));
                }
                BsonValue x = a.get(0) == null ? BsonNull.VALUE : a.get(0);
                return BsonBoolean.valueOf(a.get(1).asArray().stream().anyMatch(y -> BsonOrder.equal(x, y)));
            }
            case "$median", "$percentile": {
                Accumulator.Percentiles acc = new Accumulator.Percentiles(op, arg);
                acc.addInput(eval(arg.asDocument().get("input"), doc));
                return acc.result();
            }
            case "$isNumber":
                return BsonBoolean.valueOf(args(arg, doc).get(0) != null && BsonOrder.isNumber(args(arg, doc).get(0)));
            case "$binarySize": {
                BsonValue v = args(arg, doc).get(0);
                if (nullish(v)) {
                    return BsonNull.VALUE;
                }
                if (v.isString()) {
                    return new BsonInt32(v.asString().getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8)
                            .length);
                }
                if (v.isBinary()) {
                    return new BsonInt32(v.asBinary().getData().length);
                }
                throw MongoError.badValue("$binarySize requires a string or BinData argument, found: "
                        + typeName(v));
            }
            case "$bsonSize": {
                BsonValue v = args(arg, doc).get(0);
                if (nullish(v)) {
                    return BsonNull.VALUE;
                }
                if (!v.isDocument()) {
                    throw MongoError.badValue("$bsonSize requires a document input, found: " + typeName(v));
                }
                return new BsonInt32(new org.bson.RawBsonDocument(v.asDocument(),
                        new org.bson.codecs.BsonDocumentCodec()).getByteBuffer().remaining());
            }
            case "$tsSecond", "$tsIncrement": {
                BsonValue v = args(arg, doc).get(0);
                if (nullish(v)) {
                    return BsonNull.VALUE;
                }
                if (!v.isTimestamp()) {
                    throw MongoError.badValue(op + " expects argument of type timestamp but received "
                            + typeName(v));
                }
                return new BsonInt64(op.equals("$tsSecond") ? v.asTimestamp().getTime() & 0xFFFFFFFFL
                        : v.asTimestamp().getInc() & 0xFFFFFFFFL);
            }
            case "$sum", "$avg", "$min", "$max", "$stdDevPop", "$stdDevSamp": {
                List<BsonValue> a = args(arg, doc);
                List<BsonValue> values = a.size() == 1 && a.get(0) != null && a.get(0).isArray()
                        ? a.get(0).asArray().getValues() : a;
                Accumulator acc = Accumulator.of(op, BsonNull.VALUE);
                for (BsonValue v : values) {
                    acc.add(v);
                }
                return acc.result();
            }
            case "$type": {
                BsonValue v = args(arg, doc).get(0);
                return new BsonString(v == null ? "missing" : typeName(v));
            }
            case "$switch":
                return switchCase(arg, doc);
            default:
                if (ArrayOperators.NAMES.contains(op)) {
                    return ArrayOperators.apply(op, arg, doc);
                }
                if (StringOperators.NAMES.contains(op)) {
                    return StringOperators.apply(op, arg, doc);
                }
                if (DateOperators.NAMES.contains(op)) {
                    return DateOperators.apply(op, arg, doc);
                }
                if (Conversions.NAMES.contains(op)) {
                    return Conversions.apply(op, arg, doc);
                }
                if (MathOperators.NAMES.contains(op)) {
                    return MathOperators.apply(op, arg, doc);
                }
                if (SetOperators.NAMES.contains(op)) {
                    return SetOperators.apply(op, arg, doc);
                }
                if (ObjectOperators.NAMES.contains(op)) {
                    return ObjectOperators.apply(op, arg, doc);
                }
                throw new MongoError(ErrorCode.INVALID_PIPELINE_OPERATOR, "Unrecognized expression '" + op + "'");
        }
    }

    private static void arity(String op, List<BsonValue> a, int n) {
        if (a.size() != n) {
            throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression " + op + " takes exactly " + n
                    + " arguments. " + a.size() + " were passed in.");
        }
    }

    /**
     * {@code $add} (numbers and at most one date: a date) and {@code $multiply}, with MongoDB's promotion (int, then
     * long on overflow, then double; decimal wins); null or missing gives null.
     */
    private static BsonValue addOrMultiply(String op, List<BsonValue> values) {
        boolean add = op.equals("$add");
        BsonValue acc = new BsonInt32(add ? 0 : 1);
        Long date = null;
        for (BsonValue v : values) {
            if (nullish(v)) {
                return BsonNull.VALUE;
            }
            if (add && v.isDateTime()) {
                if (date != null) {
                    throw new MongoError(ErrorCode.ADD_TWO_DATES, "only one date allowed in an $add expression");
                }
                date = v.asDateTime().getValue();
                continue;
            }
            if (!BsonOrder.isNumber(v)) {
                throw add ? new MongoError(ErrorCode.ADD_NOT_NUMERIC, "$add only supports numeric or date types, not "
                        + typeName(v)) : new MongoError(ErrorCode.MULTIPLY_NOT_NUMERIC, "$multiply only supports "
                        + "numeric types, not " + typeName(v));
            }
            acc = io.tetradb.mongo.update.Arithmetic.combine(acc, v, add);
        }
        return date == null ? acc : new org.bson.BsonDateTime(date + Math.round(BsonOrder.toDouble(acc)));
    }

    /** {@code $subtract}: numbers, a date minus a number (a date) or minus a date (milliseconds, a long). */
    private static BsonValue subtract(BsonValue a, BsonValue b) {
        if (nullish(a) || nullish(b)) {
            return BsonNull.VALUE;
        }
        if (a.isDateTime() && b.isDateTime()) {
            return new BsonInt64(a.asDateTime().getValue() - b.asDateTime().getValue());
        }
        if (a.isDateTime() && BsonOrder.isNumber(b)) {
            return new org.bson.BsonDateTime(a.asDateTime().getValue() - Math.round(BsonOrder.toDouble(b)));
        }
        if (!BsonOrder.isNumber(a) || !BsonOrder.isNumber(b)) {
            throw new MongoError(ErrorCode.SUBTRACT_TYPES, "cant $subtract a " + typeName(b) + " from a "
                    + typeName(a));
        }
        return io.tetradb.mongo.update.Arithmetic.combine(a, io.tetradb.mongo.update.Arithmetic.negate(b), true);
    }

    /**
     * {@code $divide} (a double, a decimal for decimals) and {@code $mod} (the operands' type: int, long, double or
     * decimal, with the dividend's sign), by zero refused as MongoDB does.
     */
    private static BsonValue divide(String op, BsonValue a, BsonValue b) {
        if (nullish(a) || nullish(b)) {
            return BsonNull.VALUE;
        }
        boolean mod = op.equals("$mod");
        if (!BsonOrder.isNumber(a) || !BsonOrder.isNumber(b)) {
            String message = op + " only supports numeric types, not " + typeName(a) + " and " + typeName(b);
            throw new MongoError(mod ? ErrorCode.MOD_NOT_NUMERIC : ErrorCode.DIVIDE_NOT_NUMERIC, message);
        }
        if (BsonOrder.toDouble(b) == 0) {
            throw mod ? new MongoError(ErrorCode.MOD_BY_ZERO, "can't $mod by zero")
                    : MongoError.badValue("can't $divide by zero");
        }
        if (a.isDecimal128() || b.isDecimal128()) {
            java.math.BigDecimal x = decimalOf(a);
            java.math.BigDecimal y = decimalOf(b);
            if (x == null || y == null) {
                return new org.bson.BsonDecimal128(org.bson.types.Decimal128.NaN);
            }
            java.math.BigDecimal r = mod ? x.remainder(y) : x.divide(y, java.math.MathContext.DECIMAL128);
            return new org.bson.BsonDecimal128(new org.bson.types.Decimal128(r));
        }
        if (!mod || a.isDouble() || b.isDouble()) {
            double x = BsonOrder.toDouble(a);
            double y = BsonOrder.toDouble(b);
            return new BsonDouble(mod ? x % y : x / y);
        }
        long r = a.asNumber().longValue() % b.asNumber().longValue();
        return a.isInt32() && b.isInt32() ? new BsonInt32((int) r) : new BsonInt64(r);
    }

    private static java.math.BigDecimal decimalOf(BsonValue v) {
        if (v.isDecimal128()) {
            return v.asDecimal128().getValue().isFinite() ? v.asDecimal128().getValue().bigDecimalValue() : null;
        }
        double d = BsonOrder.toDouble(v);
        return v.isDouble() ? (Double.isFinite(d) ? new java.math.BigDecimal(d) : null)
                : java.math.BigDecimal.valueOf(v.asNumber().longValue());
    }

    /** {@code $switch}: the first branch whose {@code case} is true gives its {@code then}, else {@code default}. */
    private static BsonValue switchCase(BsonValue arg, BsonDocument doc) {
        if (!arg.isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$switch requires an object as an argument, found: "
                    + typeName(arg));
        }
        BsonValue branches = null;
        BsonValue dflt = null;
        for (Map.Entry<String, BsonValue> e : arg.asDocument().entrySet()) {
            switch (e.getKey()) {
                case "branches" -> {
                    if (!e.getValue().isArray()) {
                        throw new MongoError(ErrorCode.SWITCH_BRANCHES_NOT_ARRAY, "$switch expected an array for "
                                + "'branches', found: " + typeName(e.getValue()));
                    }
                    branches = e.getValue();
                }
                case "default" -> dflt = e.getValue();
                default -> throw new MongoError(ErrorCode.SWITCH_UNKNOWN_ARGUMENT, "$switch found an unknown "
                        + "argument: " + e.getKey());
            }
        }
        if (branches == null || branches.asArray().isEmpty()) {
            throw new MongoError(ErrorCode.SWITCH_NEEDS_BRANCH, "$switch requires at least one branch.");
        }
        for (BsonValue b : branches.asArray()) {
            if (!b.isDocument()) {
                throw new MongoError(ErrorCode.SWITCH_BRANCH_NOT_OBJECT, "$switch expected each branch to be an "
                        + "object, found: " + typeName(b));
            }
            for (String k : b.asDocument().keySet()) {
                if (!k.equals("case") && !k.equals("then")) {
                    throw new MongoError(ErrorCode.SWITCH_BRANCH_UNKNOWN_ARGUMENT, "$switch found an unknown "
                            + "argument to a branch: " + k);
                }
            }
            if (!b.asDocument().containsKey("case")) {
                throw new MongoError(ErrorCode.SWITCH_BRANCH_NEEDS_CASE, "$switch requires each branch have a "
                        + "'case' expression");
            }
            if (!b.asDocument().containsKey("then")) {
                throw new MongoError(ErrorCode.SWITCH_BRANCH_NEEDS_THEN, "$switch requires each branch have a "
                        + "'then' expression.");
            }
        }
        for (BsonValue b : branches.asArray()) {
            if (truthy(eval(b.asDocument().get("case"), doc))) {
                return eval(b.asDocument().get("then"), doc);
            }
        }
        if (dflt == null) {
            throw new MongoError(ErrorCode.BUCKET_NO_DEFAULT, "$switch could not find a matching branch for an "
                    + "input, and no default was specified.");
        }
        return eval(dflt, doc);
    }

    static String typeName(BsonValue v) {
        return io.tetradb.mongo.bson.BsonTypeNames.name(v);
    }

    static BsonValue longOrInt(long n) {
        return n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE ? new BsonInt32((int) n) : new BsonInt64(n);
    }
}
