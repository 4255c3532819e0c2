package io.tetradb.graph.process;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.process.traversal.strategy.optimization.TetraValuesStrategy;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code values(...)} on the vertices a hop reached reads only the asked fields of their items
 * ({@code TetraValuesStrategy}): on random graphs (multi- and meta-properties, typed values, missing keys, the
 * partition key, another face's plain fields) the results equal the full path's, in order, with the item cache off
 * and on, and a write through the document face is seen by the next traversal.
 */
class PartialValuesTest {
    @TempDir
    Path dir;
    CosmosClient client;
    TetraGraph graph;
    GraphTraversalSource g;

    void open(int cachedItems, long seed) {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(TetraGraph.CACHED_ITEMS, cachedItems);
        graph = TetraGraph.open(client, conf);
        g = graph.traversal();
        Random random = new Random(seed);
        List<Vertex> vs = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            var t = g.addV(random.nextBoolean() ? "a" : "b").property(T.id, "v" + i).property("pk", "p" + (i % 7));
            if (random.nextInt(5) > 0) {
                t = t.property("name", "n" + random.nextInt(40));
            }
            if (random.nextInt(3) == 0) {
                t = t.property(VertexProperty.Cardinality.list, "tag", "t" + random.nextInt(9), "since",
                        random.nextInt(2000)).property(VertexProperty.Cardinality.list, "tag", "u" + random.nextInt(9));
            }
            if (random.nextBoolean()) {
                t = t.property("x", random.nextBoolean() ? (Object) random.nextLong() : (Object) random.nextDouble());
            }
            if (random.nextInt(4) == 0) {
                t = t.property("when", new Date(1_700_000_000_000L + random.nextInt(1_000_000)))
                        .property("list", List.of(random.nextInt(5), "s"));
            }
            vs.add(t.next());
        }
        for (int i = 0; i < 900; i++) {
            g.addE(random.nextBoolean() ? "e" : "f").from(vs.get(random.nextInt(vs.size())))
                    .to(vs.get(random.nextInt(vs.size()))).iterate();
        }
        // another face's documents in the graph's container: a plain field, and a field missing
        CosmosContainer c = client.getDatabase("graphdb").getContainer("graph");
        for (int i = 0; i < 3; i++) {
            ObjectNode v = c.readItem("v" + i, new PartitionKey("p" + i), ObjectNode.class).getItem();
            v.put("name", "plain" + i);
            v.remove("x");
            c.upsertItem(v);
        }
    }

    @AfterEach
    void close() {
        graph.close();
        client.close();
    }

    @ParameterizedTest
    @CsvSource({"0, 1", "100000, 2", "0, 3", "100000, 4"})
    void partialReadsGiveWhatWholeVerticesGive(int cachedItems, long seed) {
        {
            open(cachedItems, seed);
            List<Function<GraphTraversalSource, GraphTraversal<?, ?>>> cases = List.of(
                    s -> s.V().out().values("name"),
                    s -> s.V().in("e").values("name", "x"),
                    s -> s.V().both().values("tag"),
                    s -> s.V().out("f").values("x", "when", "list", "name"),
                    s -> s.V().outE("e").inV().values("pk", "name"),
                    s -> s.V().out().out().values("x"),
                    s -> s.V().out().values("name").as("n").select("n"),
                    s -> s.V().local(__.out().values("name").limit(2)),
                    s -> s.V().out().values("missing"));
            for (Function<GraphTraversalSource, GraphTraversal<?, ?>> c : cases) {
                assertTrue(c.apply(g).explain().toString().contains("TetraVertexValuesStep"), c.apply(g).toString());
                List<?> whole = c.apply(g.withoutStrategies(TetraValuesStrategy.class)).toList();
                List<?> partial = c.apply(g).toList();
                assertEquals(whole, partial, "seed " + seed + ": " + c.apply(g));
            }
            assertFalse(g.V().out().values("name").toList().isEmpty());
            // a vertex renamed through the document face is read again by the next traversal
            CosmosContainer container = client.getDatabase("graphdb").getContainer("graph");
            ObjectNode v7 = container.readItem("v7", new PartitionKey("p0"), ObjectNode.class).getItem();
            v7.putArray("name").addObject().put("id", "nid").put("_value", "renamed");
            container.upsertItem(v7);
            boolean reached = g.V().both().hasId(List.of("p0", "v7")).hasNext();
            List<Object> names = g.V().both().values("name").toList();
            assertEquals(reached, names.contains("renamed"));
        }
    }

    /**
     * graph-trav (issue 18): the vertices whose fields a hop's {@code values()} read stay in the exact item cache (a
     * lazily decoded whole item), so the next traversal reaching them reads nothing; a write to one is seen. On the
     * old code (partial reads, never cached) the first assertion fails.
     */
    @org.junit.jupiter.api.Test
    void aHopsValuesLeaveTheReachedVerticesInTheExactCache() {
        open(100_000, 5);
        List<Object> start = List.of("p3", "v3");
        List<Vertex> reached = g.V(start).both().dedup().toList();
        assertFalse(reached.isEmpty());
        List<Object> names = g.V(start).both().values("name").toList();
        for (Vertex v : reached) {
            List<?> id = (List<?>) v.id();
            assertTrue(graph.store().cachesCurrent(id.get(0), (String) id.get(1)), "cached: " + id);
        }
        assertEquals(names, g.V(start).both().values("name").toList()); // answered from the cache, the same
        for (Vertex v : reached) { // graph-trav: with the values taken, kept with the cached item (strings here)
            List<?> id = (List<?>) v.id();
            assertTrue(graph.store().keepsValues(id.get(0), (String) id.get(1), "name"), "values kept: " + id);
        }
        assertEquals(names, g.V(start).both().values("name").toList()); // from the kept values, the same
        List<?> first = (List<?>) reached.get(0).id();
        CosmosContainer container = client.getDatabase("graphdb").getContainer("graph");
        ObjectNode item = container.readItem((String) first.get(1), new PartitionKey(first.get(0)), ObjectNode.class)
                .getItem();
        item.putArray("name").addObject().put("id", "nid").put("_value", "renamed");
        container.upsertItem(item);
        assertFalse(graph.store().cachesCurrent(first.get(0), (String) first.get(1)), "a write makes it stale");
        assertTrue(g.V(start).both().values("name").toList().contains("renamed"));
        List<Object> whole = new ArrayList<>();
        for (Vertex v : g.V(start).both().toList()) {
            v.values("name").forEachRemaining(whole::add);
        }
        assertEquals(whole, g.V(start).both().values("name").toList(), "kept values equal the whole vertex's");
    }

    @ParameterizedTest
    @ValueSource(ints = {100})
    void notFoldedWithSideEffectsOrManyKeys(int cachedItems) {
        open(cachedItems, 9);
        assertFalse(g.V().out().aggregate("a").values("name").explain().toString().contains("TetraVertexValuesStep"));
        assertFalse(g.V().out().values("a", "b", "c", "d", "e").explain().toString().contains("TetraVertexValuesStep"));
        assertFalse(g.V().out().values().explain().toString().contains("TetraVertexValuesStep"));
        assertFalse(g.V().out().properties("name").explain().toString().contains("TetraVertexValuesStep"));
    }
}
