package io.tetradb.mongo.changestream;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDocument;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;

import java.util.List;
import java.util.Set;

/** The arguments of a {@code $changeStream} stage, checked as MongoDB 7.0 checks them. */
record ChangeStreamOptions(String fullDocument, String fullDocumentBeforeChange, ResumeToken resumeAfter,
                           ResumeToken startAfter, BsonTimestamp startAtOperationTime, boolean allChangesForCluster) {
    private static final Set<String> FIELDS = Set.of("allChangesForCluster", "fullDocument",
            "fullDocumentBeforeChange", "resumeAfter", "startAfter", "startAtOperationTime", "showExpandedEvents",
            "showMigrationEvents", "showSystemEvents", "allowToRunOnConfigDB", "allowToRunOnSystemNS");

    static ChangeStreamOptions parse(BsonValue stage) {
        if (!stage.isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "the $changeStream stage specification must be an object, "
                    + "got " + stage.getBsonType());
        }
        BsonDocument spec = stage.asDocument();
        for (String field : spec.keySet()) {
            if (!FIELDS.contains(field)) {
                throw new MongoError(ErrorCode.IDL_UNKNOWN_FIELD, "BSON field '$changeStream." + field
                        + "' is an unknown field.");
            }
        }
        String fullDocument = choice(spec, "fullDocument", List.of("default", "updateLookup", "whenAvailable",
                "required"), "default");
        String before = choice(spec, "fullDocumentBeforeChange", List.of("off", "whenAvailable", "required"), "off");
        ResumeToken resumeAfter = spec.containsKey("resumeAfter") ? ResumeToken.parse(spec.get("resumeAfter")) : null;
        ResumeToken startAfter = spec.containsKey("startAfter") ? ResumeToken.parse(spec.get("startAfter")) : null;
        BsonTimestamp at = null;
        if (spec.containsKey("startAtOperationTime")) {
            if (!spec.get("startAtOperationTime").isTimestamp()) {
                throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '$changeStream.startAtOperationTime' is the "
                        + "wrong type '" + typeName(spec.get("startAtOperationTime")) + "', expected type 'timestamp'");
            }
            at = spec.getTimestamp("startAtOperationTime");
        }
        if (resumeAfter != null && startAfter != null) {
            throw new MongoError(ErrorCode.LOCATION_50865, "Do not specify both 'startAfter' and 'resumeAfter' in a "
                    + "$changeStream stage.");
        }
        if (at != null && (resumeAfter != null || startAfter != null)) {
            throw new MongoError(ErrorCode.LOCATION_40674, "Only one type of resume option is allowed, but multiple "
                    + "were found.");
        }
        BsonValue all = spec.get("allChangesForCluster");
        if (all != null && !all.isBoolean()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '$changeStream.allChangesForCluster' is the "
                    + "wrong type '" + typeName(all) + "', expected type 'bool'");
        }
        return new ChangeStreamOptions(fullDocument, before, resumeAfter, startAfter, at,
                all != null && all.asBoolean().getValue());
    }

    private static String choice(BsonDocument spec, String field, List<String> values, String dflt) {
        BsonValue v = spec.get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.isString()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '$changeStream." + field + "' is the wrong type '"
                    + typeName(v) + "', expected type 'string'");
        }
        if (!values.contains(v.asString().getValue())) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Enumeration value '" + v.asString().getValue()
                    + "' for field '$changeStream." + field + "' is not a valid value.");
        }
        return v.asString().getValue();
    }

    private static String typeName(BsonValue v) {
        return switch (v.getBsonType()) {
            case DOUBLE -> "double";
            case STRING -> "string";
            case DOCUMENT -> "object";
            case ARRAY -> "array";
            case BOOLEAN -> "bool";
            case INT32 -> "int";
            case INT64 -> "long";
            case TIMESTAMP -> "timestamp";
            case NULL -> "null";
            default -> v.getBsonType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
