package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.query.QueryRun;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.update.UpdateApplier;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code $graphLookup}: a breadth-first search over another collection of the database. From the values of
 * {@code startWith}, each round finds the documents whose {@code connectToField} equals one of the values (index
 * seeks through the core, as {@code $lookup} does, narrowed by {@code restrictSearchWithMatch}) and takes their
 * {@code connectFromField} values as the next round's, until no new document is found or {@code maxDepth} is
 * reached. Each document found once, in {@code as}, with its round in {@code depthField} (a long) if asked.
 */
final class GraphLookup {
    private static final Set<String> OPTIONS = Set.of("from", "startWith", "connectFromField", "connectToField",
            "as", "maxDepth", "depthField", "restrictSearchWithMatch");

    private GraphLookup() {
    }

    static List<BsonDocument> apply(BsonDocument spec, List<BsonDocument> rows,
                                    Function<String, MongoCollection> collections, BsonOrder order) {
        for (String k : spec.keySet()) {
            if (!OPTIONS.contains(k)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Unknown argument to $graphLookup: " + k);
            }
        }
        for (String k : List.of("from", "startWith", "connectFromField", "connectToField", "as")) {
            if (!spec.containsKey(k) || !k.equals("startWith") && !spec.get(k).isString()) {
                throw new MongoError(ErrorCode.GRAPH_LOOKUP_MISSING, "$graphLookup requires 'from', 'startWith', "
                        + "'connectFromField', 'connectToField' and 'as' ('" + k + "' is missing or not a string)");
            }
        }
        long maxDepth = Long.MAX_VALUE;
        if (spec.containsKey("maxDepth")) {
            BsonValue d = spec.get("maxDepth");
            if (!BsonOrder.isNumber(d) || BsonOrder.toDouble(d) < 0
                    || BsonOrder.toDouble(d) != Math.rint(BsonOrder.toDouble(d))) {
                throw new MongoError(ErrorCode.GRAPH_LOOKUP_MAX_DEPTH, "maxDepth requires a nonnegative argument, "
                        + "found: " + d);
            }
            maxDepth = (long) BsonOrder.toDouble(d);
        }
        String depthField = spec.containsKey("depthField") ? spec.getString("depthField").getValue() : null;
        BsonDocument restrict = spec.containsKey("restrictSearchWithMatch")
                ? spec.getDocument("restrictSearchWithMatch") : new BsonDocument();
        MongoCollection foreign = collections.apply(spec.getString("from").getValue());
        String connectTo = spec.getString("connectToField").getValue();
        FieldPath connectFrom = new FieldPath(spec.getString("connectFromField").getValue());
        List<BsonDocument> out = new ArrayList<>();
        for (BsonDocument r : rows) {
            BsonArray found = new BsonArray();
            if (foreign != null) {
                BsonArray frontier = new BsonArray();
                flatten(Expressions.eval(spec.get("startWith"), r), frontier);
                Map<BsonValue, Boolean> seen = new TreeMap<>(order); // by _id
                Map<BsonValue, Boolean> asked = new TreeMap<>(order); // values already looked up
                for (long depth = 0; depth <= maxDepth && !frontier.isEmpty(); depth++) {
                    BsonArray values = new BsonArray();
                    for (BsonValue v : frontier) {
                        if (asked.putIfAbsent(v, Boolean.TRUE) == null) {
                            values.add(v);
                        }
                    }
                    if (values.isEmpty()) {
                        break;
                    }
                    BsonDocument filter = new BsonDocument(connectTo, new BsonDocument("$in", values));
                    if (!restrict.isEmpty()) {
                        filter = new BsonDocument("$and", new BsonArray(List.of(filter, restrict)));
                    }
                    QueryRun run = new QueryRun(foreign.candidates(filter, order), FilterMatcher.compile(filter, order),
                            null, 0, 0, null);
                    BsonArray next = new BsonArray();
                    while (run.hasNext()) {
                        BsonDocument d = run.next();
                        BsonValue id = d.get("_id", BsonNull.VALUE);
                        if (seen.putIfAbsent(id, Boolean.TRUE) != null) {
                            continue;
                        }
                        BsonDocument copy = d;
                        if (depthField != null) {
                            copy = d.clone();
                            UpdateApplier.set(copy, depthField, new BsonInt64(depth));
                        }
                        found.add(copy);
                        for (BsonValue v : connectFrom.values(d)) {
                            if (v != null) { // a document without connectFromField leads nowhere
                                flatten(v, next);
                            }
                        }
                    }
                    frontier = next;
                }
            }
            BsonDocument copy = r.clone();
            UpdateApplier.set(copy, spec.getString("as").getValue(), found);
            out.add(copy);
        }
        return out;
    }

    /** A value to look for: an array's elements, missing as null. */
    private static void flatten(BsonValue v, BsonArray into) {
        if (v == null) {
            into.add(BsonNull.VALUE);
        } else if (v.isArray()) {
            into.addAll(v.asArray());
        } else {
            into.add(v);
        }
    }
}
