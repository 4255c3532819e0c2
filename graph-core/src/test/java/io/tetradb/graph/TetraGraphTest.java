package io.tetradb.graph;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.PartitionKey;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.jsr223.GremlinLangScriptEngine;
import org.apache.tinkerpop.gremlin.jsr223.JavaTranslator;
import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalMetrics;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.script.Bindings;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.apache.tinkerpop.gremlin.process.traversal.P.gt;
import static org.apache.tinkerpop.gremlin.process.traversal.P.within;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Cosmos-DB-specific behaviour of TetraGraph: ids, partition keys, the item layout, folding, charges. */
class TetraGraphTest extends TempDirGraphTest {
    @BeforeEach
    void addData() {
        g.addV("city").property(T.id, "Seattle").property("pk", "USA").property("population", 750_000).as("sea")
                .addV("city").property(T.id, "Portland").property("pk", "USA").property("population", 650_000).as("pdx")
                .addV("city").property(T.id, "Vancouver").property("pk", "CAN").property("population", 660_000).as("yvr")
                .addE("road").from("sea").to("pdx").property(T.id, "I5").property("miles", 174)
                .addE("road").from("sea").to("yvr").property(T.id, "I5-north").property("miles", 141)
                .iterate();
    }

    @Test
    void everyIdFormFindsItsElements() {
        assertEquals(List.of("USA", "Seattle"), g.V(Arrays.asList("USA", "Seattle")).id().next());
        assertEquals(List.of("USA", "I5"), g.E(Arrays.asList("USA", "I5")).id().next());
        assertEquals(2, g.V(Arrays.asList("USA", "Seattle"), Arrays.asList("CAN", "Vancouver")).count().next());
        assertEquals(List.of("USA", "Seattle"), g.V("Seattle").id().next());
        assertEquals(1, g.V("Seattle").has("pk", "USA").count().next());
        assertEquals(0, g.V("Seattle").has("pk", "CAN").count().next());
        assertEquals(2, g.V("Seattle", "Vancouver").count().next());
        assertEquals(1, g.V().hasId(Arrays.asList("CAN", "Vancouver")).count().next());
        assertEquals(1, graph.vertices("[USA, Seattle]").next().value("population").equals(750_000) ? 1 : 0);
        assertEquals(List.of("CAN", "Vancouver"),
                g.V(Arrays.asList("USA", "Seattle")).out("road").has("pk", "CAN").next().id());
    }

    @Test
    void idFormsFromGremlinLangAndBytecode() throws Exception {
        GremlinLangScriptEngine engine = new GremlinLangScriptEngine();
        Bindings bindings = engine.createBindings();
        bindings.put("g", g);
        bindings.put("sea", Arrays.asList("USA", "Seattle"));
        for (String script : List.of("g.V(['USA','Seattle']).id()", "g.V(sea).id()", "g.V('Seattle').id()",
                "g.V('Seattle').has('pk','USA').id()", "g.V(['USA','Seattle'], ['CAN','Vancouver']).id().limit(1)",
                "g.V().hasId(['USA','Seattle']).id()", "g.V(['CAN','Vancouver']).in().hasId(['USA','Seattle']).id()")) {
            assertEquals(List.of("USA", "Seattle"), ((Traversal<?, ?>) engine.eval(script, bindings)).next(), script);
        }
        assertEquals(List.of("USA", "I5"), ((Traversal<?, ?>) engine.eval("g.E(['USA','I5']).id()", bindings)).next());
        Bytecode bytecode = g.V(Arrays.asList("USA", "Seattle")).id().asAdmin().getBytecode();
        assertEquals(List.of("USA", "Seattle"), JavaTranslator.of(graph.traversal()).translate(bytecode).next());
    }

