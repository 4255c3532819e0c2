package io.tetradb.server.gremlin;

import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;

/**
 * A server with the Gremlin face alone and the evaluation timeout set as {@code --gremlin-timeout-ms} sets it, its
 * graph written in process (a first remote request on a cold, loaded machine — class loading, the first Groovy
 * compilation — can itself pass a short bound), and gremlin-driver's cluster connected: the setup of the tests of
 * timeouts and abandoned requests ({@code GremlinTimeoutTest}, {@code GremlinTimeoutInsideCoreCallTest},
 * {@code GremlinAbandonedRequestsTest}).
 */
final class TimedGremlinServer implements AutoCloseable {
    final TetraDbServer server;
    final GremlinEndpoint gremlin;
    final Cluster cluster;
    private GraphTraversalSource remote;

    TimedGremlinServer(Path dataDir, Duration timeout, Consumer<GraphTraversalSource> writeGraph) throws Exception {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)
                .withGremlinScriptTimeout(timeout)).start();
        try {
            gremlin = (GremlinEndpoint) server.endpoint("gremlin");
            writeGraph.accept(gremlin.graphs().values().iterator().next().traversal());
            cluster = TestGremlin.cluster(gremlin.address()).create();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The graph through the server ({@code g} bytecode traversals), closed with this. */
    synchronized GraphTraversalSource g() {
        if (remote == null) {
            remote = traversal().withRemote(DriverRemoteConnection.using(cluster, "g"));
        }
        return remote;
    }

    @Override
    public void close() throws Exception {
        try {
            if (remote != null) {
                remote.close();
            }
            cluster.close();
        } finally {
            server.close();
        }
    }
}
