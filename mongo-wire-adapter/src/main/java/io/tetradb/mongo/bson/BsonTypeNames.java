package io.tetradb.mongo.bson;

import org.bson.BsonType;
import org.bson.BsonValue;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * MongoDB's names of the BSON types ({@code "int"}, {@code "objectId"}, {@code "binData"}, …): the aliases {@code $type}
 * and {@code bsonType} accept, and the names MongoDB's messages and {@code $type} (the expression) give a value's type.
 */
public final class BsonTypeNames {
    private static final Map<String, BsonType> BY_NAME = Map.ofEntries(
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
    private static final Map<BsonType, String> BY_TYPE = new EnumMap<>(BsonType.class);

    static {
        BY_NAME.forEach((name, type) -> BY_TYPE.put(type, name));
    }

    private BsonTypeNames() {
    }

    /** The type an alias names, or null for an unknown alias ({@code "number"}, a set of types, is the caller's). */
    public static BsonType type(String alias) {
        return BY_NAME.get(alias);
    }

    /** MongoDB's name of a value's type. */
    public static String name(BsonValue v) {
        String name = BY_TYPE.get(v.getBsonType());
        return name != null ? name : v.getBsonType().name().toLowerCase(Locale.ROOT);
    }
}
