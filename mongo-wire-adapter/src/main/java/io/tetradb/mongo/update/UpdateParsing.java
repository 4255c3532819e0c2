package io.tetradb.mongo.update;

import io.tetradb.mongo.bson.BsonText;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Map;
import java.util.Set;

/**
 * The checks MongoDB makes when it parses an operator update, before it looks at any document: so a bad update is
 * refused with MongoDB's code even when its filter matches nothing (where it used to be ignored).
 */
final class UpdateParsing {
    static final Set<String> OPERATORS = Set.of("$set", "$setOnInsert", "$unset", "$inc", "$mul", "$min", "$max",
            "$rename", "$currentDate", "$push", "$addToSet", "$pop", "$pull", "$pullAll", "$bit");
    private static final Set<String> PUSH_CLAUSES = Set.of("$each", "$slice", "$sort", "$position");

    private UpdateParsing() {
    }

    static void check(BsonDocument update) {
        for (Map.Entry<String, BsonValue> e : update.entrySet()) {
            String op = e.getKey();
            if (!OPERATORS.contains(op)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Unknown modifier: " + op + ". Expected a valid "
                        + "update modifier or pipeline-style update specified as an array");
            }
            if (!e.getValue().isDocument()) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Modifiers operate on fields but we found type "
                        + typeName(e.getValue()) + " instead. For example: {$mod: {<field>: ...}} not {" + op
                        + ": " + BsonText.of(e.getValue()) + "}");
            }
            for (Map.Entry<String, BsonValue> f : e.getValue().asDocument().entrySet()) {
                checkPath(f.getKey());
                checkArgument(op, f.getKey(), f.getValue());
            }
        }
    }

    /** EmptyFieldName (56) for {@code ""} and for paths with an empty segment ({@code a.}, {@code a..b}). */
    static void checkPath(String path) {
        if (path.isEmpty()) {
            throw new MongoError(ErrorCode.EMPTY_FIELD_NAME, "An empty update path is not valid.");
        }
        for (String seg : path.split("\\.", -1)) {
            if (seg.isEmpty()) {
                throw new MongoError(ErrorCode.EMPTY_FIELD_NAME, "The update path '" + path + "' contains an empty "
                        + "field name, which is not allowed.");
            }
        }
    }

    private static void checkArgument(String op, String path, BsonValue arg) {
        switch (op) {
            case "$inc", "$mul" -> {
                if (!BsonOrder.isNumber(arg)) {
                    throw new MongoError(ErrorCode.TYPE_MISMATCH, "Cannot " + (op.equals("$inc") ? "increment"
                            : "multiply") + " with non-numeric argument: {" + path + ": " + BsonText.of(arg) + "}");
                }
            }
            case "$rename" -> {
                if (!arg.isString()) {
                    throw new MongoError(ErrorCode.BAD_VALUE, "The 'to' field for $rename must be a string: " + path
                            + ": " + BsonText.of(arg));
                }
                checkPath(arg.asString().getValue());
            }
            case "$pop" -> {
                double d = BsonOrder.isNumber(arg) ? BsonOrder.toDouble(arg) : 0;
                if (d != 1 && d != -1) {
                    throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$pop expects 1 or -1, found: "
                            + BsonText.of(arg));
                }
            }
            case "$pullAll" -> {
                if (!arg.isArray()) {
                    throw new MongoError(ErrorCode.BAD_VALUE, "$pullAll requires an array argument but was given a "
                            + typeName(arg));
                }
            }
            case "$currentDate" -> {
                boolean ok = arg.isBoolean() || arg.isDocument() && arg.asDocument().size() == 1
                        && arg.asDocument().get("$type") != null && arg.asDocument().get("$type").isString()
                        && Set.of("date", "timestamp").contains(arg.asDocument().getString("$type").getValue());
                if (!ok) {
                    throw new MongoError(ErrorCode.BAD_VALUE, arg.isDocument() ? "The '$type' string field is "
                            + "required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"
                            : typeName(arg) + " is not valid type for $currentDate. Please use a boolean ('true') or "
                            + "a $type expression ({$type: 'timestamp/date'}).");
                }
            }
            case "$push" -> {
                if (arg.isDocument() && arg.asDocument().containsKey("$each")) {
                    for (String clause : arg.asDocument().keySet()) {
                        if (!PUSH_CLAUSES.contains(clause)) {
                            throw new MongoError(ErrorCode.BAD_VALUE, "Unrecognized clause in $push: " + clause);
                        }
                    }
                    eachArray(arg.asDocument(), "$push");
                }
            }
            case "$addToSet" -> {
                if (arg.isDocument() && arg.asDocument().containsKey("$each")) {
                    if (arg.asDocument().size() > 1) {
                        throw new MongoError(ErrorCode.BAD_VALUE, "Found unexpected fields after $each in $addToSet: "
                                + BsonText.of(arg));
                    }
                    eachArray(arg.asDocument(), "$addToSet");
                }
            }
            case "$bit" -> {
                if (!arg.isDocument() || arg.asDocument().isEmpty()) {
                    throw new MongoError(ErrorCode.BAD_VALUE, "The $bit modifier is not compatible with a "
                            + typeName(arg) + ". You must pass in an embedded document: {$bit: {field: {and/or/xor: "
                            + "#}}");
                }
                for (Map.Entry<String, BsonValue> b : arg.asDocument().entrySet()) {
                    if (!Set.of("and", "or", "xor").contains(b.getKey())) {
                        throw new MongoError(ErrorCode.BAD_VALUE, "The $bit modifier only supports 'and', 'or', and "
                                + "'xor', not '" + b.getKey() + "' which is an unknown operator: {" + b.getKey() + ": "
                                + BsonText.of(b.getValue()) + "}");
                    }
                    if (!b.getValue().isInt32() && !b.getValue().isInt64()) {
                        throw new MongoError(ErrorCode.BAD_VALUE, "The $bit modifier field must be an Integer(32/64 "
                                + "bit); a '" + typeName(b.getValue()) + "' is not supported here: {" + b.getKey()
                                + ": " + BsonText.of(b.getValue()) + "}");
                    }
                }
            }
            default -> { }
        }
    }

    private static void eachArray(BsonDocument spec, String op) {
        if (!spec.get("$each").isArray()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "The argument to $each in " + op + " must be an array but it "
                    + "was of type: " + typeName(spec.get("$each")));
        }
    }

    /** MongoDB's type names ({@code int}, {@code string}, …) as its messages use them. */
    static String typeName(BsonValue v) {
        return io.tetradb.mongo.bson.BsonTypeNames.name(v);
    }
}
