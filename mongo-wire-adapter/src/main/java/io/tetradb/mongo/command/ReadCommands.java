package io.tetradb.mongo.command;

import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.Collation;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.query.Projector;
import io.tetradb.mongo.query.QueryRun;
import io.tetradb.mongo.query.SortSpec;
import io.tetradb.mongo.store.DocStream;
import io.tetradb.mongo.store.IndexCatalog;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
/** find, getMore, killCursors, count, distinct, aggregate, explain: the commands that read. */
final class ReadCommands {
    private final MongoCatalog catalog;
    private final IndexCatalog indexes;
    private final Cursors cursors;
    private final DatabaseCommands databases;

    ReadCommands(MongoCatalog catalog, IndexCatalog indexes, Cursors cursors, DatabaseCommands databases) {
        this.catalog = catalog;
        this.indexes = indexes;
        this.cursors = cursors;
        this.databases = databases;
    }

    void register(CommandDispatcher d) {
        d.register("find", this::find);
        d.register("getMore", this::getMore);
        d.register("killCursors", this::killCursors);
        d.register("count", this::count);
        d.register("distinct", this::distinct);
        d.register("aggregate", this::aggregate);
        d.register("explain", this::explain);
    }

    private BsonDocument aggregate(CommandContext ctx, BsonDocument cmd) {
        BsonValue target = cmd.get("aggregate");
        if (!target.isString() && !(BsonOrder.isNumber(target) && BsonOrder.toDouble(target) == 1)) {
            throw MongoError.badValue("Invalid {aggregate: " + target + "}: the 'aggregate' field must be a collection "
                    + "name or 1");
        }
        if (!target.isString()) {
            return databaseAggregate(ctx, cmd);
        }
        String name = target.asString().getValue();
        BsonOrder order = Collation.of(cmd);
        BsonValue pipeline = cmd.get("pipeline");
        if (pipeline == null || !pipeline.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "'pipeline' option must be specified as an array");
        }
        if (Args.bool(cmd, "explain", false)) {
            BsonDocument inner = cmd.clone();
            inner.remove("explain");
            return explain(ctx, new BsonDocument("explain", inner));
        }
        if (!cmd.containsKey("cursor")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The 'cursor' option is required, except for aggregate "
                    + "with the explain argument");
        }
        BsonDocument cursor = Args.document(cmd, "cursor");
        long batchSize = Args.number(cursor, "batchSize", Limits.DEFAULT_BATCH_SIZE);
        String ns = ctx.database() + "." + name;
        io.tetradb.mongo.aggregate.AggregationPipeline p =
                new io.tetradb.mongo.aggregate.AggregationPipeline(pipeline.asArray())
                        .collections(other -> ctx.view(catalog.collection(ctx.database(), other))).order(order)
                        .outputs(ctx.database(), new io.tetradb.mongo.aggregate.OutputCollections() {
                            @Override
                            public MongoCollection open(String db, String coll) {
                                return ctx.view(catalog.createIfAbsent(db, coll));
                            }

                            @Override
                            public MongoCollection replace(String db, String coll) {
                                catalog.drop(db, coll);
                                return ctx.view(catalog.createIfAbsent(db, coll));
                            }
                        });
        java.util.Iterator<BsonDocument> results;
        BsonArray stages = pipeline.asArray();
        if (!stages.isEmpty() && stages.get(0).isDocument() && stages.get(0).asDocument().containsKey("$collStats")) {
            // $collStats (what mongosh's db.coll.stats() runs) starts from the collection's statistics document
            BsonDocument spec = stages.get(0).asDocument().getDocument("$collStats");
            BsonDocument stats = databases.storageStats(ctx.database(), name);
            BsonDocument doc = new BsonDocument("ns", stats.get("ns"))
                    .append("host", new org.bson.BsonString("tetradb"))
                    .append("localTime", new org.bson.BsonDateTime(System.currentTimeMillis()));
            if (spec.containsKey("storageStats")) {
                doc.append("storageStats", stats);
            }
            if (spec.containsKey("count")) {
                doc.append("count", stats.get("count"));
            }
            io.tetradb.mongo.aggregate.AggregationPipeline rest = new io.tetradb.mongo.aggregate.AggregationPipeline(
                    new BsonArray(stages.subList(1, stages.size())));
            results = rest.runOver(List.of(doc));
        } else if (!stages.isEmpty() && stages.get(0).isDocument()
                && (stages.get(0).asDocument().containsKey("$indexStats")
                || stages.get(0).asDocument().containsKey("$planCacheStats"))) {
            // $planCacheStats: the face keeps no plan cache (the core plans every query), so it has no entry
            List<BsonDocument> source = stages.get(0).asDocument().containsKey("$indexStats")
                    ? indexStats(ctx.view(catalog.collection(ctx.database(), name))) : List.of();
            results = new io.tetradb.mongo.aggregate.AggregationPipeline(new BsonArray(stages.subList(1,
                    stages.size()))).collections(other -> ctx.view(catalog.collection(ctx.database(), other)))
                    .order(order).runOver(source);
        } else {
            results = p.run(ctx.view(catalog.collection(ctx.database(), name)));
        }
        List<BsonDocument> batch = batchSize == 0 ? List.of() : Cursors.batch(results, (int) batchSize);
        long id = results.hasNext() ? cursors.open(ns, results, p.source()) : 0;
        if (p.source() != null) {
            ctx.charge(p.source().takeRequestCharge());
        }
        return Replies.cursor("firstBatch", id, ns, batch);
    }

    /**
     * A database-level aggregate ({@code aggregate: 1}) starting with {@code $documents} (its expression: an array of
     * documents), the rest of the pipeline over them; other database-level sources are not supported.
     */
    private BsonDocument databaseAggregate(CommandContext ctx, BsonDocument cmd) {
        BsonValue pipeline = cmd.get("pipeline");
        if (pipeline == null || !pipeline.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "'pipeline' option must be specified as an array");
        }
        if (!cmd.containsKey("cursor")) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The 'cursor' option is required, except for aggregate "
                    + "with the explain argument");
        }
        BsonArray stages = pipeline.asArray();
        new io.tetradb.mongo.aggregate.AggregationPipeline(stages); // checked as a whole first
        if (stages.isEmpty() || !stages.get(0).asDocument().containsKey("$documents")) {
            throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "database-level aggregation is only supported from "
                    + "$documents");
        }
        BsonValue docs = io.tetradb.mongo.aggregate.Expressions.eval(stages.get(0).asDocument().get("$documents"),
                new BsonDocument());
        if (docs == null || !docs.isArray() || docs.asArray().stream().anyMatch(d -> !d.isDocument())) {
            throw MongoError.badValue("error during aggregation :: caused by :: an array is expected of objects");
        }
        List<BsonDocument> input = new ArrayList<>();
        docs.asArray().forEach(d -> input.add(d.asDocument()));
        String ns = ctx.database() + ".$cmd.aggregate";
        java.util.Iterator<BsonDocument> results = new io.tetradb.mongo.aggregate.AggregationPipeline(
                new BsonArray(stages.subList(1, stages.size())))
                .collections(other -> ctx.view(catalog.collection(ctx.database(), other)))
                .order(Collation.of(cmd)).runOver(input);
        long batchSize = Args.number(Args.document(cmd, "cursor"), "batchSize", Limits.DEFAULT_BATCH_SIZE);
        List<BsonDocument> batch = batchSize == 0 ? List.of() : Cursors.batch(results, (int) batchSize);
        long id = results.hasNext() ? cursors.open(ns, results, null) : 0;
        return Replies.cursor("firstBatch", id, ns, batch);
    }

    /**
     * {@code $indexStats}: one document per index of the collection, MongoDB's shape; the face keeps no per-index
     * access counters, so {@code accesses.ops} is 0 since the server started.
     */
    private List<BsonDocument> indexStats(MongoCollection coll) {
        List<BsonDocument> out = new ArrayList<>();
        if (coll == null) {
            return out;
        }
        for (BsonDocument spec : indexes.list(coll)) {
            out.add(new BsonDocument("name", spec.get("name")).append("key", spec.get("key"))
                    .append("host", new org.bson.BsonString("tetradb"))
                    .append("accesses", new BsonDocument("ops", new BsonInt64(0))
                            .append("since", new org.bson.BsonDateTime(STARTED)))
                    .append("spec", spec));
        }
        return out;
    }

    private static final long STARTED = System.currentTimeMillis();

    // ---- find / cursors ----------------------------------------------------------------------------------------

    private BsonDocument find(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "find");
        BsonOrder order = Collation.of(cmd);
        BsonDocument filter = Args.document(cmd, "filter");
        long skip = Args.number(cmd, "skip", 0);
        long limit = Args.number(cmd, "limit", 0);
        long batchSize = Args.number(cmd, "batchSize", Limits.DEFAULT_BATCH_SIZE);
        boolean singleBatch = Args.bool(cmd, "singleBatch", false);
        if (skip < 0) {
            throw MongoError.badValue("skip value must be non-negative, but received: " + skip);
        }
        if (batchSize < 0) {
            throw MongoError.badValue("batchSize value must be non-negative, but received: " + batchSize);
        }
        if (limit < 0) { // legacy negative limit: one batch of |limit|
            limit = -limit;
            singleBatch = true;
        }
        String ns = ctx.database() + "." + name;
        MongoCollection coll = ctx.view(catalog.collection(ctx.database(), name));
        BsonDocument point = order.isSimple() ? PointFind.run(ctx, cmd, coll, ns) : null;
        if (point != null) {
            return point;
        }
        // after the point find, which takes no sort or projection (mongo-find: no two empty documents per find)
        BsonDocument sort = Args.document(cmd, "sort");
        BsonDocument projection = Args.document(cmd, "projection");
        FilterMatcher matcher = FilterMatcher.compile(filter, order);
        SortSpec sortSpec = new SortSpec(sort, order);
        Projector projector = new Projector(projection, filter);
        if (coll == null) {
            return Replies.cursor("firstBatch", 0, ns, List.of());
        }
        checkHint(coll, cmd.get("hint"));
        BsonValue hint = cmd.get("hint");
        if (sortSpec.isEmpty() && sortSpec.natural() == 0 && hint != null && hint.isDocument()
                && hint.asDocument().containsKey("$natural")) {
            sortSpec = new SortSpec(hint.asDocument(), order); // a collection scan in the hinted direction
        }
        QueryRun run = new QueryRun(coll.candidates(filter, order), matcher, sortSpec, skip, limit, projector);
        int max = (int) Math.min(Integer.MAX_VALUE, batchSize);
        if (limit > 0 && (max == 0 || limit < max)) {
            max = (int) limit;
        }
        List<BsonDocument> batch = batchSize == 0 && !singleBatch ? List.of() : Cursors.batch(run, max);
        ctx.charge(run.candidates().takeRequestCharge());
        long id = 0;
        if (!singleBatch && run.hasNext()) {
            id = cursors.open(ns, run, run.candidates());
        }
        ctx.charge(run.candidates().takeRequestCharge());
        return Replies.cursor("firstBatch", id, ns, batch);
    }

    /**
     * A {@code hint} must name an existing index (BadValue otherwise, as MongoDB answers). It does not force the
     * access path: the core's planner picks the most selective seek itself.
     */
    private void checkHint(MongoCollection coll, BsonValue hint) {
        if (hint == null || hint.isNull() || hint.isDocument() && hint.asDocument().isEmpty()) {
            return;
        }
        if (hint.isDocument() && hint.asDocument().containsKey("$natural")) {
            return;
        }
        for (BsonDocument spec : indexes.list(coll)) {
            if (hint.isString() && spec.getString("name").getValue().equals(hint.asString().getValue())
                    || hint.isDocument() && spec.get("key").equals(hint)) {
                return;
            }
        }
        throw new MongoError(ErrorCode.BAD_VALUE, "error processing query: planner returned error :: caused by :: "
                + "hint provided does not correspond to an existing index");
    }

    private BsonDocument getMore(CommandContext ctx, BsonDocument cmd) {
        BsonValue idValue = cmd.get("getMore");
        if (!idValue.isInt64() && !idValue.isInt32()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "getMore's cursor id must be a long");
        }
        long id = idValue.asNumber().longValue();
        String name = Args.string(cmd, "collection");
        long batchSize = Args.number(cmd, "batchSize", 0);
        Cursors.Cursor c = cursors.get(id);
        String ns = ctx.database() + "." + name;
        if (c == null) {
            throw new MongoError(ErrorCode.CURSOR_NOT_FOUND, "cursor id " + id + " not found");
        }
        if (!c.namespace.equals(ns)) {
            throw new MongoError(ErrorCode.UNAUTHORIZED, "Requested getMore on namespace '" + ns
                    + "', but cursor belongs to a different namespace " + c.namespace);
        }
        if (cmd.containsKey("maxTimeMS")) { // the cursor stays: mongod checks this before it takes the cursor
            throw new MongoError(ErrorCode.BAD_VALUE,
                    "cannot set maxTimeMS on getMore command for a non-awaitData cursor");
        }
        Operations.Op op = Interruption.current();
        List<BsonDocument> batch;
        synchronized (c) {
            if (op != null) {
                op.continueWith(c.leftoverMillis); // what the opening command left of its maxTimeMS
            }
            try {
                batch = Cursors.batch(c.run, (int) Math.min(Integer.MAX_VALUE, batchSize));
            } catch (MongoError e) {
                if (MaxTime.stopsTheCommand(e)) {
                    cursors.kill(id); // as mongod: a getMore that fails leaves no cursor behind
                }
                throw e;
            }
            if (op != null) {
                c.leftoverMillis = op.remainingMillis();
            }
            ctx.charge(c.takeRequestCharge());
            if (!c.run.hasNext()) {
                cursors.kill(id);
                id = 0;
            } else {
                cursors.remeasure(c);
            }
        }
        return Replies.cursor("nextBatch", id, ns, batch);
    }

    private BsonDocument killCursors(CommandContext ctx, BsonDocument cmd) {
        Args.string(cmd, "killCursors");
        BsonValue ids = cmd.get("cursors");
        if (ids == null || !ids.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field 'killCursors.cursors' must be an array");
        }
        BsonArray killed = new BsonArray();
        BsonArray notFound = new BsonArray();
        for (BsonValue v : ids.asArray()) {
            long id = v.asNumber().longValue();
            (cursors.kill(id) ? killed : notFound).add(new BsonInt64(id));
        }
        return Replies.ok(new BsonDocument("cursorsKilled", killed).append("cursorsNotFound", notFound)
                .append("cursorsAlive", new BsonArray()).append("cursorsUnknown", new BsonArray()));
    }

    // ---- count / distinct --------------------------------------------------------------------------------------

    private BsonDocument count(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "count");
        BsonOrder order = Collation.of(cmd);
        BsonDocument query = Args.document(cmd, "query");
        long skip = Args.number(cmd, "skip", 0);
        long limit = Math.abs(Args.number(cmd, "limit", 0));
        MongoCollection coll = ctx.view(catalog.collection(ctx.database(), name));
        long n = 0;
        if (coll != null) {
            QueryRun run = new QueryRun(coll.candidates(query, order), FilterMatcher.compile(query, order), null, skip,
                    limit, null);
            while (run.nextStored() != null) {
                n++;
            }
            ctx.charge(run.candidates().takeRequestCharge());
        }
        return Replies.ok(new BsonDocument("n", n <= Integer.MAX_VALUE ? new BsonInt32((int) n) : new BsonInt64(n)));
    }

    private BsonDocument distinct(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "distinct");
        BsonOrder order = Collation.of(cmd);
        String key = Args.string(cmd, "key");
        BsonDocument query = Args.document(cmd, "query");
        MongoCollection coll = ctx.view(catalog.collection(ctx.database(), name));
        List<BsonValue> values = new ArrayList<>();
        if (coll != null) {
            FieldPath path = new FieldPath(key);
            DocStream candidates = coll.candidates(query, order);
            QueryRun run = new QueryRun(candidates, FilterMatcher.compile(query, order), null, 0, 0, null);
            for (StoredDoc d = run.nextStored(); d != null; d = run.nextStored()) {
                for (BsonValue v : path.values(d.doc())) {
                    if (v == null) {
                        continue;
                    }
                    for (BsonValue x : v.isArray() ? v.asArray().getValues() : List.of(v)) {
                        if (values.stream().noneMatch(y -> BsonOrder.typeClass(x) == BsonOrder.typeClass(y)
                                && order.compare(x, y) == 0)) {
                            values.add(x);
                        }
                    }
                }
            }
            ctx.charge(candidates.takeRequestCharge());
        }
        values.sort(order);
        return Replies.ok(new BsonDocument("values", new BsonArray(values)));
    }

    // ---- explain -----------------------------------------------------------------------------------------------

    /**
     * MongoDB's explain shape for a find (or count/distinct/delete/update's filter): {@code queryPlanner.winningPlan}
     * from the access path the core chose (IDHACK for an {@code _id} lookup, IXSCAN under FETCH for an index seek or
     * an {@code _id} range, COLLSCAN for a scan) and {@code executionStats} from running the query.
     */
    private BsonDocument explain(CommandContext ctx, BsonDocument cmd) {
        BsonDocument inner = Args.document(cmd, "explain");
        if (inner.isEmpty()) {
            throw MongoError.badValue("explain needs a command to explain");
        }
        String verb = inner.getFirstKey();
        String name = Args.string(inner, verb);
        BsonDocument filter = switch (verb) {
            case "find" -> Args.document(inner, "filter");
            case "count", "distinct" -> Args.document(inner, "query");
            case "findAndModify", "findandmodify" -> Args.document(inner, "query");
            case "delete" -> inner.getArray("deletes").get(0).asDocument().getDocument("q");
            case "update" -> inner.getArray("updates").get(0).asDocument().getDocument("q");
            case "aggregate" -> leadingMatch(inner.getArray("pipeline"));
            default -> throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "explain of " + verb + " is not supported");
        };
        String ns = ctx.database() + "." + name;
        MongoCollection coll = catalog.collection(ctx.database(), name);
        long started = System.nanoTime();
        BsonDocument winning;
        long examined = 0;
        long keys = 0;
        long returned = 0;
        String access = "scan";
        if (coll == null) {
            winning = new BsonDocument("stage", new org.bson.BsonString("EOF"));
        } else {
            BsonDocument sort = verb.equals("find") ? Args.document(inner, "sort") : new BsonDocument();
            QueryRun run = new QueryRun(coll.candidates(filter), FilterMatcher.compile(filter), new SortSpec(sort),
                    verb.equals("find") ? Args.number(inner, "skip", 0) : 0,
                    verb.equals("find") ? Math.abs(Args.number(inner, "limit", 0)) : 0, null);
            while (run.nextStored() != null) {
                returned++;
            }
            access = run.candidates().access();
            examined = run.candidates().documentsLoaded();
            keys = run.candidates().indexHits();
            ctx.charge(run.candidates().takeRequestCharge());
            winning = winningPlan(coll, access, filter);
            if (!sort.isEmpty()) {
                winning = new BsonDocument("stage", new org.bson.BsonString("SORT")).append("sortPattern", sort)
                        .append("inputStage", winning);
            }
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        return Replies.ok(new BsonDocument("explainVersion", new org.bson.BsonString("1"))
                .append("queryPlanner", new BsonDocument("namespace", new org.bson.BsonString(ns))
                        .append("parsedQuery", filter).append("winningPlan", winning)
                        .append("rejectedPlans", new BsonArray()))
                .append("executionStats", new BsonDocument("executionSuccess", BsonBoolean.TRUE)
                        .append("nReturned", new BsonInt64(returned))
                        .append("executionTimeMillis", new BsonInt64(millis))
                        .append("totalKeysExamined", new BsonInt64(keys))
                        .append("totalDocsExamined", new BsonInt64(examined)))
                .append("tetradb", new BsonDocument("accessPath", new org.bson.BsonString(access))));
    }

    /** The filter of a pipeline's leading {@code $match} stages (what runs through the core's planner). */
    private static BsonDocument leadingMatch(BsonArray pipeline) {
        BsonArray matches = new BsonArray();
        for (BsonValue stage : pipeline) {
            if (!stage.isDocument() || !stage.asDocument().containsKey("$match")) {
                break;
            }
            matches.add(stage.asDocument().get("$match"));
        }
        return matches.isEmpty() ? new BsonDocument()
                : matches.size() == 1 ? matches.get(0).asDocument() : new BsonDocument("$and", matches);
    }

    private BsonDocument winningPlan(MongoCollection coll, String access, BsonDocument filter) {
        if (access.startsWith("primary key lookup")) {
            return new BsonDocument("stage", new org.bson.BsonString("IDHACK"));
        }
        BsonDocument keyPattern;
        String indexName;
        if (access.startsWith("primary key range")) {
            keyPattern = new BsonDocument("_id", new BsonInt32(1));
            indexName = "_id_";
        } else if (access.startsWith("index")) {
            // "index seek on /links/target (...)": the Mongo index whose first key is that path, else the path's own
            String path = access.substring(access.indexOf(" on /") + 5);
            path = path.substring(0, path.indexOf(' ') < 0 ? path.length() : path.indexOf(' ')).replace('/', '.');
            keyPattern = new BsonDocument(path, new BsonInt32(1));
            indexName = path + "_1";
            for (BsonDocument spec : indexes.list(coll)) {
                BsonDocument key = spec.getDocument("key");
                if (key.getFirstKey().equals(path)) {
                    keyPattern = key;
                    indexName = spec.getString("name").getValue();
                    break;
                }
            }
        } else {
            return new BsonDocument("stage", new org.bson.BsonString("COLLSCAN")).append("filter", filter)
                    .append("direction", new org.bson.BsonString("forward"));
        }
        return new BsonDocument("stage", new org.bson.BsonString("FETCH")).append("filter", filter)
                .append("inputStage", new BsonDocument("stage", new org.bson.BsonString("IXSCAN"))
                        .append("keyPattern", keyPattern).append("indexName", new org.bson.BsonString(indexName))
                        .append("isMultiKey", BsonBoolean.FALSE).append("direction", new org.bson.BsonString("forward")));
    }
}
