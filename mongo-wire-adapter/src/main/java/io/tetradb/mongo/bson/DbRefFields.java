package io.tetradb.mongo.bson;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The only {@code $}-prefixed field names a stored document may have: a DBRef's {@code $ref} (a string), {@code $id}
 * right after it and an optional {@code $db} (a string) right after that — MongoDB's storage rule for them, with its
 * InvalidDBRef (55) messages. Any other {@code $} name is refused (52): MongoDB 5.0+ stores such names on insert, but
 * here they could not be told apart from the tagged Extended JSON values of the stored item ({@code {"$date": …}}).
 * A document whose first field is {@code $ref} is therefore always a plain document when read back.
 */
final class DbRefFields {
    static final String REF = "$ref";
    static final String ID = "$id";
    static final String DB = "$db";

    private DbRefFields() {
    }

    /** Checks one document's own field names (not its sub-documents'). */
    static void check(BsonDocument doc) {
        List<Map.Entry<String, BsonValue>> fields = null;
        int i = 0;
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            if (e.getKey().startsWith("$")) {
                if (fields == null) {
                    fields = new ArrayList<>(doc.entrySet());
                }
                checkAt(fields, i);
            }
            i++;
        }
    }

    private static void checkAt(List<Map.Entry<String, BsonValue>> fields, int at) {
        String name = fields.get(at).getKey();
        int i = at;
        if (name.equals(DB)) {
            if (!fields.get(i).getValue().isString()) {
                throw invalid("The DBRef $db field must be a String, not a " + typeName(fields.get(i).getValue()));
            }
            if (i == 0 || !fields.get(i - 1).getKey().equals(ID)) {
                throw invalid("Found $db field without a $id before it, which is invalid.");
            }
            i--;
            name = ID;
        }
        if (name.equals(ID)) {
            if (i == 0 || !fields.get(i - 1).getKey().equals(REF)) {
                throw invalid("Found $id field without a $ref before it, which is invalid.");
            }
            i--;
            name = REF;
        }
        if (name.equals(REF)) {
            if (!fields.get(i).getValue().isString()) {
                throw invalid("The DBRef $ref field must be a String, not a " + typeName(fields.get(i).getValue()));
            }
            if (i + 1 >= fields.size() || !fields.get(i + 1).getKey().equals(ID)) {
                throw invalid("The DBRef $ref field must be followed by a $id field");
            }
            return;
        }
        throw new MongoError(ErrorCode.DOLLAR_PREFIXED_FIELD_NAME, "The dollar ($) prefixed field '" + name
                + "' is not supported by this server: only a DBRef's $ref, $id and $db may start with '$'");
    }

    private static String typeName(BsonValue v) {
        return switch (v.getBsonType()) {
            case INT32 -> "int";
            case INT64 -> "long";
            case DOUBLE -> "double";
            case DOCUMENT -> "object";
            case ARRAY -> "array";
            case BOOLEAN -> "bool";
            case OBJECT_ID -> "objectId";
            case NULL -> "null";
            default -> v.getBsonType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static MongoError invalid(String message) {
        return new MongoError(ErrorCode.INVALID_DBREF, message);
    }
}
