package io.tetradb.server.fuzz;

import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.HttpFuzzer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One fuzz run against a {@link ServerProcess}, as {@link ProcessFuzzTest} and {@link SecuredProcessFuzzTest} make
 * them: the process's memory read around it (VmRSS before, largest during, after; {@code /health}; the live heap
 * after a full GC), the figures printed as a {@code FUZZ-PROCESS} line and checked (alive, no hang, live heap growth
 * under 64 MB, RSS under the budget + 256 MB); HTTP inputs sent in signed chunks.
 */
final class FuzzRun {
    /** HTTP inputs are signed with the time: a long run takes fresh ones every this many inputs. */
    static final long CHUNK = 100_000;
    static final int HTTP_THREADS = Integer.getInteger("tetradb.fuzz.httpThreads", 48);
    private static final long LIVE_HEAP_GROWTH_LIMIT = 64L << 20;

    private FuzzRun() {
    }

    /** Runs the fuzz, reads the process's memory around it, prints the figures and checks them. */
    static void measure(ServerProcess server, FuzzSettings settings, String face, Callable<List<FuzzTally>> fuzz)
            throws Exception {
        double loadBefore = loadAverage();
        ProcessMemory before = ProcessMemory.of(server);
        java.util.Map<String, long[]> histogramBefore = settings.longForm() ? server.classHistogram() : null;
        long start = System.nanoTime();
        List<FuzzTally> tallies;
        long rssMax;
        try (RssSampler sampler = new RssSampler(server)) {
            tallies = fuzz.call();
            sampler.close();
            rssMax = sampler.maxBytes();
        }
        long seconds = Math.max(1, (System.nanoTime() - start) / 1_000_000_000L);
        ProcessMemory after = ProcessMemory.of(server);
        if (histogramBefore != null) {
            printGrowth(face, histogramBefore, server.classHistogram());
        }
        server.pausesOver(1000).forEach(line -> System.out.println("FUZZ-PROCESS " + face + " pause >= 1 s: " + line));
        long inputs = tallies.stream().mapToLong(FuzzTally::inputs).sum();
        long answered = tallies.stream().mapToLong(FuzzTally::answeredCount).sum();
        long closed = tallies.stream().mapToLong(FuzzTally::closedCount).sum();
        List<String> hangs = tallies.stream().flatMap(t -> t.hangs().stream()).toList();
        System.out.printf("FUZZ-PROCESS %s budget=%dm seed=%d inputs=%d answered=%d closed=%d hangs=%d alive=%s "
                        + "seconds=%d inputsPerSecond=%d rssMb=%d/%d/%d (before/max/after) healthRssMb=%d->%d "
                        + "liveHeapMb=%d->%d load=%.1f->%.1f%n", face, server.budget().bytes() >> 20,
                settings.seed(), inputs, answered, closed, hangs.size(), server.isAlive(), seconds, inputs / seconds,
                ProcessMemory.mb(before.rssBytes()), ProcessMemory.mb(rssMax), ProcessMemory.mb(after.rssBytes()),
                ProcessMemory.mb(before.healthRssBytes()), ProcessMemory.mb(after.healthRssBytes()),
                ProcessMemory.mb(before.liveHeapBytes()), ProcessMemory.mb(after.liveHeapBytes()), loadBefore,
                loadAverage());
        assertTrue(server.isAlive(), "the server process died: " + server.stderrTail());
        assertTrue(hangs.isEmpty(), "hangs: " + hangs);
        assertTrue(after.liveHeapBytes() - before.liveHeapBytes() < LIVE_HEAP_GROWTH_LIMIT, "live heap grew by "
                + ProcessMemory.mb(after.liveHeapBytes() - before.liveHeapBytes()) + " MB");
        // heap, RocksDB and direct buffers are capped by the budget; class metadata, code and stacks come on top
        long rssCeiling = server.budget().bytes() + (256L << 20);
        assertTrue(rssMax < rssCeiling, "RSS reached " + ProcessMemory.mb(rssMax) + " MB with a budget of "
                + (server.budget().bytes() >> 20) + " MB");
    }

    /** The classes whose live bytes grew most over the run (long form): where a growing live heap went. */
    private static void printGrowth(String face, java.util.Map<String, long[]> before,
                                    java.util.Map<String, long[]> after) {
        // the histogram's own total (its full GC and count in one safepoint): the live heap without what the server
        // allocates between GC.run and GC.heap_info, two jcmd calls apart
        long totalBefore = before.values().stream().mapToLong(v -> v[1]).sum();
        long totalAfter = after.values().stream().mapToLong(v -> v[1]).sum();
        System.out.printf("FUZZ-PROCESS %s histogram-total %d KB -> %d KB (%+d KB)%n", face, totalBefore >> 10,
                totalAfter >> 10, (totalAfter - totalBefore) >> 10);
        after.entrySet().stream()
                .map(e -> java.util.Map.entry(e.getKey(), new long[] {
                        e.getValue()[0] - before.getOrDefault(e.getKey(), new long[2])[0],
                        e.getValue()[1] - before.getOrDefault(e.getKey(), new long[2])[1], e.getValue()[1]}))
                .sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
                .limit(20)
                .forEach(e -> System.out.printf("FUZZ-PROCESS %s histogram-growth %+d instances %+d KB (now %d KB) %s%n",
                        face, e.getValue()[0], e.getValue()[1] >> 10, e.getValue()[2] >> 10, e.getKey()));
    }

    /** HTTP inputs in chunks, each with freshly signed inputs and its own seed, so a long run stays replayable. */
    static List<FuzzTally> http(String face, InetSocketAddress target, Supplier<List<byte[]>> inputs,
                                byte[] preamble, FuzzSettings settings, Runnable alive,
                                javax.net.SocketFactory sockets) throws Exception {
        return http(face, io.tetradb.testing.fuzz.EphemeralPortBudget.single(target), inputs, preamble, settings,
                alive, sockets, () -> { });
    }

    /** As above, to the destinations {@code ports} rotates over; {@code onFirstHang} at each chunk's first hang. */
    static List<FuzzTally> http(String face, io.tetradb.testing.fuzz.EphemeralPortBudget ports,
                                Supplier<List<byte[]>> inputs, byte[] preamble, FuzzSettings settings,
                                Runnable alive, javax.net.SocketFactory sockets, Runnable onFirstHang)
            throws Exception {
        List<FuzzTally> tallies = new ArrayList<>();
        long deadline = System.nanoTime() + settings.budget().toNanos();
        for (long done = 0, chunk = 0; done < settings.inputs() && System.nanoTime() < deadline; chunk++) {
            long n = Math.min(CHUNK, settings.inputs() - done);
            FuzzSettings part = new FuzzSettings(n, settings.seed() * 1000 + chunk,
                    Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            FuzzTally tally = HttpFuzzer.run(face, ports, preamble, inputs.get(), part, alive, HTTP_THREADS,
                    sockets, onFirstHang);
            tallies.add(tally);
            done += tally.inputs();
        }
        return tallies;
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
