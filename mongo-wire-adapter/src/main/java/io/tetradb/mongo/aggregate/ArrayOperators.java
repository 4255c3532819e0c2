package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonValue;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Array expression operators: {@code $filter $map $reduce} (with their variables), {@code $slice $concatArrays
 * $isArray $reverseArray $first $last}, and {@code $let}. A null or missing array gives null, as in MongoDB.
 */
final class ArrayOperators {
    static final Set<String> NAMES = Set.of("$filter", "$map", "$reduce", "$slice", "$concatArrays", "$isArray",
            "$reverseArray", "$first", "$last", "$let", "$indexOfArray", "$range", "$zip", "$sortArray", "$firstN",
            "$lastN", "$maxN", "$minN");

    private ArrayOperators() {
    }

    static BsonValue apply(String op, BsonValue arg, BsonDocument doc) {
        switch (op) {
            case "$let": {
                BsonDocument spec = spec(op, arg, "vars", "in");
                Map<String, BsonValue> vars = new java.util.HashMap<>();
                for (Map.Entry<String, BsonValue> e : spec.getDocument("vars").entrySet()) {
                    vars.put(e.getKey(), Expressions.eval(e.getValue(), doc));
                }
                return Expressions.eval(Variables.bind(spec.get("in"), vars), doc);
            }
            case "$filter": {
                BsonDocument spec = spec(op, arg, "input", "cond");
                BsonValue input = array(op, Expressions.eval(spec.get("input"), doc));
                if (input == null) {
                    return BsonNull.VALUE;
                }
                String as = Variables.name(spec, "as", "this").getValue();
                long limit = spec.containsKey("limit") ? (long) BsonOrder.toDouble(
                        Expressions.eval(spec.get("limit"), doc)) : Long.MAX_VALUE;
                BsonArray out = new BsonArray();
                for (BsonValue el : input.asArray()) {
                    if (out.size() >= limit) {
                        break;
                    }
                    if (Expressions.truthy(Expressions.eval(Variables.bind(spec.get("cond"), Variables.of(as, el)),
                            doc))) {
                        out.add(el);
                    }
                }
                return out;
            }
            case "$map": {
                BsonDocument spec = spec(op, arg, "input", "in");
                BsonValue input = array(op, Expressions.eval(spec.get("input"), doc));
                if (input == null) {
                    return BsonNull.VALUE;
                }
                String as = Variables.name(spec, "as", "this").getValue();
                BsonArray out = new BsonArray();
                for (BsonValue el : input.asArray()) {
                    BsonValue v = Expressions.eval(Variables.bind(spec.get("in"), Variables.of(as, el)), doc);
                    out.add(v == null ? BsonNull.VALUE : v);
                }
                return out;
            }
            case "$reduce": {
                BsonDocument spec = spec(op, arg, "input", "initialValue", "in");
                BsonValue input = array(op, Expressions.eval(spec.get("input"), doc));
                if (input == null) {
                    return BsonNull.VALUE;
                }
                BsonValue value = Expressions.eval(spec.get("initialValue"), doc);
                for (BsonValue el : input.asArray()) {
                    Map<String, BsonValue> vars = Variables.of("this", el);
                    vars.put("value", value == null ? BsonNull.VALUE : value);
                    value = Expressions.eval(Variables.bind(spec.get("in"), vars), doc);
                }
                return value;
            }
            case "$slice": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.size() < 2 || a.size() > 3) {
                    throw MongoError.badValue("$slice takes 2 or 3 arguments");
                }
                BsonValue input = array(op, a.get(0));
                if (input == null) {
                    return BsonNull.VALUE;
                }
                List<BsonValue> arr = input.asArray().getValues();
                int size = arr.size();
                int from;
                int n;
                if (a.size() == 2) {
                    int k = integer(op, a.get(1));
                    from = k >= 0 ? 0 : Math.max(0, size + k);
                    n = Math.abs(k);
                } else {
                    int p = integer(op, a.get(1));
                    n = integer(op, a.get(2));
                    if (n <= 0) {
                        throw MongoError.badValue("Third argument to $slice must be positive: " + n);
                    }
                    from = p >= 0 ? Math.min(p, size) : Math.max(0, size + p);
                }
                return new BsonArray(new java.util.ArrayList<>(arr.subList(from, Math.min(size, from + n))));
            }
            case "$concatArrays": {
                BsonArray out = new BsonArray();
                for (BsonValue v : Expressions.args(arg, doc)) {
                    BsonValue a = array(op, v);
                    if (a == null) {
                        return BsonNull.VALUE;
                    }
                    out.addAll(a.asArray());
                }
                return out;
            }
            case "$isArray": {
                BsonValue v = Expressions.args(arg, doc).get(0);
                return BsonBoolean.valueOf(v != null && v.isArray());
            }
            case "$reverseArray": {
                BsonValue a = array(op, Expressions.args(arg, doc).get(0));
                if (a == null) {
                    return BsonNull.VALUE;
                }
                BsonArray out = new BsonArray(new java.util.ArrayList<>(a.asArray().getValues()));
                java.util.Collections.reverse(out);
                return out;
            }
            case "$first", "$last": {
                BsonValue a = array(op, Expressions.args(arg, doc).get(0));
                if (a == null) {
                    return BsonNull.VALUE;
                }
                List<BsonValue> arr = a.asArray().getValues();
                return arr.isEmpty() ? null : op.equals("$first") ? arr.get(0) : arr.get(arr.size() - 1);
            }
            case "$indexOfArray": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.size() < 2 || a.size() > 4) {
                    throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression $indexOfArray takes at least 2 "
                            + "arguments, and at most 4, but " + a.size() + " were passed in.");
                }
                if (a.get(0) == null || a.get(0).isNull()) {
                    return BsonNull.VALUE;
                }
                if (!a.get(0).isArray()) {
                    throw new MongoError(ErrorCode.INDEX_OF_ARRAY_NOT_ARRAY, "$indexOfArray requires an array as a "
                            + "first argument, found: " + Expressions.typeName(a.get(0)));
                }
                List<BsonValue> arr = a.get(0).asArray().getValues();
                BsonValue x = a.get(1) == null ? BsonNull.VALUE : a.get(1);
                int from = a.size() > 2 ? integer(op, a.get(2)) : 0;
                int end = a.size() > 3 ? Math.min(arr.size(), integer(op, a.get(3))) : arr.size();
                for (int i = Math.max(0, from); i < end; i++) {
                    if (BsonOrder.typeClass(arr.get(i)) == BsonOrder.typeClass(x) && BsonOrder.equal(arr.get(i), x)) {
                        return new org.bson.BsonInt32(i);
                    }
                }
                return new org.bson.BsonInt32(-1);
            }
            case "$range": {
                List<BsonValue> a = Expressions.args(arg, doc);
                if (a.size() < 2 || a.size() > 3) {
                    throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression $range takes at least 2 "
                            + "arguments, and at most 3, but " + a.size() + " were passed in.");
                }
                long start = int32(a.get(0), ErrorCode.RANGE_START, "$range requires a starting value that can be "
                        + "represented as a 32-bit integer");
                long end = int32(a.get(1), ErrorCode.RANGE_END, "$range requires an ending value that can be "
                        + "represented as a 32-bit integer");
                long step = a.size() > 2 ? int32(a.get(2), ErrorCode.RANGE_STEP, "$range requires a step value "
                        + "that can be represented as a 32-bit integer") : 1;
                if (step == 0) {
                    throw new MongoError(ErrorCode.RANGE_STEP_ZERO, "$range requires a non-zero step value");
                }
                BsonArray out = new BsonArray();
                for (long i = start; step > 0 ? i < end : i > end; i += step) {
                    out.add(new org.bson.BsonInt32((int) i));
                }
                return out;
            }
            case "$zip": {
                BsonDocument spec = spec(op, arg, "inputs");
                if (!spec.get("inputs").isArray()) {
                    throw new MongoError(ErrorCode.ZIP_INPUTS, "inputs must be an array of expressions, found "
                            + Expressions.typeName(spec.get("inputs")));
                }
                boolean longest = spec.containsKey("useLongestLength")
                        && Expressions.truthy(spec.get("useLongestLength"));
                List<List<BsonValue>> inputs = new java.util.ArrayList<>();
                for (BsonValue e : spec.getArray("inputs")) {
                    BsonValue v = Expressions.eval(e, doc);
                    if (v == null || v.isNull()) {
                        return BsonNull.VALUE;
                    }
                    if (!v.isArray()) {
                        throw new MongoError(ErrorCode.ZIP_INPUT_NOT_ARRAY, "$zip found a non-array expression in "
                                + "input: " + Expressions.typeName(v));
                    }
                    inputs.add(v.asArray().getValues());
                }
                List<BsonValue> defaults = spec.containsKey("defaults")
                        ? Expressions.eval(spec.get("defaults"), doc).asArray().getValues() : List.of();
                int n = inputs.stream().mapToInt(List::size).reduce(longest ? 0 : Integer.MAX_VALUE,
                        longest ? Math::max : Math::min);
                BsonArray out = new BsonArray();
                for (int i = 0; i < (inputs.isEmpty() ? 0 : n); i++) {
                    BsonArray row = new BsonArray();
                    for (int k = 0; k < inputs.size(); k++) {
                        row.add(i < inputs.get(k).size() ? inputs.get(k).get(i)
                                : k < defaults.size() ? defaults.get(k) : BsonNull.VALUE);
                    }
                    out.add(row);
                }
                return out;
            }
            case "$sortArray": {
                BsonDocument spec = spec(op, arg, "input", "sortBy");
                BsonValue input = Expressions.eval(spec.get("input"), doc);
                if (input == null || input.isNull()) {
                    return BsonNull.VALUE;
                }
                if (!input.isArray()) {
                    throw new MongoError(ErrorCode.SORT_ARRAY_INPUT, "The input argument to $sortArray must be an "
                            + "array, but was of type: " + Expressions.typeName(input));
                }
                BsonValue by = spec.get("sortBy");
                java.util.Comparator<BsonValue> order;
                if (BsonOrder.isNumber(by) && Math.abs(BsonOrder.toDouble(by)) == 1) {
                    order = BsonOrder.toDouble(by) > 0 ? BsonOrder.INSTANCE : BsonOrder.INSTANCE.reversed();
                } else if (by.isDocument()) {
                    io.tetradb.mongo.query.SortSpec sort = new io.tetradb.mongo.query.SortSpec(by.asDocument());
                    order = (x, y) -> sort.compare(x.isDocument() ? x.asDocument() : new BsonDocument(),
                            y.isDocument() ? y.asDocument() : new BsonDocument());
                } else {
                    throw new MongoError(ErrorCode.SORT_ARRAY_SORT_BY, "$sortArray sortBy must be either 1, -1, or "
                            + "an object");
                }
                List<BsonValue> sorted = new java.util.ArrayList<>(input.asArray().getValues());
                sorted.sort(order);
                return new BsonArray(sorted);
            }
            case "$firstN", "$lastN", "$maxN", "$minN": {
                BsonDocument spec = spec(op, arg, "n", "input");
                BsonValue nV = Expressions.eval(spec.get("n"), doc);
                if (nV == null || !BsonOrder.isNumber(nV) || BsonOrder.toDouble(nV) < 1
                        || BsonOrder.toDouble(nV) != Math.rint(BsonOrder.toDouble(nV))) {
                    throw new MongoError(ErrorCode.N_ACCUMULATOR_N, "Value for 'n' must be a positive integral "
                            + "value, found " + (nV == null ? "missing" : MathOperators.show(nV)));
                }
                long n = (long) BsonOrder.toDouble(nV);
                BsonValue input = array(op, Expressions.eval(spec.get("input"), doc));
                if (input == null) {
                    return BsonNull.VALUE;
                }
                List<BsonValue> arr = new java.util.ArrayList<>(input.asArray().getValues());
                if (op.equals("$maxN") || op.equals("$minN")) {
                    arr.removeIf(v -> v.isNull() || v.getBsonType() == org.bson.BsonType.UNDEFINED);
                    arr.sort(op.equals("$minN") ? BsonOrder.INSTANCE : BsonOrder.INSTANCE.reversed());
                }
                int k = (int) Math.min(n, arr.size());
                return new BsonArray(new java.util.ArrayList<>(op.equals("$lastN") ? arr.subList(arr.size() - k,
                        arr.size()) : arr.subList(0, k)));
            }
            default:
                throw new IllegalStateException(op);
        }
    }

    private static long int32(BsonValue v, ErrorCode code, String message) {
        if (v == null || !BsonOrder.isNumber(v) || BsonOrder.toDouble(v) != Math.rint(BsonOrder.toDouble(v))
                || BsonOrder.toDouble(v) < Integer.MIN_VALUE || BsonOrder.toDouble(v) > Integer.MAX_VALUE) {
            throw new MongoError(code, message + ", found value of type: "
                    + (v == null ? "missing" : Expressions.typeName(v)));
        }
        return (long) BsonOrder.toDouble(v);
    }

    private static BsonDocument spec(String op, BsonValue arg, String... required) {
        if (!arg.isDocument()) {
            throw MongoError.badValue(op + " only supports an object as its argument");
        }
        for (String r : required) {
            if (!arg.asDocument().containsKey(r)) {
                throw MongoError.badValue("Missing '" + r + "' parameter to " + op);
            }
        }
        return arg.asDocument();
    }

    /** The array, null for null or missing, else the type error MongoDB gives for {@code op}. */
    private static BsonValue array(String op, BsonValue v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            String type = Expressions.typeName(v);
            throw switch (op) {
                case "$filter" -> new MongoError(ErrorCode.FILTER_INPUT, "input to $filter must be an array not "
                        + type);
                case "$map" -> new MongoError(ErrorCode.MAP_INPUT, "input to $map must be an array not " + type);
                case "$reduce" -> new MongoError(ErrorCode.REDUCE_INPUT, "$reduce requires that 'input' be an array, "
                        + "found: " + type);
                case "$concatArrays" -> new MongoError(ErrorCode.CONCAT_ARRAYS_INPUT, "$concatArrays only supports "
                        + "arrays, not " + type);
                case "$reverseArray" -> new MongoError(ErrorCode.REVERSE_ARRAY_INPUT, "The argument to $reverseArray "
                        + "must be an array, but was of type: " + type);
                case "$slice" -> new MongoError(ErrorCode.SLICE_INPUT, "First argument to $slice must be an array, "
                        + "but is of type: " + type);
                case "$first", "$last" -> new MongoError(ErrorCode.ARRAY_ELEM_AT_ARRAY, op + "'s argument must be an "
                        + "array, but is " + type);
                default -> MongoError.badValue(op + "'s argument must be an array, but is " + type);
            };
        }
        return v;
    }

    private static int integer(String op, BsonValue v) {
        if (v == null || !BsonOrder.isNumber(v)) {
            throw MongoError.badValue(op + " needs numeric arguments");
        }
        return (int) BsonOrder.toDouble(v);
    }
}
