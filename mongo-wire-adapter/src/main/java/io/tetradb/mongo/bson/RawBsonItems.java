package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.mongo.command.Limits;
import org.bson.BsonBinaryReader;
import org.bson.BsonDecimal128;
import org.bson.BsonDateTime;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * An inserted document still in its wire bytes ({@link RawBsonDocument}, as the request decoder keeps an insert's
 * documents) read straight into its core item, with no {@code BsonDocument} tree in between, and its exact size known
 * without a walk. Only the common shape is read here: a document with a {@code $} name anywhere (DBRefs and what
 * MongoDB refuses), deeper than the limit or over 16 MB, or holding a value the typed model stores as tagged Extended
 * JSON returns null, and {@link DocumentMapper#toItem} maps it the general way (with its checks and errors).
 */
final class RawBsonItems {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RawBsonItems() {
    }

    /**
     * The typed value of a top-level {@code _id} both fast paths can store as it is: a scalar the typed model holds;
     * null (the general path) for none, a document, an array or a value stored as tagged Extended JSON.
     */
    private static JsonNode typedScalarId(BsonValue id) {
        if (id == null || id.isDocument() || id.isArray()) {
            return null;
        }
        return id.isString() ? TextNode.valueOf(id.asString().getValue()) : BsonToTyped.scalar(id);
    }

    /** The item of {@code doc} (with {@code _id} first), or null for the general path. */
    static ObjectNode toItem(RawBsonDocument doc) {
        java.nio.ByteBuffer bytes = doc.getByteBuffer().asNIO();
        if (bytes.remaining() > Limits.MAX_BSON_OBJECT_SIZE) {
            return null;
        }
        BsonValue id = doc.get("_id");
        JsonNode typedId = typedScalarId(id);
        if (typedId == null) {
            return null;
        }
        ObjectNode out = F.objectNode();
        out.put("id", IdCodec.encode(id));
        out.set("_id", typedId);
        try (BsonBinaryReader r = new BsonBinaryReader(bytes)) {
            r.readStartDocument();
            while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                String name = r.readName();
                if (name.equals("_id")) {
                    r.skipValue();
                    continue;
                }
                if (name.startsWith("$")) {
                    return null;
                }
                JsonNode v = value(r, 1);
                if (v == null) {
                    return null;
                }
                out.set(DocumentMapper.storedName(name), v);
            }
            r.readEndDocument();
        }
        return out;
    }

    /** One TB1 event writer per command thread (a large document's buffer is not kept). */
    private static final ThreadLocal<io.tetradb.core.item.BinaryItemStreamWriter> WRITERS = new ThreadLocal<>();

    /**
     * write-path (issue 17): the item of {@code doc} written straight from its BSON bytes into the core's binary item
     * format, the bytes {@link #toItem} followed by the core's tree writer would give, with no tree and no Java string
     * for ASCII string values; null for the general path (as {@link #toItem}).
     */
    static io.tetradb.core.store.EncodedItem toEncoded(RawBsonDocument doc, io.tetradb.core.store.ItemCodec codec) {
        java.nio.ByteBuffer bytes = doc.getByteBuffer().asNIO();
        if (bytes.remaining() > Limits.MAX_BSON_OBJECT_SIZE || !bytes.hasArray()) {
            return null;
        }
        BsonValue id = doc.get("_id");
        JsonNode typedId = typedScalarId(id);
        if (typedId == null) {
            return null;
        }
        io.tetradb.core.item.BinaryItemStreamWriter w = WRITERS.get();
        if (w == null) {
            w = codec.itemStreamWriter();
            WRITERS.set(w);
        }
        w.reset();
        try (BsonBinaryReader r = new BsonBinaryReader(bytes)) {
            w.startObject();
            w.name("id");
            w.string(IdCodec.encode(id));
            w.name("_id");
            w.value(typedId);
            r.readStartDocument();
            while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                String name = r.readName();
                if (name.equals("_id")) {
                    r.skipValue();
                    continue;
                }
                if (name.startsWith("$")) {
                    return null;
                }
                w.name(DocumentMapper.storedName(name));
                if (!encode(r, bytes, w, 1)) {
                    return null;
                }
            }
            r.readEndDocument();
            w.endObject();
        } catch (IllegalArgumentException e) { // a repeated name (the tree keeps the last), the nesting limit
            return null;
        }
        byte[] tb1 = w.toByteArray();
        if (tb1.length > 256 * 1024) {
            WRITERS.remove();
        }
        return new io.tetradb.core.store.EncodedItem(tb1);
    }

    /** Writes the value the reader is at; false for the general path. */
    private static boolean encode(BsonBinaryReader r, java.nio.ByteBuffer bytes,
                                  io.tetradb.core.item.BinaryItemStreamWriter w, int depth) {
        switch (r.getCurrentBsonType()) {
            case DOCUMENT -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return false;
                }
                w.startObject();
                r.readStartDocument();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    String name = r.readName();
                    if (name.startsWith("$")) {
                        return false;
                    }
                    w.name(name);
                    if (!encode(r, bytes, w, depth + 1)) {
                        return false;
                    }
                }
                r.readEndDocument();
                w.endObject();
                return true;
            }
            case ARRAY -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return false;
                }
                w.startArray();
                r.readStartArray();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    if (!encode(r, bytes, w, depth + 1)) {
                        return false;
                    }
                }
                r.readEndArray();
                w.endArray();
                return true;
            }
            case STRING -> {
                // BSON's string: int32 length (with the NUL) · UTF-8 · NUL. ASCII is copied as it is (it is its own
                // UTF-8 in TB1 too); anything else is decoded as the driver decodes it (malformed bytes become U+FFFD)
                int at = r.getBsonInput().getPosition();
                int n = bytes.getInt(at) - 1;
                int from = bytes.arrayOffset() + at + 4;
                byte[] a = bytes.array();
                if (n >= 0 && ascii(a, from, n)) {
                    r.skipValue();
                    w.string(a, from, n);
                } else {
                    w.string(r.readString());
                }
                return true;
            }
            case INT32 -> w.int32(r.readInt32());
            case INT64 -> w.int64(r.readInt64());
            case DOUBLE -> w.float64(r.readDouble());
            case BOOLEAN -> w.bool(r.readBoolean());
            case NULL -> {
                r.readNull();
                w.nullValue();
            }
            default -> {
                JsonNode v = value(r, depth); // the typed scalars, as the tree path maps them
                if (v == null) {
                    return false;
                }
                w.value(v);
            }
        }
        return true;
    }

    private static boolean ascii(byte[] a, int from, int n) {
        for (int i = from; i < from + n; i++) {
            if (a[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The value the reader is at, or null for the general path. */
    private static JsonNode value(BsonBinaryReader r, int depth) {
        switch (r.getCurrentBsonType()) {
            case DOCUMENT -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return null;
                }
                ObjectNode o = F.objectNode();
                r.readStartDocument();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    String name = r.readName();
                    if (name.startsWith("$")) {
                        return null;
                    }
                    JsonNode v = value(r, depth + 1);
                    if (v == null) {
                        return null;
                    }
                    o.set(name, v);
                }
                r.readEndDocument();
                return o;
            }
            case ARRAY -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    return null;
                }
                ArrayNode a = F.arrayNode();
                r.readStartArray();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    // an array element's name (its index) is consumed with its type
                    JsonNode v = value(r, depth + 1);
                    if (v == null) {
                        return null;
                    }
                    a.add(v);
                }
                r.readEndArray();
                return a;
            }
            case STRING -> {
                return TextNode.valueOf(r.readString());
            }
            case INT32 -> {
                return IntNode.valueOf(r.readInt32());
            }
            case INT64 -> {
                return LongNode.valueOf(r.readInt64());
            }
            case DOUBLE -> {
                return DoubleNode.valueOf(r.readDouble());
            }
            case BOOLEAN -> {
                return BooleanNode.valueOf(r.readBoolean());
            }
            case NULL -> {
                r.readNull();
                return NullNode.getInstance();
            }
            case DATE_TIME -> {
                return BsonToTyped.scalar(new BsonDateTime(r.readDateTime()));
            }
            case OBJECT_ID -> {
                return BsonToTyped.scalar(new org.bson.BsonObjectId(r.readObjectId()));
            }
            case DECIMAL128 -> {
                return BsonToTyped.scalar(new BsonDecimal128(r.readDecimal128()));
            }
            case BINARY -> {
                return BsonToTyped.scalar(r.readBinaryData());
            }
            case TIMESTAMP -> {
                return BsonToTyped.scalar(r.readTimestamp());
            }
            case REGULAR_EXPRESSION -> {
                return BsonToTyped.scalar(r.readRegularExpression());
            }
            default -> {
                return null; // MinKey, MaxKey and the deprecated types: the general path
            }
        }
    }
}
