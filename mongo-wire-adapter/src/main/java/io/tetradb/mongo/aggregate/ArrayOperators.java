package io.tetradb.mongo.aggregate;

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
            "$reverseArray", "$first", "$last", "$let");

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
            default:
                throw new IllegalStateException(op);
        }
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

    /** The array, null for null or missing, else the type error MongoDB gives. */
    private static BsonValue array(String op, BsonValue v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            throw MongoError.badValue(op + "'s argument must be an array, but is " + Expressions.typeName(v));
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
