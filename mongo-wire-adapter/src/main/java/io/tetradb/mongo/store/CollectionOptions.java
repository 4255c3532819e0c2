package io.tetradb.mongo.store;

import io.tetradb.mongo.validation.DocumentValidator;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Collection options ({@code validator}, {@code validationLevel}, {@code validationAction}) as {@code create} and
 * {@code collMod} set them, kept durably as documents of the database's {@code system.namespaces} collection
 * ({@code {_id: "coll", options: <the options' BSON bytes>}}, MongoDB's own layout before 3.0, beside
 * {@code system.indexes}) so they survive a restart; cached per collection (with the compiled validator) so writes do not read them every time.
 */
public final class CollectionOptions {
    /** Where the options live, one document per collection that has any. */
    public static final String NAMESPACES = "system.namespaces";

    private final MongoCatalog catalog;

    CollectionOptions(MongoCatalog catalog) {
        this.catalog = catalog;
    }

    /** What a collection's options hold, cached. */
    record Loaded(BsonDocument options, DocumentValidator validator) {
    }

    /** The options as stored (a copy; empty when none were given). */
    public BsonDocument of(MongoCollection coll) {
        return loaded(coll).options().clone();
    }

    /** The validator writes must pass, or null (none, an empty one, or {@code validationLevel: off}). */
    public DocumentValidator validator(MongoCollection coll) {
        return loaded(coll).validator();
    }

    private Loaded loaded(MongoCollection coll) {
        OptionsCache cache = coll.options;
        Loaded l = cache.get();
        if (l == null) {
            long generation = cache.generation();
            BsonDocument options = read(coll.database(), coll.name());
            l = new Loaded(options, DocumentValidator.of(coll.namespace(), options));
            cache.put(generation, l);
        }
        return l;
    }

    private BsonDocument read(String db, String name) {
        if (name.startsWith("system.")) {
            return new BsonDocument();
        }
        MongoCollection sys = catalog.collection(db, NAMESPACES);
        StoredDoc d = sys == null ? null : sys.findById(new BsonString(name), new double[1]);
        BsonValue options = d == null ? null : d.doc().get("options");
        if (options == null || !options.isBinary()) {
            return new BsonDocument();
        }
        return new org.bson.codecs.BsonDocumentCodec().decode(new org.bson.BsonBinaryReader(java.nio.ByteBuffer.wrap(
                options.asBinary().getData())), org.bson.codecs.DecoderContext.builder().build());
    }

    /**
     * Stores a collection's options (replacing what it had); checks them first, so a bad validator is refused with
     * MongoDB's code and nothing changes.
     */
    public void set(MongoCollection coll, BsonDocument options) {
        DocumentValidator.of(coll.namespace(), options);
        MongoCollection sys = catalog.createIfAbsent(coll.database(), NAMESPACES);
        // as BSON bytes: a validator's operator names start with '$', which stored field names may not
        org.bson.ByteBuf raw = new org.bson.RawBsonDocument(options, new org.bson.codecs.BsonDocumentCodec())
                .getByteBuffer();
        byte[] bytes = new byte[raw.remaining()];
        raw.get(bytes);
        BsonDocument doc = new BsonDocument("_id", new BsonString(coll.name())).append("options",
                new org.bson.BsonBinary(bytes));
        try {
            synchronized (coll.uniqueLock) {
                StoredDoc old = sys.findById(new BsonString(coll.name()), new double[1]);
                if (old == null) {
                    sys.insert(doc);
                } else if (!sys.replace(old, doc, new double[1])) {
                    throw new io.tetradb.mongo.command.MongoError(io.tetradb.mongo.command.ErrorCode.WRITE_CONFLICT,
                            "the collection's options changed meanwhile");
                }
            }
        } finally {
            coll.options.invalidate();
        }
    }

    /** Forgets a dropped collection's options. */
    void forget(String db, String name) {
        MongoCollection sys = catalog.collection(db, NAMESPACES);
        StoredDoc d = sys == null ? null : sys.findById(new BsonString(name), new double[1]);
        if (d != null) {
            sys.delete(d, new double[1]);
        }
    }

    /** The per-collection cache; a load that raced with a change is not kept (the generation moved on). */
    static final class OptionsCache {
        private Loaded loaded;
        private long generation;

        synchronized Loaded get() {
            return loaded;
        }

        synchronized long generation() {
            return generation;
        }

        synchronized void put(long loadedAt, Loaded l) {
            if (loadedAt == generation) {
                loaded = l;
            }
        }

        synchronized void invalidate() {
            generation++;
            loaded = null;
        }
    }
}
