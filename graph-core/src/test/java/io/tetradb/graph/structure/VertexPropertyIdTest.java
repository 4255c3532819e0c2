package io.tetradb.graph.structure;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A vertex property is found by its own id as TinkerGraph finds it: {@code hasId} after {@code properties()} compares
 * the property's id (a string here, not {@code [pk, id]}; before, {@code IdMatch} matched no such id, so
 * {@code hasId(x)} gave nothing and {@code hasId(neq(x))} everything).
 */
class VertexPropertyIdTest {
    @TempDir
    Path dir;

    @Test
    void hasIdOnVertexPropertiesAnswersAsTinkerGraph() throws Exception {
        Map<String, Object> tetra;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             TetraGraph graph = TetraGraph.open(client, new BaseConfiguration())) {
            tetra = answers(graph);
        }
        Map<String, Object> tinker;
        try (Graph tg = TinkerGraph.open()) {
            tinker = answers(tg);
        }
        assertEquals(List.of("AUS"), tinker.get("properties('code').hasId(x).value()")); // the premise
        assertEquals(tinker, tetra);
    }

    /** Each traversal's answer, by values (the two graphs' property ids differ in type). */
    private static Map<String, Object> answers(Graph graph) {
        GraphTraversalSource g = graph.traversal();
        g.addV("airport").property("pk", "US").property("code", "AUS").property("city", "Austin")
                .addV("airport").property("pk", "US").property("code", "SEA").property("city", "Seattle").iterate();
        Object x = g.V().has("code", "AUS").properties("code").id().next();
        Object city = g.V().has("code", "SEA").properties("city").next();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("properties('code').hasId(x).value()", g.V().properties("code").hasId(x).value().toList());
        out.put("properties().hasId(x).key()", g.V().properties().hasId(x).key().toList());
        out.put("properties('code').hasId(x as string).value()",
                g.V().properties("code").hasId(x.toString()).value().toList());
        out.put("properties('code').has(T.id, x).count()", g.V().properties("code").has(T.id, x).count().next());
        out.put("properties().hasId(x, cityId).value()",
                g.V().properties().hasId(x, ((org.apache.tinkerpop.gremlin.structure.Element) city).id()).value().toList());
        out.put("properties().hasId(within(x, cityProperty)).value()",
                g.V().properties().hasId(P.within(x, city)).value().toList());
        out.put("properties().hasId(cityProperty).value()", g.V().properties().hasId(city).value().toList());
        out.put("properties('code').hasId(neq(x)).value()", g.V().properties("code").hasId(P.neq(x)).value().toList());
        out.put("properties('code').hasId(without(x)).value()",
                g.V().properties("code").hasId(P.without(x)).value().toList());
        out.put("properties('code').hasId('no such id').count()",
                g.V().properties("code").hasId("no such id").count().next());
        return out;
    }
}
