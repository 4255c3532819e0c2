package io.tetradb.mongo.store;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * MongoDB index definitions of a database's collections, kept as documents of its {@code system.indexes} collection
 * ({@code {_id: "coll.name", ns, name, key, unique?, sparse?}}). The core already range-indexes every path (multikey),
 * so a Mongo single-field or compound index needs no storage of its own: its fields are served by the core's path
 * indexes. What an index adds is its name (listIndexes, hint, dropIndexes) and, when unique, keys the core keeps and
 * checks in each document's own atomic write ({@link MongoUniqueIndexes}).
 */
public final class IndexCatalog {
    private final MongoCatalog catalog;

    public IndexCatalog(MongoCatalog catalog) {
        this.catalog = catalog;
    }

    /** The implicit {@code _id_} index followed by the collection's own (copies: callers may change them). */
    public List<BsonDocument> list(MongoCollection coll) {
        List<BsonDocument> cached = cached(coll);
        List<BsonDocument> out = new ArrayList<>(cached.size());
        for (BsonDocument spec : cached) {
            out.add(spec.clone());
        }
        return out;
    }

    /** The cached specs themselves: not to be changed. */
    private List<BsonDocument> cached(MongoCollection coll) {
        // shared engine: specs read before another server's index change are read again after the catalog refresh
        long catalogVersion = catalog.store().onSharedEngine() ? catalog.store().catalogVersion() : 0;
        List<BsonDocument> cached = coll.indexSpecs.get(catalogVersion);
        if (cached == null) {
            long generation = coll.indexSpecs.generation();
            cached = List.copyOf(load(coll));
            coll.indexSpecs.put(generation, catalogVersion, cached);
        }
        return cached;
    }

    private List<BsonDocument> load(MongoCollection coll) {
        List<BsonDocument> out = new ArrayList<>();
        out.add(new BsonDocument("v", new BsonInt32(2)).append("key", new BsonDocument("_id", new BsonInt32(1)))
                .append("name", new BsonString("_id_")));
        MongoCollection sys = catalog.collection(coll.database(), MongoCatalog.INDEXES);
        if (sys == null) {
            return out;
        }
        DocStream s = sys.candidates(new BsonDocument("ns", new BsonString(coll.namespace())));
        while (s.hasNext()) {
            BsonDocument d = s.next().doc();
            if (d.getString("ns", new BsonString("")).getValue().equals(coll.namespace())) {
                BsonDocument spec = new BsonDocument("v", new BsonInt32(2)).append("key", d.get("key"))
                        .append("name", d.get("name"));
                for (String opt : List.of("unique", "sparse", "partialFilterExpression", "expireAfterSeconds")) {
                    if (d.containsKey(opt)) {
                        spec.append(opt, d.get(opt));
                    }
                }
                out.add(spec);
            }
        }
        if (!catalog.store().onSharedEngine()) { // a shared engine never held unique indexes the core did not keep
            keepUniqueInCore(coll, out);
        }
        return out;
    }

    /**
     * Unique indexes recorded before the core kept them (an older data directory) are handed to the core once; one
     * whose documents already collide (a race the old check let through) stays unenforced rather than failing every
     * listing.
     */
    private static void keepUniqueInCore(MongoCollection coll, List<BsonDocument> specs) {
        for (BsonDocument spec : specs) {
            if (spec.getBoolean("unique", BsonBoolean.FALSE).getValue()
                    && !MongoUniqueIndexes.kept(coll, spec.getString("name").getValue())) {
                try {
                    MongoUniqueIndexes.add(coll, spec);
                } catch (MongoError | io.tetradb.core.StoreException stillDuplicated) {
                    // left as it was: see above
                }
            }
        }
    }

