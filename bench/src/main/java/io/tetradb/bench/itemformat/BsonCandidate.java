package io.tetradb.bench.itemformat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;
import io.tetradb.core.value.ValueType;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonReader;
import org.bson.BsonRegularExpression;
import org.bson.BsonTimestamp;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * BSON through org.mongodb:bson: written with {@link BsonBinaryWriter}, decoded to a Jackson tree with {@link
 * BsonBinaryReader}, fields read through {@link RawBsonDocument#get} (a linear scan of the element names that skips
 * the other values by their sizes). Every typed value has a native BSON type except BigInteger / BigDecimal beyond
 * Decimal128 (as strings here), Float (as double) and a DateTime's sub-millisecond ticks and offset (lost).
 */
final class BsonCandidate implements Candidate {
    @Override
    public String name() {
        return "bson";
    }

    @Override
    public boolean typed() {
        return true;
    }

    @Override
    public byte[] encode(ObjectNode item) {
        BasicOutputBuffer out = new BasicOutputBuffer(1024);
        try (BsonBinaryWriter w = new BsonBinaryWriter(out)) {
            writeDocument(w, item);
        }
        return out.toByteArray();
    }

    private static void writeDocument(BsonBinaryWriter w, JsonNode o) {
        w.writeStartDocument();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            w.writeName(f.getKey());
            write(w, f.getValue());
        }
        w.writeEndDocument();
    }

    private static void write(BsonBinaryWriter w, JsonNode v) {
        switch (ValueType.of(v)) {
            case NULL -> w.writeNull();
            case BOOLEAN -> w.writeBoolean(v.booleanValue());
            case INT32 -> w.writeInt32(v.intValue());
            case INT64 -> w.writeInt64(v.longValue());
            case DOUBLE, FLOAT -> w.writeDouble(v.doubleValue());
            case DECIMAL128 -> w.writeDecimal128(v instanceof Decimal128Node ? new Decimal128(v.decimalValue())
                    : Double.isNaN(v.doubleValue()) ? Decimal128.NaN
                    : v.doubleValue() > 0 ? Decimal128.POSITIVE_INFINITY : Decimal128.NEGATIVE_INFINITY);
            case BIG_INTEGER, BIG_DECIMAL -> w.writeString(v.asText());
            case STRING -> w.writeString(v.textValue());
            case ARRAY -> {
                w.writeStartArray();
                for (JsonNode e : v) {
                    write(w, e);
                }
                w.writeEndArray();
            }
            case OBJECT -> writeDocument(w, v);
            case DATE_TIME -> w.writeDateTime(((DateTimeNode) v).epochMillis());
            case BINARY -> w.writeBinaryData(new BsonBinary((byte) ((BinaryDataNode) v).subtype(),
                    ((BinaryDataNode) v).bytes()));
            case UUID -> w.writeBinaryData(new BsonBinary(((UuidNode) v).uuid()));
            case OBJECT_ID -> w.writeObjectId(new ObjectId(((ObjectIdNode) v).bytes()));
            case TIMESTAMP -> w.writeTimestamp(new BsonTimestamp(((TimestampNode) v).value()));
            case REGEX -> w.writeRegularExpression(new BsonRegularExpression(((RegexNode) v).pattern(),
                    ((RegexNode) v).options()));
            case MIN_KEY -> w.writeMinKey();
            case MAX_KEY -> w.writeMaxKey();
            default -> throw new IllegalArgumentException(String.valueOf(v));
        }
    }

    @Override
    public ObjectNode decode(byte[] stored) {
        try (BsonBinaryReader r = new BsonBinaryReader(ByteBuffer.wrap(stored))) {
            r.readStartDocument();
            return readDocumentBody(r);
        }
    }

    private static ObjectNode readDocumentBody(BsonReader r) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
            String name = r.readName();
            fields.put(name, readValue(r));
        }
        r.readEndDocument();
        return new ObjectNode(JsonNodeFactory.instance, fields);
    }

    private static JsonNode readValue(BsonReader r) {
        switch (r.getCurrentBsonType()) {
            case DOCUMENT:
                r.readStartDocument();
                return readDocumentBody(r);
            case ARRAY: {
                r.readStartArray();
                ArrayNode a = JsonNodeFactory.instance.arrayNode();
                while (r.readBsonType() != BsonType.END_OF_DOCUMENT) {
                    a.add(readValue(r));
                }
                r.readEndArray();
                return a;
            }
            case STRING:
                return TextNode.valueOf(r.readString());
            case INT32:
                return IntNode.valueOf(r.readInt32());
            case INT64:
                return LongNode.valueOf(r.readInt64());
            case DOUBLE:
                return DoubleNode.valueOf(r.readDouble());
            case DECIMAL128: {
                Decimal128 d = r.readDecimal128();
                return d.isNaN() ? Decimal128Node.nan() : d.isInfinite()
                        ? (d.isNegative() ? Decimal128Node.negativeInfinity() : Decimal128Node.positiveInfinity())
                        : Decimal128Node.of(d.bigDecimalValue());
            }
            case BOOLEAN:
                return BooleanNode.valueOf(r.readBoolean());
            case NULL:
                r.readNull();
                return NullNode.getInstance();
            case DATE_TIME:
                return DateTimeNode.ofEpochMillis(r.readDateTime());
            case OBJECT_ID:
                return ObjectIdNode.of(r.readObjectId().toByteArray());
            case BINARY: {
                BsonBinary b = r.readBinaryData();
                return b.getType() == 4 && b.getData().length == 16 ? UuidNode.of(b.asUuid())
                        : BinaryDataNode.of(b.getType() & 0xFF, b.getData());
            }
            case TIMESTAMP:
                return TimestampNode.ofValue(r.readTimestamp().getValue());
            case REGULAR_EXPRESSION: {
                BsonRegularExpression re = r.readRegularExpression();
                return RegexNode.of(re.getPattern(), re.getOptions());
            }
            default:
                throw new IllegalArgumentException("not measured: " + r.getCurrentBsonType());
        }
    }

    /** A BsonValue (from RawBsonDocument.get) as a tree node. */
    static JsonNode toNode(BsonValue v) {
        if (v == null) {
            return MissingNode.getInstance();
        }
        switch (v.getBsonType()) {
            case STRING:
                return TextNode.valueOf(v.asString().getValue());
            case INT32:
                return IntNode.valueOf(v.asInt32().getValue());
            case INT64:
                return LongNode.valueOf(v.asInt64().getValue());
            case DOUBLE:
                return DoubleNode.valueOf(v.asDouble().getValue());
            case BOOLEAN:
                return BooleanNode.valueOf(v.asBoolean().getValue());
            case DATE_TIME:
                return DateTimeNode.ofEpochMillis(v.asDateTime().getValue());
            case OBJECT_ID:
                return ObjectIdNode.of(v.asObjectId().getValue().toByteArray());
            case DECIMAL128:
                return Decimal128Node.of(v.asDecimal128().getValue().bigDecimalValue());
            case NULL:
                return NullNode.getInstance();
            default: {
                // containers and the rarer types: decode through the reader
                BsonDocument wrapper = new BsonDocument("v", v);
                RawBsonDocument raw = new RawBsonDocument(wrapper, new org.bson.codecs.BsonDocumentCodec());
                byte[] b = new byte[raw.getByteBuffer().remaining()];
                raw.getByteBuffer().get(b);
                return new BsonCandidate().decode(b).get("v");
            }
        }
    }

    @Override
    public JsonNode field(byte[] stored, String name) {
        return toNode(new RawBsonDocument(stored).get(name));
    }

    @Override
    public JsonNode path(byte[] stored, String outer, String inner) {
        BsonValue o = new RawBsonDocument(stored).get(outer);
        return o == null || !o.isDocument() ? MissingNode.getInstance() : toNode(o.asDocument().get(inner));
    }




}
