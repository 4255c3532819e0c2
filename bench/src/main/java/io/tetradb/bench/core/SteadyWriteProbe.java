package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import jdk.jfr.Recording;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A diagnostic, not a benchmark: the writer thread's CPU per core point write ({@code createItem}, random
 * partition key) or per item of a 100-create batch, in steady state — unrecorded warm-up rounds until the JIT has
 * settled, then rounds alternating the core with raw RocksDB's put (or 100-put batch) of the same key and value;
 * items are made before each round's clock starts. Prints per side the median thread CPU and user CPU per write (or
 * per batched item) and the per-round core − raw difference. {@code -Dprobe.jfr=FILE} records JFR execution samples
 * (1 ms) of the measured rounds only, the core's and raw's alike (raw spends almost nothing in Java).
 * Run with {@code java -cp ... io.tetradb.bench.core.SteadyWriteProbe point|batch [warmRounds=10] [rounds=9]
 * [perRound=5000] [ASYNC|SYNC]} (batch: perRound batches of 100 items / 50). {@code -Dprobe.coreB=name=value}
 * (pw-keys) adds a third side, a second core opened with that system property set (e.g.
 * {@code tetradb.wal.inlineSync=false}), in the same rotation, and prints its CPU and the per-round core B − core
 * difference: an A/B of a store option in one JVM, so that the machine's load drifts alike over both. A
 * {@code process cpu_us} line gives the process's CPU per write and side (every thread: flushes land in some rounds).
 */
