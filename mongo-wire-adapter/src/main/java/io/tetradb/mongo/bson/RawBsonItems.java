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

    /** The item of {@code doc} (with {@code _id} first), or null for the general path. */
    static ObjectNode toItem(RawBsonDocument doc) {
        java.nio.ByteBuffer bytes = doc.getByteBuffer().asNIO();
        if (bytes.remaining() > Limits.MAX_BSON_OBJECT_SIZE) {
            return null;
        }
        BsonValue id = doc.get("_id");
        if (id == null || id.isDocument() || id.isArray()) {
            return null;
        }
        JsonNode typedId = id.isString() ? TextNode.valueOf(id.asString().getValue()) : BsonToTyped.scalar(id);
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
