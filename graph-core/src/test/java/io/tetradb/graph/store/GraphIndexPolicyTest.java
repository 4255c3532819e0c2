package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.IndexTerm;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.graph.TempDirGraphTest;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The index entries a graph element writes under the policy of a container the graph creates
 * ({@link Layout#indexingPolicy()}), and that what the Gremlin face seeks on still has them: counts, edge and vertex
 * {@code has()} seeks, label keys. A container created with the user's own policy keeps it.
 */
class GraphIndexPolicyTest extends TempDirGraphTest {
    @BeforeEach
    void addData() {
        addSmallGraph(g);
    }

    static void addSmallGraph(GraphTraversalSource g) {
        g.addV("airport").property(T.id, "AUS").property("pk", "US").property("code", "AUS")
                .property(VertexProperty.Cardinality.single, "runways", 2, "since", 1999).as("a")
                .addV("airport").property(T.id, "LHR").property("pk", "GB").property("code", "LHR")
                .property("runways", 2).as("b")
                .addV("country").property(T.id, "gb").property("pk", "GB").property("code", "GB").as("c")
                .addE("route").from("a").to("b").property(T.id, "r1").property("dist", 4900)
                .addE("route").from("b").to("a").property(T.id, "r2").property("dist", 4901)
                .addE("contains").from("c").to("b").property(T.id, "k1").iterate();
    }

    private ContainerStore core(String container) {
        return client.coreStore().container("graphdb", container);
    }

    /** The paths of an item's index terms under its container's policy. */
    private static List<String> termPaths(ContainerStore core, JsonNode item) {
        List<String> paths = new ArrayList<>();
        for (IndexTerm t : IndexTerms.ofVersion(item, core.seekablePolicy(), item.path("_ts").asLong())) {
            paths.add(t.path());
        }
        return paths;
    }

    @Test
    void anEdgeIndexesItsIdTsPartitionLabelAndPropertiesOnly() {
        ContainerStore core = core("graph");
        ObjectNode edge = graph.store().read("US", "r1");
        assertEquals(Set.of("/_ts", "/id", "/pk", "/label", "/dist"), Set.copyOf(termPaths(core, edge)));
        assertEquals(5, termPaths(core, edge).size());
        assertEquals(1, core.seekablePolicy().composites().size()); // (/_isEdge, /label): one entry per item
        ObjectNode vertex = graph.store().read("US", "AUS");
        // the property entries' ids and meta-properties stay: no Cosmos path can leave them out for every key
        assertEquals(Set.of("/_ts", "/id", "/pk", "/label", "/code/id", "/code/_value", "/runways/id",
                "/runways/_value", "/runways/since"), Set.copyOf(termPaths(core, vertex)));
        // what is stored is exactly that: 3 vertices (9 + 8 + 6 terms), 3 edges (5 + 5 + 4), one composite entry each
        ContainerStore.IndexCheck check = core.checkIndexes();
        assertTrue(check.consistent(), check.toString());
        assertEquals(9 + 8 + 6 + 5 + 5 + 4 + 6, check.stored());
    }

    @Test
    void whatTheGremlinFaceSeeksIsStillAnsweredAlike() {
        assertEquals(3L, g.E().count().next());
        assertEquals(3L, g.V().count().next());
        assertTrue(g.E().count().explain().toString().contains("label index keys"));
        graph.requestCharges().reset();
        assertEquals(3L, g.E().count().next());
        assertEquals(1.02, graph.requestCharges().reset(), 1e-9); // the label index's keys: 1 RU + 0.01 per label
        assertEquals(2L, g.E().hasLabel("route").count().next());
        assertEquals(List.of(List.of("US", "r1")), g.E().has("dist", P.lt(4901)).id().toList());
        assertEquals(Set.of(List.of("US", "r1"), List.of("GB", "r2"), List.of("GB", "k1")),
                Set.copyOf(g.E().id().toList()));
        assertEquals(List.of(List.of("GB", "LHR")), g.V().has("code", "LHR").id().toList());
        assertEquals(2L, g.V().has("runways", P.gte(2)).count().next());
        assertEquals(List.of(List.of("GB", "gb")), g.V().hasLabel("country").id().toList());
        assertEquals(List.of(List.of("US", "AUS")), g.E(List.of("GB", "r2")).inV().id().toList());
        // a document another face wrote (no label, no _isEdge) is a vertex to every count
        client.getDatabase("graphdb").getContainer("graph").createItem(
                new ObjectMapper().createObjectNode().put("id", "d").put("pk", "Z"));
        assertEquals(4L, g.V().count().next());
        assertEquals(3L, g.E().count().next());
        g.E(List.of("GB", "k1")).drop().iterate();
        assertEquals(2L, g.E().count().next());
        // the document face's SQL on the unindexed bookkeeping still answers (as a filter)
        assertEquals(2, client.getDatabase("graphdb").getContainer("graph").queryItems(
                "SELECT * FROM c WHERE c._isEdge = true", new CosmosQueryRequestOptions(), JsonNode.class)
                .stream().count());
    }

    @Test
    void aContainerWithTheUsersOwnPolicyKeepsIt() throws Exception {
        client.getDatabase("graphdb").createContainerIfNotExists(new CosmosContainerProperties("own", "/pk")
                .setIndexingPolicy(new IndexingPolicy().setIncludedPaths(List.of("/*"))));
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(TetraGraph.CONTAINER, "own");
        try (TetraGraph own = TetraGraph.open(client, conf)) {
            addSmallGraph(own.traversal());
            List<String> edgePaths = termPaths(core("own"), own.store().read("US", "r1"));
            assertTrue(edgePaths.containsAll(List.of("/_isEdge", "/_sink", "/_vertexId")), edgePaths.toString());
            assertEquals(0, core("own").seekablePolicy().composites().size());
            // no label index: the counts come from the core's COUNT queries, with the same results
            assertEquals(3L, own.traversal().E().count().next());
            assertEquals(3L, own.traversal().V().count().next());
            assertEquals(2L, own.traversal().E().hasLabel("route").count().next());
        }
    }

    @Test
    void countsOnAContainerWhoseItemsExpireLeaveOutExpiredItems() throws Exception {
        io.tetradb.core.ttl.ManualClock clock = new io.tetradb.core.ttl.ManualClock();
        try (CosmosClient timed = new CosmosClientBuilder().dataDirectory(dir.resolve("ttl")).clock(clock)
                .buildClient()) {
            timed.createDatabaseIfNotExists("graphdb");
            timed.getDatabase("graphdb").createContainerIfNotExists(new CosmosContainerProperties("graph", "/pk")
                    .setIndexingPolicy(Layout.indexingPolicy()).setDefaultTimeToLiveInSeconds(60));
            try (TetraGraph expiring = TetraGraph.open(timed, new BaseConfiguration())) {
                addSmallGraph(expiring.traversal());
                assertEquals(3L, expiring.traversal().E().count().next());
                clock.advance(java.time.Duration.ofMinutes(2));
                // the composite index still holds the expired items until the purger runs: the query answers
                assertEquals(0L, expiring.traversal().E().count().next());
                assertEquals(0L, expiring.traversal().V().count().next());
                assertEquals(java.util.Map.of(), expiring.traversal().V().groupCount().by(T.label).next());
            }
        }
    }
}
