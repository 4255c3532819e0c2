package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.item.BinaryItemReader;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.Limits;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A Mongo document ↔ the core item that stores it.
 *
 * <p>The item is the document in the core's typed values ({@code io.tetradb.core.value}, see {@link BsonToTyped} and
 * {@link TypedToBson}): every BSON type the model has is stored as itself, exactly (Int32, Int64, Double with NaN /
 * ±Infinity / -0.0, Decimal128, Date, BinData, ObjectId, Timestamp, regex, MinKey, MaxKey), so the core's indexes,
 * SQL and the other faces see typed values and no sidecar is needed. Only the deprecated BSON types (undefined,
 * symbol, code, code with scope, DBPointer), a Decimal128 -0 and dates beyond ±29,000 years are stored as their
 * tagged Extended JSON. Documents stored by the earlier mapping (relaxed Extended JSON and a {@code _types} sidecar)
 * still read ({@link LegacyItems}). The core's item {@code id} is {@link IdCodec}'s encoding of {@code _id};
 * {@code _id} itself stays in the item too. An item with no {@code _id} (another face wrote it) shows the item id
 * as its {@code _id} ({@link ForeignItems}).
 *
 * <p>Top-level names the core reserves ({@code id}, {@code _rid}, {@code _self}, {@code _etag}, {@code _attachments},
 * {@code _ts}, {@code _types}) and names starting with {@code ~} get a {@code ~} in front in the item, so no user
 * field collides with the core's properties or with this face's own ({@code ~pk}, the partition key path).
 */
public final class DocumentMapper {
    public static final String TYPES = LegacyItems.TYPES;
    /**
     * Marks a document last written by a replacement (change streams tell {@code replace} from {@code update} by
     * it). No user field is stored under this name: a user's top-level {@code ~rep} is stored as {@code ~~rep}.
     */
    public static final String REPLACED = "~rep";
    private static final Set<String> RESERVED = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts", TYPES);
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private DocumentMapper() {
    }

    /** The stored name of a top-level field. */
    public static String storedName(String field) {
        if (field.isEmpty()) {
            return field;
        }
        char first = field.charAt(0);
        // every reserved name starts with 'i' or '_': most names need no set lookup (a per-field cost on every write)
        return first == '~' || (first == 'i' || first == '_') && RESERVED.contains(field) ? "~" + field : field;
    }

    public static String userName(String stored) {
        return stored.startsWith("~") ? stored.substring(1) : stored;
    }

    /**
     * The item for {@code doc} (which must have an {@code _id}). One walk over the document checks its names and
     * nesting, builds the item and bounds its BSON size; only a document the bound puts near the 16 MB limit is
     * encoded to learn its exact size.
     */
    public static ObjectNode toItem(BsonDocument doc) {
        TREE_ITEMS.increment();
        if (doc instanceof UncheckedRawDocument unchecked) { // bounds-fold: checked before anything decodes it
            doc = unchecked.checked();
        }
        if (doc instanceof org.bson.RawBsonDocument raw) { // an insert's document still in its wire bytes
            ObjectNode direct = RawBsonItems.toItem(raw);
            if (direct != null) {
                return direct;
            }
        }
        Walk walk = new Walk();
        ObjectNode out = F.objectNode();
        out.put("id", IdCodec.encode(doc.get("_id")));
        mapFields(doc, out, walk);
        int size = walk.bound <= Limits.MAX_BSON_OBJECT_SIZE ? 0 : BsonSize.of(doc);
        if (size > Limits.MAX_BSON_OBJECT_SIZE) {
            throw new MongoError(ErrorCode.BSON_OBJECT_TOO_LARGE, "BSONObj size: " + size + " (0x"
                    + Integer.toHexString(size).toUpperCase() + ") is invalid. Size must be between 0 and "
                    + Limits.MAX_BSON_OBJECT_SIZE + "(16MB)");
        }
        return out;
    }

    /** encoded-writes: how many items {@link #toItem} built (a tree), so tests can tell which writes still build one. */
    private static final java.util.concurrent.atomic.LongAdder TREE_ITEMS = new java.util.concurrent.atomic.LongAdder();

    /** encoded-writes: the number of document trees mapped to items so far in this JVM. */
    public static long treeItems() {
        return TREE_ITEMS.sum();
    }

