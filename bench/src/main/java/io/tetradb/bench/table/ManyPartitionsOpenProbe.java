package io.tetradb.bench.table;

import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.table.TableClient;
import io.tetradb.table.TableEntity;
import io.tetradb.table.TableServiceClient;
import io.tetradb.table.TableServiceClientBuilder;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a container's open costs when it holds many logical partitions (the common Azure Tables shape: one entity per
 * PartitionKey). The open recounts the physical partitions' sizes from every logical partition's statistics
 * ({@code CoreStore.recountPartitions}), so its cost grows with the number of partitions.
 *
 * <pre>
 * write DIR N [THREADS]   N entities, PartitionKey p&lt;i&gt;, RowKey r, in the table "open" (ASYNC durability)
 * open DIR [ROUNDS]       per round: open the store, then time the table container's first load (wall, thread CPU)
 * stats DIR [ROUNDS]      one open, then per round time {@code readPartitionStatistics} of the table's container
 *                         (every logical partition's statistics read, as the open's recount reads them)
 * </pre>
 * Run as {@code java -cp "bench/target/bench-VERSION.jar:bench/target/lib/*" io.tetradb.bench.table.ManyPartitionsOpenProbe ...};
 * {@code -Dtetradb.write.statsRecordEvery=0} on {@code write} writes the statistics record in every transaction.
 */
public final class ManyPartitionsOpenProbe {
    private static final String TABLE = "open";

    private ManyPartitionsOpenProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "write" -> write(dir, Integer.parseInt(args[2]), args.length > 3 ? Integer.parseInt(args[3]) : 4);
            case "open" -> open(dir, args.length > 2 ? Integer.parseInt(args[2]) : 3);
            case "stats" -> stats(dir, args.length > 2 ? Integer.parseInt(args[2]) : 5);
            default -> throw new IllegalArgumentException("write DIR N [THREADS] | open DIR [ROUNDS] | stats DIR [ROUNDS]");
        }
    }

    private static void write(Path dir, int n, int threads) throws Exception {
        long start = System.nanoTime();
        try (CosmosClient cosmos = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC)
                .buildClient();
             TableServiceClient service = new TableServiceClientBuilder().cosmosClient(cosmos).buildClient()) {
            TableClient table = service.createTableIfNotExists(TABLE);
            AtomicInteger next = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < n; ) {
                        table.createEntity(new TableEntity(String.format("p%08d", i), "r")
                                .addProperty("Name", "customer " + i).addProperty("Age", i % 90)
                                .addProperty("Balance", (long) i * 31));
                        if (i % 100_000 == 0) {
                            System.out.printf("written %,d after %.1f s%n", i, (System.nanoTime() - start) / 1e9);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
        }
        System.out.printf("wrote %,d single-entity partitions in %.1f s (statsRecordEvery=%s)%n", n,
                (System.nanoTime() - start) / 1e9, System.getProperty("tetradb.write.statsRecordEvery", "1024"));
    }

    private static void open(Path dir, int rounds) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Rounds measured = new Rounds();
        for (int r = 0; r < rounds; r++) {
            long storeStart = System.nanoTime();
            try (CosmosClient cosmos = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
                double storeOpen = (System.nanoTime() - storeStart) / 1e9;
                long cpu0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                var container = cosmos.coreStore().container("devstoreaccount1", TABLE); // the load: the recount
                double wall = (System.nanoTime() - t0) / 1e9;
                double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
                long items = container.partitionMap().partitions().stream()
                        .mapToLong(io.tetradb.core.partition.PhysicalPartition::items).sum();
                long logical = container.partitionMap().partitions().stream()
                        .mapToLong(io.tetradb.core.partition.PhysicalPartition::logicalPartitions).sum();
                System.out.printf("round %d: store open %.2f s, container load %.2f s wall, %.2f s thread CPU "
                        + "(%,d items in %,d logical partitions, %d physical)%n", r, storeOpen, wall, cpu, items,
                        logical, container.partitionMap().partitions().size());
                measured.add(wall, cpu);
            }
        }
        measured.printMedians("container load");
    }

    private static void stats(Path dir, int rounds) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Rounds measured = new Rounds();
        try (CosmosClient cosmos = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            var container = cosmos.getDatabase("devstoreaccount1").getContainer(TABLE);
            container.readPartitionStatistics(); // the container's load (the open's recount) and a first read
            for (int r = 0; r < rounds; r++) {
                long cpu0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                var stats = container.readPartitionStatistics();
                double wall = (System.nanoTime() - t0) / 1e9;
                double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
                System.out.printf("round %d: readPartitionStatistics %.3f s wall, %.3f s thread CPU (%,d items, "
                        + "%d physical)%n", r, wall, cpu, stats.physicalPartitions().stream()
                        .mapToLong(p -> p.itemCount()).sum(), stats.physicalPartitions().size());
                measured.add(wall, cpu);
            }
        }
        measured.printMedians("readPartitionStatistics");
    }

    /** Each round's wall and thread CPU seconds. */
    private static final class Rounds {
        private final List<Double> walls = new ArrayList<>();
        private final List<Double> cpus = new ArrayList<>();

        void add(double wall, double cpu) {
            walls.add(wall);
            cpus.add(cpu);
        }

        void printMedians(String what) {
            Collections.sort(walls);
            Collections.sort(cpus);
            System.out.printf("median of %d: %s %.3f s wall, %.3f s thread CPU%n", walls.size(), what,
                    walls.get(walls.size() / 2), cpus.get(cpus.size() / 2));
        }
    }
}
