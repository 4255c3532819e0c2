package io.tetradb.mongo.command;

import io.tetradb.mongo.query.BsonOrder;
import io.tetradb.mongo.query.Collation;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.query.Projector;
import io.tetradb.mongo.query.QueryRun;
import io.tetradb.mongo.query.SortSpec;
import io.tetradb.mongo.store.IndexCatalog;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import io.tetradb.mongo.update.UpdateApplier;
import io.tetradb.mongo.validation.DocumentValidator;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
/** insert, update, delete, findAndModify: the commands that write. */
final class WriteCommands {
    /** Retries of an update whose document another writer changed between our read and our write. */
    private static final int MAX_RETRIES = 50;

    private final MongoCatalog catalog;
    private final IndexCatalog indexes;

    WriteCommands(MongoCatalog catalog, IndexCatalog indexes) {
        this.catalog = catalog;
        this.indexes = indexes;
    }

    void register(CommandDispatcher d) {
        d.register("insert", this::insert);
        d.register("update", this::update);
        d.register("delete", this::delete);
        d.registerAnyCase("findAndModify", this::findAndModify);
    }

    // ---- insert ------------------------------------------------------------------------------------------------

    private BsonDocument insert(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "insert");
        BsonValue docs = cmd.get("documents");
        if (docs == null || !docs.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field 'insert.documents' must be an array");
        }
        // bounds-fold: before anything of the message is created or written (the event loop no longer checks them)
        CheckedInserts checked = CheckedInserts.of(docs.asArray().getValues(), catalog.store().codec());
        boolean ordered = Args.bool(cmd, "ordered", true);
        MongoCollection coll = ctx.view(catalog.createIfAbsent(ctx.database(), name));
        List<BsonDocument> unique = indexes.uniqueKeys(coll);
        DocumentValidator validator = validator(coll, cmd);
        boolean compound = indexes.hasCompound(coll);
        BsonArray writeErrors = new BsonArray();
        int n = 0;
        List<BsonValue> list = checked.documents();
        if (unique.isEmpty() || !coll.inTransaction()) {
            // batched: one core transaction per up to 100 documents; the core checks unique indexes' keys in each
            List<BsonDocument> prepared = new ArrayList<>();
            List<io.tetradb.core.store.ItemOperation> mapped = new ArrayList<>();
            List<String> asIs = new ArrayList<>();
            List<Integer> positions = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                if (!list.get(i).isDocument()) {
                    writeErrors.add(writeError(i, new MongoError(ErrorCode.TYPE_MISMATCH, "documents must be objects")));
                    if (ordered) {
                        break;
                    }
                    continue;
                }
                BsonDocument doc = withId(list.get(i).asDocument());
                if (validator != null || compound) {
                    try {
                        if (validator != null) {
                            validator.check(null, doc);
                        }
                        indexes.checkIndexable(coll, doc);
                    } catch (MongoError invalid) {
                        writeErrors.add(writeError(i, invalid));
                        if (ordered) {
                            break;
                        }
                        continue;
                    }
                }
                prepared.add(doc);
                mapped.add(doc == list.get(i) ? checked.mapped(i) : null); // not when withId added an _id
                asIs.add(doc == list.get(i) ? checked.readsBackAsIs(i) : null);
                positions.add(i);
            }
            if (ordered && !writeErrors.isEmpty()) {
                int firstBad = writeErrors.get(0).asDocument().getInt32("index").getValue();
                int before = (int) positions.stream().filter(p -> p < firstBad).count();
                prepared = prepared.subList(0, before);
                mapped = mapped.subList(0, before);
                asIs = asIs.subList(0, before);
            }
            double[] charge = new double[1];
            List<RuntimeException> outcome = coll.insertAll(prepared, mapped, asIs, ordered, charge);
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
        } else { // in a transaction: each document's keys are looked up at once (the core checks them at the commit)
            for (int i = 0; i < list.size(); i++) {
                try {
                    Interruption.check(); // killed or past maxTimeMS: the command fails whole (rethrown below)
                    if (!list.get(i).isDocument()) {
                        throw new MongoError(ErrorCode.TYPE_MISMATCH, "documents must be objects");
                    }
                    BsonDocument doc = withId(list.get(i).asDocument());
                    if (validator != null) {
                        validator.check(null, doc);
                    }
                    indexes.checkIndexable(coll, doc);
                    indexes.checkUnique(coll, unique, doc);
                    ctx.charge(coll.insertMapped(doc, doc == list.get(i) ? checked.mapped(i) : null));
                    n++;
                } catch (MongoError | io.tetradb.core.StoreException e) {
                    Interruption.rethrow(e); // a killed command fails whole, as mongod's, not as one statement
                    writeErrors.add(writeError(i, MongoErrors.of(e)));
                    if (ordered) {
                        break;
                    }
                }
            }
        }
        return Replies.ok(withWriteErrors(new BsonDocument("n", new BsonInt32(n)), writeErrors));
    }

    /** The collection's validator, unless there is none or the command asks {@code bypassDocumentValidation}. */
    private DocumentValidator validator(MongoCollection coll, BsonDocument cmd) {
        return Args.bool(cmd, "bypassDocumentValidation", false) ? null : catalog.options().validator(coll);
    }

    static BsonDocument withId(BsonDocument doc) {
        if (io.tetradb.mongo.bson.DocumentMapper.hasId(doc)) {
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
        for (BsonValue statement : list) { // the statements' shape is parsed with the command: errors end the command
            if (!statement.isDocument() || !statement.asDocument().containsKey("q")
                    || !statement.asDocument().containsKey("u")) {
                throw new MongoError(ErrorCode.IDL_MISSING_FIELD, "BSON field 'update.updates." + (statement
                        .isDocument() && statement.asDocument().containsKey("q") ? "u" : "q") + "' is missing but a "
                        + "required field");
            }
            BsonValue spec = statement.asDocument().get("u");
            if (!spec.isArray() && !spec.isDocument()) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Update argument must be either an object or an "
                        + "array");
            }
        }
        // every statement's writes applied in turn, durable by one WAL sync before the reply (MessageView.close)
        try (MessageView colls = new MessageView(() -> ctx.view(catalog.createIfAbsent(ctx.database(), name)))) {
            for (int i = 0; i < list.size(); i++) {
                try {
                    BsonDocument u = list.get(i).asDocument();
                    BsonValue spec = u.get("u");
                    UpdateResult r = updateOne(ctx, colls, Args.document(u, "q"), spec,
                            Args.bool(u, "upsert", false), Args.bool(u, "multi", false), null, arrayFilters(u),
                            Collation.of(u), cmd);
                    if (r.upsertedId != null) {
                        n++;
                        upserted.add(new BsonDocument("index", new BsonInt32(i)).append("_id", r.upsertedId));
                    } else {
                        n += r.matched;
                        modified += r.modified;
                    }
                } catch (MongoError | io.tetradb.core.StoreException e) {
                    Interruption.rethrow(e); // a killed command fails whole, as mongod's, not as one statement
                    writeErrors.add(writeError(i, MongoErrors.of(e)));
                    if (ordered) {
                        break;
                    }
                }
            }
        }
        BsonDocument reply = new BsonDocument("n", new BsonInt32(n)).append("nModified", new BsonInt32(modified));
        if (!upserted.isEmpty()) {
            reply.append("upserted", upserted);
        }
        return Replies.ok(withWriteErrors(reply, writeErrors));
    }

    /**
     * An {@code update} or {@code delete} message's collection, opened at its first use as a
     * {@link MongoCollection#oneSyncPerMessage()} view: each statement's writes are applied (visible) as they come,
     * and {@link #close()} — always, before the reply — makes them durable with one WAL sync. A sync that fails
     * throws from {@code close}, so the command answers an error, never the statements' counts.
     */
    private static final class MessageView implements AutoCloseable, java.util.function.Supplier<MongoCollection> {
        private final java.util.function.Supplier<MongoCollection> open;
        private MongoCollection view;

        MessageView(java.util.function.Supplier<MongoCollection> open) {
            this.open = open;
        }

        @Override
        public MongoCollection get() {
            if (view == null) {
                MongoCollection coll = open.get();
                view = coll == null ? null : coll.oneSyncPerMessage();
            }
            return view;
        }

        @Override
        public void close() {
            if (view != null) {
                view.awaitMessage();
            }
        }
    }

    /**
     * Applies one update statement. The matching documents are collected first, then each is updated against the
     * version read (etag); a document changed meanwhile is read again, re-matched and retried.
     */
    private UpdateResult updateOne(CommandContext ctx, java.util.function.Supplier<MongoCollection> colls,
                                   BsonDocument filter, BsonValue spec, boolean upsert, boolean multi, SortSpec sort,
                                   BsonArray arrayFilters, BsonOrder order, BsonDocument cmd) {
        io.tetradb.mongo.update.DocumentUpdate applier = spec.isArray()
                ? new io.tetradb.mongo.aggregate.PipelineUpdate(spec.asArray())
                : new UpdateApplier(spec.asDocument(), arrayFilters, filter);
        if (multi && applier.isReplacement()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "multi update is not supported for replacement-style "
                    + "update");
        }
        MongoCollection coll = colls.get();
        FilterMatcher matcher = FilterMatcher.compile(filter, order);
        List<StoredDoc> targets = matching(ctx, coll, filter, matcher, sort, multi ? 0 : 1);
        List<BsonDocument> unique = indexes.uniqueKeys(coll);
        DocumentValidator validator = validator(coll, cmd);
        if (targets.isEmpty()) {
            if (!upsert) {
                return new UpdateResult(0, 0, null, null, null);
            }
            BsonDocument base = io.tetradb.mongo.update.UpsertSeed.of(filter, applier.isReplacement());
            BsonDocument applied = applier.apply(base, true);
            if (applier.isReplacement() && !applied.containsKey("_id") && base.containsKey("_id")) {
                applied.put("_id", base.get("_id"));
            }
            BsonDocument doc = withId(applied);
            if (validator != null) {
                validator.check(null, doc);
            }
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
                if (changed && validator != null) {
                    validator.check(current.doc(), next);
                }
                if (changed) {
                    writeChecked(coll, unique, next, () -> written[0] = coll.replace(read, next, charge,
                            applier.isReplacement()));
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

    /** A write after MongoDB's checks; unique keys are the core's to check, in the write itself. */
    private void writeChecked(MongoCollection coll, List<BsonDocument> unique, BsonDocument doc, Runnable write) {
        indexes.checkIndexable(coll, doc);
        if (!unique.isEmpty() && coll.inTransaction()) {
            indexes.checkUnique(coll, unique, doc); // a transaction's early answer; the commit is checked by the core
        }
        write.run();
    }

    private static void checkIdUnchanged(BsonDocument before, BsonDocument after) {
        BsonValue a = before.get("_id");
        BsonValue b = after.get("_id");
        if (a != null && (b == null || !a.equals(b))) {
            throw new MongoError(ErrorCode.IMMUTABLE_FIELD,
                    "Performing an update on the path '_id' would modify the immutable field '_id'");
        }
    }

    /** The stored documents matching {@code filter}, in {@code sort} order, at most {@code max} (0: all). */
    private static List<StoredDoc> matching(CommandContext ctx, MongoCollection coll, BsonDocument filter,
                                            FilterMatcher matcher, SortSpec sort, int max) {
        QueryRun run = new QueryRun(coll.candidates(filter, matcher.order()), matcher, sort, 0, max, null);
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
        MongoCollection found = ctx.view(catalog.collection(ctx.database(), name));
        int n = 0;
        BsonArray writeErrors = new BsonArray();
        List<BsonValue> list = deletes.asArray().getValues();
        for (BsonValue statement : list) { // the statements are parsed with the command: errors end the command
            BsonValue limit = statement.isDocument() ? statement.asDocument().get("limit") : null;
            if (!statement.isDocument() || limit == null) {
                throw new MongoError(ErrorCode.IDL_MISSING_FIELD, "BSON field 'delete.deletes.limit' is missing but "
                        + "a required field");
            }
            double l = io.tetradb.mongo.query.BsonOrder.isNumber(limit)
                    ? io.tetradb.mongo.query.BsonOrder.toDouble(limit) : -1;
            if (l != 0 && l != 1) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The limit field in delete objects must be 0 or 1. "
                        + "Got " + io.tetradb.mongo.bson.BsonText.of(limit));
            }
        }
        // every statement's deletes applied in turn, durable by one WAL sync before the reply (MessageView.close)
        try (MessageView colls = new MessageView(() -> found)) {
            MongoCollection coll = colls.get();
            for (int i = 0; i < list.size(); i++) {
                try {
                    BsonDocument d = list.get(i).asDocument();
                    long limit = Args.number(d, "limit", 0);
                    if (coll != null) {
                        n += deleteMatching(ctx, coll, Args.document(d, "q"), null, limit == 1, Collation.of(d))
                                .size();
                    }
                } catch (MongoError | io.tetradb.core.StoreException e) {
                    Interruption.rethrow(e); // a killed command fails whole, as mongod's, not as one statement
                    writeErrors.add(writeError(i, MongoErrors.of(e)));
                    if (ordered) {
                        break;
                    }
                }
            }
        }
        return Replies.ok(withWriteErrors(new BsonDocument("n", new BsonInt32(n)), writeErrors));
    }

    /** A write command's reply: {@code writeErrors} only when some write failed, as MongoDB answers. */
    private static BsonDocument withWriteErrors(BsonDocument reply, BsonArray writeErrors) {
        if (!writeErrors.isEmpty()) {
            reply.append("writeErrors", writeErrors);
        }
        return reply;
    }

    private static List<BsonDocument> deleteMatching(CommandContext ctx, MongoCollection coll, BsonDocument filter,
                                                     SortSpec sort, boolean one, BsonOrder order) {
        FilterMatcher matcher = FilterMatcher.compile(filter, order);
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
        BsonOrder order = Collation.of(cmd);
        BsonDocument query = Args.document(cmd, "query");
        SortSpec sort = new SortSpec(Args.document(cmd, "sort"), order);
        boolean remove = Args.bool(cmd, "remove", false);
        boolean returnNew = Args.bool(cmd, "new", false);
        boolean upsert = Args.bool(cmd, "upsert", false);
        Projector fields = new Projector(Args.document(cmd, "fields"));
        BsonValue update = cmd.get("update");
        if (remove && update != null) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Cannot specify both an update and remove=true");
        }
        if (!remove && update == null) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Either an update or remove=true must be specified");
        }
        if (remove) {
            if (upsert) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Cannot specify both upsert=true and remove=true ");
            }
            if (returnNew) {
                throw new MongoError(ErrorCode.FAILED_TO_PARSE, "Cannot specify both new=true and remove=true; "
                        + "'remove' always returns the deleted document");
            }
            MongoCollection coll = ctx.view(catalog.collection(ctx.database(), name));
            List<BsonDocument> deleted = coll == null ? List.of() : deleteMatching(ctx, coll, query, sort, true, order);
            BsonValue value = deleted.isEmpty() ? BsonNull.VALUE : fields.apply(deleted.get(0));
            return Replies.ok(new BsonDocument("lastErrorObject", new BsonDocument("n",
                    new BsonInt32(deleted.size()))).append("value", value));
        }
        // one statement, one core write: it waits for its own sync (nothing for one sync per message to share)
        UpdateResult r = updateOne(ctx, () -> ctx.view(catalog.createIfAbsent(ctx.database(), name)), query, update,
                upsert, false, sort, arrayFilters(cmd), order, cmd);
        BsonDocument leo = new BsonDocument("n", new BsonInt32(r.upsertedId != null ? 1 : r.matched))
                .append("updatedExisting", BsonBoolean.valueOf(r.matched > 0));
        if (r.upsertedId != null) {
            leo.append("upserted", r.upsertedId);
        }
        BsonDocument doc = returnNew ? r.after : r.before;
        return Replies.ok(new BsonDocument("lastErrorObject", leo).append("value",
                doc == null ? BsonNull.VALUE : fields.apply(doc)));
    }
}