    /**
     * write-path: a create of {@code doc}, with the item encoded straight from an insert's wire bytes into the core's
     * binary item format where {@link RawBsonItems#toEncoded} can (no tree), else from {@link #toItem}'s tree.
     */
    public static io.tetradb.core.store.ItemOperation createOperation(BsonDocument doc,
                                                                      io.tetradb.core.store.ItemCodec codec) {
        if (doc instanceof UncheckedRawDocument unchecked) { // bounds-fold: the transcode checks it as it reads
            io.tetradb.core.store.EncodedItem encoded = unchecked.encodedOrNull(codec);
            return encoded != null ? io.tetradb.core.store.ItemOperation.create(encoded)
                    : io.tetradb.core.store.ItemOperation.create(toItem(unchecked.checked()));
        }
        if (doc instanceof org.bson.RawBsonDocument raw) {
            io.tetradb.core.store.EncodedItem encoded = RawBsonItems.toEncoded(raw, codec);
            if (encoded != null) {
                return io.tetradb.core.store.ItemOperation.create(encoded);
            }
        }
        return io.tetradb.core.store.ItemOperation.create(toItem(doc));
    }

    /**
     * Whether {@code doc} has a top-level {@code _id}. An insert's document in its wire bytes is asked about its first
     * field only when that is {@code _id} (drivers put it there): {@code RawBsonDocument.containsKey} decodes every
     * top-level name until it meets the one asked for.
     */
    public static boolean hasId(BsonDocument doc) {
        return doc instanceof org.bson.RawBsonDocument raw && RawBsonItems.firstNameIsId(raw)
                || doc instanceof UncheckedRawDocument unchecked && unchecked.firstNameIsId()
                || doc.containsKey("_id");
    }

