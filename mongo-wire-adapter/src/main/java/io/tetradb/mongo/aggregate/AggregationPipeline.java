package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.query.Projector;
import io.tetradb.mongo.query.QueryRun;
import io.tetradb.mongo.query.SortSpec;
import io.tetradb.mongo.store.DocStream;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.update.UpdateApplier;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An aggregation pipeline. Its leading {@code $match} stages (and a {@code $sort}, {@code $skip}, {@code $limit} right
 * after them) run as one find through the core's planner — index seeks for the filter — and the remaining stages
 * run in memory over the result: {@code $match $project $addFields/$set $unset $group $sort $limit $skip $unwind
 * $count $replaceRoot/$replaceWith $sortByCount $bucket $sample $lookup $facet}, and {@code $out}/{@code $merge}
 * write the result (see {@link OutputStages}).
 */
public final class AggregationPipeline {
    private final List<BsonDocument> stages = new ArrayList<>();
    private DocStream source;
    /** How strings compare in $match, $sort, $group and $lookup: binary, or the command's collation. */
    private io.tetradb.mongo.query.BsonOrder order = io.tetradb.mongo.query.BsonOrder.INSTANCE;
    /** Collections of the same database by name (null when absent), for {@code $lookup}. */
    private java.util.function.Function<String, MongoCollection> collections = name -> null;
    /** The command's database and where {@code $out}/{@code $merge} write (null: not allowed here). */
    private String database;
    private OutputCollections outputs;

    /** The stages this pipeline runs (the source stages $collStats and $indexStats are run by the command). */
    static final java.util.Set<String> STAGES = java.util.Set.of("$match", "$project", "$addFields", "$set",
            "$unset", "$group", "$sort", "$limit", "$skip", "$unwind", "$count", "$replaceRoot", "$replaceWith",
            "$sortByCount", "$bucket", "$bucketAuto", "$sample", "$lookup", "$facet", "$out", "$merge",
            "$graphLookup", "$redact", "$unionWith", "$setWindowFields", "$collStats", "$indexStats", "$fill",
            "$densify", "$documents", "$planCacheStats");
    /** The stages that produce the documents: only first, run by the command (see ReadCommands). */
    static final java.util.Set<String> SOURCES = java.util.Set.of("$collStats", "$indexStats", "$documents",
            "$planCacheStats");
    /** MongoDB 7.0 stages this face does not run: refused as not implemented rather than unknown. */
    static final java.util.Set<String> NOT_IMPLEMENTED = java.util.Set.of("$geoNear",
            "$changeStream", "$changeStreamSplitLargeEvent", "$currentOp", "$listLocalSessions",
            "$listSessions", "$listSampledQueries", "$listSearchIndexes", "$search",
            "$searchMeta", "$vectorSearch", "$shardedDataDistribution");

