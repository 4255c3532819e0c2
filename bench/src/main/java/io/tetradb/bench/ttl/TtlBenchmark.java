package io.tetradb.bench.ttl;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.feed.ThreadGroupCpu;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.StoreConfig;
import io.tetradb.core.ttl.ManualClock;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The TTL purger's rate: a container full of 1 KiB items that have all expired (the store's clock is moved past their
 * time to live) is purged by the background purger while one writer keeps writing fresh items. Prints the purge rate,
 * the purger thread's CPU per purged item, the process's CPU per purged item, and the writer's rate meanwhile.
 */
public final class TtlBenchmark implements Benchmark {
    private static final ObjectMapper M = new ObjectMapper();

    @Override
    public String name() {
        return "ttl";
    }

    @Override
    public String description() {
        return "TTL purge rate of expired 1 KiB items while a writer writes (target >= 50k items/s), CPU per purged item";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        int expired = quick ? 100_000 : 1_000_000;
        int partitions = 100;
        Path dir = BenchData.fresh("ttl");
        ManualClock clock = new ManualClock();
        String pad = "x".repeat(1000);
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir).withClock(clock))) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, 60, null, null);
            // warm-up, not measured: the purge's code is compiled by the JIT during its first seconds (on 2 cores
            // the C2 compiler thread took more CPU than the purger in a cold 100k run), as in the other benchmarks
            int warmUp = Math.min(expired, 100_000);
            out.progress("warm-up: purging " + warmUp + " expired items (not measured)");
            load(c, "u", warmUp, partitions, pad);
            long warmPurged0 = store.ttlPurger().purgedTotal();
            long warm0 = System.nanoTime();
            clock.advance(Duration.ofSeconds(61));
            // with the writer running, as measured: the writer's single creates and the purge's deletes share the
            // transaction code, and a warm-up of the purge alone left it compiled for deletes only (the measured
            // phase then recompiled it: the JIT's CPU was 7.5 µs per purged item)
            AtomicBoolean warmStop = new AtomicBoolean();
            Thread warmWriter = writer(c, "v", partitions, pad, warmStop, new AtomicLong());
            warmWriter.start();
            store.ttlPurger().nudge();
            store.ttlPurger().awaitPurgedTotal(warmPurged0 + warmUp, Duration.ofMinutes(10));
            warmStop.set(true);
            warmWriter.join();
            out.progress(String.format(Locale.ROOT, "warm-up (cold JIT) purge rate: %.0f items/s",
                    warmUp / ((System.nanoTime() - warm0) / 1e9)));
            out.progress("loading " + expired + " items with a 60 s time to live");
            load(c, "e", expired, partitions, pad);
            store.awaitBackgroundWork(60_000);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long purgerCpu0 = purgerCpuNanos(threads); // the purging thread and its helpers
            long processCpu0 = processCpuNanos();
            Map<String, Long> split0 = cpuByGroup();
            long purged0 = store.ttlPurger().purgedTotal();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong written = new AtomicLong();
            Thread writer = writer(c, "w", partitions, pad, stop, written);
            long t0 = System.nanoTime();
            clock.advance(Duration.ofSeconds(61)); // everything loaded has expired; the writer's items live 60 s more
            writer.start();
            store.ttlPurger().nudge();
            store.ttlPurger().awaitPurgedTotal(purged0 + expired, Duration.ofMinutes(10));
            long elapsed = System.nanoTime() - t0;
            stop.set(true);
            writer.join();
            long purged = store.ttlPurger().purgedTotal() - purged0;
            double seconds = elapsed / 1e9;
            double purgerCpuUs = (purgerCpuNanos(threads) - purgerCpu0) / 1e3 / Math.max(1, purged);
            double processCpuUs = (processCpuNanos() - processCpu0) / 1e3 / Math.max(1, purged);
            Map<String, Long> split = ThreadGroupCpu.minus(cpuByGroup(), split0);
            out.note("after a warm-up purge (JIT), not measured; items of 1 KiB, " + partitions + " logical partitions, default durability (SYNC); one writer "
                    + "writing 1 KiB items one by one meanwhile; the machine is shared with other work");
            out.result(String.format(Locale.ROOT, "BENCH ttl purge-rate=%.0f purged=%d seconds=%.2f "
                            + "purger_cpu_us_per_item=%.1f process_cpu_us_per_item=%.1f writes_during=%.0f",
                    purged / seconds, purged, seconds, purgerCpuUs, processCpuUs, written.get() / seconds));
            StringBuilder line = new StringBuilder("BENCH ttl.cpu-split items=").append(purged);
            long perItem = Math.max(1, purged);
            split.forEach((g, v) -> line.append(String.format(Locale.ROOT, " %s_us=%.1f", g, v / 1e3 / perItem)));
            out.result(line.toString());
            out.result(String.format(Locale.ROOT, "RATIO ttl purge-rate/target %.2f", purged / seconds / 50_000.0));
        } finally {
            BenchData.delete(dir);
        }
    }

    /** One writer writing 1 KiB items one by one (ids {@code prefix + n}) until {@code stop}. */
    private static Thread writer(ContainerStore c, String prefix, int partitions, String pad, AtomicBoolean stop,
                                 AtomicLong written) {
        return new Thread(() -> {
            for (long i = 0; !stop.get(); i++) {
                String p = "p" + (i % partitions);
                ObjectNode item = item(prefix + i, p, pad);
                if (!prefix.equals("w")) {
                    item.put("ttl", 600); // the warm-up's writes outlive the measured purge (not counted in it)
                }
                c.execute(PartitionKeyValue.of(M.getNodeFactory().textNode(p)), ItemOperation.create(item));
                written.incrementAndGet();
            }
        }, "bench-writer");
    }

    private static void load(ContainerStore c, String prefix, int n, int partitions, String pad) {
        for (int b = 0; b < n / 100; b++) {
            String p = "p" + (b % partitions);
            List<ItemOperation> ops = new ArrayList<>(100);
            for (int i = 0; i < 100; i++) {
                ops.add(ItemOperation.create(item(prefix + b + "-" + i, p, pad)));
            }
            c.executeBatch(PartitionKeyValue.of(M.getNodeFactory().textNode(p)), ops);
        }
    }

    private static ObjectNode item(String id, String pk, String pad) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("pad", pad);
    }

    /** CPU time of the purger's threads ({@code tetradb-ttl-purger} and its helpers, made at their first round). */
    private static long purgerCpuNanos(ThreadMXBean threads) {
        long sum = 0;
        boolean found = false;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("tetradb-ttl-purger")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getId()));
                found = true;
            }
        }
        if (!found) {
            throw new IllegalStateException("no purger thread");
        }
        return sum;
    }

    /**
     * The process's CPU by thread group (from {@code /proc/self/task}, 10 ms ticks): the purger's threads, the feed
     * pruner (it removes the purge's change records), the writer, RocksDB's background threads, GC, the JIT, the rest.
     */
    private static Map<String, Long> cpuByGroup() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String g : new String[]{"purger", "feed_pruner", "writer", "rocksdb", "gc", "jit", "other"}) {
            out.put(g, 0L);
        }
        return ThreadGroupCpu.snapshot(out, name -> name.startsWith("tetradb-ttl-pu") ? "purger"
                : name.startsWith("tetradb-feed-pr") ? "feed_pruner" : name.startsWith("bench-writer") ? "writer"
                : switch (ThreadGroupCpu.group(name)) {
                    case "rocksdb", "gc", "jit" -> ThreadGroupCpu.group(name);
                    default -> "other";
                });
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
