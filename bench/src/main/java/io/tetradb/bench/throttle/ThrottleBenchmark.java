package io.tetradb.bench.throttle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.RateLimiter;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.throughput.PartitionBudget;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.ThroughputProperties;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * Rate limiting in the embedded store, rate limiting on: a container at 1,000 RU/s over 2 physical partitions
 * (created at 20,000 RU/s, then lowered: lowering keeps the partitions), so each partition's budget is 500 RU/s.
 * 8 writers hammer one hot key (they wait the retry-after on a 429, as the SDKs do); 8 writers spread over keys of
 * the other partition at a steady 80 % of its budget. Measured: RU/s served per partition against its budget, 429s
 * per partition, the spread writers' throughput with the hot writers running against without them, the limiter's
 * own cost per request when it does not throttle, and the process CPU per served operation.
 */
public final class ThrottleBenchmark implements Benchmark {
    static final int CONTAINER_RU = 1000;
    static final int WRITERS = 8;
    static final ObjectMapper M = new ObjectMapper();

    @Override
    public String name() {
        return "throttle";
    }

    @Override
    public String description() {
        return "rate limiting: 1,000 RU/s over 2 partitions, 8 writers on a hot key + 8 spread; served RU/s vs budget, "
                + "429s per partition, spread throughput with/without the hot key, limiter cost per request";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        int seconds = quick ? 8 : 30;
        int warmupSeconds = 2;
        Path dir = BenchData.fresh("throttle");
        out.note("throttle: embedded store, ASYNC durability, rate limiting on; " + CONTAINER_RU + " RU/s over 2 "
                + "physical partitions (500 RU/s each); " + WRITERS + " hot writers on one key, " + WRITERS
                + " spread writers paced at 80 % of the other partition's budget; " + seconds + " s per phase after "
                + warmupSeconds + " s of warm-up; the machine is shared with other work, so CPU figures are loaded");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC)
                .rateLimiting(true).buildClient()) {
            client.createDatabase("bench");
            client.getDatabase("bench").createContainer(new CosmosContainerProperties("orders", "/pk"),
                    ThroughputProperties.createManualThroughput(20_000));
            CosmosContainer orders = client.getDatabase("bench").getContainer("orders");
            orders.replaceThroughput(ThroughputProperties.createManualThroughput(CONTAINER_RU));
            ContainerStore store = client.coreStore().container("bench", "orders");
            RateLimiter limiter = client.coreStore().rateLimiter();
            List<PartitionBudget> budgets = limiter.budgets(store).all();
            PartitionBudget hotBudget = limiter.budgets(store).route(PartitionKeyValue.of(TextNode.valueOf("hot")).epk());
            List<String> coldKeys = new ArrayList<>();
            for (int i = 0; coldKeys.size() < 64; i++) {
                if (limiter.budgets(store).route(PartitionKeyValue.of(TextNode.valueOf("k" + i)).epk()) != hotBudget) {
                    coldKeys.add("k" + i);
                }
            }
            double coldBudget = budgets.stream().filter(b -> b != hotBudget).findFirst().orElseThrow().ruPerSecond();
            // one spread write costs about a 1 KB write: pace the spread writers to 80 % of their partition's budget
            double writeCharge = orders.createItem(item("probe", coldKeys.get(0))).getRequestCharge();
            double spreadOpsPerSecond = 0.8 * coldBudget / writeCharge;

            Phase without = phase(orders, limiter, budgets, hotBudget, coldKeys, spreadOpsPerSecond, false,
                    warmupSeconds, seconds, out);
            Phase with = phase(orders, limiter, budgets, hotBudget, coldKeys, spreadOpsPerSecond, true,
                    warmupSeconds, seconds, out);

            for (int i = 0; i < budgets.size(); i++) {
                PartitionBudget b = budgets.get(i);
                String role = b == hotBudget ? "hot" : "spread";
                out.result(String.format(Locale.ROOT, "BENCH throttle.partition%d.%s budget_ru_per_s=%.0f "
                                + "served_ru_per_s=%.1f served_of_budget=%.3f throttled=%d", i, role, b.ruPerSecond(),
                        with.servedRu[i] / seconds, with.servedRu[i] / seconds / b.ruPerSecond(), with.throttled[i]));
            }
            out.result(String.format(Locale.ROOT, "BENCH throttle.spread without_hot_ops_per_s=%.1f "
                    + "with_hot_ops_per_s=%.1f paced_ops_per_s=%.1f", without.spreadOps / (double) seconds,
                    with.spreadOps / (double) seconds, spreadOpsPerSecond));
            out.result(String.format(Locale.ROOT, "BENCH throttle.hot ops_per_s=%.1f attempts_throttled=%d",
                    with.hotOps / (double) seconds, with.hot429));
            out.result(String.format(Locale.ROOT, "BENCH throttle.cpu process_cpu_us_per_op=%.1f",
                    with.cpuNanos / 1000.0 / Math.max(1, with.hotOps + with.spreadOps)));
            out.ratio("spread-throughput with-hot/without", with.spreadOps / (double) Math.max(1, without.spreadOps));
            out.ratio("hot-partition served/budget", with.servedRu[budgets.indexOf(hotBudget)] / seconds
                    / hotBudget.ruPerSecond());

            out.result(String.format(Locale.ROOT, "BENCH throttle.limiter ns_per_request=%.0f",
                    limiterCost(limiter, store, quick)));
        } finally {
            BenchData.delete(dir);
        }
    }

    /** The limiter's own work per request (admit + settle) on a partition with budget to spare. */
    private static double limiterCost(RateLimiter limiter, ContainerStore store, boolean quick) {
        byte[] epk = PartitionKeyValue.of(TextNode.valueOf("k1")).epk();
        PartitionKeyValue pk = PartitionKeyValue.of(TextNode.valueOf("k1"));
        int n = quick ? 2_000_000 : 10_000_000;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                // a tiny charge: the bucket never empties, so this is the cost when not throttling
                limiter.settle(limiter.admit(store, epk), 1e-9, pk);
            }
            best = Math.min(best, (System.nanoTime() - start) / (double) n);
        }
        return best;
    }

    static ObjectNode item(String id, String pk) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("a", 1).put("b", "two").put("c", 3.5)
                .put("pad", "x".repeat(700));
    }

    private static final class Phase {
        final double[] servedRu;
        final long[] throttled;
        long hotOps;
        long hot429;
        long spreadOps;
        long cpuNanos;

        Phase(int partitions) {
            servedRu = new double[partitions];
            throttled = new long[partitions];
        }
    }

    private static Phase phase(CosmosContainer orders, RateLimiter limiter, List<PartitionBudget> budgets,
                               PartitionBudget hotBudget, List<String> coldKeys, double spreadOpsPerSecond,
                               boolean withHot, int warmupSeconds, int seconds, Report out) throws Exception {
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean stop = new AtomicBoolean(false);
        // ids unique across phases: a spread writer whose create hit an id of the earlier phase (409) used to die
        // silently, which is what made the spread writers look slowed by the hot ones (0.63-0.88)
        String phaseTag = withHot ? "p2-" : "p1-";
        AtomicLong ids = new AtomicLong();
        AtomicLong hotOps = new AtomicLong();
        AtomicLong hot429 = new AtomicLong();
        AtomicLong spreadOps = new AtomicLong();
        DoubleAdder[] served = {new DoubleAdder(), new DoubleAdder()};
        int hotIndex = budgets.indexOf(hotBudget);
        List<Thread> threads = new ArrayList<>();
        if (withHot) {
            for (int w = 0; w < WRITERS; w++) {
                threads.add(new Thread(() -> {
                    while (!stop.get()) {
                        try {
                            double ru = orders.createItem(item(phaseTag + "h" + ids.incrementAndGet(), "hot"))
                                    .getRequestCharge();
                            if (measuring.get()) {
                                hotOps.incrementAndGet();
                                served[hotIndex].add(ru);
                            }
                        } catch (CosmosException e) {
                            if (e.getStatusCode() != 429) {
                                throw e;
                            }
                            if (measuring.get()) {
                                hot429.incrementAndGet();
                            }
                            sleepMillis(e.getRetryAfterDuration().toMillis()); // as the SDKs' retry policies do
                        }
                    }
                }, "hot-" + w));
            }
        }
        long periodNanos = (long) (1e9 * WRITERS / spreadOpsPerSecond);
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            threads.add(new Thread(() -> {
                long next = System.nanoTime() + writer * periodNanos / WRITERS;
                int k = writer;
                while (!stop.get()) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        sleepMillis(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    next += periodNanos;
                    String key = coldKeys.get(k++ % coldKeys.size());
                    try {
                        double ru = orders.createItem(item(phaseTag + "s" + ids.incrementAndGet(), key))
                                .getRequestCharge();
                        if (measuring.get()) {
                            spreadOps.incrementAndGet();
                            served[1 - hotIndex].add(ru);
                        }
                    } catch (CosmosException e) {
                        if (e.getStatusCode() != 429) {
                            throw e;
                        }
                        sleepMillis(e.getRetryAfterDuration().toMillis());
                    }
                }
            }, "spread-" + w));
        }
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        threads.forEach(t -> t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e)));
        threads.forEach(Thread::start);
        sleepMillis(warmupSeconds * 1000L);
        long[] throttledBefore = throttledTotals(limiter, budgets);
        long cpuBefore = processCpuNanos();
        measuring.set(true);
        sleepMillis(seconds * 1000L);
        measuring.set(false);
        long cpuAfter = processCpuNanos();
        long[] throttledAfter = throttledTotals(limiter, budgets);
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) { // a writer that stopped would make its side look slow: fail the benchmark
            throw new IllegalStateException("a writer failed: " + failure.get(), failure.get());
        }
        Phase p = new Phase(budgets.size());
        for (int i = 0; i < budgets.size(); i++) {
            p.servedRu[i] = served[i].sum();
            p.throttled[i] = throttledAfter[i] - throttledBefore[i];
        }
        p.hotOps = hotOps.get();
        p.hot429 = hot429.get();
        p.spreadOps = spreadOps.get();
        p.cpuNanos = cpuAfter - cpuBefore;
        out.progress((withHot ? "with" : "without") + " the hot writers: spread " + p.spreadOps + " ops, hot "
                + p.hotOps + " ops, " + p.hot429 + " hot attempts throttled");
        return p;
    }

    private static long[] throttledTotals(RateLimiter limiter, List<PartitionBudget> budgets) {
        long now = limiter.now();
        return budgets.stream().mapToLong(b -> b.usage(now, 1).throttledTotal()).toArray();
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    private static void sleepMillis(long ms) {
        sleepMillis(ms, 0);
    }

    private static void sleepMillis(long ms, int nanos) {
        try {
            Thread.sleep(ms, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
