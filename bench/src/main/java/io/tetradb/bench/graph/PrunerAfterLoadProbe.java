package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;
import java.io.InputStream;

/**
 * For measuring (session 23): what the feed pruner's pass after a bulk load costs. Two air-routes loads into new
 * containers of one SYNC store, the pruner's background thread off, one {@code pruneOnce()} after each load; prints
 * the pass's wall time and the records it read, was told of and checked against their items.
 * <pre>
 * java $OPENS -cp "bench/target/bench-*.jar:bench/target/lib/*" io.tetradb.bench.graph.PrunerAfterLoadProbe
 * </pre>
 */
public final class PrunerAfterLoadProbe {
    private PrunerAfterLoadProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("tetradb.feed.pruneIntervalMillis", "0"); // passes only when asked
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(BenchData.fresh("pruner-after-load"))
                .durability(Durability.SYNC).buildClient()) {
            io.tetradb.core.feed.FeedPruner pruner = client.coreStore().changeFeeds().pruner();
            for (int i = 0; i < 2; i++) {
                try (TetraGraph graph = GraphBenchmark.openGraph(client, "c" + i);
                     InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
                    BulkLoader.into(graph).partitionKey(GraphBenchmark::partitionKey)
                            .read(GryoReader.build().create(), in);
                }
                long t0 = System.nanoTime();
                long removed = pruner.pruneOnce();
                System.out.printf("load %d: pass removed %d in %.1f ms; read %d told %d itemReads %d%n", i, removed,
                        (System.nanoTime() - t0) / 1e6, pruner.recordsRead(), pruner.recordsTold(), pruner.itemReads());
            }
        }
    }
}
