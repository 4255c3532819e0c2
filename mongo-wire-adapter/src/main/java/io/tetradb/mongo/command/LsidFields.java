package io.tetradb.mongo.command;

import io.tetradb.mongo.bson.BsonTypeNames;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * An lsid a client names in {@code endSessions}/{@code killSessions}, checked as mongod's IDL parser checks a
 * {@code LogicalSessionFromClient}: only {@code id} (a UUID: binData subtype 4, 16 bytes) and an optional {@code uid}
 * (binData subtype 0, a 32-byte SHA-256 digest); errors name the field by its path, as mongod's do.
 */
final class LsidFields {
    private static final int UUID_BYTES = 16;
    private static final int UID_BYTES = 32;

    private LsidFields() {
    }

    /** Refuses a malformed lsid at {@code path} (e.g. {@code EndSessionsCmdFromClient.endSessions}). */
    static void check(String path, BsonDocument lsid) {
        for (String field : lsid.keySet()) {
            if (!field.equals("id") && !field.equals("uid")) {
                throw new MongoError(ErrorCode.IDL_UNKNOWN_FIELD, "BSON field '" + path + "." + field
                        + "' is an unknown field.");
            }
        }
        BsonValue id = lsid.get("id");
        if (id == null) {
            throw new MongoError(ErrorCode.IDL_MISSING_FIELD, "BSON field '" + path + ".id' is missing but a "
                    + "required field");
        }
        binData(path + ".id", id, BsonBinarySubType.UUID_STANDARD, "uuid");
        if (id.asBinary().getData().length != UUID_BYTES) {
            throw new MongoError(ErrorCode.INVALID_UUID, "uuid must be a 16-byte binary field with UUID (4) subtype");
        }
        BsonValue uid = lsid.get("uid");
        if (uid != null) {
            binData(path + ".uid", uid, BsonBinarySubType.BINARY, "general");
            if (uid.asBinary().getData().length != UID_BYTES) {
                throw new MongoError(ErrorCode.INVALID_LENGTH, "Unsupported SHA256Block hash length: "
                        + uid.asBinary().getData().length);
            }
        }
    }

    private static void binData(String path, BsonValue v, BsonBinarySubType subtype, String subtypeName) {
        if (!(v instanceof BsonBinary b)) {
            throw wrongType(path, v, "binData");
        }
        if (b.getType() != subtype.getValue()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + path + "' is the wrong binData type '"
                    + binDataTypeName(b.getType()) + "', expected type '" + subtypeName + "'");
        }
    }

    /** mongod's names of the binData subtypes in its messages. */
    private static String binDataTypeName(byte subtype) {
        return switch (subtype) {
            case 0 -> "general";
            case 1 -> "function";
            case 2 -> "byte(deprecated)";
            case 3 -> "uuid(deprecated)";
            case 4 -> "uuid";
            case 5 -> "md5";
            case 6 -> "encrypt";
            case 7 -> "column";
            case 8 -> "sensitive";
            default -> "invalid";
        };
    }

    static MongoError wrongType(String path, BsonValue v, String expected) {
        return new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + path + "' is the wrong type '"
                + BsonTypeNames.name(v) + "', expected type '" + expected + "'");
    }
}
