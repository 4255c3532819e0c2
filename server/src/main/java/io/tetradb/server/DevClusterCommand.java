package io.tetradb.server;

import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.cassandra.cluster.NodeClasspath;
import io.tetradb.cassandra.cluster.Ports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * {@code tetradb dev-cluster}: a local Apache Cassandra 5.0 cluster for trying TetraDB's cluster mode (issue 20),
 * N nodes as child JVMs, all on 127.0.0.1 with consecutive ports (CQL 19042, 19043, …), until SIGTERM or Ctrl-C stops them cleanly. The nodes' jars come from Maven
 * Central through {@code cassandra-engine/node} (built on first use).
 */
@Command(name = "dev-cluster", mixinStandardHelpOptions = true,
        description = "Start a local Apache Cassandra cluster (N nodes on 127.0.0.1, CQL ports 19042..) and keep it running until "
                + "stopped (Ctrl-C or SIGTERM).")
final class DevClusterCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "3",
            description = "Number of nodes, 1 to 9 (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "./cassandra-cluster",
            description = "Directory of the nodes' data and logs; kept, so a restarted cluster keeps its data "
                    + "(default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--heap", paramLabel = "SIZE", defaultValue = "384m",
            description = "Heap of each node, as -Xmx takes it (default: ${DEFAULT-VALUE}).")
    String heap;

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || nodes > 9) {
            throw new ParameterException(spec.commandLine(), "--nodes is 1 to 9, not " + nodes);
        }
        if (!heap.matches("[0-9]+[kmgKMG]?")) {
            throw new ParameterException(spec.commandLine(), "--heap takes a size such as 384m, not '" + heap + "'");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path home = Path.of(System.getProperty("tetradb.home", "."));
        NodeClasspath classpath = NodeClasspath.build(home.resolve("cassandra-engine").resolve("node"));
        out.println("starting " + nodes + " Cassandra node(s) under " + dir.toAbsolutePath() + " ...");
        out.flush();
        LocalCluster cluster = LocalCluster.start(dir, nodes, classpath, Ports.DEFAULT, heap, 600);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            stopped.countDown();
        }, "dev-cluster-stop"));
        out.println("Cassandra cluster up: " + cluster.contactPoints().stream()
                .map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(",")));
        out.println("datacenter: datacenter1; stop with Ctrl-C");
        out.flush();
        stopped.await(); // the shutdown hook stops the nodes and releases this
        return 0;
    }
}
