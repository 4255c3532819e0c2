package io.tetradb.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The peers a benchmark starts as child processes (Azurite, the Node driver and Cosmos peer): a free port for them,
 * a shutdown hook so that none outlives the benchmark's JVM, and a stop that takes their descendants too.
 */
public final class ChildProcesses {
    private ChildProcesses() {
    }

    /** Registers a shutdown hook that kills {@code p} should the JVM exit before {@link #stop}; returns the hook. */
    public static Thread killOnExit(Process p, String name) {
        Thread killer = new Thread(() -> kill(p), name);
        Runtime.getRuntime().addShutdownHook(killer);
        return killer;
    }

    /** Kills {@code p} (and its descendants) and drops its shutdown hook. */
    public static void stop(Process p, Thread killer) {
        kill(p);
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it kills the same process
        }
    }

    /** Kills the process and its descendants, forcibly if it does not exit within 5 s. */
    public static void kill(Process p) {
        List<ProcessHandle> descendants = p.descendants().toList();
        p.destroy();
        descendants.forEach(ProcessHandle::destroy);
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /** A loopback port free now, for a peer that must be told its port. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