    /** Adds an index; false if one with the same name and key exists already. */
    public boolean create(MongoCollection coll, BsonDocument spec) {
        BsonValue key = spec.get("key");
        BsonValue name = spec.get("name");
        if (key == null || !key.isDocument()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The 'key' field is a required property of an index "
                    + "specification");
        }
        if (key.asDocument().isEmpty()) {
            throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX, "Index keys cannot be empty.");
        }
        if (name == null || !name.isString()) {
            throw new MongoError(ErrorCode.FAILED_TO_PARSE, "The 'name' field is a required property of an index "
                    + "specification");
        }
        IndexSpecs.check(spec);
        for (BsonDocument existing : list(coll)) {
            boolean sameName = existing.getString("name").equals(name);
            boolean sameKey = existing.get("key").equals(key);
            if (sameName && sameKey) {
                if (!java.util.Objects.equals(existing.get("expireAfterSeconds"), spec.get("expireAfterSeconds"))) {
                    throw new MongoError(ErrorCode.INDEX_OPTIONS_CONFLICT, "An equivalent index already exists with "
                            + "the same name but different options. Requested index: " + spec.toJson()
                            + ", existing index: " + existing.toJson());
                }
                return false;
            }
            if (sameName) {
                throw new MongoError(ErrorCode.INDEX_KEY_SPECS_CONFLICT, "An existing index has the same name as the "
                        + "requested index but a different key: " + existing.toJson());
            }
            if (sameKey && !existing.getBoolean("unique", BsonBoolean.FALSE)
                    .equals(spec.getBoolean("unique", BsonBoolean.FALSE))) {
                throw new MongoError(ErrorCode.INDEX_OPTIONS_CONFLICT, "An index with the same key pattern but other "
                        + "options exists: " + existing.toJson());
            }
        }
        BsonDocument stored = new BsonDocument("_id", new BsonString(coll.name() + "." + name.asString().getValue()))
                .append("ns", new BsonString(coll.namespace())).append("name", name).append("key", key);
        for (String opt : List.of("unique", "sparse", "partialFilterExpression", "expireAfterSeconds")) {
            if (spec.containsKey(opt)) {
                stored.append(opt, spec.get(opt));
            }
        }
        synchronized (coll.uniqueLock) {
            boolean unique = spec.getBoolean("unique", BsonBoolean.FALSE).getValue();
            if (unique) {
                MongoUniqueIndexes.add(coll, stored); // the core builds its keys: duplicates fail it, leaving nothing
            } else if (key.asDocument().size() > 1) {
                checkExistingIndexable(coll, stored);
            }
            try {
                catalog.createIfAbsent(coll.database(), MongoCatalog.INDEXES).insert(stored);
            } catch (RuntimeException e) {
                if (unique) {
                    MongoUniqueIndexes.drop(coll, name.asString().getValue());
                }
                throw e;
            } finally {
                coll.indexSpecs.invalidate();
            }
            applyPolicy(coll);
            TtlIndexes.apply(coll, name.asString().getValue(), stored);
        }
        awaitIndexBuild(coll); // as MongoDB's createIndexes, answer once the index serves queries
        return true;
    }

    /** Removes an index by name; IndexNotFound (27) if absent. */
    public void drop(MongoCollection coll, String name) {
        if (name.equals("_id_")) {
            throw new MongoError(ErrorCode.INVALID_OPTIONS, "cannot drop _id index");
        }
        MongoCollection sys = catalog.collection(coll.database(), MongoCatalog.INDEXES);
        StoredDoc d = sys == null ? null : sys.findById(new BsonString(coll.name() + "." + name), new double[1]);
        if (d == null) {
            throw new MongoError(ErrorCode.INDEX_NOT_FOUND, "index not found with name [" + name + "]");
        }
        synchronized (coll.uniqueLock) {
            try {
                sys.delete(d, new double[1]);
            } finally {
                coll.indexSpecs.invalidate();
            }
            MongoUniqueIndexes.drop(coll, name);
            applyPolicy(coll);
            TtlIndexes.apply(coll, name, null);
        }
    }

    /**
     * {@code collMod}'s {@code index: {keyPattern | name, expireAfterSeconds}}: changes (or adds) an index's time to
     * live; returns MongoDB's reply fields ({@code expireAfterSeconds_old} when it had one, {@code _new}).
     */
    public BsonDocument modifyTtl(MongoCollection coll, BsonDocument change) {
        BsonValue byName = change.get("name");
        BsonValue byKey = change.get("keyPattern");
        if ((byName == null) == (byKey == null)) {
            throw new MongoError(ErrorCode.INVALID_OPTIONS, "Must specify either index name or key pattern.");
        }
        BsonValue seconds = change.get("expireAfterSeconds");
        if (seconds == null) {
            throw new MongoError(ErrorCode.INVALID_OPTIONS, "no expireAfterSeconds or hidden field");
        }
        long next = TtlIndexes.checkSeconds(seconds, "", ErrorCode.INVALID_OPTIONS);
        BsonDocument found = null;
        for (BsonDocument spec : cached(coll)) {
            if (byName != null ? spec.get("name").equals(byName) : spec.get("key").equals(byKey)) {
                found = spec;
            }
        }
        if (found == null) {
            throw new MongoError(ErrorCode.INDEX_NOT_FOUND, "cannot find index " + (byName != null
                    ? byName.asString().getValue() : io.tetradb.mongo.bson.BsonText.of(byKey)) + " for ns "
                    + coll.namespace());
        }
        String name = found.getString("name").getValue();
        if (name.equals("_id_")) {
            throw new MongoError(ErrorCode.INVALID_OPTIONS, "the _id field does not support TTL indexes");
        }
        if (found.getDocument("key").size() != 1) {
            throw new MongoError(ErrorCode.INVALID_OPTIONS, "TTL indexes are single-field indexes, compound indexes "
                    + "do not support TTL");
        }
        BsonDocument reply = new BsonDocument();
        if (found.containsKey("expireAfterSeconds")) {
            reply.append("expireAfterSeconds_old", found.get("expireAfterSeconds"));
        }
        reply.append("expireAfterSeconds_new", new org.bson.BsonInt64(next));
        MongoCollection sys = catalog.collection(coll.database(), MongoCatalog.INDEXES);
        StoredDoc d = sys.findById(new BsonString(coll.name() + "." + name), new double[1]);
        BsonDocument stored = d.doc().clone();
        stored.put("expireAfterSeconds", new org.bson.BsonInt64(next));
        synchronized (coll.uniqueLock) {
            try {
                sys.replace(d, stored, new double[1]);
            } finally {
                coll.indexSpecs.invalidate();
            }
            TtlIndexes.apply(coll, name, stored);
        }
        return reply;
    }

    /**
     * Makes the collection's core indexing policy index exactly {@code _id} and its indexes' fields (see
     * {@link IndexPolicies}); the core rebuilds the index entries in the background when the policy changes.
     * Called under the collection's {@code uniqueLock}, so that two index changes apply their policies in order.
     */
    private void applyPolicy(MongoCollection coll) {
        if (coll.name().startsWith("system.")) {
            return;
        }
        com.fasterxml.jackson.databind.JsonNode policy = IndexPolicies.of(cached(coll));
        io.tetradb.core.store.ContainerDefinition def = coll.container().definition();
        if (!policy.equals(def.indexingPolicy())) {
            catalog.store().replaceContainer(coll.database(), coll.name(), null, policy, def.defaultTimeToLive());
        }
    }

    private static void awaitIndexBuild(MongoCollection coll) {
        try {
            coll.container().awaitIndexRebuild();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MongoError(ErrorCode.INTERRUPTED, "interrupted while the index was built");
        }
    }

    /** Removes every index of a collection (when it is dropped). */
    public void dropAll(String db, String collection) {
        MongoCollection sys = catalog.collection(db, MongoCatalog.INDEXES);
        if (sys == null) {
            return;
        }
        DocStream s = sys.candidates(new BsonDocument("ns", new BsonString(db + "." + collection)));
        List<StoredDoc> all = new ArrayList<>();
        s.forEachRemaining(all::add);
        for (StoredDoc d : all) {
            if (d.doc().getString("ns").getValue().equals(db + "." + collection)) {
                sys.delete(d, new double[1]);
            }
        }
        MongoCollection coll = catalog.collection(db, collection);
        if (coll != null) {
            coll.indexSpecs.invalidate();
        }
    }

    /** The unique indexes' specs (key, name, sparse, partialFilterExpression): what {@link #checkUnique} takes. */
    public List<BsonDocument> uniqueKeys(MongoCollection coll) {
        List<BsonDocument> out = new ArrayList<>();
        for (BsonDocument spec : cached(coll)) {
            if (spec.getBoolean("unique", BsonBoolean.FALSE).getValue()) {
                out.add(spec.clone());
            }
        }
        return out;
    }

    /**
     * DuplicateKey (11000) if another document than {@code doc} (same {@code _id}) holds one of the keys {@code doc}
     * has in one of the unique indexes (every element of an array is a key of its own: MongoDB's multikey rule). Only
     * a transaction's early answer, against the committed documents and its own writes: the core checks the keys
     * again when the transaction commits ({@link MongoUniqueIndexes}).
     */
    public void checkUnique(MongoCollection coll, List<BsonDocument> uniqueSpecs, BsonDocument doc) {
        for (BsonDocument spec : uniqueSpecs) {
            IndexKeys index = new IndexKeys(spec);
            for (BsonDocument key : index.of(doc)) {
                DocStream s = coll.candidates(candidateFilter(key));
                while (s.hasNext()) {
                    BsonDocument other = s.next().doc();
                    if (BsonOrder.equal(other.get("_id"), doc.get("_id"))) {
                        continue;
                    }
                    for (BsonDocument otherKey : index.of(other)) {
                        if (IndexKeys.sameKey(key, otherKey)) {
                            throw duplicateKey(coll, spec, key);
                        }
                    }
                }
            }
        }
    }

    /** True if the collection has an index of two or more fields (writes then check for parallel arrays). */
    public boolean hasCompound(MongoCollection coll) {
        return cached(coll).stream().anyMatch(spec -> spec.getDocument("key").size() > 1);
    }

    /**
     * CannotIndexParallelArrays (171) if {@code doc} has two arrays under two fields of one compound index, as MongoDB
     * refuses such a write for any index (checked before the core computes a unique index's keys).
     */
    public void checkIndexable(MongoCollection coll, BsonDocument doc) {
        for (BsonDocument spec : cached(coll)) {
            if (spec.getDocument("key").size() > 1) {
                new IndexKeys(spec).of(doc);
            }
        }
    }

    /** A filter every document holding {@code key} matches (a superset: the keys are compared afterwards). */
    private static BsonDocument candidateFilter(BsonDocument key) {
        BsonDocument filter = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : key.entrySet()) {
            BsonValue v = e.getValue();
            if (!v.isNull() && !v.isArray() && v.getBsonType() != org.bson.BsonType.UNDEFINED) {
                filter.append(e.getKey(), new BsonDocument("$eq", v));
            }
        }
        return filter;
    }

    /** MongoDB's E11000 for a key of an index: {@code … index: a_1 dup key: { a: "x" }}, keyPattern, keyValue. */
    static MongoError duplicateKey(MongoCollection coll, BsonDocument spec, BsonDocument key) {
        return new MongoError(ErrorCode.DUPLICATE_KEY, "E11000 duplicate key error collection: "
                + coll.namespace() + " index: " + spec.getString("name").getValue() + " dup key: "
                + io.tetradb.mongo.bson.BsonText.of(key),
                new BsonDocument("keyPattern", spec.getDocument("key")).append("keyValue", key));
    }

    private static void checkExistingIndexable(MongoCollection coll, BsonDocument spec) {
        IndexKeys index = new IndexKeys(spec);
        DocStream s = coll.candidates(new BsonDocument());
        while (s.hasNext()) {
            index.of(s.next().doc());
        }
    }

    /** MongoDB's default index name: {@code a_1_b_-1}. */
    public static String indexName(BsonDocument key) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, BsonValue> e : key.entrySet()) {
            if (sb.length() > 0) {
                sb.append('_');
            }
            BsonValue v = e.getValue();
            sb.append(e.getKey()).append('_').append(v.isString() ? v.asString().getValue()
                    : v.isInt32() || v.isInt64() ? String.valueOf(v.asNumber().longValue())
                    : String.valueOf((long) io.tetradb.mongo.query.BsonOrder.toDouble(v)));
        }
        return sb.toString();
    }
}
