package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.bulk.BulkLoad;
import io.tetradb.core.storage.Durability;

import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link BulkIngestCrashTest}: bulk-loads chunks into a graph container and prints {@code ACK
 * round chunk} once each is committed, until it is killed (or halts itself at a stage of a chunk's commit, with
 * {@code -Dtetradb.test.bulkHaltAt}). A chunk holds {@value #ITEMS_PER_PARTITION} items in each of {@link
 * #PARTITIONS}, vertices and edges, ids prefixed {@code r<round>c<chunk>-}.
 */
public final class BulkCrashWriter {
    static final int ITEMS_PER_PARTITION = 60;
    static final List<String> PARTITIONS = List.of("p0", "p1", "p2", "p3");

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        String round = args[1];
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir).withDurability(Durability.SYNC))) {
            ContainerStore c;
            try {
                c = s.container("db", "g");
            } catch (RuntimeException notYet) {
                c = BulkIngestTest.graphContainer(s);
            }
            if (c.graphAdjacency() == null) {
                c.enableGraphAdjacency();
            }
            try (BulkLoad bulk = c.beginBulkLoad()) {
                for (int chunk = 0; ; chunk++) {
                    for (String pk : PARTITIONS) {
                        List<ObjectNode> items = BulkIngestTest.items(pk, ITEMS_PER_PARTITION);
                        for (ObjectNode item : items) {
                            item.put("id", "r" + round + "c" + chunk + "-" + item.get("id").asText())
                                    .put("chunk", round + "-" + chunk);
                            if (item.has("_isEdge")) { // the edge's ends in this chunk
                                item.put("_vertexId", "r" + round + "c" + chunk + "-" + item.get("_vertexId").asText())
                                        .put("_sink", "r" + round + "c" + chunk + "-" + item.get("_sink").asText());
                            }
                        }
                        List<ItemResult> r = bulk.write(BulkIngestTest.key(pk), BulkIngestTest.creates(items));
                        if (!r.stream().allMatch(ItemResult::isSuccess)) {
                            System.out.println("FAILED " + r.get(0).status() + " " + r.get(0).error());
                            return;
                        }
                    }
                    bulk.commit();
                    System.out.println("ACK " + round + " " + chunk);
                    System.out.flush();
                }
            }
        }
    }
}
