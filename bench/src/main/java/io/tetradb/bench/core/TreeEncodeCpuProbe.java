package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.ItemCodec;
import jdk.jfr.Recording;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * A diagnostic, not a benchmark (frame-rest, issue 17): the core's TB1 encoding of a caller's tree alone — the core
 * benchmark's 1 KiB items written as a point write writes them ({@code ItemCodec.BodyWriter.writeFrame}, no index
 * terms, as on the benchmark's unindexed container), one thread, no store; a few hundred items encoded over and over
 * (a caller's item is fresh in the cache when the store encodes it). Rounds of thread CPU and allocated bytes per
 * item; the medians of {@code rounds} measured rounds after at least {@code warm} unmeasured ones. {@code -Dprobe.jfr=FILE} records JFR execution
 * samples (1 ms) of the measured rounds.
 *
 * <p>On a loaded machine the JIT's compiler threads get little CPU and C2's code of the encoder came late (rounds
 * measured at 5–10 µs an item were C1's): the warm-up goes on past {@code warm} rounds until the JIT's total
 * compilation time has not moved for 5 rounds. Only public calls of the core, so an older build's classes run it too.
 *
 * <p>{@code java -cp bench.jar:lib/* io.tetradb.bench.core.TreeEncodeCpuProbe [rounds=30] [warm=15] [items=500]
 * [passes=40]}
 */
public final class TreeEncodeCpuProbe {
    /** The trailer's room of the benchmark's container (rid 24, self prefix, etag): any fixed room measures alike. */
    private static final int ROOM = 112;

    private TreeEncodeCpuProbe() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int warm = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 500;
        int passes = args.length > 3 ? Integer.parseInt(args[3]) : 40;
        Side side = new Side(count);
        double[] cpu = new double[rounds];
        double[] alloc = new double[rounds];
        String jfr = System.getProperty("probe.jfr");
        Recording recording = null;
        java.lang.management.CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long compiled = -1;
        for (int still = 0, round = 0; round < warm || still < 5; round++) {
            side.apply(passes);
            long now = jit.getTotalCompilationTime();
            still = now == compiled ? still + 1 : 0;
            compiled = now;
        }
        for (int round = 0; round < rounds; round++) {
            if (round == 0 && jfr != null) {
                recording = new Recording();
                recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
                recording.start();
            }
            double[] r = side.apply(passes);
            cpu[round] = r[0];
            alloc[round] = r[1];
        }
        if (recording != null) {
            recording.stop();
            recording.dump(Path.of(jfr));
        }
        System.out.printf(Locale.ROOT, "PROBE tree-encode median of %d rounds: cpu_ns_per_item=%.1f "
                + "alloc_bytes_per_item=%.0f (frame %d B)%n", rounds, median(cpu), median(alloc), side.frame);
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }

    /** The encoder over its items: {@code apply(passes)} is one round, {cpu ns, bytes} per item. */
    static final class Side {
        private final ObjectNode[] nodes;
        private final ItemCodec.BodyWriter writer = new ItemCodec(new ObjectMapper(), 100).new BodyWriter();
        private final com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private long frame;

        Side(int count) {
            Items items = new Items(1, CoreBenchmark.DEVICES);
            nodes = new ObjectNode[count];
            for (int i = 0; i < count; i++) {
                nodes[i] = items.item(Items.id("w", i + 1), i % CoreBenchmark.DEVICES, 1_000_000_000L + i);
            }
        }

        double[] apply(int passes) {
            long c0 = mx.getCurrentThreadCpuTime();
            long a0 = mx.getCurrentThreadAllocatedBytes();
            long bytes = 0;
            for (int pass = 0; pass < passes; pass++) {
                for (ObjectNode n : nodes) {
                    bytes += writer.writeFrame(n, null, ROOM).length;
                }
            }
            double encodes = (double) nodes.length * passes;
            frame = (long) (bytes / encodes);
            return new double[]{(mx.getCurrentThreadCpuTime() - c0) / encodes,
                    (mx.getCurrentThreadAllocatedBytes() - a0) / encodes};
        }
    }
}
