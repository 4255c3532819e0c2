package io.tetradb.mongo.update;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The document an upsert's insert starts from, by MongoDB's rules: every equality the filter states for certain — a
 * top-level {@code field: value} or {@code field: {$eq: value}}, inside {@code $and} (at any depth) and inside an
 * {@code $or}/{@code $and} of a single clause (MongoDB reduces those to their clause) — is set at its path. Other
 * operators, regexes and multi-branch {@code $or}s set nothing. Two equalities on one path, or on a path and its
 * prefix, cannot both be set: 54 NotSingleValueField, as MongoDB answers.
 */
public final class UpsertSeed {
    private UpsertSeed() {
    }

    public static BsonDocument of(BsonDocument filter) {
        return of(filter, false);
    }

    /** As {@link #of(BsonDocument)}, or only its {@code _id} (a replacement-style upsert keeps nothing else). */
    public static BsonDocument of(BsonDocument filter, boolean idOnly) {
        Map<String, BsonValue> equalities = new LinkedHashMap<>();
        collect(filter, equalities, idOnly);
        BsonDocument seed = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : equalities.entrySet()) {
            UpdateApplier.set(seed, e.getKey(), e.getValue());
        }
        return seed;
    }

    private static void collect(BsonDocument filter, Map<String, BsonValue> out, boolean idOnly) {
        for (Map.Entry<String, BsonValue> e : filter.entrySet()) {
            String k = e.getKey();
            BsonValue v = e.getValue();
            if (k.equals("$and") && v.isArray()) {
                for (BsonValue clause : v.asArray()) {
                    if (clause.isDocument()) {
                        collect(clause.asDocument(), out, idOnly);
                    }
                }
            } else if (k.equals("$or") && v.isArray() && v.asArray().size() == 1 && v.asArray().get(0).isDocument()) {
                collect(v.asArray().get(0).asDocument(), out, idOnly);
            } else if (!k.startsWith("$") && (!idOnly || k.equals("_id"))) {
                BsonValue eq = equality(v);
                if (eq != null) {
                    add(out, k, eq);
                }
            }
        }
    }

    /** The value {@code field: v} pins the field to, or null if it does not pin it to one value. */
    private static BsonValue equality(BsonValue v) {
        if (v.isRegularExpression()) {
            return null;
        }
        if (v.isDocument() && !v.asDocument().isEmpty() && v.asDocument().getFirstKey().startsWith("$")) {
            BsonValue eq = v.asDocument().get("$eq");
            return eq == null || eq.isRegularExpression() ? null : eq;
        }
        return v;
    }

    private static void add(Map<String, BsonValue> out, String path, BsonValue v) {
        for (String existing : out.keySet()) {
            if (existing.equals(path)) {
                throw new MongoError(ErrorCode.NOT_SINGLE_VALUE_FIELD, "cannot infer query fields to set, path '"
                        + path + "' is matched twice");
            }
            if (existing.startsWith(path + ".") || path.startsWith(existing + ".")) {
                throw new MongoError(ErrorCode.NOT_SINGLE_VALUE_FIELD, "cannot infer query fields to set, both paths '"
                        + existing + "' and '" + path + "' are matched");
            }
        }
        out.put(path, v);
    }
}
