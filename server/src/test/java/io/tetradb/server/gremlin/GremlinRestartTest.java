package io.tetradb.server.gremlin;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.StartupException;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What Gremlin clients wrote is there after the server stops and a new one starts on the same data directory. */
class GremlinRestartTest {
    @TempDir
    Path dataDir;

    private static ServerConfig config(Path dir) {
        return ServerConfig.ephemeral(dir).withGremlinPort(0)
                .withGraphs(List.of(GraphSpec.parse("routes=travel/routes/region")));
    }

    private static Cluster cluster(TetraDbServer server) {
        GremlinEndpoint gremlin = (GremlinEndpoint) server.endpoint("gremlin");
        return TestGremlin.cluster(gremlin.address()).create();
    }

    @Test
    void dataWrittenThroughGremlinSurvivesARestart() throws Exception {
        try (TetraDbServer server = new TetraDbServer(config(dataDir)).start()) {
            Cluster cluster = cluster(server);
            try {
                Client client = cluster.connect();
                client.submit("g.addV('city').property('pk','USA').property(T.id,'Seattle').property('name','Seattle')"
                        + ".addV('city').property('pk','CAN').property(T.id,'Vancouver').as('v')"
                        + ".V(['USA','Seattle']).addE('road').to('v').property(T.id,'BC99')").all().get();
                GraphTraversalSource routes = traversal().withRemote(DriverRemoteConnection.using(cluster, "g_routes"));
                routes.addV("airport").property("region", "EU").property(T.id, "CDG").iterate();
                routes.close();
            } finally {
                cluster.close();  // a client still connected must not keep the server from stopping
            }
        }

        try (TetraDbServer server = new TetraDbServer(config(dataDir)).start()) {
            Cluster cluster = cluster(server);
            try {
                Client client = cluster.connect();
                assertEquals(List.of("Seattle"), client.submit("g.V(['CAN','Vancouver']).in('road').values('name')")
                        .all().get().stream().map(Result::getString).toList());
                GraphTraversalSource g = traversal().withRemote(DriverRemoteConnection.using(cluster, "g"));
                assertEquals(List.of(List.of("USA", "BC99")), g.E().id().toList());
                GraphTraversalSource routes = traversal().withRemote(DriverRemoteConnection.using(cluster, "g_routes"));
                assertEquals(List.of(List.of("EU", "CDG")), routes.V().id().toList());
                g.close();
                routes.close();
            } finally {
                cluster.close();
            }
        }
    }

    @Test
    void aGraphOverAContainerWithAnotherPartitionKeyFailsTheStart() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dataDir).buildClient()) {
            client.createDatabaseIfNotExists("graphdb");
            client.getDatabase("graphdb").createContainerIfNotExists(new CosmosContainerProperties("graph", "/region"));
        }
        ServerConfig config = ServerConfig.ephemeral(dataDir).withGremlinPort(0);  // the graph graphdb/graph/pk
        StartupException e = assertThrows(StartupException.class, () -> new TetraDbServer(config).start());
        assertTrue(e.getMessage().startsWith("cannot open graph: container graphdb/graph is partitioned by /region"),
                e.getMessage());
        new TetraDbServer(ServerConfig.ephemeral(dataDir)).start().close();  // the directory's lock was released
    }

    @Test
    void aBusyGremlinPortFailsTheStartAndReleasesTheDataDirectory() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerConfig config = ServerConfig.ephemeral(dataDir).withGremlinPort(busy.getLocalPort());
            StartupException e = assertThrows(StartupException.class, () -> new TetraDbServer(config).start());
            assertTrue(e.getMessage().startsWith("cannot bind Gremlin Server to 127.0.0.1:" + busy.getLocalPort()),
                    e.getMessage());
        }
        new TetraDbServer(ServerConfig.ephemeral(dataDir)).start().close();  // the directory's lock was released
    }
}
