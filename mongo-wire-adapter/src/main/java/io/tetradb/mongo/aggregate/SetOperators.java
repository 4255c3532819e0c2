package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Set expression operators over arrays as sets (duplicates and order ignored, numbers equal by value):
 * {@code $setEquals $setIntersection $setUnion $setDifference $setIsSubset $anyElementTrue $allElementsTrue}.
 * A null or missing operand gives null where MongoDB does so ({@code $setIntersection $setUnion $setDifference}),
 * else it is an error with MongoDB's code.
 */
final class SetOperators {
    static final Set<String> NAMES = Set.of("$setEquals", "$setIntersection", "$setUnion", "$setDifference",
            "$setIsSubset", "$anyElementTrue", "$allElementsTrue");

    private SetOperators() {
    }

    static BsonValue apply(String op, BsonValue arg, BsonDocument doc) {
        List<BsonValue> a = Expressions.args(arg, doc);
        switch (op) {
            case "$setEquals" -> {
                if (a.size() < 2) {
                    throw new MongoError(ErrorCode.SET_EQUALS_ONE_ARGUMENT, "$setEquals needs at least two arguments "
                            + "had: " + a.size());
                }
                List<BsonValue> first = null;
                for (BsonValue v : a) {
                    if (v == null || !v.isArray()) {
                        throw new MongoError(ErrorCode.SET_EQUALS_NOT_ARRAY, "All operands of $setEquals must be "
                                + "arrays. One argument is of type: " + type(v));
                    }
                    List<BsonValue> set = distinct(v.asArray());
                    if (first == null) {
                        first = set;
                    } else if (!sameSet(first, set)) {
                        return BsonBoolean.FALSE;
                    }
                }
                return BsonBoolean.TRUE;
            }
            case "$setIntersection", "$setUnion" -> {
                boolean union = op.equals("$setUnion");
                List<BsonValue> out = null;
                boolean sawNull = false;
                for (BsonValue v : a) {
                    if (v == null || v.isNull()) {
                        sawNull = true;
                        continue;
                    }
                    if (!v.isArray()) {
                        throw new MongoError(union ? ErrorCode.SET_UNION_NOT_ARRAY
                                : ErrorCode.SET_INTERSECTION_NOT_ARRAY, "All operands of " + op + " must be arrays. "
                                + "One argument is of type: " + type(v));
                    }
                    List<BsonValue> set = distinct(v.asArray());
                    if (out == null) {
                        out = set;
                    } else if (union) {
                        for (BsonValue x : set) {
                            if (!contains(out, x)) {
                                out.add(x);
                            }
                        }
                    } else {
                        List<BsonValue> kept = new ArrayList<>();
                        for (BsonValue x : out) {
                            if (contains(set, x)) {
                                kept.add(x);
                            }
                        }
                        out = kept;
                    }
                }
                return sawNull ? BsonNull.VALUE : new BsonArray(out == null ? new ArrayList<>() : out);
            }
            case "$setDifference" -> {
                arity(op, a, 2);
                if (nullish(a.get(0)) || nullish(a.get(1))) {
                    return BsonNull.VALUE;
                }
                if (!a.get(0).isArray()) {
                    throw new MongoError(ErrorCode.SET_DIFFERENCE_FIRST, "both operands of $setDifference must be "
                            + "arrays. First argument is of type: " + type(a.get(0)));
                }
                if (!a.get(1).isArray()) {
                    throw new MongoError(ErrorCode.SET_DIFFERENCE_SECOND, "both operands of $setDifference must be "
                            + "arrays. Second argument is of type: " + type(a.get(1)));
                }
                List<BsonValue> other = a.get(1).asArray().getValues();
                List<BsonValue> out = new ArrayList<>();
                for (BsonValue x : distinct(a.get(0).asArray())) {
                    if (!contains(other, x)) {
                        out.add(x);
                    }
                }
                return new BsonArray(out);
            }
            case "$setIsSubset" -> {
                arity(op, a, 2);
                if (a.get(0) == null || !a.get(0).isArray()) {
                    throw new MongoError(ErrorCode.SET_IS_SUBSET_FIRST, "both operands of $setIsSubset must be arrays. "
                            + "First argument is of type: " + type(a.get(0)));
                }
                if (a.get(1) == null || !a.get(1).isArray()) {
                    throw new MongoError(ErrorCode.SET_IS_SUBSET_SECOND, "both operands of $setIsSubset must be "
                            + "arrays. Second argument is of type: " + type(a.get(1)));
                }
                List<BsonValue> sup = a.get(1).asArray().getValues();
                return BsonBoolean.valueOf(a.get(0).asArray().stream().allMatch(x -> contains(sup, x)));
            }
            default -> { // $anyElementTrue, $allElementsTrue
                arity(op, a, 1);
                BsonValue v = a.get(0);
                if (v == null || !v.isArray()) {
                    throw new MongoError(ErrorCode.ELEMENTS_TRUE_NOT_ARRAY, op + "'s argument must be an array, but "
                            + "is " + type(v));
                }
                return BsonBoolean.valueOf(op.equals("$anyElementTrue")
                        ? v.asArray().stream().anyMatch(Expressions::truthy)
                        : v.asArray().stream().allMatch(Expressions::truthy));
            }
        }
    }

    private static void arity(String op, List<BsonValue> a, int n) {
        if (a.size() != n) {
            throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression " + op + " takes exactly " + n
                    + " arguments. " + a.size() + " were passed in.");
        }
    }

    private static boolean nullish(BsonValue v) {
        return v == null || v.isNull();
    }

    static String type(BsonValue v) {
        return v == null ? "missing" : Expressions.typeName(v);
    }

    private static boolean contains(List<BsonValue> set, BsonValue x) {
        for (BsonValue y : set) {
            if (BsonOrder.equal(x, y)) {
                return true;
            }
        }
        return false;
    }

    private static List<BsonValue> distinct(BsonArray values) {
        List<BsonValue> out = new ArrayList<>();
        for (BsonValue v : values) {
            if (!contains(out, v)) {
                out.add(v);
            }
        }
        return out;
    }

    private static boolean sameSet(List<BsonValue> a, List<BsonValue> b) {
        return a.size() == b.size() && a.stream().allMatch(x -> contains(b, x));
    }
}
