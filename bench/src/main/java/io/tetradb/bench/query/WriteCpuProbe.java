package io.tetradb.bench.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.ThroughputProperties;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A diagnostic (issue 17, write-cost): the writing thread's CPU per item of point creates and of 100-item
 * {@code CosmosBatch} creates of the query benchmark's items, into a default-indexed and an unindexed container, in
 * alternating rounds, with ASYNC durability (no fsync on the thread: what is left is Java and RocksDB's write). Thread
 * CPU, not wall time, so two builds can be compared on a shared machine by running this probe of each alternately:
 * <pre>
 * java -cp "bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" io.tetradb.bench.query.WriteCpuProbe [rounds] [itemsPerRound]
 * </pre>
 * Prints {@code PROBE <point|batch100>.<indexed|none> cpu_us_per_item=<median of rounds> rounds=...}.
 */
public final class WriteCpuProbe {
    private static final String[] NAMES = {"point.indexed", "point.none", "batch100.indexed", "batch100.none"};

    private WriteCpuProbe() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 4000;
        Path dir = BenchData.fresh("write-cpu-probe");
        // -Dprobe.only=<side>: one side alone (to put perf on it)
        int only = List.of(NAMES).indexOf(System.getProperty("probe.only", ""));
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        List<List<Double>> figures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            figures.add(new ArrayList<>());
        }
        long seq = 0;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC)
                .buildClient()) {
            CosmosContainer indexed = container(client, QueryBenchmark.indexed("indexed"));
            CosmosContainer none = container(client, QueryBenchmark.unindexed("none"));
            for (int r = -2; r < rounds; r++) { // two warm-up rounds
                for (int side = 0; side < 4; side++) {
                    int s = (side + Math.max(r, 0)) % 4; // rotate which side goes first
                    if (only >= 0 && s != only) {
                        continue;
                    }
                    CosmosContainer c = (s & 1) == 0 ? indexed : none;
                    double us = (s & 2) == 0 ? points(c, seq, perRound, cpu) : batches(c, seq, perRound, cpu);
                    seq += perRound;
                    if (r >= 0) {
                        figures.get(s).add(us);
                    }
                }
            }
        } finally {
            BenchData.delete(dir);
        }
        for (int s = 0; s < 4; s++) {
            if (figures.get(s).isEmpty()) {
                continue;
            }
            List<Double> f = new ArrayList<>(figures.get(s));
            StringBuilder sb = new StringBuilder();
            for (double d : f) {
                sb.append(String.format(Locale.ROOT, "%.2f ", d));
            }
            Collections.sort(f);
            System.out.printf(Locale.ROOT, "PROBE %s cpu_us_per_item=%.2f rounds=%s%n", NAMES[s], f.get(f.size() / 2),
                    sb.toString().trim());
        }
    }

    private static double points(CosmosContainer c, long first, int n, ThreadMXBean cpu) {
        ObjectNode[] items = items(first, n);
        long c0 = cpu.getCurrentThreadCpuTime();
        for (ObjectNode item : items) {
            c.createItem(item);
        }
        return (cpu.getCurrentThreadCpuTime() - c0) / 1e3 / n;
    }

    private static double batches(CosmosContainer c, long first, int n, ThreadMXBean cpu) {
        ObjectNode[] items = items(first, n);
        long c0 = cpu.getCurrentThreadCpuTime();
        for (int b = 0; b < n; b += QueryBenchmark.BATCH) {
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items[b].get("deviceId").textValue()));
            for (int i = b; i < b + QueryBenchmark.BATCH; i++) {
                batch.createItemOperation(items[i]);
            }
            if (!c.executeCosmosBatch(batch).isSuccessStatusCode()) {
                throw new IllegalStateException("batch failed");
            }
        }
        return (cpu.getCurrentThreadCpuTime() - c0) / 1e3 / n;
    }

    /** Items {@code first..first+n}; a batch's 100 share one device (the query benchmark's shape). */
    private static ObjectNode[] items(long first, int n) {
        ObjectNode[] out = new ObjectNode[n];
        for (int i = 0; i < n; i++) {
            out[i] = QueryBenchmark.item(first + i);
        }
        return out;
    }

    private static CosmosContainer container(CosmosClient client, CosmosContainerProperties props) {
        client.createDatabaseIfNotExists("probe");
        client.getDatabase("probe").createContainerIfNotExists(props,
                ThroughputProperties.createManualThroughput(QueryBenchmark.THROUGHPUT));
        return client.getDatabase("probe").getContainer(props.getId());
    }
}
