package io.tetradb.graph.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TempDirGraphTest;
import io.tetradb.graph.store.GraphStore;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoWriter;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerFactory;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BulkLoader writes what addVertex/addEdge write: same items, ids, edge placement, index entries. */
class BulkLoaderTest extends TempDirGraphTest {
    /** Partition by label: people in one partition, software in another. */
    private static Object byLabel(Vertex v) {
        return v.label();
    }

    @Test
    void aCopiedGraphAnswersTraversalsAsTheSourceDoes() {
        TinkerGraph modern = TinkerFactory.createModern();
        BulkLoader.Loaded loaded = BulkLoader.into(graph).partitionKey(BulkLoaderTest::byLabel).writers(2)
                .load(modern);
        assertEquals(new BulkLoader.Loaded(6, 6), loaded);
        GraphTraversalSource t = modern.traversal();

        assertEquals(List.of("person", "1"), g.V().has("name", "marko").id().next(), "[pk, source id]");
        assertEquals(sorted(t.V().has("name", "marko").out("knows").values("name").toList()),
                sorted(g.V().has("name", "marko").out("knows").values("name").toList()));
        assertEquals(sorted(t.V().has("name", "lop").in("created").values("name").toList()),
                sorted(g.V().has("name", "lop").in("created").values("name").toList()), "in() finds the edges");
        assertEquals(t.E().has("weight", 1.0).count().next(), g.E().has("weight", 1.0).count().next());
        assertEquals(t.V().has("age", org.apache.tinkerpop.gremlin.process.traversal.P.gt(30)).count().next(),
                g.V().has("age", org.apache.tinkerpop.gremlin.process.traversal.P.gt(30)).count().next());
        // the edge item lives in its source's partition and names the target's, as addEdge writes it
        Object edgeId = g.V().has("name", "josh").outE("created").where(
                org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__.inV().has("name", "lop")).id().next();
        assertEquals("person", ((List<?>) edgeId).get(0));
        ObjectNode edge = graph.store().read("person", "11");
        assertEquals("software", edge.get("_sinkPartition").asText());
        assertEquals("3", edge.get("_sink").asText());
        assertEquals("software", edge.get("_sinkLabel").asText());
        // a written vertex changes like any other
        g.V(Arrays.asList("person", "1")).property("age", 30).iterate();
        assertEquals(30, g.V().has("name", "marko").values("age").next());
    }

    @Test
    void aGryoStreamKeepsMultiAndMetaProperties() throws Exception {
        TinkerGraph crew = TinkerFactory.createTheCrew();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GryoWriter.build().create().writeGraph(bytes, crew);
        BulkLoader.Loaded loaded = BulkLoader.into(graph).partitionKey(BulkLoaderTest::byLabel)
                .read(GryoReader.build().create(), new ByteArrayInputStream(bytes.toByteArray()));
        assertEquals(crew.traversal().V().count().next() + crew.traversal().E().count().next(), loaded.elements());
        for (String name : List.of("marko", "stephen", "matthias", "daniel")) {
            assertEquals(locations(crew.traversal(), name), locations(g, name), name);
        }
    }

    /** location → startTime of a person's location properties (a multi-property with meta-properties). */
    private static Map<String, Object> locations(GraphTraversalSource g, String name) {
        Map<String, Object> out = new TreeMap<>();
        g.V().has("name", name).properties("location").forEachRemaining(p -> out.put((String) p.value(),
                ((org.apache.tinkerpop.gremlin.structure.VertexProperty<?>) p).property("startTime").orElse(null)));
        return out;
    }

    @Test
    void loadingAnIdThatExistsFailsClearly() {
        graph.addVertex(T.id, "1", "pk", "person", "name", "someone");
        GraphStore.DuplicateItemException e = assertThrows(GraphStore.DuplicateItemException.class,
                () -> BulkLoader.into(graph).partitionKey(BulkLoaderTest::byLabel).load(TinkerFactory.createModern()));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
        assertEquals("someone", g.V(Arrays.asList("person", "1")).values("name").next(), "the existing vertex stays");
    }

    @Test
    void aVertexWithoutPartitionKeyIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BulkLoader.into(graph).load(TinkerFactory.createModern()));
        assertTrue(e.getMessage().contains("partition key"), e.getMessage());
    }

    /**
     * graph-load: elements are encoded ahead on the writer threads while the source is decoded; an element that fails
     * there (its own partition key property disagrees with the function) fails the load with its own error when its
     * chunk is written: nothing of that chunk is written, the chunks committed before it stay.
     */
    @Test
    void anElementThatFailsToEncodeAheadFailsItsChunkOnly() {
        TinkerGraph modern = TinkerFactory.createModern();
        modern.vertices(5).next().property("pk", "elsewhere"); // ripple, the fifth of six vertices
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BulkLoader.into(graph).partitionKey(v -> "p").chunkElements(2).load(modern));
        assertTrue(e.getMessage().contains("but the partition key function gave p"), e.getMessage());
        assertEquals(4L, g.V().count().next(), "the two chunks before the failing one stay, whole");
        assertEquals(0L, g.E().count().next());
        assertFalse(g.V().has("name", "ripple").hasNext());
    }

    private static List<Object> sorted(List<Object> l) {
        List<Object> out = new ArrayList<>(l);
        out.sort(null);
        return out;
    }
}