    public AggregationPipeline(BsonArray pipeline) {
        for (int i = 0; i < pipeline.size(); i++) {
            BsonValue s = pipeline.get(i);
            if (!s.isDocument() || s.asDocument().size() != 1) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "A pipeline stage specification object must "
                        + "contain exactly one field.");
            }
            String name = s.asDocument().getFirstKey();
            if (NOT_IMPLEMENTED.contains(name)) {
                throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "aggregation stage " + name
                        + " is not supported yet");
            }
            if (!STAGES.contains(name)) {
                throw new MongoError(ErrorCode.UNRECOGNIZED_STAGE, "Unrecognized pipeline stage name: '" + name
                        + "'");
            }
            if (OutputStages.isOutput(name) && i != pipeline.size() - 1) {
                throw new MongoError(ErrorCode.STAGE_MUST_BE_LAST, name + " can only be the final stage in the "
                        + "pipeline");
            }
            if (SOURCES.contains(name) && i != 0) {
                throw MongoError.badValue(name + " is only valid as the first stage in a pipeline");
            }
            if (name.equals("$group")) {
                checkGroup(s.asDocument().get(name));
            }
            checkExpressions(name, s.asDocument().get(name));
            stages.add(s.asDocument());
        }
    }

    /**
     * What MongoDB parses before it runs a stage: the expressions it holds (an unknown operator is 168) and the
     * sub-pipelines of {@code $facet}, {@code $lookup} and {@code $unionWith} (their stages, by the same rules).
     */
    private static void checkExpressions(String name, BsonValue arg) {
        BsonDocument spec = arg.isDocument() ? arg.asDocument() : null;
        switch (name) {
            case "$project", "$addFields", "$set", "$replaceWith", "$sortByCount", "$redact" -> Expressions.check(arg);
            case "$replaceRoot" -> {
                if (spec != null && spec.containsKey("newRoot")) {
                    Expressions.check(spec.get("newRoot"));
                }
            }
            case "$group" -> spec.forEach((k, v) -> Expressions.check(k.equals("_id") ? v
                    : v.asDocument().get(v.asDocument().getFirstKey())));
            case "$bucket", "$bucketAuto" -> {
                if (spec != null && spec.containsKey("groupBy")) {
                    Expressions.check(spec.get("groupBy"));
                }
                if (spec != null && spec.containsKey("output") && spec.get("output").isDocument()) {
                    BsonDocument group = withId(spec.getDocument("output"));
                    checkGroup(group);
                    checkExpressions("$group", group);
                }
            }
            case "$match" -> {
                if (spec != null && spec.containsKey("$expr")) {
                    Expressions.check(spec.get("$expr"));
                }
            }
            case "$facet" -> {
                if (spec != null) {
                    for (BsonValue sub : spec.values()) {
                        if (sub.isArray()) {
                            new AggregationPipeline(sub.asArray());
                        }
                    }
                }
            }
            case "$lookup", "$unionWith" -> {
                if (spec != null && spec.get("pipeline") instanceof BsonArray sub) {
                    new AggregationPipeline(sub);
                }
            }
            default -> {
            }
        }
    }

    private static BsonDocument withId(BsonDocument output) {
        BsonDocument d = new BsonDocument("_id", BsonNull.VALUE);
        output.forEach(d::append);
        return d;
    }

    /** A $group spec as MongoDB checks it before running: an _id, and one known accumulator per other field. */
    private static void checkGroup(BsonValue spec) {
        if (!spec.isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "a group's fields must be specified in an object");
        }
        if (!spec.asDocument().containsKey("_id")) {
            throw new MongoError(ErrorCode.GROUP_NEEDS_ID, "a group specification must include an _id");
        }
        for (Map.Entry<String, BsonValue> e : spec.asDocument().entrySet()) {
            if (e.getKey().equals("_id")) {
                continue;
            }
            if (e.getKey().contains(".")) {
                throw new MongoError(ErrorCode.GROUP_FIELD_NOT_ACCUMULATOR, "The field '" + e.getKey()
                        + "' must be an accumulator object");
            }
            if (!e.getValue().isDocument() || e.getValue().asDocument().isEmpty()) {
                throw new MongoError(ErrorCode.GROUP_FIELD_NOT_ACCUMULATOR, "The field '" + e.getKey()
                        + "' must be an accumulator object");
            }
            if (e.getValue().asDocument().size() != 1) {
                throw new MongoError(ErrorCode.GROUP_FIELD_ONE_ACCUMULATOR, "The field '" + e.getKey()
                        + "' must specify one accumulator");
            }
            String op = e.getValue().asDocument().getFirstKey();
            if (!Accumulator.NAMES.contains(op)) {
                throw new MongoError(ErrorCode.UNKNOWN_GROUP_OPERATOR, "unknown group operator '" + op + "'");
            }
        }
    }

    /** Compares with a collation's order. */
    public AggregationPipeline order(io.tetradb.mongo.query.BsonOrder order) {
        this.order = order;
        return this;
    }

    /** Lets {@code $out} and {@code $merge} write, by default into {@code database}. */
    public AggregationPipeline outputs(String database, OutputCollections outputs) {
        this.database = database;
        this.outputs = outputs;
        return this;
    }

    /** How {@code $lookup} finds the collections it joins. */
    public AggregationPipeline collections(java.util.function.Function<String, MongoCollection> resolver) {
        this.collections = resolver;
        return this;
    }

    /**
     * Runs the stages over one document (an update with an aggregation pipeline: {@code $set $addFields $unset
     * $project $replaceRoot $replaceWith} are what MongoDB allows there).
     */
    public BsonDocument applyTo(BsonDocument doc) {
        checkUpdateStages();
        List<BsonDocument> rows = new ArrayList<>(List.of(doc));
        for (BsonDocument stage : stages) {
            rows = stage(stage, rows);
        }
        return rows.get(0);
    }

    /** Refuses stages an update pipeline may not have. */
    void checkUpdateStages() {
        for (BsonDocument stage : stages) {
            String name = stage.getFirstKey();
            if (!List.of("$set", "$addFields", "$unset", "$project", "$replaceRoot", "$replaceWith").contains(name)) {
                throw new MongoError(ErrorCode.BAD_VALUE, name + " is not allowed to be used within an update");
            }
        }
    }

    /** Runs every stage in memory over given documents (after a source stage such as {@code $collStats}). */
    public Iterator<BsonDocument> runOver(List<BsonDocument> input) {
        List<BsonDocument> rows = new ArrayList<>(input);
        for (int i = 0; i < stages.size(); i++) {
            rows = apply(stages.get(i), i == stages.size() - 1, rows);
        }
        return rows.iterator();
    }

    /** Where the documents came from in the core (for charges and explain); null before {@link #run}. */
    public DocStream source() {
        return source;
    }

    public Iterator<BsonDocument> run(MongoCollection coll) {
        int i = 0;
        BsonArray matches = new BsonArray();
        while (i < stages.size() && stages.get(i).getFirstKey().equals("$match")) {
            matches.add(arg(stages.get(i), "$match"));
            i++;
        }
        BsonDocument filter = matches.isEmpty() ? new BsonDocument()
                : matches.size() == 1 ? matches.get(0).asDocument() : new BsonDocument("$and", matches);
        SortSpec sort = null;
        long skip = 0;
        long limit = 0;
        if (i < stages.size() && stages.get(i).getFirstKey().equals("$sort")) {
            sort = new SortSpec(arg(stages.get(i), "$sort"), order);
            i++;
        }
        if (i < stages.size() && stages.get(i).getFirstKey().equals("$skip")) {
            skip = count(stages.get(i), "$skip");
            i++;
        }
        if (i < stages.size() && stages.get(i).getFirstKey().equals("$limit")) {
            limit = count(stages.get(i), "$limit");
            i++;
        }
        Iterator<BsonDocument> docs;
        if (coll == null) {
            docs = java.util.Collections.emptyIterator();
        } else {
            QueryRun run = new QueryRun(coll.candidates(filter, order), FilterMatcher.compile(filter, order), sort, skip,
                    limit, null);
            source = run.candidates();
            docs = run;
        }
        if (i == stages.size()) {
            return docs; // the whole pipeline streams from the core
        }
        List<BsonDocument> rows;
        if (stages.get(i).getFirstKey().equals("$group")) {
            // $group holds one accumulator set per group, not the documents: it consumes the core's stream
            Iterator<BsonDocument> stream = docs;
            rows = group(arg(stages.get(i), "$group"), () -> stream);
            i++;
        } else {
            rows = new ArrayList<>();
            io.tetradb.mongo.query.MemoryBudget budget =
                    new io.tetradb.mongo.query.MemoryBudget("aggregation pipeline");
            while (docs.hasNext()) {
                BsonDocument d = docs.next();
                budget.add(d);
                rows.add(d);
            }
        }
        for (; i < stages.size(); i++) {
            rows = apply(stages.get(i), i == stages.size() - 1, rows);
        }
        return rows.iterator();
    }

    /** One stage over the rows: those that read or write collections here, the others in {@link #stage}. */
    private List<BsonDocument> apply(BsonDocument st, boolean last, List<BsonDocument> rows) {
        String n = st.getFirstKey();
        switch (n) {
            case "$lookup":
                return lookup(st.getDocument(n), rows);
            case "$facet":
                return facet(st.getDocument(n), rows);
            case "$graphLookup":
                return GraphLookup.apply(st.getDocument(n), rows, collections, order);
            case "$unionWith":
                return unionWith(st.get(n), rows);
            case "$out", "$merge":
                if (!last) {
                    throw new MongoError(ErrorCode.STAGE_MUST_BE_LAST, n + " can only be the final stage in the "
                            + "pipeline");
                }
                if (outputs == null) {
                    throw new MongoError(ErrorCode.BAD_VALUE, n + " is not allowed here");
                }
                if (n.equals("$out")) {
                    OutputStages.out(st.get(n), database, outputs, rows);
                } else {
                    OutputStages.merge(st.get(n), database, outputs, rows);
                }
                return List.of();
            default:
                return stage(st, rows);
        }
    }

    /**
     * {@code $lookup} in its equality form ({@code from, localField, foreignField, as}): for each document, the
     * foreign documents whose {@code foreignField} equals the local value (or one of its elements), found through
     * the foreign collection's index seeks.
     */
    private List<BsonDocument> lookup(BsonDocument spec, List<BsonDocument> rows) {
        if (spec.containsKey("pipeline")) {
            return lookupPipeline(spec, rows);
        }
        for (String f : List.of("from", "localField", "foreignField", "as")) {
            if (!spec.containsKey(f) || !spec.get(f).isString()) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$lookup needs from, localField, foreignField and as "
                        + "(or a pipeline)");
            }
        }
        MongoCollection foreign = collections.apply(spec.getString("from").getValue());
        String foreignField = spec.getString("foreignField").getValue();
        io.tetradb.mongo.query.FieldPath local = new io.tetradb.mongo.query.FieldPath(spec.getString("localField").getValue());
        List<BsonDocument> out = new ArrayList<>();
        for (BsonDocument r : rows) {
            BsonArray values = localValues(local, r);
            BsonArray matches = new BsonArray();
            if (foreign != null) {
                BsonDocument filter = new BsonDocument(foreignField, new BsonDocument("$in", values));
                QueryRun run = new QueryRun(foreign.candidates(filter, order), FilterMatcher.compile(filter, order), null,
                        0, 0, null);
                run.forEachRemaining(matches::add);
            }
            BsonDocument copy = r.clone();
            UpdateApplier.set(copy, spec.getString("as").getValue(), matches);
            out.add(copy);
        }
        return out;
    }

    /**
     * {@code $unionWith}: the documents so far, then those of another collection of the database (through its own
     * pipeline, if given); a missing collection adds nothing.
     */
    private List<BsonDocument> unionWith(BsonValue spec, List<BsonDocument> rows) {
        String coll;
        BsonArray pipeline = new BsonArray();
        if (spec.isString()) {
            coll = spec.asString().getValue();
        } else if (spec.isDocument() && spec.asDocument().containsKey("coll")
                && spec.asDocument().get("coll").isString()) {
            coll = spec.asDocument().getString("coll").getValue();
            if (spec.asDocument().containsKey("pipeline")) {
                pipeline = spec.asDocument().getArray("pipeline");
            }
        } else {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "the $unionWith stage specification must be an object "
                    + "with 'coll' (and an optional 'pipeline') or a string");
        }
        for (BsonValue st : pipeline) {
            if (st.isDocument() && !st.asDocument().isEmpty() && OutputStages.isOutput(st.asDocument().getFirstKey())) {
                throw MongoError.badValue(st.asDocument().getFirstKey() + " is not allowed within a $unionWith's "
                        + "sub-pipeline");
            }
        }
        List<BsonDocument> out = new ArrayList<>(rows);
        AggregationPipeline sub = new AggregationPipeline(pipeline).collections(collections).order(order);
        sub.run(collections.apply(coll)).forEachRemaining(out::add);
        return out;
    }

    /** The values a {@code $lookup}'s {@code localField} matches on: arrays flattened, missing as null. */
    private static BsonArray localValues(io.tetradb.mongo.query.FieldPath local, BsonDocument r) {
        BsonArray values = new BsonArray();
        for (BsonValue v : local.values(r)) {
            if (v == null) {
                values.add(BsonNull.VALUE);
            } else if (v.isArray()) {
                values.addAll(v.asArray());
            } else {
                values.add(v);
            }
        }
        return values;
    }

    /**
     * {@code $lookup} with {@code pipeline} (and {@code let}): the pipeline runs over the foreign collection for each
     * document, with the {@code let} variables bound to that document's values; with {@code localField} and
     * {@code foreignField} too (MongoDB 5.0's concise form) only over the equal foreign documents.
     */
    private List<BsonDocument> lookupPipeline(BsonDocument spec, List<BsonDocument> rows) {
        if (!spec.containsKey("as") || !spec.get("as").isString() || !spec.get("pipeline").isArray()) {
            throw MongoError.badValue("$lookup with 'pipeline' needs 'as' (a string) and 'pipeline' (an array)");
        }
        MongoCollection foreign = spec.containsKey("from") ? collections.apply(spec.getString("from").getValue())
                : null;
        BsonDocument let = spec.containsKey("let") ? spec.getDocument("let") : new BsonDocument();
        boolean equality = spec.containsKey("localField") && spec.containsKey("foreignField");
        List<BsonDocument> out = new ArrayList<>();
        for (BsonDocument r : rows) {
            Map<String, BsonValue> vars = new java.util.HashMap<>();
            for (Map.Entry<String, BsonValue> e : let.entrySet()) {
                BsonValue v = Expressions.eval(e.getValue(), r);
                vars.put(e.getKey(), v == null ? BsonNull.VALUE : v);
            }
            BsonArray pipeline = Variables.bind(spec.getArray("pipeline"), vars).asArray();
            if (equality) {
                BsonArray values = localValues(new io.tetradb.mongo.query.FieldPath(
                        spec.getString("localField").getValue()), r);
                BsonArray withMatch = new BsonArray();
                withMatch.add(new BsonDocument("$match", new BsonDocument(spec.getString("foreignField").getValue(),
                        new BsonDocument("$in", values))));
                withMatch.addAll(pipeline);
                pipeline = withMatch;
            }
            AggregationPipeline sub = new AggregationPipeline(pipeline).collections(collections).order(order);
            BsonArray matches = new BsonArray();
            sub.run(foreign).forEachRemaining(matches::add);
            BsonDocument copy = r.clone();
            UpdateApplier.set(copy, spec.getString("as").getValue(), matches);
            out.add(copy);
        }
        return out;
    }

    /** {@code $facet}: each sub-pipeline over the same input, one output document. */
    private List<BsonDocument> facet(BsonDocument spec, List<BsonDocument> rows) {
        BsonDocument out = new BsonDocument();
        for (java.util.Map.Entry<String, BsonValue> e : spec.entrySet()) {
            if (!e.getValue().isArray()) {
                throw MongoError.badValue("each $facet must be a pipeline (an array)");
            }
            List<BsonDocument> result = new ArrayList<>(rows);
            for (BsonValue st : e.getValue().asArray()) {
                BsonDocument stage = st.asDocument();
                String n = stage.getFirstKey();
                if (n.equals("$facet")) {
                    throw MongoError.badValue("$facet is not allowed inside a $facet");
                }
                if (OutputStages.isOutput(n)) {
                    throw MongoError.badValue(n + " is not allowed inside a $facet");
                }
                result = apply(stage, false, result);
            }
            out.put(e.getKey(), new BsonArray(new ArrayList<>(result)));
        }
        return List.of(out);
    }

    private static BsonDocument arg(BsonDocument stage, String name) {
        BsonValue v = stage.get(name);
        if (!v.isDocument()) {
            throw MongoError.badValue("the " + name + " stage's argument must be an object");
        }
        return v.asDocument();
    }

    private static long count(BsonDocument stage, String name) {
        BsonValue v = stage.get(name);
        if (!BsonOrder.isNumber(v) || BsonOrder.toDouble(v) < 0 || name.equals("$limit") && BsonOrder.toDouble(v) == 0) {
            throw MongoError.badValue("invalid argument to " + name + " stage: " + v);
        }
        return (long) BsonOrder.toDouble(v);
    }

    private List<BsonDocument> stage(BsonDocument stage, List<BsonDocument> rows) {
        String name = stage.getFirstKey();
        BsonValue arg = stage.get(name);
        List<BsonDocument> out = new ArrayList<>();
        switch (name) {
            case "$match" -> {
                FilterMatcher m = FilterMatcher.compile(arg(stage, name), order);
                rows.stream().filter(m).forEach(out::add);
            }
            case "$sort" -> {
                out.addAll(rows);
                out.sort(new SortSpec(arg(stage, name), order));
            }
            case "$skip" -> out.addAll(rows.subList((int) Math.min(rows.size(), count(stage, name)), rows.size()));
            case "$limit" -> out.addAll(rows.subList(0, (int) Math.min(rows.size(), count(stage, name))));
            case "$project" -> rows.forEach(r -> out.add(project(arg(stage, name), r)));
            case "$addFields", "$set" -> rows.forEach(r -> {
                BsonDocument copy = r.clone();
                for (Map.Entry<String, BsonValue> e : arg(stage, name).entrySet()) {
                    BsonValue v = Expressions.eval(e.getValue(), r);
                    if (v == null) {
                        removePath(copy, e.getKey()); // a missing value (or $$REMOVE) leaves no field
                    } else {
                        UpdateApplier.set(copy, e.getKey(), v);
                    }
                }
                out.add(copy);
            });
            case "$unset" -> {
                BsonDocument spec = new BsonDocument();
                for (BsonValue f : arg.isArray() ? arg.asArray().getValues() : List.of(arg)) {
                    spec.append(f.asString().getValue(), new BsonInt32(0));
                }
                Projector p = new Projector(spec);
                rows.forEach(r -> out.add(p.apply(r)));
            }
            case "$group" -> out.addAll(group(arg(stage, name), rows));
            case "$unwind" -> unwind(arg, rows, out);
            case "$count" -> {
                if (!arg.isString() || arg.asString().getValue().isEmpty()) {
                    throw MongoError.badValue("the count field must be a non-empty string");
                }
                if (!rows.isEmpty()) {
                    out.add(new BsonDocument(arg.asString().getValue(), Expressions.longOrInt(rows.size())));
                }
            }
            case "$replaceRoot", "$replaceWith" -> rows.forEach(r -> {
                BsonValue root = Expressions.eval(name.equals("$replaceRoot") ? arg(stage, name).get("newRoot") : arg, r);
                if (root == null || !root.isDocument()) {
                    throw MongoError.badValue("'newRoot' expression must evaluate to an object");
                }
                out.add(root.asDocument());
            });
            case "$bucket" -> out.addAll(bucket(arg(stage, name), rows));
            case "$bucketAuto" -> out.addAll(bucketAuto(arg(stage, name), rows));
            case "$redact" -> rows.forEach(r -> {
                BsonDocument kept = redact(arg, r);
                if (kept != null) {
                    out.add(kept);
                }
            });
            case "$setWindowFields" -> out.addAll(WindowFields.apply(arg(stage, name), rows, order));
            case "$fill" -> out.addAll(GapFilling.fill(arg(stage, name), rows, order));
            case "$densify" -> out.addAll(GapFilling.densify(arg(stage, name), rows, order));
            case "$collStats", "$indexStats", "$documents", "$planCacheStats" -> throw MongoError.badValue(name
                    + " is only valid as the first stage in a pipeline");
            case "$sample" -> {
                long size = arg.isDocument() && arg.asDocument().containsKey("size")
                        && BsonOrder.isNumber(arg.asDocument().get("size"))
                        ? (long) BsonOrder.toDouble(arg.asDocument().get("size")) : -1;
                if (size < 0) {
                    throw MongoError.badValue("$sample needs {size: a non-negative number}");
                }
                List<BsonDocument> shuffled = new ArrayList<>(rows);
                java.util.Collections.shuffle(shuffled, java.util.concurrent.ThreadLocalRandom.current());
                out.addAll(shuffled.subList(0, (int) Math.min(size, shuffled.size())));
            }
            case "$sortByCount" -> {
                List<BsonDocument> grouped = group(new BsonDocument("_id", arg)
                        .append("count", new BsonDocument("$sum", new BsonInt32(1))), rows);
                grouped.sort(new SortSpec(new BsonDocument("count", new BsonInt32(-1)), order));
                out.addAll(grouped);
            }
            default -> throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "aggregation stage " + name
                    + " is not supported yet");
        }
        return out;
    }

    /** Removes a dotted path's field from {@code doc}, if there (no array traversal). */
    private static void removePath(BsonDocument doc, String dotted) {
        String[] segs = dotted.split("\\.");
        BsonValue cur = doc;
        for (int i = 0; i < segs.length - 1 && cur != null; i++) {
            cur = cur.isDocument() ? cur.asDocument().get(segs[i]) : null;
        }
        if (cur != null && cur.isDocument()) {
            cur.asDocument().remove(segs[segs.length - 1]);
        }
    }

    /**
     * {@code $redact}: the expression decides per document level: {@code $$KEEP} keeps it whole, {@code $$PRUNE}
     * drops it, {@code $$DESCEND} keeps its scalar fields and decides again for each embedded document (also inside
     * arrays). Returns null for a pruned document.
     */
    private static BsonDocument redact(BsonValue expr, BsonDocument doc) {
        BsonValue r = Expressions.eval(expr, doc);
        String answer = r != null && r.isString() ? r.asString().getValue() : "";
        switch (answer) {
            case "$$KEEP":
                return doc;
            case "$$PRUNE":
                return null;
            case "$$DESCEND":
                break;
            default:
                throw new MongoError(ErrorCode.REDACT_RESULT, "$redact's expression should not return anything "
                        + "aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned "
                        + (r == null ? "missing" : r.isString() ? r.asString().getValue() : r.toString()));
        }
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            BsonValue v = e.getValue();
            if (v.isDocument()) {
                BsonDocument sub = redact(expr, v.asDocument());
                if (sub != null) {
                    out.put(e.getKey(), sub);
                }
            } else if (v.isArray()) {
                out.put(e.getKey(), redactArray(expr, v.asArray()));
            } else {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    private static BsonArray redactArray(BsonValue expr, BsonArray a) {
        BsonArray out = new BsonArray();
        for (BsonValue el : a) {
            if (el.isDocument()) {
                BsonDocument sub = redact(expr, el.asDocument());
                if (sub != null) {
                    out.add(sub);
                }
            } else if (el.isArray()) {
                out.add(redactArray(expr, el.asArray()));
            } else {
                out.add(el);
            }
        }
        return out;
    }

    /**
     * {@code $bucketAuto}: the documents ordered by {@code groupBy} and cut into {@code buckets} buckets of about
     * equal size (documents with equal values stay in one bucket, so there may be fewer); each bucket's
     * {@code _id} is {@code {min, max}}, where max is the next bucket's min (the last one's own maximum).
     */
    private List<BsonDocument> bucketAuto(BsonDocument spec, List<BsonDocument> rows) {
        for (String k : spec.keySet()) {
            if (!java.util.Set.of("groupBy", "buckets", "output", "granularity").contains(k)) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Unrecognized option to $bucketAuto: " + k + ".");
            }
        }
        if (!spec.containsKey("groupBy") || !spec.containsKey("buckets")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "$bucketAuto requires 'groupBy' and 'buckets' to be "
                    + "specified");
        }
        BsonValue nV = spec.get("buckets");
        if (!BsonOrder.isNumber(nV) || BsonOrder.toDouble(nV) != Math.rint(BsonOrder.toDouble(nV))
                || BsonOrder.toDouble(nV) <= 0 || BsonOrder.toDouble(nV) > Integer.MAX_VALUE) {
            throw new MongoError(ErrorCode.BUCKET_AUTO_BUCKETS, "The $bucketAuto 'buckets' field must be greater "
                    + "than 0, but found: " + nV);
        }
        if (spec.containsKey("granularity")) {
            throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "$bucketAuto's 'granularity' is not supported yet");
        }
        int buckets = (int) BsonOrder.toDouble(nV);
        List<Map.Entry<BsonValue, BsonDocument>> keyed = new ArrayList<>();
        for (BsonDocument r : rows) {
            BsonValue v = Expressions.eval(spec.get("groupBy"), r);
            keyed.add(Map.entry(v == null ? BsonNull.VALUE : v, r));
        }
        keyed.sort((a, b) -> order.compare(a.getKey(), b.getKey()));
        BsonDocument output = spec.containsKey("output") ? spec.getDocument("output")
                : new BsonDocument("count", new BsonDocument("$sum", new BsonInt32(1)));
        long size = Math.round((double) keyed.size() / buckets);
        List<List<Map.Entry<BsonValue, BsonDocument>>> cut = new ArrayList<>();
        int i = 0;
        while (i < keyed.size()) {
            List<Map.Entry<BsonValue, BsonDocument>> bucket = new ArrayList<>();
            boolean lastBucket = cut.size() == buckets - 1;
            while (i < keyed.size() && (lastBucket || bucket.size() < Math.max(1, size)
                    || order.compare(keyed.get(i).getKey(), bucket.get(bucket.size() - 1).getKey()) == 0)) {
                bucket.add(keyed.get(i++));
            }
            cut.add(bucket);
        }
        List<BsonDocument> out = new ArrayList<>();
        for (int b = 0; b < cut.size(); b++) {
            List<Map.Entry<BsonValue, BsonDocument>> bucket = cut.get(b);
            BsonValue min = bucket.get(0).getKey();
            BsonValue max = b + 1 < cut.size() ? cut.get(b + 1).get(0).getKey()
                    : bucket.get(bucket.size() - 1).getKey();
            BsonDocument groupSpec = new BsonDocument("_id", new BsonDocument("$literal",
                    new BsonDocument("min", min).append("max", max)));
            output.forEach(groupSpec::append);
            List<BsonDocument> docs = new ArrayList<>();
            bucket.forEach(e -> docs.add(e.getValue()));
            out.addAll(group(groupSpec, docs));
        }
        return out;
    }

    private static BsonDocument project(BsonDocument spec, BsonDocument doc) {
        boolean simple = true;
        for (BsonValue v : spec.values()) {
            if (!(v.isBoolean() || BsonOrder.isNumber(v))) {
                simple = false;
            }
        }
        if (simple) {
            return new Projector(spec).apply(doc);
        }
        BsonDocument out = new BsonDocument();
        boolean excludeId = spec.containsKey("_id") && (spec.get("_id").isBoolean() && !spec.getBoolean("_id").getValue()
                || BsonOrder.isNumber(spec.get("_id")) && BsonOrder.toDouble(spec.get("_id")) == 0);
        if (!excludeId && doc.containsKey("_id") && !(spec.containsKey("_id") && !spec.get("_id").isBoolean()
                && !BsonOrder.isNumber(spec.get("_id")))) {
            out.put("_id", doc.get("_id"));
        }
        for (Map.Entry<String, BsonValue> e : spec.entrySet()) {
            BsonValue v = e.getValue();
            if (e.getKey().equals("_id") && (v.isBoolean() || BsonOrder.isNumber(v))) {
                continue;
            }
            if (v.isBoolean() || BsonOrder.isNumber(v)) {
                if (v.isBoolean() ? v.asBoolean().getValue() : BsonOrder.toDouble(v) != 0) {
                    BsonValue x = new io.tetradb.mongo.query.FieldPath(e.getKey()).direct(doc);
                    if (x != null) {
                        UpdateApplier.set(out, e.getKey(), x);
                    }
                } else {
                    throw MongoError.badValue("Invalid $project :: caused by :: Cannot use expression other than "
                            + "$meta in exclusion projection");
                }
            } else {
                BsonValue x = Expressions.eval(v, doc);
                if (x != null) {
                    UpdateApplier.set(out, e.getKey(), x);
                }
            }
        }
        return out;
    }

    /**
     * {@code $bucket}: each document goes to the bucket {@code [boundaries[i], boundaries[i+1])} its {@code groupBy}
     * falls in (else to {@code default}); one document per non-empty bucket, {@code _id} its lower boundary, with the
     * {@code output} accumulators (a {@code count} by default).
     */
    private List<BsonDocument> bucket(BsonDocument spec, List<BsonDocument> rows) {
        if (!spec.containsKey("groupBy") || !spec.containsKey("boundaries") || !spec.get("boundaries").isArray()
                || spec.getArray("boundaries").size() < 2) {
            throw MongoError.badValue("$bucket needs 'groupBy' and 'boundaries' (an array of at least 2 values)");
        }
        List<BsonValue> bounds = spec.getArray("boundaries").getValues();
        for (int i = 1; i < bounds.size(); i++) {
            if (BsonOrder.typeClass(bounds.get(i - 1)) != BsonOrder.typeClass(bounds.get(i))) {
                throw new MongoError(ErrorCode.BUCKET_BOUNDARY_TYPES, "All values in the the 'boundaries' option to "
                        + "$bucket must have the same type. Found conflicting types "
                        + Expressions.typeName(bounds.get(i - 1)) + " and " + Expressions.typeName(bounds.get(i))
                        + ".");
            }
            if (order.compare(bounds.get(i - 1), bounds.get(i)) >= 0) {
                throw MongoError.badValue("The 'boundaries' option to $bucket must be sorted in ascending order");
            }
        }
        BsonValue dflt = spec.get("default");
        if (dflt != null && BsonOrder.typeClass(dflt) == BsonOrder.typeClass(bounds.get(0))
                && order.compare(dflt, bounds.get(0)) >= 0 && order.compare(dflt, bounds.get(bounds.size() - 1)) < 0) {
            throw new MongoError(ErrorCode.BUCKET_DEFAULT_INSIDE, "The $bucket 'default' field must be less than the "
                    + "lowest boundary or greater than or equal to the highest boundary.");
        }
        Map<Integer, List<BsonDocument>> buckets = new TreeMap<>();
        for (BsonDocument r : rows) {
            BsonValue v = Expressions.eval(spec.get("groupBy"), r);
            v = v == null ? BsonNull.VALUE : v;
            int found = -1;
            for (int i = 0; i + 1 < bounds.size(); i++) {
                if (order.compare(bounds.get(i), v) <= 0 && order.compare(v, bounds.get(i + 1)) < 0) {
                    found = i;
                    break;
                }
            }
            if (found < 0 && dflt == null) {
                throw new MongoError(ErrorCode.BUCKET_NO_DEFAULT, "$bucket could not find a matching branch for "
                        + "an input, and no default was specified.");
            }
            buckets.computeIfAbsent(found < 0 ? Integer.MAX_VALUE : found, k -> new ArrayList<>()).add(r);
        }
        BsonDocument output = spec.containsKey("output") ? spec.getDocument("output")
                : new BsonDocument("count", new BsonDocument("$sum", new BsonInt32(1)));
        List<BsonDocument> out = new ArrayList<>();
        for (Map.Entry<Integer, List<BsonDocument>> b : buckets.entrySet()) {
            BsonValue id = b.getKey() == Integer.MAX_VALUE ? dflt : bounds.get(b.getKey());
            BsonDocument groupSpec = new BsonDocument("_id", new BsonDocument("$literal", id));
            output.forEach(groupSpec::append);
            out.addAll(group(groupSpec, b.getValue()));
        }
        // MongoDB's $bucket is a $group then a $sort on _id: the default bucket takes its place by its value
        out.sort((x, y) -> order.compare(x.get("_id"), y.get("_id")));
        return out;
    }

    private List<BsonDocument> group(BsonDocument spec, Iterable<BsonDocument> rows) {
        checkGroup(spec);
        Map<BsonValue, Map<String, Accumulator>> groups = new TreeMap<>(order);
        Map<BsonValue, BsonValue> keys = new LinkedHashMap<>();
        for (BsonDocument r : rows) {
            BsonValue key = Expressions.eval(spec.get("_id"), r);
            BsonValue k = key == null ? BsonNull.VALUE : key;
            Map<String, Accumulator> accs = groups.get(k);
            if (accs == null) {
                accs = new LinkedHashMap<>();
                for (Map.Entry<String, BsonValue> e : spec.entrySet()) {
                    if (e.getKey().equals("_id")) {
                        continue;
                    }
                    if (!e.getValue().isDocument() || e.getValue().asDocument().size() != 1) {
                        throw MongoError.badValue("The field '" + e.getKey() + "' must be an accumulator object");
                    }
                    String op = e.getValue().asDocument().getFirstKey();
                    accs.put(e.getKey(), Accumulator.of(op, e.getValue().asDocument().get(op)));
                }
                groups.put(k, accs);
                keys.put(k, k);
            }
            for (Map.Entry<String, Accumulator> a : accs.entrySet()) {
                BsonDocument accSpec = spec.getDocument(a.getKey());
                String op = accSpec.getFirstKey();
                a.getValue().add(op.equals("$count") ? null : Expressions.eval(accSpec.get(op), r), r);
            }
        }
        List<BsonDocument> out = new ArrayList<>();
        for (Map.Entry<BsonValue, Map<String, Accumulator>> g : groups.entrySet()) {
            BsonDocument d = new BsonDocument("_id", g.getKey());
            g.getValue().forEach((field, acc) -> d.append(field, acc.result()));
            out.add(d);
        }
        return out;
    }

    /**
     * {@code $unwind}: one document per element of the array at the path (a non-array value: the document as is).
     * With {@code preserveNullAndEmptyArrays} a null, missing or empty array keeps the document — the empty array's
     * field removed, as MongoDB does; {@code includeArrayIndex} (which may be dotted) gets the index as a long, or
     * null for a document not unwound from an array.
     */
    private static void unwind(BsonValue arg, List<BsonDocument> rows, List<BsonDocument> out) {
        String path = null;
        boolean preserve = false;
        String indexField = null;
        if (arg.isString()) {
            path = arg.asString().getValue();
        } else if (arg.isDocument()) {
            for (Map.Entry<String, BsonValue> e : arg.asDocument().entrySet()) {
                BsonValue v = e.getValue();
                switch (e.getKey()) {
                    case "path" -> {
                        if (!v.isString()) {
                            throw new MongoError(ErrorCode.UNWIND_SPEC, "expected a string as the path for $unwind "
                                    + "stage, got " + Expressions.typeName(v));
                        }
                        path = v.asString().getValue();
                    }
                    case "preserveNullAndEmptyArrays" -> {
                        if (!v.isBoolean()) {
                            throw new MongoError(ErrorCode.UNWIND_PRESERVE_NOT_BOOL, "expected a boolean for the "
                                    + "preserveNullAndEmptyArrays option to $unwind stage, got "
                                    + Expressions.typeName(v));
                        }
                        preserve = v.asBoolean().getValue();
                    }
                    case "includeArrayIndex" -> {
                        if (!v.isString() || v.asString().getValue().isEmpty()) {
                            throw new MongoError(ErrorCode.UNWIND_INDEX_NOT_STRING, "expected a non-empty string for "
                                    + "the includeArrayIndex option to $unwind stage, got " + Expressions.typeName(v));
                        }
                        indexField = v.asString().getValue();
                        if (indexField.startsWith("$")) {
                            throw new MongoError(ErrorCode.UNWIND_INDEX_DOLLAR, "includeArrayIndex option to $unwind "
                                    + "stage should not be prefixed with a '$': " + indexField);
                        }
                    }
                    default -> throw new MongoError(ErrorCode.UNWIND_UNKNOWN_OPTION, "unrecognized option to "
                            + "$unwind stage: " + e.getKey());
                }
            }
            if (path == null) {
                throw new MongoError(ErrorCode.UNWIND_NO_PATH, "no path specified to $unwind stage");
            }
        } else {
            throw new MongoError(ErrorCode.UNWIND_SPEC, "expected either a string or an object as specification for "
                    + "$unwind stage, got " + Expressions.typeName(arg));
        }
        if (!path.startsWith("$")) {
            throw new MongoError(ErrorCode.UNWIND_PATH_NOT_FIELD, "path option to $unwind stage should be prefixed "
                    + "with a '$': " + path);
        }
        String field = path.substring(1);
        for (BsonDocument r : rows) {
            BsonValue v = new io.tetradb.mongo.query.FieldPath(field).direct(r);
            if (v != null && v.isArray() && !v.asArray().isEmpty()) {
                long idx = 0;
                for (BsonValue el : v.asArray()) {
                    BsonDocument copy = r.clone();
                    UpdateApplier.set(copy, field, el);
                    if (indexField != null) {
                        UpdateApplier.set(copy, indexField, new BsonInt64(idx));
                    }
                    idx++;
                    out.add(copy);
                }
            } else if (v != null && !v.isArray() && !v.isNull() || preserve) {
                BsonDocument copy = r.clone();
                if (v != null && v.isArray()) {
                    removePath(copy, field);
                }
                if (indexField != null) {
                    UpdateApplier.set(copy, indexField, BsonNull.VALUE);
                }
                out.add(copy);
            }
        }
    }
}
