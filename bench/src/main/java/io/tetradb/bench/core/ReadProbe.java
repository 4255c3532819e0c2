package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.bench.BenchData;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.document.CosmosItemResponse;
import io.tetradb.document.PartitionKey;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A diagnostic, not a benchmark (issue 17, core-read): the parts of a core point read, each as the calling thread's
 * CPU per operation, in alternating rounds over one store of core-benchmark items (no fsync: reads only): the
 * document API's {@code readItem} alone, with {@code getItem()}, with {@code getItem()} and every field visited, the
 * store's {@code ContainerStore.read}, the engine's get of the same key, {@code ItemCodec.parse} of stored bytes
 * and the TB1 encoding of the caller's tree (a batched create's). Run with
 * {@code java -cp "bench/target/bench-<v>.jar:bench/target/lib/*" io.tetradb.bench.core.ReadProbe [itemsK] [reads] [rounds]}.
 */
public final class ReadProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static long sink;

    interface Op {
        void run(int i);
    }

    public static void main(String[] args) throws Exception {
        int itemsK = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int reads = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        Path dir = BenchData.fresh("read-probe");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir)
                .durability(Durability.ASYNC).buildClient()) {
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase database = client.getDatabase("bench");
            database.createContainerIfNotExists(CoreBenchmark.itemsContainer());
            CosmosContainer container = database.getContainer("items");
            ContainerStore store = client.coreStore().container("bench", "items");
            Items items = new Items(store.definition().collId(), CoreBenchmark.DEVICES);
            int total = itemsK * 1000;
            for (int b = 0; b < total / 100; b++) {
                int device = b % CoreBenchmark.DEVICES;
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items.deviceId(device)));
                for (int j = 0; j < 100; j++) {
                    long n = (long) b * 100 + j;
                    batch.createItemOperation(items.item(Items.id("i", n), device, n));
                }
                if (!container.executeCosmosBatch(batch).isSuccessStatusCode()) {
                    throw new IllegalStateException("load failed");
                }
            }
            var engineField = client.coreStore().getClass().getDeclaredField("engine");
            engineField.setAccessible(true);
            var engine = (io.tetradb.core.storage.StorageEngine) engineField.get(client.coreStore());
            ItemCodec codec = client.coreStore().codec();
            SplittableRandom random = new SplittableRandom(11);
            String[] ids = new String[reads];
            String[] devices = new String[reads];
            PartitionKeyValue[] pks = new PartitionKeyValue[reads];
            byte[][] keys = new byte[reads][];
            for (int i = 0; i < reads; i++) {
                long n = random.nextLong(total);
                int device = (int) ((n / 100) % CoreBenchmark.DEVICES);
                ids[i] = Items.id("i", n);
                devices[i] = items.deviceId(device);
                pks[i] = PartitionKeyValue.of(TextNode.valueOf(devices[i]));
                keys[i] = items.key(device, ids[i]);
            }
            byte[][] stored = new byte[2000][];
            ObjectNode[] trees = new ObjectNode[2000];
            for (int i = 0; i < stored.length; i++) {
                stored[i] = store.read(pks[i], ids[i], null).stored();
                trees[i] = items.item(Items.id("e", i), i % CoreBenchmark.DEVICES, i);
            }
            var binaryWriter = new io.tetradb.core.item.BinaryItemWriter(2048, 128);
            Map<String, Op> ops = new LinkedHashMap<>();
            ops.put("readItem", i -> sink += container.readItem(ids[i], new PartitionKey(devices[i]),
                    ObjectNode.class).getStatusCode());
            ops.put("readItem+getItem", i -> sink += container.readItem(ids[i], new PartitionKey(devices[i]),
                    ObjectNode.class).getItem().size());
            ops.put("readItem+getItem+visit", i -> sink += visit(container.readItem(ids[i],
                    new PartitionKey(devices[i]), ObjectNode.class).getItem()));
            ops.put("store.read", i -> sink += store.read(pks[i], ids[i], null).stored().length);
            ops.put("engine.get", i -> sink += engine.get(io.tetradb.core.storage.Space.DOCS, keys[i]).length);
            ops.put("codec.parse", i -> sink += codec.parse(stored[i % stored.length]).size());
            ops.put("codec.parse+visit", i -> sink += visit(codec.parse(stored[i % stored.length])));
            // core-read (session 11): the tree decoded when first touched, its size alone and every value visited
            ops.put("lazy.parse", i -> sink += io.tetradb.core.item.StoredItems.parseLazily(
                    stored[i % stored.length]).size());
            ops.put("lazy.parse+visit", i -> sink += visit(io.tetradb.core.item.StoredItems.parseLazily(
                    stored[i % stored.length])));
            ops.put("tb1.encode", i -> sink += binaryWriter.write(trees[i % trees.length]).length);
            Map<String, List<Double>> cpu = new LinkedHashMap<>();
            List<String> names = new ArrayList<>(ops.keySet());
            for (int round = -2; round < rounds; round++) {
                List<String> order = new ArrayList<>(names);
                if ((round & 1) == 1) {
                    java.util.Collections.reverse(order);
                }
                for (String name : order) {
                    Op op = ops.get(name);
                    long c0 = THREADS.getCurrentThreadCpuTime();
                    for (int i = 0; i < reads; i++) {
                        op.run(i);
                    }
                    long c = THREADS.getCurrentThreadCpuTime() - c0;
                    if (round >= 0) {
                        cpu.computeIfAbsent(name, k -> new ArrayList<>()).add(c / (double) reads);
                    }
                }
            }
            for (Map.Entry<String, List<Double>> e : cpu.entrySet()) {
                double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
                System.out.printf(Locale.ROOT, "PROBE read %-24s cpu_ns_per_op median=%.0f min=%.0f max=%.0f%n",
                        e.getKey(), v[v.length / 2], v[0], v[v.length - 1]);
            }
            System.out.println("# sink " + sink + " " + Arrays.hashCode(new int[0]));
        } finally {
            BenchData.delete(dir);
        }
    }

    /** Touches every value of the tree, as a caller reading the whole item does. */
    static int visit(JsonNode n) {
        if (n.isObject()) {
            int s = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                s += f.getKey().length() + visit(f.getValue());
            }
            return s;
        }
        if (n.isArray()) {
            int s = 0;
            for (JsonNode e : n) {
                s += visit(e);
            }
            return s;
        }
        return n.isTextual() ? n.textValue().length() : 1;
    }
}
