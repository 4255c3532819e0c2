package io.tetradb.core.value;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.WritableTypeId;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ValueNode;

import java.io.IOException;

/**
 * A value of a non-JSON type (DateTime, Binary, ObjectId, UUID, Timestamp, Regex, MinKey, MaxKey) as an immutable
 * Jackson node, so that items keep being {@code ObjectNode} trees everywhere (store, query engine, faces) and a typed
 * value sits in them like any other leaf. The numeric non-JSON types ride on Jackson's number nodes instead
 * ({@code IntNode} = Int32, {@code LongNode} = Int64, {@code FloatNode}, {@code BigIntegerNode}, {@code DecimalNode},
 * {@link Decimal128Node}), so every numeric path of the engine already treats them as numbers.
 *
 * <p>Jackson sees these nodes as {@link JsonNodeType#POJO}; serialised as JSON they write their {@link #jsonView()
 * JSON view} (what SQL and the Cosmos face show), so a typed item written out as JSON is plain JSON.
 */
public abstract class TypedNode extends ValueNode {
    private static final long serialVersionUID = 1L;

    /** The {@link ValueType} of this value. */
    public abstract ValueType valueType();

    /** The type rank in {@link ValueOrder} (also the index key tag). */
    public abstract int typeRank();

    /** The JSON value the SQL / Cosmos face shows for this value (see document-core/docs/item-format.md). */
    public abstract JsonNode jsonView();

    /** The order among values of the same {@link #typeRank()}. */
    abstract int compareSameRank(TypedNode other);

    /** The index key bytes after the type tag; self-delimiting and ordered as {@link #compareSameRank}. */
    abstract byte[] keyBody();

    @Override
    public JsonNodeType getNodeType() {
        return JsonNodeType.POJO;
    }

    @Override
    public JsonToken asToken() {
        return JsonToken.VALUE_EMBEDDED_OBJECT;
    }

    @Override
    public String asText() {
        return jsonView().asText();
    }

    @Override
    public void serialize(JsonGenerator g, SerializerProvider provider) throws IOException {
        jsonView().serialize(g, provider);
    }

    @Override
    public void serializeWithType(JsonGenerator g, SerializerProvider provider, TypeSerializer typeSer)
            throws IOException {
        WritableTypeId typeIdDef = typeSer.writeTypePrefix(g, typeSer.typeId(this, asToken()));
        serialize(g, provider);
        typeSer.writeTypeSuffix(g, typeIdDef);
    }

    @Override
    public String toString() {
        return jsonView().toString();
    }

    static int compareUnsigned(byte[] a, byte[] b) {
        return Integer.signum(java.util.Arrays.compareUnsigned(a, b));
    }
}
