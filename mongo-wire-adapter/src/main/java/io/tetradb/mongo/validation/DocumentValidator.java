package io.tetradb.mongo.validation;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.FilterMatcher;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A collection's validator as MongoDB applies it: a query filter (run by {@link FilterMatcher}) whose top level may
 * hold {@code $jsonSchema}, with the collection's {@code validationLevel} ({@code strict}: every insert and update;
 * {@code moderate}: inserts, and updates of documents that were valid; {@code off}) and {@code validationAction}
 * ({@code error}: 121 DocumentValidationFailure with MongoDB's {@code errInfo}; {@code warn}: logged, written).
 */
public final class DocumentValidator {
    private static final Logger LOG = LoggerFactory.getLogger(DocumentValidator.class);
    public static final Set<String> LEVELS = Set.of("off", "strict", "moderate");
    public static final Set<String> ACTIONS = Set.of("error", "warn");

    private final String namespace;
    private final JsonSchema schema;
    private final List<Map.Entry<String, BsonValue>> clauses = new ArrayList<>();
    private final List<FilterMatcher> matchers = new ArrayList<>();
    private final String level;
    private final String action;

    private DocumentValidator(String namespace, BsonDocument validator, String level, String action) {
        this.namespace = namespace;
        this.level = level;
        this.action = action;
        JsonSchema s = null;
        for (Map.Entry<String, BsonValue> e : validator.entrySet()) {
            if (e.getKey().equals("$jsonSchema")) {
                s = JsonSchema.compile(e.getValue());
            } else {
                if (Set.of("$near", "$nearSphere", "$text", "$where", "$geoNear").contains(e.getKey())) {
                    throw new MongoError(ErrorCode.INVALID_OPTIONS, e.getKey() + " is not allowed in collection "
                            + "validators");
                }
                clauses.add(e);
                matchers.add(FilterMatcher.compile(new BsonDocument(e.getKey(), e.getValue())));
            }
        }
        this.schema = s;
    }

    /**
     * The validator of a collection's options ({@code validator}, {@code validationLevel}, {@code validationAction}),
     * or null when there is none to apply. Refuses a bad validator or option with MongoDB's codes.
     */
    public static DocumentValidator of(String namespace, BsonDocument options) {
        String level = enumOption(options, "validationLevel", LEVELS, "strict");
        String action = enumOption(options, "validationAction", ACTIONS, "error");
        BsonValue v = options.get("validator");
        if (v == null) {
            return null;
        }
        if (!v.isDocument()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field 'validator' is the wrong type '"
                    + v.getBsonType().name().toLowerCase(java.util.Locale.ROOT) + "', expected type 'object'");
        }
        DocumentValidator validator = new DocumentValidator(namespace, v.asDocument(), level, action);
        return v.asDocument().isEmpty() || level.equals("off") ? null : validator;
    }

    /** Checks the option's value (BadValue for one MongoDB does not know); its default when absent. */
    public static String enumOption(BsonDocument options, String name, Set<String> allowed, String dflt) {
        BsonValue v = options.get(name);
        if (v == null) {
            return dflt;
        }
        if (!v.isString()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + name + "' is the wrong type, expected "
                    + "type 'string'");
        }
        if (!allowed.contains(v.asString().getValue())) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Enumeration value '" + v.asString().getValue()
                    + "' for field '" + name + "' is not a valid value.");
        }
        return v.asString().getValue();
    }

    /**
     * Checks a document about to be written: {@code before} is the version it replaces (null for an insert).
     * Throws 121 unless the validator passes it, the level exempts it or the action only warns.
     */
    public void check(BsonDocument before, BsonDocument after) {
        if (before != null && level.equals("moderate") && details(before) != null) {
            return; // moderate: a document that was already invalid may stay so
        }
        BsonDocument details = details(after);
        if (details == null) {
            return;
        }
        BsonDocument errInfo = new BsonDocument("failingDocumentId", after.get("_id", org.bson.BsonNull.VALUE))
                .append("details", details);
        if (action.equals("warn")) {
            // validationAction "warn": a client can insert invalid documents in a loop; the server's log limits repeats and
            // never blocks (server/README.md, "Logging"); errInfo (a BsonDocument) is turned into JSON only if written
            LOG.warn("Document would fail validation in {}: {}", namespace, errInfo);
            return;
        }
        throw new MongoError(ErrorCode.DOCUMENT_VALIDATION_FAILURE, "Document failed validation",
                new BsonDocument("errInfo", errInfo));
    }

    /** MongoDB's {@code errInfo.details} for a document the validator refuses, or null if it passes. */
    BsonDocument details(BsonDocument doc) {
        List<BsonDocument> failed = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        int index = 0;
        if (schema != null) {
            List<BsonDocument> rules = schema.failures(doc);
            if (!rules.isEmpty()) {
                failed.add(new BsonDocument("operatorName", new BsonString("$jsonSchema"))
                        .append("schemaRulesNotSatisfied", new BsonArray(rules)));
                indexes.add(index);
            }
            index++;
        }
        for (int i = 0; i < clauses.size(); i++, index++) {
            if (!matchers.get(i).test(doc)) {
                failed.add(clauseDetails(clauses.get(i), doc));
                indexes.add(index);
            }
        }
        if (failed.isEmpty()) {
            return null;
        }
        if (index == 1) {
            return failed.get(0);
        }
        BsonArray notSatisfied = new BsonArray();
        for (int i = 0; i < failed.size(); i++) {
            notSatisfied.add(new BsonDocument("index", new BsonInt32(indexes.get(i))).append("details", failed.get(i)));
        }
        return new BsonDocument("operatorName", new BsonString("$and")).append("clausesNotSatisfied", notSatisfied);
    }

    /** One failing query clause as MongoDB describes it: its operator, how it was specified, why it failed. */
    private static BsonDocument clauseDetails(Map.Entry<String, BsonValue> clause, BsonDocument doc) {
        String field = clause.getKey();
        BsonValue cond = clause.getValue();
        BsonDocument specifiedAs = new BsonDocument(field, cond);
        if (field.startsWith("$")) {
            return new BsonDocument("operatorName", new BsonString(field)).append("specifiedAs", specifiedAs)
                    .append("reason", new BsonString("expression did not match"));
        }
        String operator = "$eq";
        if (cond.isDocument() && !cond.asDocument().isEmpty() && cond.asDocument().getFirstKey().startsWith("$")) {
            for (Map.Entry<String, BsonValue> op : cond.asDocument().entrySet()) {
                operator = op.getKey();
                if (!FilterMatcher.compile(new BsonDocument(field, new BsonDocument(op.getKey(), op.getValue())))
                        .test(doc)) {
                    break;
                }
            }
        }
        BsonDocument d = new BsonDocument("operatorName", new BsonString(operator)).append("specifiedAs", specifiedAs);
        BsonValue considered = new FieldPath(field).direct(doc);
        if (considered == null) {
            return d.append("reason", new BsonString("field was missing"));
        }
        boolean comparison = Set.of("$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin").contains(operator);
        return d.append("reason", new BsonString(comparison ? "comparison failed" : "expression did not match"))
                .append("consideredValue", considered);
    }
}
