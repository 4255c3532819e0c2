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
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The event stream carries exactly what the reader decodes: a sink that rebuilds the core's nodes from the events
 * (names and strings from their UTF-8 ranges) gives back, for random typed documents, the tree
 * {@link BinaryItemReader} reads, in field order; a field the sink declines is skipped whole; the returned offset is
 * the end of the value.
 */
class BinaryItemEventsTest {

    @Test
    void aTreeRebuiltFromTheEventsIsWhatTheReaderReads() {
        TypedValueGenerator g = new TypedValueGenerator(new Random(0x1717L));
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        for (int i = 0; i < 5_000; i++) {
            ObjectNode doc = g.document();
            byte[] b = writer.write(doc);
            Tree tree = new Tree(null);
            assertEquals(b.length, BinaryItemEvents.stream(b, 0, tree));
            assertEquals(BinaryItemReader.read(b, 0), tree.result, BinaryItemRoundTripTest.printable(doc.toString()));
            assertEquals(doc.toString(), tree.result.toString());
        }
    }

    @Test
    void aDeclinedFieldIsSkippedWhole() {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("a", 1);
        doc.putObject("skip").putArray("deep").add("x").addObject().put("y", 2);
        doc.put("z", "last");
        byte[] b = new BinaryItemWriter().write(doc);
        Tree tree = new Tree("skip");
        BinaryItemEvents.stream(b, 0, tree);
        ObjectNode expected = doc.deepCopy();
        expected.remove("skip");
        assertEquals(expected, tree.result);
    }

    /** Rebuilds the core's nodes from the events; declines the top-level field named {@code declined}. */
    private static final class Tree implements BinaryItemEvents.Sink {
        private final String declined;
        private final Deque<JsonNode> open = new ArrayDeque<>();
        private final Deque<String> names = new ArrayDeque<>();
        private JsonNode result;

        Tree(String declined) {
            this.declined = declined;
        }

        private void add(JsonNode v) {
            JsonNode parent = open.peek();
            if (parent == null) {
                result = v;
            } else if (parent instanceof ObjectNode o) {
                o.set(names.pop(), v);
            } else {
                ((ArrayNode) parent).add(v);
            }
        }

        @Override
        public void nullValue() {
            add(NullNode.getInstance());
        }

        @Override
        public void bool(boolean v) {
            add(BooleanNode.valueOf(v));
        }

        @Override
        public void int32(int v) {
            add(IntNode.valueOf(v));
        }

        @Override
        public void int64(long v) {
            add(LongNode.valueOf(v));
        }

        @Override
        public void float64(double v) {
            add(DoubleNode.valueOf(v));
        }

        @Override
        public void float32(float v) {
            add(FloatNode.valueOf(v));
        }

        @Override
        public void bigInteger(BigInteger v) {
            add(BigIntegerNode.valueOf(v));
        }

        @Override
        public void bigDecimal(BigDecimal v) {
            add(DecimalNode.valueOf(v));
        }

        @Override
        public void decimal128(BigDecimal v) {
            add(Decimal128Node.of(v));
        }

        @Override
        public void decimal128Special(int kind) {
            add(kind == 0 ? Decimal128Node.nan()
                    : kind == 1 ? Decimal128Node.positiveInfinity() : Decimal128Node.negativeInfinity());
        }

        @Override
        public void string(byte[] b, int off, int length) {
            add(TextNode.valueOf(Utf8.decode(b, off, length)));
        }

        @Override
        public void dateTime(long ticks, int offsetMinutes) {
            add(offsetMinutes == DateTimeNode.NO_OFFSET ? DateTimeNode.ofTicks(ticks)
                    : DateTimeNode.ofTicks(ticks, offsetMinutes));
        }

        @Override
        public void binary(int subtype, byte[] b, int off, int length) {
            add(BinaryDataNode.of(subtype, Arrays.copyOfRange(b, off, off + length)));
        }

        @Override
        public void objectId(byte[] b, int off) {
            add(ObjectIdNode.of(Arrays.copyOfRange(b, off, off + 12)));
        }

        @Override
        public void uuid(byte[] b, int off) {
            add(UuidNode.of(Arrays.copyOfRange(b, off, off + 16)));
        }

        @Override
        public void timestamp(long value) {
            add(TimestampNode.ofValue(value));
        }

        @Override
        public void regex(String pattern, String options) {
            add(RegexNode.of(pattern, options));
        }

        @Override
        public void minKey() {
            add(MinKeyNode.INSTANCE);
        }

        @Override
        public void maxKey() {
            add(MaxKeyNode.INSTANCE);
        }

        @Override
        public void startObject(int count, int depth) {
            open.push(JsonNodeFactory.instance.objectNode());
        }

        @Override
        public boolean field(byte[] b, int off, int length, int depth) {
            String name = Utf8.decode(b, off, length);
            if (depth == 1 && name.equals(declined)) {
                return false;
            }
            names.push(name);
            return true;
        }

        @Override
        public void endObject(int depth) {
            add(open.pop());
        }

        @Override
        public void startArray(int count, int depth) {
            open.push(JsonNodeFactory.instance.arrayNode(count));
        }

        @Override
        public void endArray(int depth) {
            add(open.pop());
        }
    }
}
