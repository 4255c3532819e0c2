package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.command.MongoErrors;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.query.QueryRun;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code $out} (the results replace the target collection's documents) and {@code $merge} (each result is matched
 * on {@code on} and replaced, merged, kept, inserted, discarded or refused as {@code whenMatched} /
 * {@code whenNotMatched} say; {@code whenMatched} may also be an update pipeline over the existing document, with
 * the result document as {@code $$new} or {@code let}'s variables). Changing a matched document's {@code _id} is
 * refused with 66 as in MongoDB. Both are the last stage and return no documents.
 */
final class OutputStages {
    private OutputStages() {
    }

    static void out(BsonValue spec, String db, OutputCollections outputs, List<BsonDocument> rows) {
        String targetDb = db;
        String name;
        if (spec.isString()) {
            name = spec.asString().getValue();
        } else if (spec.isDocument() && spec.asDocument().containsKey("coll")) {
            name = spec.asDocument().getString("coll").getValue();
            targetDb = spec.asDocument().getString("db", new BsonString(db)).getValue();
        } else {
            throw MongoError.badValue("$out needs a collection name or {db, coll}");
        }
        MongoCollection target = outputs.replace(targetDb, name);
        List<BsonDocument> docs = new ArrayList<>();
        for (BsonDocument r : rows) {
            docs.add(withId(r));
        }
        List<RuntimeException> outcome = target.insertAll(docs, true, new double[1]);
        for (RuntimeException e : outcome) {
            if (e != null && e != MongoCollection.SKIPPED) {
                MongoError m = MongoErrors.of(e);
                throw new MongoError(m.code(), "$out failed: " + m.getMessage(), m.extra());
            }
        }
    }

    static void merge(BsonValue specV, String db, OutputCollections outputs, List<BsonDocument> rows) {
        BsonDocument spec = specV.isString() ? new BsonDocument("into", specV) : specV.asDocument();
        BsonValue into = spec.get("into");
        String targetDb = db;
        String name;
        if (into != null && into.isString()) {
            name = into.asString().getValue();
        } else if (into != null && into.isDocument() && into.asDocument().containsKey("coll")) {
            name = into.asDocument().getString("coll").getValue();
            targetDb = into.asDocument().getString("db", new BsonString(db)).getValue();
        } else {
            throw MongoError.badValue("$merge needs 'into': a collection name or {db, coll}");
        }
        List<String> on = new ArrayList<>();
        BsonValue onV = spec.get("on", new BsonString("_id"));
        for (BsonValue f : onV.isArray() ? onV.asArray().getValues() : List.of(onV)) {
            on.add(f.asString().getValue());
        }
        BsonValue whenMatchedV = spec.get("whenMatched", new BsonString("merge"));
        BsonArray matchedPipeline = whenMatchedV.isArray() ? whenMatchedV.asArray() : null;
        if (matchedPipeline == null && !whenMatchedV.isString()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "$merge's whenMatched must be a string or a pipeline");
        }
        String whenMatched = matchedPipeline != null ? "pipeline" : whenMatchedV.asString().getValue();
        String whenNotMatched = spec.getString("whenNotMatched", new BsonString("insert")).getValue();
        if (!List.of("merge", "replace", "keepExisting", "fail", "pipeline").contains(whenMatched)) {
            throw MongoError.badValue("Enumeration value '" + whenMatched + "' for field 'whenMatched' is not a "
                    + "valid value.");
        }
        if (spec.containsKey("let") && matchedPipeline == null) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Cannot use 'let' variables with 'whenMatched: "
                    + whenMatched + "' mode");
        }
        if (matchedPipeline != null) {
            new AggregationPipeline(matchedPipeline).checkUpdateStages(); // refused before anything is written
        }
        if (!List.of("insert", "discard", "fail").contains(whenNotMatched)) {
            throw MongoError.badValue("$merge whenNotMatched must be insert, discard or fail");
        }
        MongoCollection target = outputs.open(targetDb, name);
        double[] charge = new double[1];
        for (BsonDocument row : rows) {
            BsonDocument r = on.contains("_id") ? withId(row) : row;
            BsonDocument filter = new BsonDocument();
            for (String f : on) {
                BsonValue v = new io.tetradb.mongo.query.FieldPath(f).direct(r);
                if (v == null || v.isArray() || v.isNull() || v.getBsonType() == org.bson.BsonType.UNDEFINED) {
                    throw new MongoError(ErrorCode.MERGE_ON_FIELD_INVALID, "$merge write error: 'on' field '" + f
                            + "' cannot be missing, null, undefined or an array");
                }
                filter.append(f, new BsonDocument("$eq", v));
            }
            QueryRun run = new QueryRun(target.candidates(filter), FilterMatcher.compile(filter), null, 0, 1, null);
            StoredDoc existing = run.nextStored();
            if (existing == null) {
                switch (whenNotMatched) {
                    case "insert" -> target.insert(withId(r));
                    case "fail" -> throw new MongoError(ErrorCode.MERGE_STAGE_NO_MATCHING_DOCUMENT, "$merge could "
                            + "not find a matching document in the target collection for at least one document in "
                            + "the source collection");
                    default -> { }
                }
                continue;
            }
            BsonDocument next;
            switch (whenMatched) {
                case "keepExisting" -> {
                    continue;
                }
                case "fail" -> throw new MongoError(ErrorCode.DUPLICATE_KEY, "$merge with whenMatched: fail found "
                        + "an existing document: " + filter.toJson());
                case "replace" -> next = r.clone();
                case "pipeline" -> {
                    // the pipeline updates the existing document; $$new is the result document (or let's names)
                    Map<String, BsonValue> vars = new java.util.HashMap<>();
                    BsonDocument let = spec.containsKey("let") ? spec.getDocument("let")
                            : new BsonDocument("new", new BsonString("$$ROOT"));
                    for (Map.Entry<String, BsonValue> e : let.entrySet()) {
                        BsonValue v = Expressions.eval(e.getValue(), r);
                        vars.put(e.getKey(), v == null ? org.bson.BsonNull.VALUE : v);
                    }
                    next = new AggregationPipeline(Variables.bind(matchedPipeline, vars).asArray())
                            .applyTo(existing.doc().clone());
                }
                default -> {
                    next = existing.doc().clone();
                    for (Map.Entry<String, BsonValue> e : r.entrySet()) {
                        next.put(e.getKey(), e.getValue());
                    }
                }
            }
            BsonValue id = next.get("_id");
            if (id != null && !(io.tetradb.mongo.query.BsonOrder.typeClass(id)
                    == io.tetradb.mongo.query.BsonOrder.typeClass(existing.doc().get("_id"))
                    && io.tetradb.mongo.query.BsonOrder.equal(id, existing.doc().get("_id")))) {
                throw new MongoError(ErrorCode.IMMUTABLE_FIELD, "$merge failed to update the matching document, did "
                        + "you attempt to modify the _id or the shard key? :: caused by :: Performing an update on "
                        + "the path '_id' would modify the immutable field '_id'");
            }
            next.put("_id", existing.doc().get("_id"));
            if (!target.replace(existing, reordered(next), charge)) {
                throw new MongoError(ErrorCode.OPERATION_FAILED, "$merge: the target document changed meanwhile");
            }
        }
    }

    /** {@code _id} first, as stored documents have it. */
    private static BsonDocument reordered(BsonDocument d) {
        BsonDocument out = new BsonDocument("_id", d.get("_id"));
        d.forEach((k, v) -> {
            if (!k.equals("_id")) {
                out.append(k, v);
            }
        });
        return out;
    }

    private static BsonDocument withId(BsonDocument doc) {
        if (doc.containsKey("_id")) {
            return doc;
        }
        BsonDocument out = new BsonDocument("_id", new BsonObjectId());
        doc.forEach(out::append);
        return out;
    }

    static boolean isOutput(String stage) {
        return stage.equals("$out") || stage.equals("$merge");
    }
}
