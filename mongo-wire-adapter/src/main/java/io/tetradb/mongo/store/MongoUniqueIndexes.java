package io.tetradb.mongo.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.unique.ItemUniqueIndex;
import io.tetradb.core.unique.UniqueIndexDefinition;
import io.tetradb.core.unique.UniqueIndexViolation;
import io.tetradb.mongo.bson.DocumentMapper;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MongoDB unique indexes kept by the core (issue 15): each unique index of a collection is a face-defined unique
 * index of its container ({@link io.tetradb.core.unique.ItemUniqueIndex}, kind {@code mongo}) whose keys are
 * {@link IndexKeys}' — one per array element, compound combinations, missing = null, sparse and partial skips — as
 * canonical bytes (1, 1.0 and NumberLong(1) are one key). The core writes and checks them in each document's own
 * atomic write, container-wide for an unsharded collection (whatever its partitioning), per logical partition for a
 * sharded one (whose unique indexes start with the shard key, as MongoDB requires). A refusal comes back as
 * {@link UniqueIndexViolation} and leaves here as MongoDB's E11000.
 */
public final class MongoUniqueIndexes {
    static final String KIND = "mongo";
    private static final JsonWriterSettings EJSON = JsonWriterSettings.builder().outputMode(JsonMode.EXTENDED).build();

    private MongoUniqueIndexes() {
    }

    /** Lets the core compute this face's keys (idempotent; every catalog over the store calls it). */
    static void register(CoreStore store) {
        store.uniqueIndexKinds().register(KIND, MongoUniqueIndexes::open);
    }

    private static ItemUniqueIndex open(UniqueIndexDefinition definition) {
        BsonDocument spec = BsonDocument.parse(definition.spec().path("index").asText());
        IndexKeys index = new IndexKeys(spec);
        Set<String> fields = topLevelFields(spec);
        return item -> {
            List<byte[]> out = new ArrayList<>();
            for (BsonDocument key : index.of(DocumentMapper.fromItem(fields == null ? item : only(item, fields)))) {
                out.add(bytes(key));
            }
            return out;
        };
    }

    private static byte[] bytes(BsonDocument key) {
        return IndexKeys.canonical(key).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The stored top-level fields the index reads (its key's and its partial filter's), so a write converts only
     * those to BSON; null when the filter reads more than plain field conditions (then the whole document).
     */
    private static Set<String> topLevelFields(BsonDocument spec) {
        Set<String> out = new HashSet<>();
        for (String f : spec.getDocument("key").keySet()) {
            out.add(topLevel(f));
        }
        BsonValue partial = spec.get("partialFilterExpression");
        if (partial != null && !filterFields(partial, out)) {
            return null;
        }
        return out;
    }

    private static boolean filterFields(BsonValue filter, Set<String> out) {
        if (!filter.isDocument()) {
            return false;
        }
        for (Map.Entry<String, BsonValue> e : filter.asDocument().entrySet()) {
            if (e.getKey().equals("$and") || e.getKey().equals("$or")) {
                if (!e.getValue().isArray()) {
                    return false;
                }
                for (BsonValue clause : e.getValue().asArray()) {
                    if (!filterFields(clause, out)) {
                        return false;
                    }
                }
            } else if (e.getKey().startsWith("$")) {
                return false;
            } else {
                out.add(topLevel(e.getKey()));
            }
        }
        return true;
    }

    private static String topLevel(String path) {
        int dot = path.indexOf('.');
        return dot < 0 ? path : path.substring(0, dot);
    }

    private static ObjectNode only(ObjectNode item, Set<String> fields) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String f : fields) {
            JsonNode v = item.get(DocumentMapper.storedName(f));
            if (v != null) {
                out.set(DocumentMapper.storedName(f), v);
            }
        }
        JsonNode types = item.get(DocumentMapper.TYPES);
        if (types != null) {
            out.set(DocumentMapper.TYPES, types);
        }
        return out;
    }

    /**
     * Makes a unique index ({@code spec}: key, name, sparse, partialFilterExpression) the core's: its keys are built
     * for the stored documents, writers held off meanwhile; existing duplicates fail it with E11000 and leave nothing.
     * A sharded collection's unique index must start with the shard key (67, MongoDB's text).
     */
    static void add(MongoCollection coll, BsonDocument spec) {
        String shard = coll.shardField();
        BsonDocument key = spec.getDocument("key");
        if (shard != null && !key.getFirstKey().equals(shard)) {
            throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX, "cannot create unique index over "
                    + io.tetradb.mongo.bson.BsonText.of(key) + " with shard key pattern "
                    + io.tetradb.mongo.bson.BsonText.of(new BsonDocument(shard, new BsonString("hashed"))));
        }
        BsonDocument kept = new BsonDocument("key", key).append("name", spec.get("name"));
        for (String opt : List.of("unique", "sparse", "partialFilterExpression")) {
            if (spec.containsKey(opt)) {
                kept.append(opt, spec.get(opt));
            }
        }
        UniqueIndexDefinition definition = new UniqueIndexDefinition(spec.getString("name").getValue(), KIND,
                JsonNodeFactory.instance.objectNode().put("index", kept.toJson(EJSON)), shard != null);
        try {
            if (!coll.container().addUniqueIndex(definition)) {
                // one of that name the catalog does not list (a crash between the two writes): replaced
                coll.container().dropUniqueIndex(definition.name());
                coll.container().addUniqueIndex(definition);
            }
        } catch (UniqueIndexViolation v) {
            throw duplicate(coll, kept, v);
        }
    }

    /** Stops the core keeping the index (a no-op for an index it does not keep). */
    static void drop(MongoCollection coll, String name) {
        coll.container().dropUniqueIndex(name);
    }

    /** True when the core keeps an index of this name for the collection. */
    static boolean kept(MongoCollection coll, String name) {
        for (UniqueIndexDefinition d : coll.container().uniqueIndexes()) {
            if (d.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * MongoDB's E11000 for a refusal of the core: {@code E11000 duplicate key error collection: db.c index: a_1 dup
     * key: { a: "x" }} with {@code keyPattern} and {@code keyValue}, the key being the refused document's key that
     * another document holds.
     */
    public static MongoError duplicate(MongoCollection coll, UniqueIndexViolation v) {
        BsonDocument spec = null;
        for (UniqueIndexDefinition d : coll.container().uniqueIndexes()) {
            if (d.name().equals(v.index())) {
                spec = BsonDocument.parse(d.spec().path("index").asText());
            }
        }
        if (spec == null) { // dropped meanwhile: still the write's refusal
            return new MongoError(ErrorCode.DUPLICATE_KEY, "E11000 duplicate key error collection: "
                    + coll.namespace() + " index: " + v.index());
        }
        return duplicate(coll, spec, v);
    }

    private static MongoError duplicate(MongoCollection coll, BsonDocument spec, UniqueIndexViolation v) {
        byte[] refused = v.key();
        List<BsonDocument> keys = new IndexKeys(spec).of(DocumentMapper.fromItem(v.item()));
        BsonDocument key = keys.isEmpty() ? new BsonDocument() : keys.get(0);
        for (BsonDocument k : keys) {
            if (Arrays.equals(bytes(k), refused)) {
                key = k;
            }
        }
        return IndexCatalog.duplicateKey(coll, spec, key);
    }
}
