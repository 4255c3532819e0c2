package io.tetradb.mongo.command;

import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.FieldPath;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.query.Projector;
import io.tetradb.mongo.query.QueryRun;
import io.tetradb.mongo.query.SortSpec;
import io.tetradb.mongo.store.DocStream;
import io.tetradb.mongo.store.IndexCatalog;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import io.tetradb.mongo.update.UpdateApplier;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** insert, find, getMore, killCursors, update, delete, findAndModify, count, distinct. */
final class CrudCommands {
    /** Retries of an update whose document another writer changed between our read and our write. */
    private static final int MAX_RETRIES = 50;

    private final MongoCatalog catalog;
    private final IndexCatalog indexes;
    private final Cursors cursors;

    private final DatabaseCommands databases;

    CrudCommands(MongoCatalog catalog, IndexCatalog indexes, Cursors cursors, DatabaseCommands databases) {
        this.databases = databases;
        this.catalog = catalog;
        this.indexes = indexes;
        this.cursors = cursors;
    }

    void register(CommandDispatcher d) {
        d.register("insert", this::insert);
        d.register("find", this::find);
        d.register("getMore", this::getMore);
        d.register("killCursors", this::killCursors);
        d.register("update", this::update);
        d.register("delete", this::delete);
        d.registerAnyCase("findAndModify", this::findAndModify);
        d.register("count", this::count);
        d.register("distinct", this::distinct);
        d.register("explain", this::explain);
        d.register("aggregate", this::aggregate);
    }

