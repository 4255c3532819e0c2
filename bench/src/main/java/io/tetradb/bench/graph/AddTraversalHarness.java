package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__.select;

/**
 * For measuring (not a benchmark of record): elements per second and process CPU per element of Gremlin traversals
 * that create elements, against {@code BulkLoader} on the same elements, on one SYNC store, each mode into a fresh
 * container, the modes alternating per round:
 * <ul>
 *   <li>{@code inject}: {@code g.inject(rows).unfold().addV('v').property(T.id, select('id')).property('pk',
 *       select('pk'))...iterate()} for the vertices, then the same for the edges ({@code addE('e').from(V)} is not
 *       batched, so the edges are added by chains);</li>
 *   <li>{@code chain}: traversals of 50 {@code addV} and 49 {@code addE} ({@code g.addV().as('a')...addE().from('a')
 *       .to('b')}), one partition per traversal;</li>
 *   <li>{@code bulk}: {@code BulkLoader.load} of a TinkerGraph holding the same vertices and chain edges
 *       (bulk mode, SST ingestion), and {@code batches}: the same with {@code ingest(false)} (the core's batches).</li>
 * </ul>
 * <pre>
 * java $OPENS -cp "bench/target/bench-*.jar:bench/target/lib/*" io.tetradb.bench.graph.AddTraversalHarness \
 *     ROUNDS VERTICES PARTITIONS MODE...
 * </pre>
 * Compare {@code -Dtetradb.graph.addBatchTraversers=100 -Dtetradb.graph.addBatchElements=2147483647} (the earlier
 * rule: a flush every 100 traversers). Wall and process CPU per element; the vertex and edge counts are checked.
 */
public final class AddTraversalHarness {
    private static final int CHAIN = 50;

    private AddTraversalHarness() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int vertices = Integer.parseInt(args[1]);
        int partitions = Integer.parseInt(args[2]);
        List<String> modes = List.of(args).subList(3, args.length);
        Path dir = BenchData.fresh("graph-add-harness");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient()) {
            int n = 0;
            for (int r = -1; r < rounds; r++) { // round -1: warm-up
                for (String mode : modes) {
                    client.coreStore().awaitBackgroundWork(GraphBenchmark.SETTLE_MILLIS);
                    try (TetraGraph graph = GraphBenchmark.openGraph(client, "add" + n++)) {
                        long c0 = GraphBenchmark.processCpuNanos();
                        long t0 = System.nanoTime();
                        long elements = run(graph, mode, vertices, partitions);
                        long wall = System.nanoTime() - t0;
                        long cpu = GraphBenchmark.processCpuNanos() - c0;
                        long stored = graph.traversal().V().count().next() + graph.traversal().E().count().next();
                        if (stored != elements) {
                            throw new IllegalStateException(mode + ": " + stored + " stored, " + elements + " added");
                        }
                        System.out.printf(Locale.ROOT, "%s %-8s %7d elements %9.0f el/s %7.1f us cpu/el%n",
                                r < 0 ? "warm " : "round", mode, elements, elements / (wall / 1e9),
                                cpu / 1e3 / elements);
                    }
                }
            }
        }
    }

    private static long run(TetraGraph graph, String mode, int vertices, int partitions) {
        GraphTraversalSource g = graph.traversal();
        return switch (mode) {
            case "inject" -> inject(g, vertices, partitions);
            case "chain" -> chains(g, vertices, partitions);
            case "bulk" -> BulkLoader.into(graph).load(source(vertices, partitions)).elements();
            case "batches" -> BulkLoader.into(graph).ingest(false).load(source(vertices, partitions)).elements();
            default -> throw new IllegalArgumentException("mode: inject, chain, bulk, batches");
        };
    }

    private static long inject(GraphTraversalSource g, int vertices, int partitions) {
        List<Map<String, Object>> rows = new ArrayList<>(vertices);
        for (int i = 0; i < vertices; i++) {
            rows.add(Map.of("id", "v" + i, "pk", "p" + (i % partitions), "name", "name" + i, "n", i));
        }
        g.inject(rows).unfold().addV("v").property(T.id, select("id")).property("pk", select("pk"))
                .property("name", select("name")).property("n", select("n")).iterate();
        return vertices;
    }

    /** One traversal per 50 vertices of one partition: addV ×50, then an edge between each neighbour pair. */
    private static long chains(GraphTraversalSource g, int vertices, int partitions) {
        long elements = 0;
        for (int start = 0; start < vertices; start += CHAIN) {
            String pk = "p" + (start / CHAIN % partitions);
            int size = Math.min(CHAIN, vertices - start);
            GraphTraversal<?, ?> t = null;
            for (int i = 0; i < size; i++) {
                int v = start + i;
                t = (t == null ? g.addV("v") : t.addV("v")).property(T.id, "v" + v).property("pk", pk)
                        .property("name", "name" + v).property("n", v).as("v" + i);
            }
            for (int i = 1; i < size; i++) {
                t = t.addE("e").from("v" + (i - 1)).to("v" + i).property("w", i);
            }
            t.iterate();
            elements += size + size - 1;
        }
        return elements;
    }

    /** The chains' vertices and edges in a TinkerGraph, for BulkLoader. */
    private static TinkerGraph source(int vertices, int partitions) {
        TinkerGraph tg = TinkerGraph.open();
        org.apache.tinkerpop.gremlin.structure.Vertex prev = null;
        for (int v = 0; v < vertices; v++) {
            String pk = "p" + (v / CHAIN % partitions);
            var x = tg.addVertex(T.id, "v" + v, T.label, "v", "pk", pk, "name", "name" + v, "n", v);
            if (v % CHAIN != 0) {
                prev.addEdge("e", x, "w", v % CHAIN);
            }
            prev = x;
        }
        return tg;
    }
}
