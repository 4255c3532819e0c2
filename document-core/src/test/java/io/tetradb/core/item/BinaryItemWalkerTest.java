package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MaxKeyNode;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.TypedValueGenerator;
import io.tetradb.core.value.UuidNode;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The walker hands a builder exactly what the reader decodes: a builder that makes the core's own nodes gives back,
 * for random typed documents, the tree {@link BinaryItemReader} reads (same values, same types, same field order),
 * and it is told each object's depth.
 */
class BinaryItemWalkerTest {

    @Test
    void aNodeBuilderRebuildsWhatTheReaderReads() {
        TypedValueGenerator g = new TypedValueGenerator(new Random(0x2217L));
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        for (int i = 0; i < 5_000; i++) {
            ObjectNode doc = g.document();
            byte[] b = writer.write(doc);
            JsonNode walked = BinaryItemWalker.read(b, 0, new Nodes());
            assertEquals(BinaryItemReader.read(b, 0), walked, BinaryItemRoundTripTest.printable(doc.toString()));
            assertEquals(doc.toString(), walked.toString());
        }
    }

    @Test
    void objectsAreToldTheirDepth() {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.putObject("a").putArray("b").addObject().put("c", 1);
        StringBuilder depths = new StringBuilder();
        BinaryItemWalker.read(new BinaryItemWriter().write(doc), 0, new Nodes() {
            @Override
            public void field(Object object, String name, JsonNode value, int depth) {
                depths.append(name).append(depth).append(' ');
                super.field(object, name, value, depth);
            }
        });
        assertEquals("c4 b2 a1 ", depths.toString());
    }

    /** Builds the core's nodes, as BinaryItemReader does. */
    static class Nodes implements BinaryItemWalker.Builder<JsonNode> {
        @Override
        public JsonNode nullValue() {
            return NullNode.getInstance();
        }

        @Override
        public JsonNode bool(boolean v) {
            return BooleanNode.valueOf(v);
        }

        @Override
        public JsonNode int32(int v) {
            return IntNode.valueOf(v);
        }

        @Override
        public JsonNode int64(long v) {
            return LongNode.valueOf(v);
        }

        @Override
        public JsonNode float64(double v) {
            return DoubleNode.valueOf(v);
        }

        @Override
        public JsonNode float32(float v) {
            return FloatNode.valueOf(v);
        }

        @Override
        public JsonNode bigInteger(BigInteger v) {
            return BigIntegerNode.valueOf(v);
        }

        @Override
        public JsonNode bigDecimal(BigDecimal v) {
            return DecimalNode.valueOf(v);
        }

        @Override
        public JsonNode decimal128(BigDecimal v) {
            return Decimal128Node.of(v);
        }

        @Override
        public JsonNode decimal128Special(int kind) {
            return kind == 0 ? Decimal128Node.nan()
                    : kind == 1 ? Decimal128Node.positiveInfinity() : Decimal128Node.negativeInfinity();
        }

        @Override
        public JsonNode string(String v) {
            return TextNode.valueOf(v);
        }

        @Override
        public JsonNode dateTime(long ticks, int offsetMinutes) {
            return offsetMinutes == DateTimeNode.NO_OFFSET ? DateTimeNode.ofTicks(ticks)
                    : DateTimeNode.ofTicks(ticks, offsetMinutes);
        }

        @Override
        public JsonNode binary(int subtype, byte[] bytes) {
            return BinaryDataNode.of(subtype, bytes);
        }

        @Override
        public JsonNode objectId(byte[] twelve) {
            return ObjectIdNode.of(twelve);
        }

        @Override
        public JsonNode uuid(long mostSignificant, long leastSignificant) {
            return UuidNode.of(new UUID(mostSignificant, leastSignificant));
        }

        @Override
        public JsonNode timestamp(long value) {
            return TimestampNode.ofValue(value);
        }

        @Override
        public JsonNode regex(String pattern, String options) {
            return RegexNode.of(pattern, options);
        }

        @Override
        public JsonNode minKey() {
            return MinKeyNode.INSTANCE;
        }

        @Override
        public JsonNode maxKey() {
            return MaxKeyNode.INSTANCE;
        }

        @Override
        public Object startObject(int count, int depth) {
            return JsonNodeFactory.instance.objectNode();
        }

        @Override
        public void field(Object object, String name, JsonNode value, int depth) {
            ((ObjectNode) object).set(name, value);
        }

        @Override
        public JsonNode endObject(Object object, int depth) {
            return (JsonNode) object;
        }

        @Override
        public Object startArray(int count, int depth) {
            return JsonNodeFactory.instance.arrayNode(count);
        }

        @Override
        public void element(Object array, JsonNode value) {
            ((ArrayNode) array).add(value);
        }

        @Override
        public JsonNode endArray(Object array) {
            return (JsonNode) array;
        }
    }
}
