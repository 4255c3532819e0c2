package io.tetradb.cassandra.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A local Apache Cassandra 5.0 cluster for development and tests: N nodes as separate JVMs, all on 127.0.0.1 with
 * ports of their own ({@link Ports}; no Docker, nothing installed: the nodes run Cassandra's jars from Maven Central,
 * see {@link NodeClasspath}). Node 1 is the seed;
 * the others start once the seed listens, one after another, as Cassandra wants nodes to join. {@link #kill} ends a
 * node with SIGKILL (the failure the tests simulate), {@link #close} stops every node and waits for it.
 */
public final class LocalCluster implements AutoCloseable {
    /** What Cassandra logs once a node serves CQL. */
    static final String READY = "Starting listening for CQL clients";
    /** Every node's address: one loopback address, no aliases (nodes differ by their ports). */
    static final String ADDRESS = "127.0.0.1";

    private final List<NodeConfig> nodes;
    private final List<Process> processes = new ArrayList<>();
    /** What a node logs when its first gossip round went unanswered (then it exits). */
    private static final String NO_PEERS = "Unable to gossip with any peers";
    private static final int START_ATTEMPTS = 3;
    private final NodeClasspath classpath;
    private final String heap;

    private LocalCluster(List<NodeConfig> nodes, NodeClasspath classpath, String heap) {
        this.nodes = nodes;
        this.classpath = classpath;
        this.heap = heap;
    }

    /**
     * Starts {@code size} nodes under {@code dir} (one directory per node; kept between runs, so a restarted cluster
     * keeps its data) and returns once each serves CQL.
     */
    public static LocalCluster start(Path dir, int size, NodeClasspath classpath, Ports ports, String heap,
                                     long startTimeoutSeconds) {
        if (size < 1 || size > 9) {
            throw new IllegalArgumentException("a local cluster has 1 to 9 nodes, not " + size);
        }
        List<NodeConfig> nodes = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            Ports.NodePorts p = ports.node(i);
            nodes.add(new NodeConfig(i, ADDRESS, dir.resolve("node" + i), p.storage(), p.nativeCql(), p.jmx(),
                    "tetradb-local", ADDRESS + ":" + ports.node(1).storage()));
        }
        LocalCluster cluster = new LocalCluster(nodes, classpath, heap);
        try {
            for (NodeConfig n : nodes) {
                n.write();
                cluster.startNode(n, startTimeoutSeconds);
            }
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** The CQL endpoints of the nodes still running. */
    public List<InetSocketAddress> contactPoints() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (NodeConfig n : nodes) {
            Process p = processes.get(n.index() - 1);
            if (p.isAlive()) {
                out.add(new InetSocketAddress(n.address(), n.nativePort()));
            }
        }
        return out;
    }

    public int size() {
        return nodes.size();
    }

    /** SIGKILL for node {@code index} (1-based), as a crash: no flush, no goodbye to the other nodes. */
    public void kill(int index) {
        Process p = processes.get(index - 1);
        p.destroyForcibly();
        try {
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts a killed node again on its directory and waits until it serves CQL. */
    public void restart(int index, long timeoutSeconds) {
        NodeConfig n = nodes.get(index - 1);
        if (processes.get(index - 1).isAlive()) {
            throw new IllegalStateException("node " + index + " is running");
        }
        startNode(n, timeoutSeconds);
    }

    /**
     * Launches node {@code n} and waits until it serves CQL. A node whose first gossip round got no answer from the
     * seed within the ring delay ({@code Unable to gossip with any peers}: the seed too slow on a loaded machine; a
     * hand run of tetradb dev-cluster at load 60 lost its second node so) exits; it is launched again, up to
     * {@value #START_ATTEMPTS} times, on the same data.
     */
    private void startNode(NodeConfig n, long timeoutSeconds) {
        int at = n.index() - 1;
        for (int attempt = 1; ; attempt++) {
            long offset = logSize(n);
            Process p = launch(n);
            if (processes.size() == at) {
                processes.add(p);
            } else {
                processes.set(at, p);
            }
            try {
                awaitReady(n, p, offset, timeoutSeconds);
                return;
            } catch (IllegalStateException e) {
                if (p.isAlive() || attempt >= START_ATTEMPTS || !readLog(n, offset).contains(NO_PEERS)) {
                    throw e;
                }
            }
        }
    }

    /** Whether node {@code index} (1-based) runs (not killed, not exited). */
    public boolean isRunning(int index) {
        return processes.get(index - 1).isAlive();
    }

    public long pid(int index) {
        return processes.get(index - 1).pid();
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy(); // SIGTERM: Cassandra's shutdown hook drains and flushes
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Process launch(NodeConfig n) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xms" + heap);
        cmd.add("-Xmx" + heap);
        cmd.addAll(JvmOptions.JAVA_17);
        cmd.add("-Dcassandra.config=" + n.yaml().toUri());
        cmd.add("-Dcassandra.storagedir=" + n.dir().toAbsolutePath());
        cmd.add("-Dcassandra.logdir=" + n.dir().toAbsolutePath());
        cmd.add("-Dcassandra.jmx.local.port=" + n.jmxPort());
        // a fresh local cluster need not wait for gossip to settle as a production ring does
        cmd.add("-Dcassandra.ring_delay_ms=2000");
        cmd.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
        cmd.add("-Dcassandra-foreground=yes");
        cmd.add("-cp");
        cmd.add(classpath.value());
        cmd.add("org.apache.cassandra.service.CassandraDaemon");
        try {
            return new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(n.log().toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Cassandra node " + n.index(), e);
        }
    }

    /** Waits until the node's log, after {@code offset} (this run's part), says it serves CQL; fails if it exits. */
    private static void awaitReady(NodeConfig n, Process p, long offset, long timeoutSeconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            String log = readLog(n, offset);
            if (log.contains(READY)) {
                return;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("Cassandra node " + n.index() + " exited with " + p.exitValue()
                        + "; its log: " + n.log() + "\n" + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Cassandra node " + n.index() + " did not serve CQL within "
                        + timeoutSeconds + " s; its log: " + n.log() + "\n" + tail(log));
            }
            try {
                Thread.sleep(200); // polling a log file for a condition, not a timing assumption
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while node " + n.index() + " started");
            }
        }
    }

    private static long logSize(NodeConfig n) {
        try {
            return Files.exists(n.log()) ? Files.size(n.log()) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readLog(NodeConfig n, long offset) {
        try (var ch = Files.newByteChannel(n.log())) {
            ch.position(offset);
            return new String(java.nio.channels.Channels.newInputStream(ch).readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(String log) {
        String[] lines = log.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 30), lines.length));
    }
}
