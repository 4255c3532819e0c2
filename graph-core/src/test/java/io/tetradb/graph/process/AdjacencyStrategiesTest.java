package io.tetradb.graph.process;

import io.tetradb.graph.TempDirGraphTest;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider strategies that fold what the core's adjacency entries and queries answer, and their results. */
class AdjacencyStrategiesTest extends TempDirGraphTest {
    @BeforeEach
    void seed() {
        g.addV("city").property(T.id, "a").property("pk", "X").as("a")
                .addV("city").property(T.id, "b").property("pk", "Y").as("b")
                .addV("town").property(T.id, "c").property("pk", "X").as("c")
                .addE("road").from("a").to("b").addE("road").from("a").to("b") // two edges between a and b
                .addE("rail").from("a").to("c").addE("road").from("a").to("a") // a self-loop
                .addE("road").from("b").to("a").iterate();
    }

    @Test
    void hopThenCountCountsEntryKeys() {
        List<Object> a = List.of("X", "a");
        assertEquals(4L, g.V(a).out().count().next());
        assertEquals(3L, g.V(a).out("road").count().next());
        assertEquals(2L, g.V(a).in().count().next()); // the self-loop and b's road
        assertEquals(6L, g.V(a).both().count().next()); // the self-loop counts once each way, as in TinkerGraph
        assertEquals(1L, g.V(a).outE("rail").count().next());
        assertEquals(10L, g.V().out().out().count().next());
        assertEquals(0L, g.V(List.of("X", "c")).out().count().next());
        assertEquals(Map.of("out", 4L, "in", 2L), g.V(a).project("out", "in").by(__.out().count())
                .by(__.in().count()).next());
        assertTrue(g.V(a).out().count().explain().toString().contains("TetraDegreeCountStep"));
    }

    @Test
    void groupCountByLabelIsOneCoreQuery() {
        assertEquals(Map.of("city", 2L, "town", 1L), g.V().groupCount().by(T.label).next());
        assertEquals(Map.of("road", 4L, "rail", 1L), g.E().groupCount().by(T.label).next());
        assertEquals(Map.of("city", 2L), g.V().hasLabel("city").groupCount().by(T.label).next());
        assertTrue(g.V().groupCount().by(T.label).explain().toString().contains("TetraLabelCountStep"));
        graph.close();
        client.getDatabase("graphdb").getContainer("graph").deleteItem("c",
                new io.tetradb.document.PartitionKey("X"), new io.tetradb.document.CosmosItemRequestOptions());
        graph = TetraGraph.open(client, new BaseConfiguration());
        assertEquals(Map.of("city", 2L), graph.traversal().V().groupCount().by(T.label).next());
    }

    @Test
    void groupCountByLabelReadsTheCompositeLabelIndexOnly() {
        // a document another face wrote: a vertex of the default label; an edge removed: no longer counted
        client.getDatabase("graphdb").getContainer("graph").createItem(
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("id", "d").put("pk", "Z"));
        g.E().hasLabel("rail").drop().iterate();
        graph.requestCharges().reset();
        assertEquals(Map.of("city", 2L, "town", 1L, "vertex", 1L), g.V().groupCount().by(T.label).next());
        // the index's keys: 1 RU plus 0.01 per label (a GROUP BY query reads and charges every item)
        assertEquals(1.03, graph.requestCharges().reset(), 1e-9);
        assertEquals(Map.of("road", 4L), g.E().groupCount().by(T.label).next());
        assertEquals(1.01, graph.requestCharges().reset(), 1e-9);

        // a container made before the graph (without the composite index): the query answers alike
        client.getDatabase("graphdb").createContainerIfNotExists(
                new io.tetradb.document.CosmosContainerProperties("plain", "/pk"));
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty("tetra.container", "plain");
        try (TetraGraph plain = TetraGraph.open(client, conf)) {
            plain.traversal().addV("city").property(T.id, "a").property("pk", "X").as("a")
                    .addV("town").property(T.id, "b").property("pk", "X").addE("road").from("a").iterate();
            assertEquals(Map.of("city", 1L, "town", 1L), plain.traversal().V().groupCount().by(T.label).next());
            assertEquals(Map.of("road", 1L), plain.traversal().E().groupCount().by(T.label).next());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void hasLabelAloneReadsLabelKeysThenTheItemCache() {
        // an edge with a vertex label and a document-face vertex of that label: only vertices, every one
        g.V(List.of("X", "a")).addE("city").to(__.V(List.of("Y", "b"))).iterate();
        client.getDatabase("graphdb").getContainer("graph").createItem(new com.fasterxml.jackson.databind.ObjectMapper()
                .createObjectNode().put("id", "d").put("pk", "Z").put("label", "city"));
        assertEquals(java.util.Set.of(List.of("X", "a"), List.of("Y", "b"), List.of("Z", "d")),
                new java.util.HashSet<>(g.V().hasLabel("city").id().toList()));
        assertTrue(g.V().hasLabel("city").profile().next().toString().contains("label keys"));
        // a write through another face is seen at once (the cache is exact)
        client.getDatabase("graphdb").getContainer("graph").upsertItem(new com.fasterxml.jackson.databind.ObjectMapper()
                .createObjectNode().put("id", "d").put("pk", "Z").put("label", "town"));
        assertEquals(java.util.Set.of(List.of("X", "a"), List.of("Y", "b")),
                new java.util.HashSet<>(g.V().hasLabel("city").id().toList()));
        assertEquals(2L, g.V().hasLabel("town").count().next());
        assertEquals(List.of(), g.V().hasLabel("vertex").toList());
    }
}