    /** The top-level fields, {@code _id} first: MongoDB moves {@code _id} to the front of every inserted document. */
    private static void mapFields(BsonDocument doc, ObjectNode out, Walk walk) {
        BsonValue id = doc.get("_id");
        if (id != null) {
            walk.bound += 2 + 3L * 3;
            out.set("_id", typed(id, walk, 1));
        }
        boolean dollar = false;
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            String name = e.getKey();
            if (name.equals("_id")) {
                continue;
            }
            walk.bound += 2 + 3L * name.length();
            dollar |= name.startsWith("$");
            out.set(storedName(name), typed(e.getValue(), walk, 1));
        }
        if (dollar) {
            DbRefFields.check(doc); // the names' rules, only for a document that has a '$' name at all
        }
    }

    /** The bound {@link #toItem}'s walk puts on {@code doc}'s BSON size (never below it: DocumentMapperTest). */
    static long sizeBound(BsonDocument doc) {
        Walk walk = new Walk();
        mapFields(doc, F.objectNode(), walk);
        return walk.bound;
    }

    /** What {@link #toItem} gathers on its way: a bound of the BSON size. */
    private static final class Walk {
        long bound = 5;
    }

    /** The typed value of a BSON value; documents and arrays map one to one. */
    private static JsonNode typed(BsonValue v, Walk walk, int depth) {
        switch (v.getBsonType()) {
            case DOCUMENT -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    throw tooDeep();
                }
                ObjectNode o = F.objectNode();
                walk.bound += 5;
                boolean dollar = false;
                for (Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
                    String name = e.getKey();
                    walk.bound += 2 + 3L * name.length();
                    dollar |= name.startsWith("$");
                    o.set(name, typed(e.getValue(), walk, depth + 1));
                }
                if (dollar) {
                    DbRefFields.check(v.asDocument());
                }
                return o;
            }
            case ARRAY -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    throw tooDeep();
                }
                BsonArray array = v.asArray();
                ArrayNode a = F.arrayNode(array.size());
                walk.bound += 5 + 12L * array.size();
                for (int i = 0; i < array.size(); i++) {
                    a.add(typed(array.get(i), walk, depth + 1));
                }
                return a;
            }
            case STRING -> {
                walk.bound += 5 + 3L * v.asString().getValue().length();
                return F.textNode(v.asString().getValue());
            }
            default -> {
                walk.bound += BsonSize.valueBound(v);
                JsonNode t = BsonToTyped.scalar(v);
                return t != null ? t : tagged(v);
            }
        }
    }

    /** The tagged Extended JSON of a value the typed model has no type for (read back by {@link LegacyItems}). */
    private static JsonNode tagged(BsonValue v) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(new BsonDocument("v", v).toJson(RELAXED)).get("v");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new MongoError(ErrorCode.BAD_VALUE, "value cannot be stored: " + e.getOriginalMessage());
        }
    }

    private static MongoError tooDeep() {
        return new MongoError(ErrorCode.BAD_VALUE, "cannot store document because it exceeds "
                + Limits.MAX_NESTING_DEPTH + " levels of nesting");
    }

    /** The Mongo document an item stores (system properties, this face's marks and a legacy sidecar left out). */
    public static BsonDocument fromItem(JsonNode item) {
        JsonNode id = item.get("_id");
        if (id == null || item.has(TYPES)) {
            return fromItemSlowly(item);
        }
        // the common case in one pass: _id first (also when stored later), user names, nothing copied twice
        BsonDocument out = new BsonDocument();
        out.put("_id", TypedToBson.bson(id));
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (!name.equals("_id") && !RESERVED.contains(name) && !name.equals(REPLACED)) {
                out.put(userName(name), TypedToBson.bson(e.getValue()));
            }
        }
        return out;
    }

    /** An item with a legacy sidecar (keyed by stored names) or of another face (no {@code _id}). */
    private static BsonDocument fromItemSlowly(JsonNode item) {
        BsonDocument stored = new BsonDocument();
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!RESERVED.contains(e.getKey()) && !e.getKey().equals(REPLACED)) {
                stored.put(e.getKey(), TypedToBson.bson(e.getValue()));
            }
        }
        LegacyItems.applySidecar(stored, item.get(TYPES));
        if (!stored.containsKey("_id")) {
            return ForeignItems.view(stored, item);
        }
        return withUserNames(stored);
    }

    /**
     * The Mongo document of an item as the core stores it ({@link ItemCodec}'s bytes): a binary (TB1) item is read
     * as its typed tree, never through JSON text; an item in JSON text (written before the binary format) is parsed.
     */
    public static BsonDocument fromStored(ItemCodec codec, byte[] stored) {
        if (StoredItems.isBinary(stored)) {
            BsonDocument direct = BinaryItemBson.read(stored, StoredItems.HEADER);
            return direct != null ? direct : fromItem(BinaryItemReader.readObject(stored, StoredItems.HEADER));
        }
        return fromItem(codec.parse(stored));
    }

    /**
     * As {@link #fromStored}, for a document sent as it is (never changed): a binary item is transcoded straight into
     * BSON bytes where it can be ({@link BinaryItemRawBson}), which the reply copies without encoding anything.
     */
    public static BsonDocument fromStoredForReply(ItemCodec codec, byte[] stored) {
        if (StoredItems.isBinary(stored)) {
            BsonDocument raw = BinaryItemRawBson.read(stored, StoredItems.HEADER);
            if (raw != null) {
                return raw;
            }
        }
        return fromStored(codec, stored);
    }

    /**
     * The Mongo document of an item image without the stored header (a change record's image): a TB1 object, or
     * JSON text (as written before the binary format).
     */
    public static BsonDocument fromImage(ItemCodec codec, byte[] image) {
        if (StoredItems.isBinaryBody(image)) {
            BsonDocument direct = BinaryItemBson.read(image, 0);
            return direct != null ? direct : fromItem(BinaryItemReader.readObject(image, 0));
        }
        try {
            return fromItem(codec.mapper().readTree(image));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored image is not valid JSON", e);
        }
    }

    /** {@code _id} first (also in documents stored before {@code _id} was moved to the front) and user names. */
    private static BsonDocument withUserNames(BsonDocument stored) {
        BsonDocument out = new BsonDocument();
        BsonValue id = stored.get("_id");
        if (id != null) {
            out.put("_id", id);
        }
        for (Map.Entry<String, BsonValue> e : stored.entrySet()) {
            if (!e.getKey().equals("_id")) {
                out.put(userName(e.getKey()), e.getValue());
            }
        }
        return out;
    }
}