    private BsonDocument aggregate(CommandContext ctx, BsonDocument cmd) {
        BsonValue target = cmd.get("aggregate");
        if (!target.isString()) {
            throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "database-level aggregation is not supported yet");
        }
        String name = target.asString().getValue();
        Args.simpleCollationOnly(cmd);
        BsonValue pipeline = cmd.get("pipeline");
        if (pipeline == null || !pipeline.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "'pipeline' option must be specified as an array");
        }
        BsonDocument cursor = Args.document(cmd, "cursor");
        long batchSize = Args.number(cursor, "batchSize", Limits.DEFAULT_BATCH_SIZE);
        String ns = ctx.database() + "." + name;
        io.tetradb.mongo.aggregate.AggregationPipeline p =
                new io.tetradb.mongo.aggregate.AggregationPipeline(pipeline.asArray())
                        .collections(other -> catalog.collection(ctx.database(), other));
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
        } else {
            results = p.run(catalog.collection(ctx.database(), name));
        }
        List<BsonDocument> batch = batchSize == 0 ? List.of() : Cursors.batch(results, (int) batchSize);
        long id = results.hasNext() ? cursors.open(ns, results, p.source()) : 0;
        if (p.source() != null) {
            ctx.charge(p.source().takeRequestCharge());
        }
        return Replies.cursor("firstBatch", id, ns, batch);
    }

    // ---- insert ------------------------------------------------------------------------------------------------

    private BsonDocument insert(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "insert");
        BsonValue docs = cmd.get("documents");
        if (docs == null || !docs.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field 'insert.documents' must be an array");
        }
        boolean ordered = Args.bool(cmd, "ordered", true);
        MongoCollection coll = catalog.createIfAbsent(ctx.database(), name);
        List<BsonDocument> unique = indexes.uniqueKeys(coll);
        BsonArray writeErrors = new BsonArray();
        int n = 0;
        List<BsonValue> list = docs.asArray().getValues();
        if (unique.isEmpty()) {
            // batched: one core transaction per up to 100 documents
            List<BsonDocument> prepared = new ArrayList<>();
            List<Integer> positions = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                if (!list.get(i).isDocument()) {
                    writeErrors.add(writeError(i, new MongoError(ErrorCode.TYPE_MISMATCH, "documents must be objects")));
                    if (ordered) {
                        break;
                    }
                    continue;
                }
                prepared.add(withId(list.get(i).asDocument()));
                positions.add(i);
            }
            if (ordered && !writeErrors.isEmpty()) {
                int firstBad = writeErrors.get(0).asDocument().getInt32("index").getValue();
                prepared = prepared.subList(0, (int) positions.stream().filter(p -> p < firstBad).count());
            }
            double[] charge = new double[1];
            List<RuntimeException> outcome = coll.insertAll(prepared, ordered, charge);
            ctx.charge(charge[0]);
            BsonArray errors = new BsonArray();
            for (int k = 0; k < outcome.size(); k++) {
                RuntimeException e = outcome.get(k);
                if (e == null) {
                    n++;
                } else if (e != MongoCollection.SKIPPED) {
                    errors.add(writeError(positions.get(k), MongoErrors.of(e)));
                }
            }
            errors.addAll(writeErrors);
            errors.sort((a, b) -> Integer.compare(a.asDocument().getInt32("index").getValue(),
                    b.asDocument().getInt32("index").getValue()));
            writeErrors = errors;
        } else {
            for (int i = 0; i < list.size(); i++) {
                try {
                    if (!list.get(i).isDocument()) {
                        throw new MongoError(ErrorCode.TYPE_MISMATCH, "documents must be objects");
                    }
                    BsonDocument doc = withId(list.get(i).asDocument());
                    synchronized (coll.uniqueLock()) {
                        indexes.checkUnique(coll, unique, doc);
                        ctx.charge(coll.insert(doc));
                    }
                    n++;
                } catch (MongoError | io.tetradb.core.StoreException e) {
                    writeErrors.add(writeError(i, MongoErrors.of(e)));
                    if (ordered) {
                        break;
                    }
                }
            }
        }
        BsonDocument reply = new BsonDocument("n", new BsonInt32(n));
        if (!writeErrors.isEmpty()) {
            reply.append("writeErrors", writeErrors);
        }
        return Replies.ok(reply);
    }

    static BsonDocument withId(BsonDocument doc) {
        if (doc.containsKey("_id")) {
            return doc;
        }
        BsonDocument out = new BsonDocument("_id", new BsonObjectId());
        doc.forEach(out::append);
        return out;
    }

    static BsonDocument writeError(int index, MongoError e) {
        BsonDocument d = new BsonDocument("index", new BsonInt32(index))
                .append("code", new BsonInt32(e.code().code()))
                .append("codeName", new org.bson.BsonString(e.code().codeName()))
                .append("errmsg", new org.bson.BsonString(e.getMessage()));
        if (e.extra() != null) {
            e.extra().forEach(d::append);
        }
        return d;
    }

    // ---- find / cursors ----------------------------------------------------------------------------------------

    private BsonDocument find(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "find");
        Args.simpleCollationOnly(cmd);
        BsonDocument filter = Args.document(cmd, "filter");
        BsonDocument sort = Args.document(cmd, "sort");
        BsonDocument projection = Args.document(cmd, "projection");
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
        MongoCollection coll = catalog.collection(ctx.database(), name);
        FilterMatcher matcher = FilterMatcher.compile(filter);
        SortSpec sortSpec = new SortSpec(sort);
        Projector projector = new Projector(projection);
        if (coll == null) {
            return Replies.cursor("firstBatch", 0, ns, List.of());
        }
        QueryRun run = new QueryRun(coll.candidates(filter), matcher, sortSpec, skip, limit, projector);
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
        List<BsonDocument> batch;
        synchronized (c) {
            batch = Cursors.batch(c.run, (int) Math.min(Integer.MAX_VALUE, batchSize));
            ctx.charge(c.takeRequestCharge());
            if (!c.run.hasNext()) {
                cursors.kill(id);
                id = 0;
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

    // ---- update ------------------------------------------------------------------------------------------------

    /** The outcome of one update statement. */
    private record UpdateResult(int matched, int modified, BsonValue upsertedId, BsonDocument before,
                                BsonDocument after) {
    }

    private BsonDocument update(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "update");
        BsonValue updates = cmd.get("updates");
        if (updates == null || !updates.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field 'update.updates' must be an array");
        }
        boolean ordered = Args.bool(cmd, "ordered", true);
        int n = 0;
        int modified = 0;
        BsonArray upserted = new BsonArray();
        BsonArray writeErrors = new BsonArray();
        List<BsonValue> list = updates.asArray().getValues();
        for (int i = 0; i < list.size(); i++) {
            try {
                BsonDocument u = list.get(i).asDocument();
                Args.simpleCollationOnly(u);
                BsonValue spec = u.get("u");
                if (spec == null || !spec.isArray() && !spec.isDocument()) {
                    throw new MongoError(ErrorCode.FAILED_TO_PARSE, "update statement needs 'u': an object or a "
                            + "pipeline");
                }
                UpdateResult r = updateOne(ctx, name, Args.document(u, "q"), spec,
                        Args.bool(u, "upsert", false), Args.bool(u, "multi", false), null, arrayFilters(u));
                if (r.upsertedId != null) {
                    n++;
                    upserted.add(new BsonDocument("index", new BsonInt32(i)).append("_id", r.upsertedId));
                } else {
                    n += r.matched;
                    modified += r.modified;
                }
            } catch (MongoError | io.tetradb.core.StoreException e) {
                writeErrors.add(writeError(i, MongoErrors.of(e)));
                if (ordered) {
                    break;
                }
            }
        }
        BsonDocument reply = new BsonDocument("n", new BsonInt32(n)).append("nModified", new BsonInt32(modified));
        if (!upserted.isEmpty()) {
            reply.append("upserted", upserted);
        }
        if (!writeErrors.isEmpty()) {
            reply.append("writeErrors", writeErrors);
        }
        return Replies.ok(reply);
    }

    /**
     * Applies one update statement. The matching documents are collected first, then each is updated against the
     * version read (etag); a document changed meanwhile is read again, re-matched and retried.
     */
    private UpdateResult updateOne(CommandContext ctx, String name, BsonDocument filter, BsonValue spec,
                                   boolean upsert, boolean multi, SortSpec sort, BsonArray arrayFilters) {
        io.tetradb.mongo.update.DocumentUpdate applier = spec.isArray()
                ? new io.tetradb.mongo.aggregate.PipelineUpdate(spec.asArray())
                : new UpdateApplier(spec.asDocument(), arrayFilters, filter);
        if (multi && applier.isReplacement()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "multi update is not supported for replacement-style "
                    + "update");
        }
        MongoCollection coll = catalog.createIfAbsent(ctx.database(), name);
        FilterMatcher matcher = FilterMatcher.compile(filter);
        List<StoredDoc> targets = matching(ctx, coll, filter, matcher, sort, multi ? 0 : 1);
        List<BsonDocument> unique = indexes.uniqueKeys(coll);
        if (targets.isEmpty()) {
            if (!upsert) {
                return new UpdateResult(0, 0, null, null, null);
            }
            BsonDocument base = upsertBase(filter);
            BsonDocument applied = applier.apply(base, true);
            if (applier.isReplacement() && !applied.containsKey("_id") && base.containsKey("_id")) {
                applied.put("_id", base.get("_id"));
            }
            BsonDocument doc = withId(applied);
            writeChecked(coll, unique, doc, () -> ctx.charge(coll.insert(doc)));
            return new UpdateResult(0, 0, doc.get("_id"), null, doc);
        }
        int matched = 0;
        int modified = 0;
        BsonDocument before = null;
        BsonDocument after = null;
        double[] charge = new double[1];
        for (StoredDoc target : targets) {
            StoredDoc current = target;
            for (int attempt = 0; ; attempt++) {
                BsonDocument next = applier.apply(current.doc(), false);
                checkIdUnchanged(current.doc(), next);
                boolean changed = !next.equals(current.doc());
                final StoredDoc read = current;
                boolean[] written = {true};
                if (changed) {
                    writeChecked(coll, unique, next, () -> written[0] = coll.replace(read, next, charge));
                }
                if (written[0]) {
                    matched++;
                    modified += changed ? 1 : 0;
                    before = current.doc();
                    after = next;
                    break;
                }
                current = coll.reread(current, charge);
                if (current == null || !matcher.test(current.doc())) {
                    break; // deleted or no longer matching: MongoDB would not have updated it either
                }
                if (attempt >= MAX_RETRIES) {
                    throw new MongoError(ErrorCode.OPERATION_FAILED, "too many concurrent writes to _id "
                            + current.doc().get("_id"));
                }
            }
        }
        ctx.charge(charge[0]);
        return new UpdateResult(matched, modified, null, before, after);
    }

    private static BsonArray arrayFilters(BsonDocument statement) {
        BsonValue v = statement.get("arrayFilters");
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "arrayFilters must be an array");
        }
        return v.asArray();
    }

    private void writeChecked(MongoCollection coll, List<BsonDocument> unique, BsonDocument doc, Runnable write) {
        if (unique.isEmpty()) {
            write.run();
            return;
        }
        synchronized (coll.uniqueLock()) {
            indexes.checkUnique(coll, unique, doc);
            write.run();
        }
    }

    private static void checkIdUnchanged(BsonDocument before, BsonDocument after) {
        BsonValue a = before.get("_id");
        BsonValue b = after.get("_id");
        if (a != null && (b == null || !a.equals(b))) {
            throw new MongoError(ErrorCode.IMMUTABLE_FIELD,
                    "Performing an update on the path '_id' would modify the immutable field '_id'");
        }
    }

    /** What an upsert's insert starts from: the filter's equality conditions (top level and {@code $and}). */
    private static BsonDocument upsertBase(BsonDocument filter) {
        BsonDocument base = new BsonDocument();
        collectEqualities(filter, base);
        return base;
    }

    private static void collectEqualities(BsonDocument filter, BsonDocument base) {
        for (Map.Entry<String, BsonValue> e : filter.entrySet()) {
            String k = e.getKey();
            BsonValue v = e.getValue();
            if (k.equals("$and") && v.isArray()) {
                for (BsonValue s : v.asArray()) {
                    if (s.isDocument()) {
                        collectEqualities(s.asDocument(), base);
                    }
                }
            } else if (!k.startsWith("$")) {
                BsonValue eq = null;
                if (v.isDocument() && !v.asDocument().isEmpty() && v.asDocument().getFirstKey().startsWith("$")) {
                    eq = v.asDocument().get("$eq");
                } else if (!v.isRegularExpression()) {
                    eq = v;
                }
                if (eq != null) {
                    setPath(base, k, eq);
                }
            }
        }
    }

    private static void setPath(BsonDocument doc, String path, BsonValue v) {
        String[] segs = path.split("\\.");
        BsonDocument cur = doc;
        for (int i = 0; i < segs.length - 1; i++) {
            BsonValue next = cur.get(segs[i]);
            if (!(next instanceof BsonDocument)) {
                next = new BsonDocument();
                cur.put(segs[i], next);
            }
            cur = next.asDocument();
        }
        cur.put(segs[segs.length - 1], v);
    }

    /** The stored documents matching {@code filter}, in {@code sort} order, at most {@code max} (0: all). */
    private static List<StoredDoc> matching(CommandContext ctx, MongoCollection coll, BsonDocument filter,
                                            FilterMatcher matcher, SortSpec sort, int max) {
        QueryRun run = new QueryRun(coll.candidates(filter), matcher, sort, 0, max, null);
        List<StoredDoc> out = new ArrayList<>();
        for (StoredDoc d = run.nextStored(); d != null; d = run.nextStored()) {
            out.add(d);
        }
        ctx.charge(run.candidates().takeRequestCharge());
        return out;
    }

    // ---- delete ------------------------------------------------------------------------------------------------

    private BsonDocument delete(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "delete");
        BsonValue deletes = cmd.get("deletes");
        if (deletes == null || !deletes.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field 'delete.deletes' must be an array");
        }
        boolean ordered = Args.bool(cmd, "ordered", true);
        MongoCollection coll = catalog.collection(ctx.database(), name);
        int n = 0;
        BsonArray writeErrors = new BsonArray();
        List<BsonValue> list = deletes.asArray().getValues();
        for (int i = 0; i < list.size(); i++) {
            try {
                BsonDocument d = list.get(i).asDocument();
                Args.simpleCollationOnly(d);
                long limit = Args.number(d, "limit", 0);
                if (limit != 0 && limit != 1) {
                    throw MongoError.badValue("The limit field in delete objects must be 0 or 1. Got " + limit);
                }
                if (coll != null) {
                    n += deleteMatching(ctx, coll, Args.document(d, "q"), null, limit == 1).size();
                }
            } catch (MongoError | io.tetradb.core.StoreException e) {
                writeErrors.add(writeError(i, MongoErrors.of(e)));
                if (ordered) {
                    break;
                }
            }
        }
        BsonDocument reply = new BsonDocument("n", new BsonInt32(n));
        if (!writeErrors.isEmpty()) {
            reply.append("writeErrors", writeErrors);
        }
        return Replies.ok(reply);
    }

    private static List<BsonDocument> deleteMatching(CommandContext ctx, MongoCollection coll, BsonDocument filter,
                                                     SortSpec sort, boolean one) {
        FilterMatcher matcher = FilterMatcher.compile(filter);
        List<BsonDocument> deleted = new ArrayList<>();
        double[] charge = new double[1];
        for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
            List<StoredDoc> targets = matching(ctx, coll, filter, matcher, sort, one ? 1 : 0);
            boolean raced = false;
            for (StoredDoc t : targets) {
                if (coll.delete(t, charge)) {
                    deleted.add(t.doc());
                } else {
                    raced = true;
                }
            }
            if (!raced || one && !deleted.isEmpty()) {
                break;
            }
        }
        ctx.charge(charge[0]);
        return deleted;
    }

    // ---- findAndModify -----------------------------------------------------------------------------------------

    private BsonDocument findAndModify(CommandContext ctx, BsonDocument cmd) {
        String name = cmd.getString(cmd.getFirstKey()).getValue();
        Args.simpleCollationOnly(cmd);
        BsonDocument query = Args.document(cmd, "query");
        SortSpec sort = new SortSpec(Args.document(cmd, "sort"));
        boolean remove = Args.bool(cmd, "remove", false);
        boolean returnNew = Args.bool(cmd, "new", false);
        boolean upsert = Args.bool(cmd, "upsert", false);
        Projector fields = new Projector(Args.document(cmd, "fields"));
        BsonValue update = cmd.get("update");
        if (remove == (update != null)) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Either an update or remove=true must be specified");
        }
        if (remove) {
            if (upsert || returnNew) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Cannot specify remove with upsert or new");
            }
            MongoCollection coll = catalog.collection(ctx.database(), name);
            List<BsonDocument> deleted = coll == null ? List.of() : deleteMatching(ctx, coll, query, sort, true);
            BsonValue value = deleted.isEmpty() ? BsonNull.VALUE : fields.apply(deleted.get(0));
            return Replies.ok(new BsonDocument("lastErrorObject", new BsonDocument("n",
                    new BsonInt32(deleted.size()))).append("value", value));
        }
        UpdateResult r = updateOne(ctx, name, query, update, upsert, false, sort, arrayFilters(cmd));
        BsonDocument leo = new BsonDocument("n", new BsonInt32(r.upsertedId != null ? 1 : r.matched))
                .append("updatedExisting", BsonBoolean.valueOf(r.matched > 0));
        if (r.upsertedId != null) {
            leo.append("upserted", r.upsertedId);
        }
        BsonDocument doc = returnNew ? r.after : r.before;
        return Replies.ok(new BsonDocument("lastErrorObject", leo).append("value",
                doc == null ? BsonNull.VALUE : fields.apply(doc)));
    }

    // ---- count / distinct --------------------------------------------------------------------------------------

    private BsonDocument count(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "count");
        Args.simpleCollationOnly(cmd);
        BsonDocument query = Args.document(cmd, "query");
        long skip = Args.number(cmd, "skip", 0);
        long limit = Math.abs(Args.number(cmd, "limit", 0));
        MongoCollection coll = catalog.collection(ctx.database(), name);
        long n = 0;
        if (coll != null) {
            QueryRun run = new QueryRun(coll.candidates(query), FilterMatcher.compile(query), null, skip, limit, null);
            while (run.nextStored() != null) {
                n++;
            }
            ctx.charge(run.candidates().takeRequestCharge());
        }
        return Replies.ok(new BsonDocument("n", n <= Integer.MAX_VALUE ? new BsonInt32((int) n) : new BsonInt64(n)));
    }

    private BsonDocument distinct(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "distinct");
        Args.simpleCollationOnly(cmd);
        String key = Args.string(cmd, "key");
        BsonDocument query = Args.document(cmd, "query");
        MongoCollection coll = catalog.collection(ctx.database(), name);
        List<BsonValue> values = new ArrayList<>();
        if (coll != null) {
            FieldPath path = new FieldPath(key);
            DocStream candidates = coll.candidates(query);
            QueryRun run = new QueryRun(candidates, FilterMatcher.compile(query), null, 0, 0, null);
            for (StoredDoc d = run.nextStored(); d != null; d = run.nextStored()) {
                for (BsonValue v : path.values(d.doc())) {
                    if (v == null) {
                        continue;
                    }
                    for (BsonValue x : v.isArray() ? v.asArray().getValues() : List.of(v)) {
                        if (values.stream().noneMatch(y -> BsonOrder.typeClass(x) == BsonOrder.typeClass(y)
                                && BsonOrder.equal(x, y))) {
                            values.add(x);
                        }
                    }
                }
            }
            ctx.charge(candidates.takeRequestCharge());
        }
        values.sort(BsonOrder.INSTANCE);
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
