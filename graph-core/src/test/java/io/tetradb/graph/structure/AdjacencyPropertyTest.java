package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.GraphAdjacency;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosItemRequestOptions;
import io.tetradb.document.PartitionKey;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random graphs, changed through the graph and through the document face, give the same answers when hops read the
 * core's adjacency entries as when they query the edge items ({@code tetra.readAdjacency=false}), and the entries
 * pass the core's consistency check.
 */
class AdjacencyPropertyTest {
    private static final String[] LABELS = {"road", "rail", "air"};
    private static final String[] PARTITIONS = {"p0", "p1", "p2", "p3"};

    @TempDir
    Path dir;

    @Test
    void randomGraphsTraverseAlikeThroughEntriesAndEdgeItems() {
        long seed = new Random().nextLong();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            randomRounds(client, seed);
        }
    }

    /** Four random graphs on {@code client} (AdjacencyContractPropertyTest runs them with items on the contract). */
    static void randomRounds(CosmosClient client, long seed) {
        for (int round = 0; round < 4; round++) {
            Random random = new Random(seed + round);
            String container = "g" + round;
            BaseConfiguration withEntries = new BaseConfiguration();
            withEntries.setProperty(TetraGraph.CONTAINER, container);
            BaseConfiguration withItems = new BaseConfiguration();
            withItems.setProperty(TetraGraph.CONTAINER, container);
            withItems.setProperty(TetraGraph.READ_ADJACENCY, false);
            try (TetraGraph a = TetraGraph.open(client, withEntries);
                 TetraGraph b = TetraGraph.open(client, withItems)) {
                build(a, random);
                String why = "seed " + seed + " round " + round;
                compare(a, b, why + " before changes"); // fills the vertex and adjacency caches
                mutate(a, client.getDatabase("graphdb").getContainer(container), random);
                compare(a, b, why); // every change, through either face, must be seen
                addEdges(a, random); // new in- and out-entries beside cached lists, across partitions
                compare(a, b, why + " after new edges");
                GraphAdjacency.Check check = a.store().adjacency().check();
                assertTrue(check.consistent(), check + " " + why);
                assertEquals(2L * b.traversal().E().count().next(), check.stored(), why);
            }
        }
    }

    private static void build(TetraGraph graph, Random random) {
        GraphTraversalSource g = graph.traversal();
        int vertices = 10 + random.nextInt(30);
        List<Vertex> vs = new ArrayList<>();
        for (int i = 0; i < vertices; i++) {
            vs.add(g.addV(i % 3 == 0 ? "city" : "town").property("pk", PARTITIONS[random.nextInt(PARTITIONS.length)])
                    .property("n", i).next());
        }
        int edges = random.nextInt(vertices * 4);
        for (int i = 0; i < edges; i++) {
            Vertex from = vs.get(random.nextInt(vs.size()));
            Vertex to = random.nextInt(10) == 0 ? from : vs.get(random.nextInt(vs.size())); // some self-loops
            var t = g.V(from.id()).addE(LABELS[random.nextInt(LABELS.length)]).to(__.V(to.id()))
                    .property("w", random.nextInt(20));
            if (random.nextBoolean()) {
                t = t.property("big", random.nextBoolean() ? 123_456_789_012L : "x".repeat(600)); // long / not carried
            }
            t.iterate();
        }
    }

    private static void mutate(TetraGraph graph, CosmosContainer items, Random random) {
        GraphTraversalSource g = graph.traversal();
        List<Edge> edges = g.E().toList();
        Collections.shuffle(edges, random);
        for (int i = 0; i < edges.size() / 5; i++) {
            Edge e = edges.get(i);
            switch (random.nextInt(4)) {
                case 0 -> e.remove();
                case 1 -> e.property("w", 100 + random.nextInt(5));
                case 2 -> { // the document face deletes the edge item
                    List<?> id = (List<?>) e.id();
                    items.deleteItem((String) id.get(1), new PartitionKey(id.get(0)), new CosmosItemRequestOptions());
                }
                default -> { // the document face gives the edge item a new property
                    List<?> id = (List<?>) e.id();
                    ObjectNode item = items.readItem((String) id.get(1), new PartitionKey(id.get(0)), ObjectNode.class)
                            .getItem();
                    item.put("note", "set by the document face");
                    items.replaceItem(item, (String) id.get(1), new PartitionKey(id.get(0)), new CosmosItemRequestOptions());
                }
            }
        }
        List<Vertex> vs = g.V().toList();
        Collections.shuffle(vs, random);
        for (int i = 0; i < vs.size() / 10; i++) {
            vs.get(i).remove();
        }
    }

    /** Edges added between random vertices (any partitions), each in its own transaction, after lists were cached. */
    private static void addEdges(TetraGraph graph, Random random) {
        GraphTraversalSource g = graph.traversal();
        List<Object> ids = g.V().id().toList();
        for (int i = 0; !ids.isEmpty() && i < 3 + ids.size() / 2; i++) {
            Object from = ids.get(random.nextInt(ids.size()));
            Object to = ids.get(random.nextInt(ids.size()));
            g.V(from).addE(LABELS[random.nextInt(LABELS.length)]).to(__.V(to)).property("w", random.nextInt(20))
                    .iterate();
        }
    }

    private static void compare(TetraGraph a, TetraGraph b, String why) {
        List<Object> ids = b.traversal().V().id().toList();
        String[][] labelSets = {{}, {"road"}, {"rail", "air"}, {"road", "road"}};
        for (Object id : ids) {
            Vertex va = a.vertices(id).next();
            Vertex vb = b.vertices(id).next();
            for (Direction d : Direction.values()) {
                for (String[] labels : labelSets) {
                    String at = why + " " + id + " " + d + " " + String.join(",", labels);
                    assertEquals(sorted(IteratorUtils.list(vb.vertices(d, labels)), AdjacencyPropertyTest::vertex),
                            sorted(IteratorUtils.list(va.vertices(d, labels)), AdjacencyPropertyTest::vertex), at);
                    assertEquals(sorted(IteratorUtils.list(vb.edges(d, labels)), AdjacencyPropertyTest::edge),
                            sorted(IteratorUtils.list(va.edges(d, labels)), AdjacencyPropertyTest::edge), at);
                    assertEquals(IteratorUtils.count(vb.edges(d, labels)),
                            a.finder().countEdges((TetraVertex) va, d, labels), at);
                }
            }
            GraphTraversalSource ga = a.traversal();
            GraphTraversalSource gb = b.traversal();
            assertEquals(gb.V(id).out().out().dedup().id().toSet(), ga.V(id).out().out().dedup().id().toSet(), why);
            assertEquals(gb.V(id).both("road", "air").count().next(), ga.V(id).both("road", "air").count().next(), why);
            assertEquals(sorted(gb.V(id).outE().has("w", P.gt(5)).inV().values("n").toList(), String::valueOf),
                    sorted(ga.V(id).outE().has("w", P.gt(5)).inV().values("n").toList(), String::valueOf), why);
            assertEquals(gb.V(id).inE().groupCount().by(T.label).next(), ga.V(id).inE().groupCount().by(T.label).next(),
                    why);
        }
    }

    private static String vertex(Vertex v) {
        return v.id() + ":" + v.label() + ":" + v.values("n").next();
    }

    private static String edge(Edge e) {
        Map<String, Object> props = new TreeMap<>();
        e.properties().forEachRemaining(p -> props.put(p.key(), p.value() + "/" + p.value().getClass().getSimpleName()));
        // one-key reads (has('w', ...), values('big')) take a lookup path of their own
        return e.id() + ":" + e.label() + ":" + vertex(e.outVertex()) + "->" + vertex(e.inVertex()) + props
                + IteratorUtils.list(e.properties("w")) + IteratorUtils.list(e.properties("big"))
                + IteratorUtils.list(e.properties("pk")) + IteratorUtils.list(e.properties("_isEdge"));
    }

    private static <X> List<String> sorted(List<X> xs, Function<X, String> f) {
        List<String> out = new ArrayList<>();
        xs.forEach(x -> out.add(f.apply(x)));
        Collections.sort(out);
        return out;
    }
}