    @Test
    void partitionKeyRules() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.addV("city").next());
        assertTrue(e.getMessage().contains("'pk'"), e.getMessage());
        Vertex sea = g.V(Arrays.asList("USA", "Seattle")).next();
        assertThrows(IllegalArgumentException.class, () -> sea.property("pk", "CAN"));
        sea.property("pk", "USA"); // the same value is fine
        assertThrows(IllegalStateException.class, () -> sea.property("pk").remove());
        for (String bad : List.of("id", "label")) {
            BaseConfiguration c = new BaseConfiguration();
            c.setProperty(TetraGraph.PARTITION_KEY, bad);
            c.setProperty(TetraGraph.CONTAINER, "other");
            assertThrows(IllegalArgumentException.class, () -> TetraGraph.open(client, c));
        }
    }

    @Test
    void itemsAreLaidOutAsCosmosDbGremlinDoes() {
        g.V(Arrays.asList("USA", "Seattle")).property(VertexProperty.Cardinality.list, "nick", "Emerald City",
                "since", 1982).iterate();
        ObjectNode v = client.getDatabase("graphdb").getContainer("graph")
                .readItem("Seattle", new PartitionKey("USA"), ObjectNode.class).getItem();
        assertEquals("city", v.get("label").asText());
        assertEquals("USA", v.get("pk").asText());
        assertEquals(750_000, v.get("population").get(0).get("_value").asInt());
        assertEquals(1982, v.get("nick").get(0).get("since").asInt());
        assertTrue(v.get("nick").get(0).has("id"));
        ObjectNode e = client.getDatabase("graphdb").getContainer("graph")
                .readItem("I5-north", new PartitionKey("USA"), ObjectNode.class).getItem();
        assertTrue(e.get("_isEdge").asBoolean());
        assertEquals("Seattle", e.get("_vertexId").asText());
        assertEquals("city", e.get("_vertexLabel").asText());
        assertEquals("Vancouver", e.get("_sink").asText());
        assertEquals("city", e.get("_sinkLabel").asText());
        assertEquals("CAN", e.get("_sinkPartition").asText());
        assertEquals(141, e.get("miles").asInt());
    }

    @Test
    void valuesKeepTheirJavaTypes() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("a", 1L);
        map.put(2, List.of(UUID.randomUUID(), new Date(5)));
        List<Object> values = List.of("s", true, 1, 2L, (short) 3, (byte) 4, 1.5f, 2.5d, Double.NaN, new Date(42),
                UUID.randomUUID(), new BigInteger("123456789012345678901234567890"), new BigDecimal("1.10"),
                List.of(1, "x"), Set.of(3L), map);
        Vertex v = g.V(Arrays.asList("USA", "Seattle")).next();
        for (int i = 0; i < values.size(); i++) {
            v.property("p" + i, values.get(i));
        }
        Vertex again = graph.vertices(Arrays.asList("USA", "Seattle")).next();
        for (int i = 0; i < values.size(); i++) {
            Object read = again.value("p" + i);
            assertEquals(values.get(i), read, "p" + i);
            if (!(read instanceof java.util.Collection || read instanceof Map)) {
                assertEquals(values.get(i).getClass(), read.getClass(), "p" + i);
            }
        }
    }

    @Test
    void foldedPredicatesRunAsCoreQueries() {
        String explain = g.V().hasLabel("city").has("population", gt(700_000)).explain().toString();
        assertTrue(explain.contains("SELECT * FROM c WHERE"), explain);
        assertEquals(List.of("USA", "Seattle"), g.V().hasLabel("city").has("population", gt(700_000)).id().next());
        assertEquals(2, g.V().has("pk", within("CAN", "MEX")).count().next() + 1);
        TraversalMetrics m = g.V().has("pk", "USA").has("population", 650_000).profile().next();
        String profile = m.toString();
        assertTrue(profile.contains("TetraGraphStep"), profile);
        assertTrue(m.getMetrics(0).getAnnotations().get("query").toString().contains("EXISTS"), profile);
        assertTrue(m.getMetrics(0).getAnnotations().containsKey("requestCharge"), profile);
        String count = g.V().hasLabel("city").count().explain().toString();
        assertTrue(count.contains("TetraCountStep"), count);
        assertEquals(3, g.V().hasLabel("city").count().next());
        assertEquals(2, g.E().count().next());
        assertFalse(g.V().has("population", gt(700_000)).count().explain().toString().contains("TetraCountStep"));
    }

    @Test
    void adjacencyInBothDirections() {
        assertEquals(Set.of(List.of("USA", "Portland"), List.of("CAN", "Vancouver")),
                Set.copyOf(g.V(Arrays.asList("USA", "Seattle")).out("road").id().toList()));
        assertEquals(List.of("USA", "Seattle"), g.V(Arrays.asList("CAN", "Vancouver")).in().id().next());
        assertEquals(141, (int) g.V(Arrays.asList("CAN", "Vancouver")).inE("road").values("miles").next());
        g.V(Arrays.asList("USA", "Seattle")).drop().iterate();
        assertEquals(0, g.E().count().next());
        assertEquals(0, g.V(Arrays.asList("CAN", "Vancouver")).in().count().next());
    }

    @Test
    void concurrentWritersToOneVertexLoseNothing() throws Exception {
        List<Thread> threads = new java.util.ArrayList<>();
        for (int t = 0; t < 4; t++) {
            String key = "k" + t;
            threads.add(new Thread(() -> {
                Vertex v = graph.vertices(Arrays.asList("USA", "Seattle")).next(); // each thread its own object
                for (int i = 1; i <= 25; i++) {
                    v.property(key, i);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        Vertex v = graph.vertices(Arrays.asList("USA", "Seattle")).next();
        for (int t = 0; t < 4; t++) {
            assertEquals(25, (int) v.value("k" + t));
        }
        assertEquals(750_000, (int) v.value("population"));
    }

    @Test
    void requestChargesAddUpPerThread() {
        graph.requestCharges().reset();
        g.V(Arrays.asList("USA", "Seattle")).out().values("population").toList();
        double charge = graph.requestCharges().reset();
        assertTrue(charge >= 3, "point read + a query + reads: " + charge);
        assertEquals(0, graph.requestCharges().current());
    }
}
