package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.cassandra.cluster.NodeClasspath;
import io.tetradb.cassandra.cluster.Ports;

import java.nio.file.Path;

/**
 * One 3-node cluster (and driver session) for every cluster test class of a test JVM: started by the first that asks,
 * on free ports of 127.0.0.1 (so two runs, or a developer's cluster, never meet), stopped when the JVM exits. A cluster
 * start costs a minute or two on a loaded 2-core machine; each class keeps to a keyspace of its own. A class that
 * kills a node restarts it before it ends ({@link #restartStopped}; {@link #session} does too), so the next class finds
 * three nodes.
 */
final class TestCluster {
    private static LocalCluster cluster;
    private static CqlSession session;

    private TestCluster() {
    }

    static synchronized CqlSession session() {
        if (session == null) {
            Path dir = Path.of(System.getProperty("tetradb.cassandra.clusterDir", "target/cluster"))
                    .resolve("shared-" + System.nanoTime());
            NodeClasspath cp = NodeClasspath.build(Path.of(System.getProperty("tetradb.cassandra.nodeProject", "node")));
            cluster = LocalCluster.start(dir, 3, cp, Ports.free(3), "384m", 240);
            Runtime.getRuntime().addShutdownHook(new Thread(TestCluster::stop));
            session = Sessions.open(cluster.contactPoints());
        }
        restartStopped();
        return session;
    }

    /** The cluster behind {@link #session()} (started if not yet), for tests that kill a node. */
    static synchronized LocalCluster cluster() {
        session();
        return cluster;
    }

    /** Starts again every node a test killed, waiting until each serves CQL. */
    static synchronized void restartStopped() {
        if (cluster == null) {
            return;
        }
        for (int i = 1; i <= cluster.size(); i++) {
            if (!cluster.isRunning(i)) {
                cluster.restart(i, 240);
            }
        }
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
