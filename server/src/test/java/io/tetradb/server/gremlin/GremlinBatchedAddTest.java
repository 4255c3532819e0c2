package io.tetradb.server.gremlin;

import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Through TinkerPop's Java driver: traversals that only create elements (a script's {@code addV().addV().addE()}
 * chain, a bytecode {@code inject(...).unfold().addV()}) are written in batches on the server and give the results
 * and errors of one write per element.
 */
class GremlinBatchedAddTest {
    @TempDir
    static Path dataDir;
    static TetraDbServer server;
    static Cluster cluster;
    static Client client;
    static GraphTraversalSource g;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)
                .withGraphs(List.of(GraphSpec.parse("load=loaddb/load/pk")))).start();
        GremlinEndpoint gremlin = (GremlinEndpoint) server.endpoint("gremlin");
        cluster = TestGremlin.cluster(gremlin.address())
                .create();
        client = cluster.connect();
        g = traversal().with(DriverRemoteConnection.using(cluster, "g_load"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aScriptsChainIsBatched() throws Exception {
        String explain = client.submit("g_load.addV('city').property(id,'e1').property('pk','p')"
                + ".addV('city').property(id,'e2').property('pk','p').explain().toString()").one().getString();
        assertTrue(explain.contains("TetraBatchedAddStep"), explain);
        List<Result> r = client.submit("g_load.addV('city').property(id,'a').property('pk','p1').as('a')"
                + ".addV('city').property(id,'b').property('pk','p2').as('b')"
                + ".addE('road').from('a').to('b').property(id,'ab').property('km',5).id()").all().get();
        assertEquals(List.of("p1", "ab"), r.get(0).getObject());
        assertEquals(List.of(List.of("p2", "b")), g.V(List.of("p1", "a")).out("road").id().toList());
        assertEquals(5, g.E(List.of("p1", "ab")).values("km").next());
    }

    @Test
    void injectedBytecodeCreatesAreBatched() {
        List<Object> ids = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            ids.add("n" + i);
        }
        List<Object> created = g.inject(ids.toArray()).as("i").addV("n").property(T.id, __.select("i"))
                .property("pk", "q").id().toList();
        assertEquals(250, created.size());
        assertEquals(List.of("q", "n0"), created.get(0));
        assertEquals(List.of("q", "n249"), created.get(249));
        assertEquals(250L, g.V().hasLabel("n").count().next());
    }

    @Test
    void aDuplicateInTheChainFailsAsItWouldOneByOne() throws Exception {
        client.submit("g_load.addV('x').property(id,'dup').property('pk','A')").all().get();
        ExecutionException e = assertThrows(ExecutionException.class, () -> client.submit(
                "g_load.addV('x').property(id,'x2').property('pk','B').addV('x').property(id,'x1').property('pk','A')"
                        + ".addV('x').property(id,'dup').property('pk','A').addV('x').property(id,'x4').property('pk','B')")
                .all().get());
        ResponseException re = assertInstanceOf(ResponseException.class, e.getCause());
        assertTrue(re.getMessage().contains("already exists"), re.getMessage());
        List<String> ids = g.V().hasLabel("x").id().toList().stream().map(String::valueOf).sorted().toList();
        assertEquals(List.of("[A, dup]", "[A, x1]", "[B, x2]"), ids); // x4 came after the failing one: not written
    }
}
