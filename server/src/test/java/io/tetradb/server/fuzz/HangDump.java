package io.tetradb.server.fuzz;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a long fuzz run prints when an input passes its bound, so that a hang tells where it was: the server's
 * threads ({@code jcmd PID Thread.print}), the fuzzing JVM's own threads, and what tells a stalled server from a
 * starved one — the load, the machine's CPU pressure ({@code /proc/pressure/cpu}) and the CPU time the server
 * process has had ({@code /proc/PID/stat}), twice, 2 s apart. At most {@link #LIMIT} dumps per run (each part's
 * first hang), so a run that hangs often does not drown its log.
 */
final class HangDump {
    private static final int LIMIT = 3;
    private static final AtomicInteger DUMPS = new AtomicInteger();

    private HangDump() {
    }

    /** The action a fuzzer runs at its first hang: the dump, labelled with the part's name. */
    static Runnable of(ServerProcess server, String part) {
        return () -> print(server, part);
    }

    static void print(ServerProcess server, String part) {
        int n = DUMPS.incrementAndGet();
        if (n > LIMIT) {
            System.out.printf("FUZZ-HANG %s at %s: dump %d not printed (limit %d)%n", part, Instant.now(), n, LIMIT);
            return;
        }
        System.out.print(dump(server, part));
    }

    /** The dump's text (takes 2 s: the second reading of load, pressure and CPU). */
    static String dump(ServerProcess server, String part) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("FUZZ-HANG %s at %s: an input passed the bound; load %s; %s; server %s%n", part,
                Instant.now(), read("/proc/loadavg"), pressure(), cpu(server)));
        try {
            b.append("FUZZ-HANG server threads (jcmd Thread.print):\n").append(server.threadDump());
        } catch (Exception e) {
            b.append("FUZZ-HANG no server thread dump: ").append(e).append('\n');
        }
        b.append("FUZZ-HANG the fuzzing JVM's threads:\n");
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            b.append(t); // ThreadInfo.toString: name, state, the top 8 frames
        }
        try {
            Thread.sleep(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        b.append(String.format("FUZZ-HANG %s 2 s later: load %s; %s; server %s%n", part, read("/proc/loadavg"),
                pressure(), cpu(server)));
        return b.toString();
    }

    /** {@code some avg10=…} of the machine's CPU pressure: the share of time runnable tasks waited for a CPU. */
    private static String pressure() {
        String p = read("/proc/pressure/cpu");
        int end = p.indexOf('\n');
        return "cpu pressure " + (end < 0 ? p : p.substring(0, end));
    }

    /** The server process's user and system CPU time so far, in clock ticks, and its state. */
    private static String cpu(ServerProcess server) {
        String stat = read("/proc/" + server.pid() + "/stat");
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return "stat unreadable: " + stat;
        }
        String[] f = stat.substring(close + 2).split(" "); // f[0] is field 3 (state); utime is field 14
        return f.length > 12 ? "state=" + f[0] + " utime=" + f[11] + " stime=" + f[12] + " ticks" : stat;
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file)).trim();
        } catch (IOException | RuntimeException e) {
            return "(" + file + ": " + e.getMessage() + ")";
        }
    }
}
