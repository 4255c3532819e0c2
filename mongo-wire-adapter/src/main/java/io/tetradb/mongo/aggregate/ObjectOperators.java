package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Object expression operators: {@code $mergeObjects $arrayToObject $objectToArray $getField $setField
 * $unsetField}. Field names are taken literally (a dot is part of the name, as in MongoDB's {@code $getField}).
 */
final class ObjectOperators {
    static final Set<String> NAMES = Set.of("$mergeObjects", "$arrayToObject", "$objectToArray", "$getField",
            "$setField", "$unsetField");

    private ObjectOperators() {
    }

    static BsonValue apply(String op, BsonValue arg, BsonDocument doc) {
        switch (op) {
            case "$mergeObjects": {
                BsonDocument out = new BsonDocument();
                for (BsonValue v : Expressions.args(arg, doc)) {
                    merge(out, v);
                }
                return out;
            }
            case "$objectToArray": {
                BsonValue v = single(op, arg, doc);
                if (v == null || v.isNull()) {
                    return BsonNull.VALUE;
                }
                if (!v.isDocument()) {
                    throw new MongoError(ErrorCode.OBJECT_TO_ARRAY_NOT_OBJECT, "$objectToArray requires a document "
                            + "input, found: " + Expressions.typeName(v));
                }
                BsonArray out = new BsonArray();
                v.asDocument().forEach((k, x) -> out.add(new BsonDocument("k", new BsonString(k)).append("v", x)));
                return out;
            }
            case "$arrayToObject": {
                BsonValue v = single(op, arg, doc);
                if (v == null || v.isNull()) {
                    return BsonNull.VALUE;
                }
                if (!v.isArray()) {
                    throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_NOT_ARRAY, "$arrayToObject requires an array "
                            + "input, found: " + Expressions.typeName(v));
                }
                return arrayToObject(v.asArray());
            }
            default:
                return field(op, arg, doc);
        }
    }

    /** Adds {@code v}'s fields to {@code out} (the {@code $mergeObjects} step; null and missing add nothing). */
    static void merge(BsonDocument out, BsonValue v) {
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isDocument()) {
            throw new MongoError(ErrorCode.MERGE_OBJECTS_NOT_OBJECT, "$mergeObjects requires object inputs, but "
                    + "input " + (io.tetradb.mongo.query.BsonOrder.isNumber(v) ? MathOperators.show(v)
                    : v.isString() ? v.asString().getValue() : v.toString()) + " is of type " + Expressions.typeName(v));
        }
        v.asDocument().forEach(out::put);
    }

    private static BsonValue single(String op, BsonValue arg, BsonDocument doc) {
        List<BsonValue> a = Expressions.args(arg, doc);
        if (a.size() != 1) {
            throw new MongoError(ErrorCode.WRONG_ARGUMENT_COUNT, "Expression " + op + " takes exactly 1 arguments. "
                    + a.size() + " were passed in.");
        }
        return a.get(0);
    }

    /** {@code [[k, v], …]} or {@code [{k, v}, …]} (not mixed) to a document; a repeated key keeps its last value. */
    private static BsonDocument arrayToObject(BsonArray pairs) {
        BsonDocument out = new BsonDocument();
        Boolean arrays = null;
        for (BsonValue p : pairs) {
            if (!p.isArray() && !p.isDocument()) {
                throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_ELEMENT, "Unrecognised input type format for "
                        + "$arrayToObject: " + Expressions.typeName(p));
            }
            if (arrays != null && arrays != p.isArray()) {
                throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_MIXED, "$arrayToObject requires a consistent input "
                        + "format. Elements must all be arrays or all be objects. " + (arrays ? "Array" : "Object")
                        + " was detected, now found: " + Expressions.typeName(p));
            }
            arrays = p.isArray();
            BsonValue k;
            BsonValue v;
            if (p.isArray()) {
                if (p.asArray().size() != 2) {
                    throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_PAIR_SIZE, "$arrayToObject requires an array of "
                            + "size 2 arrays,found array of size: " + p.asArray().size());
                }
                k = p.asArray().get(0);
                v = p.asArray().get(1);
                if (!k.isString()) {
                    throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_PAIR_KEY, "$arrayToObject requires an array of "
                            + "key-value pairs, where the key must be of type string. Found key type: "
                            + Expressions.typeName(k));
                }
            } else {
                BsonDocument d = p.asDocument();
                if (d.size() != 2) {
                    throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_KEY_COUNT, "$arrayToObject requires an object "
                            + "keys of 'k' and 'v'. Found incorrect number of keys:" + d.size());
                }
                if (!d.containsKey("k") || !d.containsKey("v")) {
                    throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_MISSING_KV, "$arrayToObject requires an object "
                            + "with keys 'k' and 'v'. Missing either or both keys from: " + d.toJson());
                }
                k = d.get("k");
                v = d.get("v");
                if (!k.isString()) {
                    throw new MongoError(ErrorCode.ARRAY_TO_OBJECT_K_NOT_STRING, "$arrayToObject requires an object "
                            + "with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: "
                            + Expressions.typeName(k));
                }
            }
            out.put(k.asString().getValue(), v);
        }
        return out;
    }

    /** {@code $getField}, {@code $setField}, {@code $unsetField}: one literally named field of a document. */
    private static BsonValue field(String op, BsonValue arg, BsonDocument doc) {
        BsonDocument spec;
        if (arg.isDocument() && arg.asDocument().containsKey("field")) {
            spec = arg.asDocument();
        } else if (op.equals("$getField")) {
            spec = new BsonDocument("field", arg); // the shorthand {$getField: "name"} reads $$CURRENT
        } else {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " requires 'field' to be specified");
        }
        Set<String> allowed = op.equals("$setField") ? Set.of("field", "input", "value") : Set.of("field", "input");
        for (String k : spec.keySet()) {
            if (!allowed.contains(k)) {
                throw new MongoError(ErrorCode.GET_FIELD_UNKNOWN_ARGUMENT, op + " found an unknown argument: " + k);
            }
        }
        BsonValue fieldExpr = spec.get("field");
        if (fieldExpr.isDocument() && fieldExpr.asDocument().containsKey("$literal")) {
            fieldExpr = fieldExpr.asDocument().get("$literal");
        }
        if (!fieldExpr.isString() || fieldExpr.asString().getValue().startsWith("$")) {
            throw new MongoError(ErrorCode.GET_FIELD_FIELD, op + " requires 'field' to evaluate to a constant of "
                    + "type String (use $literal for a name starting with '$'), but got "
                    + Expressions.typeName(fieldExpr));
        }
        String name = fieldExpr.asString().getValue();
        if (op.equals("$setField") && !spec.containsKey("value")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$setField requires 'value' to be specified");
        }
        if (!op.equals("$getField") && !spec.containsKey("input")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " requires 'input' to be specified");
        }
        BsonValue input = spec.containsKey("input") ? Expressions.eval(spec.get("input"), doc) : doc;
        if (op.equals("$getField")) {
            return input != null && input.isDocument() ? input.asDocument().get(name) : null;
        }
        if (input == null || input.isNull()) {
            return BsonNull.VALUE;
        }
        if (!input.isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, op + " requires 'input' to evaluate to type Object");
        }
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : input.asDocument().entrySet()) {
            out.put(e.getKey(), e.getValue());
        }
        BsonValue value = op.equals("$setField") ? Expressions.eval(spec.get("value"), doc) : null;
        if (value == null) {
            out.remove(name); // $unsetField, or $setField to $$REMOVE
        } else {
            out.put(name, value);
        }
        return out;
    }
}
