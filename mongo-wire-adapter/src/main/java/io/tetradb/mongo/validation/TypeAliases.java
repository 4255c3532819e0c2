package io.tetradb.mongo.validation;

import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonType;
import org.bson.BsonValue;

import java.util.Map;
import java.util.function.Predicate;

/** MongoDB's BSON type aliases ({@code "int"}, {@code "objectId"}, {@code "number"}, …) for {@code bsonType}. */
final class TypeAliases {
    private static final Map<String, BsonType> TYPES = Map.ofEntries(
            Map.entry("double", BsonType.DOUBLE), Map.entry("string", BsonType.STRING),
            Map.entry("object", BsonType.DOCUMENT), Map.entry("array", BsonType.ARRAY),
            Map.entry("binData", BsonType.BINARY), Map.entry("undefined", BsonType.UNDEFINED),
            Map.entry("objectId", BsonType.OBJECT_ID), Map.entry("bool", BsonType.BOOLEAN),
            Map.entry("date", BsonType.DATE_TIME), Map.entry("null", BsonType.NULL),
            Map.entry("regex", BsonType.REGULAR_EXPRESSION), Map.entry("dbPointer", BsonType.DB_POINTER),
            Map.entry("javascript", BsonType.JAVASCRIPT), Map.entry("symbol", BsonType.SYMBOL),
            Map.entry("javascriptWithScope", BsonType.JAVASCRIPT_WITH_SCOPE), Map.entry("int", BsonType.INT32),
            Map.entry("timestamp", BsonType.TIMESTAMP), Map.entry("long", BsonType.INT64),
            Map.entry("decimal", BsonType.DECIMAL128), Map.entry("minKey", BsonType.MIN_KEY),
            Map.entry("maxKey", BsonType.MAX_KEY));

    private TypeAliases() {
    }

    /** The test for an alias, or null for an unknown one. */
    static Predicate<BsonValue> test(String alias) {
        if (alias.equals("number")) {
            return BsonOrder::isNumber;
        }
        BsonType t = TYPES.get(alias);
        return t == null ? null : v -> v.getBsonType() == t;
    }

    /** The alias of a value's type, as MongoDB's {@code consideredType}. */
    static String name(BsonValue v) {
        for (Map.Entry<String, BsonType> e : TYPES.entrySet()) {
            if (e.getValue() == v.getBsonType()) {
                return e.getKey();
            }
        }
        return v.getBsonType().name();
    }
}
