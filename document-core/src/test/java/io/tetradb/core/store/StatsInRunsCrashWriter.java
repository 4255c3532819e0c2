package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.testing.CrashWriters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The child process of {@link StatsInRunsCrashTest}: point creates, replaces and deletes and small batches of mixed
 * operations in {@value #PARTITIONS} partitions, printing {@code ACK n} after each acknowledged one, until it is
 * killed. Deletes leave tombstone runs the pruner (run every 20 ms by the test) removes, moving the statistics they
 * carried into the partitions' records.
 */
public final class StatsInRunsCrashWriter {
    static final int PARTITIONS = 5;
    private static final ObjectMapper M = new ObjectMapper();

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int round = Integer.parseInt(args[1]);
        Random random = new Random(round * 7919L + System.nanoTime());
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = CrashWriters.container(s, null);
            List<List<String>> live = CrashWriters.liveIds(c, PARTITIONS);
            System.out.println("READY");
            System.out.flush();
            for (long n = 0; ; n++) {
                int p = random.nextInt(PARTITIONS);
                PartitionKeyValue pk = PartitionKeyValue.of(List.of(PartitionKeyValue.component("p" + p)));
                List<String> ids = live.get(p);
                int kind = random.nextInt(10);
                List<ItemOperation> ops = new ArrayList<>();
                List<String> created = new ArrayList<>();
                List<String> deleted = new ArrayList<>();
                int count = kind < 7 ? 1 : 2 + random.nextInt(7);
                for (int i = 0; i < count; i++) {
                    int what = random.nextInt(10);
                    List<String> candidates = new ArrayList<>(ids);
                    candidates.removeAll(deleted);
                    candidates.removeAll(created);
                    if (what < 5 || candidates.isEmpty()) {
                        String id = round + "-" + n + "-" + i;
                        ops.add(ItemOperation.create(M.createObjectNode().put("id", id).put("pk", "p" + p)
                                .put("fill", "f".repeat(random.nextInt(200)))));
                        created.add(id);
                    } else {
                        String id = candidates.get(random.nextInt(candidates.size()));
                        if (what < 7) {
                            ops.add(ItemOperation.upsert(M.createObjectNode().put("id", id).put("pk", "p" + p)
                                    .put("fill", "r".repeat(random.nextInt(300))), null));
                        } else {
                            ops.add(ItemOperation.delete(id, null));
                            deleted.add(id);
                        }
                    }
                }
                List<ItemResult> results = c.executeBatch(pk, ops);
                if (!results.stream().allMatch(ItemResult::isSuccess)) {
                    System.out.println("FAILED " + results);
                    System.exit(3);
                }
                ids.addAll(created);
                ids.removeAll(deleted);
                System.out.println("ACK " + n);
                System.out.flush();
            }
        }
    }
}
