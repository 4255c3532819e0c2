package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.Random;

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

    /**
     * The core's scalar nodes in Jackson's own object and array nodes: the plain general path that the store's own
     * trees ({@link TreeBuilder}'s field tables, {@link LazyObjectFields}) are compared against, so its containers are
     * not the main code's.
     */
    static class Nodes extends ScalarNodeBuilder {
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
