package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.cassandra.cluster.NodeClasspath;
import io.tetradb.cassandra.cluster.Ports;

import java.nio.file.Path;

/**
 * One 3-node cluster (and driver session) for the metadata test classes of one test JVM: started by the first that
 * asks, stopped when the JVM exits (a cluster start costs a minute or two on a loaded 2-core machine).
 */
final class TestCluster {
    private static LocalCluster cluster;
    private static CqlSession session;

    private TestCluster() {
    }

    static synchronized CqlSession session() {
        if (session == null) {
            Path dir = Path.of(System.getProperty("tetradb.cassandra.clusterDir", "target/cluster"))
                    .resolve("metadata-" + System.nanoTime());
            NodeClasspath cp = NodeClasspath.build(Path.of(System.getProperty("tetradb.cassandra.nodeProject", "node")));
            cluster = LocalCluster.start(dir, 3, cp, Ports.DEFAULT, "384m", 240);
            Runtime.getRuntime().addShutdownHook(new Thread(TestCluster::stop));
            session = Sessions.open(cluster.contactPoints());
        }
        return session;
    }

    private static synchronized void stop() {
        if (session != null) {
            session.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
