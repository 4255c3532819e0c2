package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.core.store.StoreConfig;
import io.tetradb.testing.CrashWriters;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The child process of {@link FeedImagesCrashTest}: {@value #THREADS} threads write random creates, replaces, deletes
 * and mixed batches in {@value #PARTITIONS} partitions (each thread its own partitions) of a container keeping all
 * versions for {@value #RETENTION_MILLIS} ms, with the pruner every 50 ms (set by the test), until it is killed. After
 * each acknowledged transaction it prints one line per item version the transaction left:
 * {@code ACK pk id lsn sha256(image)}, the image being the stored version after its header (what an all-versions
 * page shows as {@code current}, and later as the next change's {@code previous}).
 */
public final class FeedImagesCrashWriter {
    static final int THREADS = 3;
    static final int PARTITIONS = 20;
    static final long RETENTION_MILLIS = 1000;
    private static final ObjectMapper M = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int round = Integer.parseInt(args[1]);
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore container = CrashWriters.container(s,
                    new ChangeFeedPolicy(Duration.ofMillis(RETENTION_MILLIS)));
            List<List<String>> live = CrashWriters.liveIds(container, PARTITIONS);
            Thread[] writers = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers[t] = new Thread(() -> write(container, live, round, thread), "writer-" + t);
                writers[t].start();
            }
            for (Thread w : writers) {
                w.join();
            }
        }
    }

    private static void write(ContainerStore c, List<List<String>> live, int round, int thread) {
        Random random = new Random(round * 7919L + thread * 31L + System.nanoTime());
        for (long n = 0; ; n++) {
            int p = thread + THREADS * random.nextInt((PARTITIONS - thread + THREADS - 1) / THREADS);
            PartitionKeyValue pk = PartitionKeyValue.of(List.of(PartitionKeyValue.component("p" + p)));
            List<String> ids = live.get(p);
            int count = random.nextInt(10) < 7 ? 1 : 2 + random.nextInt(6);
            List<ItemOperation> ops = new ArrayList<>();
            List<String> created = new ArrayList<>();
            List<String> deleted = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int what = random.nextInt(10);
                List<String> candidates = new ArrayList<>(ids);
                candidates.removeAll(deleted);
                if (what < 4 || candidates.isEmpty()) {
                    String id = round + "-" + thread + "-" + n + "-" + i;
                    ops.add(ItemOperation.create(M.createObjectNode().put("id", id).put("pk", "p" + p)
                            .put("fill", "c".repeat(random.nextInt(300)))));
                    created.add(id);
                } else {
                    String id = candidates.get(random.nextInt(candidates.size()));
                    if (what < 8) { // a batch may replace an id it created or replaced already
                        ops.add(ItemOperation.upsert(M.createObjectNode().put("id", id).put("pk", "p" + p)
                                .put("n", n).put("fill", "r".repeat(random.nextInt(300))), null));
                    } else {
                        ops.add(ItemOperation.delete(id, null));
                        deleted.add(id);
                        created.remove(id);
                    }
                }
                if (!created.isEmpty() && random.nextInt(4) == 0) { // an id created in this batch, changed again
                    String id = created.get(random.nextInt(created.size()));
                    ops.add(ItemOperation.upsert(M.createObjectNode().put("id", id).put("pk", "p" + p)
                            .put("again", n).put("fill", "a".repeat(random.nextInt(100))), null));
                }
            }
            List<ItemResult> results = count == 1 && ops.size() == 1 ? List.of(c.execute(pk, ops.get(0)))
                    : c.executeBatch(pk, ops);
            if (!results.stream().allMatch(ItemResult::isSuccess)) {
                System.out.println("FAILED " + results);
                System.exit(3);
            }
            Map<String, byte[]> last = new LinkedHashMap<>(); // the version each item is left at (one record each)
            for (ItemResult r : results) {
                last.put(r.id(), r.stored());
            }
            StringBuilder out = new StringBuilder();
            for (Map.Entry<String, byte[]> e : last.entrySet()) {
                if (e.getValue() != null) {
                    out.append("ACK p").append(p).append(' ').append(e.getKey()).append(' ')
                            .append(ItemCodec.lsn(e.getValue())).append(' ').append(sha256(image(e.getValue())))
                            .append('\n');
                }
            }
            ids.addAll(created);
            ids.removeAll(deleted);
            synchronized (System.out) {
                System.out.print(out);
                System.out.println("TX " + thread + " " + n);
                System.out.flush();
            }
        }
    }

    static byte[] image(byte[] stored) {
        return Arrays.copyOfRange(stored, ItemCodec.HEADER, stored.length);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
