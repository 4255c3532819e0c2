package io.tetradb.graph.process;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.PartitionKey;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.process.traversal.strategy.optimization.TetraPrefetchStrategy;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.Order;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hop's vertices loaded a batch at a time ({@code TetraPrefetchStrategy}, one core multi-get per batch) give what
 * one read per vertex gives, in the same order, with and without the item cache, and see writes of another face.
 */
class HopPrefetchTest {
    @TempDir
    Path dir;
    CosmosClient client;
    TetraGraph graph;
    GraphTraversalSource g;

    void open(int cachedItems) {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(TetraGraph.CACHED_ITEMS, cachedItems);
        graph = TetraGraph.open(client, conf);
        g = graph.traversal();
        Random random = new Random(3);
        List<Vertex> vs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            var t = g.addV("v").property(T.id, "v" + i).property("pk", "p" + (i % 5)).property("name", "n" + i);
            if (random.nextInt(4) > 0) {
                t = t.property("x", random.nextInt(30));
            }
            vs.add(t.next());
        }
        for (int i = 0; i < 1200; i++) {
            g.addE(random.nextBoolean() ? "e" : "f").from(vs.get(random.nextInt(vs.size())))
                    .to(vs.get(random.nextInt(vs.size()))).iterate();
        }
    }

    @AfterEach
    void close() {
        graph.close();
        client.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 100_000})
    void batchedHopsReadWhatSingleReadsRead(int cachedItems) {
        open(cachedItems);
        List<Function<GraphTraversalSource, GraphTraversal<?, ?>>> cases = List.of(
                s -> s.V().out().values("name"),
                s -> s.V().both("e").has("x", P.gt(10)).values("name"),
                s -> s.V().out().out().valueMap("name", "x"),
                s -> s.V().outE("f").inV().values("x"),
                s -> s.V().in().order().by("name", Order.desc).limit(20).values("name"),
                s -> s.V().out("e").groupCount().by("x"),
                s -> s.V().local(__.out().values("name").limit(2)));
        for (Function<GraphTraversalSource, GraphTraversal<?, ?>> c : cases) {
            List<?> batched = c.apply(g).toList();
            List<?> single = c.apply(g.withoutStrategies(TetraPrefetchStrategy.class)).toList();
            assertFalse(single.isEmpty());
            assertEquals(single, batched, c.apply(g).toString());
        }
        assertTrue(g.V().out().valueMap("name").explain().toString().contains("TetraPrefetchStep"));
        // a vertex changed through the document face is read again by the next traversal
        ObjectNode v7 = client.getDatabase("graphdb").getContainer("graph")
                .readItem("v7", new PartitionKey("p2"), ObjectNode.class).getItem();
        ((ObjectNode) v7.get("name").get(0)).put("_value", "renamed");
        client.getDatabase("graphdb").getContainer("graph").upsertItem(v7);
        List<Object> names = g.V().in().values("name").toList();
        assertTrue(names.contains("renamed"));
        assertFalse(names.contains("n7"));
    }

    @Test
    void sideEffectsAndLambdasKeepTheirLaziness() {
        open(100);
        assertFalse(g.V().out().aggregate("a").values("name").explain().toString().contains("TetraPrefetchStep"));
        assertFalse(g.V().sideEffect(t -> { }).out().values("name").explain().toString()
                .contains("TetraPrefetchStep"));
    }
}
