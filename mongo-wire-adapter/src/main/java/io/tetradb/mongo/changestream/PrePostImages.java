package io.tetradb.mongo.changestream;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * A collection's {@code changeStreamPreAndPostImages: {enabled}} option (create and collMod), kept with its other
 * options. The core keeps every change's images anyway; the option decides, as in MongoDB, whether change streams may
 * show them ({@code fullDocumentBeforeChange}, and {@code fullDocument: "whenAvailable" | "required"}).
 */
public final class PrePostImages {
    public static final String OPTION = "changeStreamPreAndPostImages";

    private PrePostImages() {
    }

    /** Checks an option value as MongoDB's parser does: {@code {enabled: <bool>}} and nothing else. */
    public static BsonDocument checked(String command, BsonValue v) {
        if (!v.isDocument()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + command + "." + OPTION + "' is the wrong "
                    + "type '" + v.getBsonType().name().toLowerCase(java.util.Locale.ROOT) + "', expected type 'object'");
        }
        for (String field : v.asDocument().keySet()) {
            if (!field.equals("enabled")) {
                throw new MongoError(ErrorCode.IDL_UNKNOWN_FIELD, "BSON field '" + command + "." + OPTION + "." + field
                        + "' is an unknown field.");
            }
        }
        BsonValue enabled = v.asDocument().get("enabled");
        if (enabled == null) {
            throw new MongoError(ErrorCode.IDL_MISSING_FIELD, "BSON field '" + command + "." + OPTION + ".enabled' is "
                    + "missing but a required field");
        }
        if (!enabled.isBoolean()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + command + "." + OPTION + ".enabled' is the "
                    + "wrong type, expected type 'bool'");
        }
        return new BsonDocument("enabled", enabled);
    }

    static boolean enabled(MongoCatalog catalog, MongoCollection coll) {
        BsonValue v = catalog.options().of(coll).get(OPTION);
        return v != null && v.isDocument() && v.asDocument().getBoolean("enabled", org.bson.BsonBoolean.FALSE)
                .getValue();
    }
}
