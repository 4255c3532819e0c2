package io.tetradb.server;

import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.cassandra.cluster.NodeClasspath;
import io.tetradb.cassandra.cluster.Ports;

import java.nio.file.Path;

/**
 * One local 3-node Cassandra cluster for every {@code -Pcluster} class of a test JVM (cassandra-engine's
 * {@link LocalCluster}: three JVMs, all on 127.0.0.1 with free ports): started by the first class that asks, stopped
 * when the JVM exits, so the classes pay one cluster start between them. Each class keeps to a keyspace of its own;
 * a node a class killed is started again for the next one.
 */
final class SharedTestCluster {
    private static LocalCluster cluster;
    /** Seconds the cluster took to start (three nodes, one after another); 0 for the classes after the first. */
    private static double lastStartSeconds;

    private SharedTestCluster() {
    }

    /** The cluster with its three nodes running (started, or killed nodes restarted, as needed). */
    static synchronized LocalCluster get() {
        long t0 = System.nanoTime();
        if (cluster == null) {
            Path dir = Path.of(System.getProperty("tetradb.cassandra.clusterDir", "target/cluster"))
                    .resolve("shared-" + System.nanoTime());
            NodeClasspath cp = NodeClasspath.build(Path.of(System.getProperty("tetradb.cassandra.nodeProject",
                    "../cassandra-engine/node")));
            cluster = LocalCluster.start(dir, 3, cp, Ports.free(3), "384m", 240);
            Runtime.getRuntime().addShutdownHook(new Thread(SharedTestCluster::stop));
        }
        for (int i = 1; i <= cluster.size(); i++) {
            if (!cluster.isRunning(i)) {
                cluster.restart(i, 240);
            }
        }
        lastStartSeconds = (System.nanoTime() - t0) / 1e9;
        return cluster;
    }

    /** Seconds the last {@link #get} took (the cluster's start or killed nodes' restarts; ~0 otherwise). */
    static synchronized double lastStartSeconds() {
        return lastStartSeconds;
    }

    private static synchronized void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
