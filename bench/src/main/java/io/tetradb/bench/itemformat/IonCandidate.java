package io.tetradb.bench.itemformat;

import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import com.amazon.ion.Timestamp;
import com.amazon.ion.system.IonBinaryWriterBuilder;
import com.amazon.ion.system.IonReaderBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
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
import io.tetradb.core.value.TypedValues;
import io.tetradb.core.value.UuidNode;
import io.tetradb.core.value.ValueType;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Amazon Ion binary through ion-java: one self-contained Ion stream per item (its own local symbol table, as a
 * stored item must be), decoded to a tree with an {@link IonReader}, fields found by stepping over the struct's
 * fields (Ion's length prefixes make skipping cheap, the names are symbol ids). Native types: int, float, decimal,
 * timestamp, blob; ObjectId and UUID as annotated blobs ({@code oid::}, {@code uuid::}); the rarer Mongo types as
 * their JSON view.
 */
final class IonCandidate implements Candidate {
    private final IonBinaryWriterBuilder writers = IonBinaryWriterBuilder.standard();
    private final IonReaderBuilder readers = IonReaderBuilder.standard();

    @Override
    public String name() {
        return "ion";
    }

    @Override
    public boolean typed() {
        return true;
    }

    @Override
    public byte[] encode(ObjectNode item) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (IonWriter w = writers.build(out)) {
            write(w, item);
        }
        return out.toByteArray();
    }

    private static void write(IonWriter w, JsonNode v) throws Exception {
        switch (ValueType.of(v)) {
            case NULL -> w.writeNull();
            case BOOLEAN -> w.writeBool(v.booleanValue());
            case INT32, INT64 -> w.writeInt(v.longValue());
            case BIG_INTEGER -> w.writeInt(v.bigIntegerValue());
            case DOUBLE, FLOAT -> w.writeFloat(v.doubleValue());
            case BIG_DECIMAL -> w.writeDecimal(v.decimalValue());
            case DECIMAL128 -> {
                if (v instanceof Decimal128Node) {
                    w.setTypeAnnotations("d128");
                    w.writeDecimal(v.decimalValue());
                } else {
                    w.writeFloat(v.doubleValue());
                }
            }
            case STRING -> w.writeString(v.textValue());
            case ARRAY -> {
                w.stepIn(IonType.LIST);
                for (JsonNode e : v) {
                    write(w, e);
                }
                w.stepOut();
            }
            case OBJECT -> {
                w.stepIn(IonType.STRUCT);
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    w.setFieldName(f.getKey());
                    write(w, f.getValue());
                }
                w.stepOut();
            }
            case DATE_TIME -> w.writeTimestamp(Timestamp.forMillis(((DateTimeNode) v).epochMillis(), 0));
            case OBJECT_ID -> {
                w.setTypeAnnotations("oid");
                w.writeBlob(((ObjectIdNode) v).bytes());
            }
            case BINARY -> w.writeBlob(((BinaryDataNode) v).bytes());
            case UUID -> {
                w.setTypeAnnotations("uuid");
                w.writeString(((UuidNode) v).uuid().toString());
            }
            default -> write(w, TypedValues.jsonView(v));
        }
    }

    @Override
    public ObjectNode decode(byte[] stored) throws Exception {
        try (IonReader r = readers.build(stored)) {
            r.next();
            return (ObjectNode) read(r);
        }
    }

    private static JsonNode read(IonReader r) {
        IonType t = r.getType();
        if (r.isNullValue()) {
            return NullNode.getInstance();
        }
        switch (t) {
            case BOOL:
                return BooleanNode.valueOf(r.booleanValue());
            case INT:
                switch (r.getIntegerSize()) {
                    case INT:
                        return IntNode.valueOf(r.intValue());
                    case LONG:
                        return LongNode.valueOf(r.longValue());
                    default:
                        return BigIntegerNode.valueOf(r.bigIntegerValue());
                }
            case FLOAT:
                return DoubleNode.valueOf(r.doubleValue());
            case DECIMAL: {
                BigDecimal d = r.bigDecimalValue();
                String[] ann = r.getTypeAnnotations();
                return ann.length > 0 && ann[0].equals("d128") ? Decimal128Node.of(d) : DecimalNode.valueOf(d);
            }
            case STRING:
                return TextNode.valueOf(r.stringValue());
            case TIMESTAMP:
                return DateTimeNode.ofEpochMillis(r.timestampValue().getMillis());
            case BLOB: {
                String[] ann = r.getTypeAnnotations();
                byte[] b = r.newBytes();
                return ann.length > 0 && ann[0].equals("oid") ? ObjectIdNode.of(b) : BinaryDataNode.of(0, b);
            }
            case LIST: {
                ArrayNode a = JsonNodeFactory.instance.arrayNode();
                r.stepIn();
                while (r.next() != null) {
                    a.add(read(r));
                }
                r.stepOut();
                return a;
            }
            case STRUCT: {
                Map<String, JsonNode> fields = new LinkedHashMap<>();
                r.stepIn();
                while (r.next() != null) {
                    fields.put(r.getFieldName(), read(r));
                }
                r.stepOut();
                return new ObjectNode(JsonNodeFactory.instance, fields);
            }
            default:
                throw new IllegalArgumentException("not measured: " + t);
        }
    }

    @Override
    public JsonNode field(byte[] stored, String name) throws Exception {
        try (IonReader r = readers.build(stored)) {
            r.next();
            r.stepIn();
            return seek(r, name) ? read(r) : MissingNode.getInstance();
        }
    }

    @Override
    public JsonNode path(byte[] stored, String outer, String inner) throws Exception {
        try (IonReader r = readers.build(stored)) {
            r.next();
            r.stepIn();
            if (!seek(r, outer) || r.getType() != IonType.STRUCT) {
                return MissingNode.getInstance();
            }
            r.stepIn();
            return seek(r, inner) ? read(r) : MissingNode.getInstance();
        }
    }

    private static boolean seek(IonReader r, String name) {
        while (r.next() != null) {
            if (name.equals(r.getFieldName())) {
                return true;
            }
        }
        return false;
    }
}
