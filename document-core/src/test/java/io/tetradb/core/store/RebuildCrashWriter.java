package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.IndexingPolicy;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * The child process of {@link IndexRebuildCrashTest}: loads a container once, then (unless it resumed an unfinished
 * rebuild at open) flips its indexing policy between the default and a narrow one, while a writer thread upserts.
 * Prints {@code CHUNK} after each rebuild chunk and {@code DONE} when the rebuild ended; the test kills it.
 */
public final class RebuildCrashWriter {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CoreStore store = client.coreStore();
            store.rebuildChunkItems = 20;
            store.rebuildHook = c -> {
                System.out.println("CHUNK");
                System.out.flush();
            };
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            try {
                c.read();
            } catch (io.tetradb.document.CosmosException absent) {
                IndexRebuildTest.load(client);
            }
            ContainerStore cs = store.container("db", "c");
            Thread writer = new Thread(() -> {
                Random r = new Random(seed);
                for (int i = 0; ; i++) {
                    int n = r.nextInt(IndexRebuildTest.ITEMS + 500);
                    String pk = "p" + r.nextInt(IndexRebuildTest.BIG_PARTITIONS);
                    ObjectNode item = IndexRebuildTest.item(n, pk).put("v", i);
                    c.upsertItem(item);
                }
            });
            writer.setDaemon(true);
            writer.start();
            if (!cs.isIndexRebuilding()) {
                boolean narrow = c.read().getProperties().getIndexingPolicy().getIncludedPaths().size() == 2;
                c.replace(c.read().getProperties().setIndexingPolicy(narrow ? new IndexingPolicy()
                        : IndexRebuildTest.narrow()));
            }
            System.out.println("REPLACED " + List.of(cs.definition().indexingPolicy()));
            System.out.flush();
            cs.awaitIndexRebuild();
            System.out.println("DONE");
            System.out.flush();
            writer.join(); // until killed
        }
    }
}