public final class SteadyWriteProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** pw-lean: the writer thread's allocated bytes (HotSpot's counter), load-insensitive unlike its CPU. */
    private static final com.sun.management.ThreadMXBean ALLOC = (com.sun.management.ThreadMXBean) THREADS;
    private static final int BATCH = 100;
    /** pw-keys: the process's CPU (every thread: RocksDB's flushes, the WAL syncer, GC, JIT) per write and side. */
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public static void main(String[] args) throws Exception {
        boolean batch = args.length > 0 && args[0].equals("batch");
        int warm = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 9;
        int perRound = args.length > 3 ? Integer.parseInt(args[3]) : (batch ? 100 : 5000);
        Durability durability = Durability.valueOf(args.length > 4 ? args[4] : "ASYNC");
        String jfr = System.getProperty("probe.jfr");
        String variant = System.getProperty("probe.coreB"); // pw-keys: "name=value", set while core B opens
        try (ProbeStores stores = ProbeStores.freshWithRaw("steady-write-probe", durability);
             ProbeStores storesB = variant == null ? null : coreB(stores, variant, durability)) {
            Items items = stores.items;
            RawRocks raw = stores.raw;
            SplittableRandom random = new SplittableRandom(17);
            long[] written = {0};
            int sides = storesB == null ? 2 : 3; // 0 core, 1 raw, 2 core B
            double[][] cpu = new double[sides][rounds];
            double[][] user = new double[sides][rounds];
            double[][] alloc = new double[sides][rounds];
            double[][] process = new double[sides][rounds];
            Recording recording = null;
            for (int r = -warm; r < rounds; r++) {
                if (r == 0 && jfr != null) {
                    recording = new Recording();
                    recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
                    recording.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s");
                    recording.start();
                }
                for (int k = 0; k < sides; k++) {
                    int side = Math.floorMod(k + r, sides); // the order rotates each round
                    boolean core = side != 1;
                    CosmosContainer container = side == 2 ? storesB.container : stores.container;
                    int units = batch ? perRound * BATCH : perRound;
                    ObjectNode[] nodes = new ObjectNode[units];
                    int[] devices = new int[units];
                    byte[][] keys = new byte[units][];
                    byte[][] values = new byte[units][];
                    for (int i = 0; i < units; i++) {
                        int device = batch ? (int) (written[0] / BATCH % CoreBenchmark.DEVICES)
                                : random.nextInt(CoreBenchmark.DEVICES);
                        long n = ++written[0];
                        String id = Items.id("w", n);
                        devices[i] = device;
                        nodes[i] = items.item(id, device, 1_000_000_000L + n);
                        if (!core) {
                            keys[i] = items.key(device, id);
                            values[i] = items.rawValue(nodes[i], n);
                        }
                    }
                    long c0 = THREADS.getCurrentThreadCpuTime();
                    long u0 = THREADS.getCurrentThreadUserTime();
                    long a0 = ALLOC.getCurrentThreadAllocatedBytes();
                    long p0 = OS.getProcessCpuTime();
                    if (batch) {
                        for (int b = 0; b < perRound; b++) {
                            int from = b * BATCH;
                            if (core) {
                                CosmosBatch cb = CosmosBatch.createCosmosBatch(
                                        new PartitionKey(items.deviceId(devices[from])));
                                for (int i = from; i < from + BATCH; i++) {
                                    cb.createItemOperation(nodes[i]);
                                }
                                if (!container.executeCosmosBatch(cb).isSuccessStatusCode()) {
                                    throw new IllegalStateException("batch failed");
                                }
                            } else {
                                raw.write(Arrays.copyOfRange(keys, from, from + BATCH),
                                        Arrays.copyOfRange(values, from, from + BATCH));
                            }
                        }
                    } else {
                        for (int i = 0; i < units; i++) {
                            if (core) {
                                container.createItem(nodes[i]);
                            } else {
                                raw.put(keys[i], values[i]);
                            }
                        }
                    }
                    if (r >= 0) {
                        cpu[side][r] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e3 / units;
                        user[side][r] = (THREADS.getCurrentThreadUserTime() - u0) / 1e3 / units;
                        alloc[side][r] = (double) (ALLOC.getCurrentThreadAllocatedBytes() - a0) / units;
                        process[side][r] = (OS.getProcessCpuTime() - p0) / 1e3 / units;
                    }
                }
            }
            if (recording != null) {
                recording.stop();
                recording.dump(Path.of(jfr));
                recording.close();
            }
            double[] diff = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                diff[r] = cpu[0][r] - cpu[1][r];
            }
            System.out.printf(Locale.ROOT, "STEADY %s %s | core cpu_us=%.2f user_us=%.2f (%s) alloc_bytes=%.0f | raw "
                            + "cpu_us=%.2f user_us=%.2f (%s) alloc_bytes=%.0f | per-round core-raw cpu_us median=%.2f%n",
                    batch ? "batch100/item" : "point", durability, median(cpu[0]), median(user[0]), fmt(cpu[0]),
                    median(alloc[0]), median(cpu[1]), median(user[1]), fmt(cpu[1]), median(alloc[1]), median(diff));
            System.out.printf(Locale.ROOT, "STEADY %s %s | process cpu_us core=%.2f raw=%.2f%s%n",
                    batch ? "batch100/item" : "point", durability, median(process[0]), median(process[1]),
                    storesB == null ? "" : String.format(Locale.ROOT, " coreB=%.2f", median(process[2])));
            if (storesB != null) {
                double[] diffB = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    diffB[r] = cpu[2][r] - cpu[0][r];
                }
                System.out.printf(Locale.ROOT, "STEADY %s %s | core B (%s) cpu_us=%.2f user_us=%.2f (%s) alloc_bytes=%.0f"
                                + " | per-round coreB-core cpu_us median=%.2f (%s)%n",
                        batch ? "batch100/item" : "point", durability, variant, median(cpu[2]), median(user[2]),
                        fmt(cpu[2]), median(alloc[2]), median(diffB), fmt(diffB));
            }
        }
    }

    /** pw-keys: a second core beside the first, opened with the system property {@code name=value} set. */
    private static ProbeStores coreB(ProbeStores stores, String variant, Durability durability) throws Exception {
        int eq = variant.indexOf('=');
        String name = variant.substring(0, eq);
        String was = System.getProperty(name);
        System.setProperty(name, variant.substring(eq + 1));
        try {
            return ProbeStores.coreAt(stores.directory().resolve("coreB"), durability);
        } finally {
            if (was == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, was);
            }
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String fmt(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (double d : v) {
            sb.append(sb.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.2f", d));
        }
        return sb.toString();
    }
}
