package io.tetradb.graph.structure;

import io.tetradb.core.store.ContainerStore;
import io.tetradb.graph.TempDirGraphTest;
import io.tetradb.graph.process.traversal.strategy.optimization.TetraBatchedAddStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Traversals that only create elements write them as one core batch per logical partition
 * ({@code TetraBatchedAddStrategy}), with the results and the errors of one write per element.
 */
class BatchedAddTest extends TempDirGraphTest {
    private long coreWrites() {
        ContainerStore core = client.coreStore().container("graphdb", "graph");
        return core.writeStamps().any();
    }

    @Test
    void injectedCreatesAreWrittenInBatches() {
        List<Object> ids = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ids.add("n" + i);
        }
        Function<GraphTraversalSource, GraphTraversal<?, ?>> load = s -> s.inject(ids.toArray()).as("i")
                .addV("n").property(T.id, __.select("i")).property("pk", "p").property("k", 1).id();
        assertTrue(load.apply(g).explain().toString().contains("TetraBatchedAddStep"));
        long before = coreWrites();
        List<?> batched = load.apply(g).toList();
        long batchedWrites = coreWrites() - before;
        g.V().hasLabel("n").drop().iterate();
        before = coreWrites();
        List<?> single = load.apply(g.withoutStrategies(TetraBatchedAddStrategy.class)).toList();
        long singleWrites = coreWrites() - before;
        assertEquals(single, batched);
        assertEquals(300, singleWrites);
        assertTrue(batchedWrites <= 3, "core writes: " + batchedWrites);
        assertEquals(300L, g.V().hasLabel("n").count().next());
        // iterate() ends the traversal with a discard step: still batched, 100 traversers at a time
        before = coreWrites();
        g.inject(ids.toArray()).as("i").addV("m").property(T.id, __.select("i")).property("pk", "p2").iterate();
        assertTrue(coreWrites() - before <= 3, "core writes: " + (coreWrites() - before));
        assertEquals(300L, g.V().hasLabel("m").count().next());
    }

    /**
     * Creates spread over many partitions: under iterate() one flush holds them all (up to 10,000 elements), so each
     * partition gets one batch; read with toList() the flushes double from 100 traversers. Before, every 100
     * traversers were a flush, here one core write per partition touched per 100: 20 × 50.
     */
    @Test
    void manyPartitionsGetFullBatchesUnderIterate() {
        long before = coreWrites();
        g.inject(rows("w", 2_000)).addV("w").property(T.id, __.select("id")).property("pk", __.select("pk")).iterate();
        long iterated = coreWrites() - before;
        assertEquals(2_000L, g.V().hasLabel("w").count().next());
        assertTrue(iterated <= 50, "core writes under iterate(): " + iterated);

        before = coreWrites();
        List<Object> ids = g.inject(rows("u", 2_000)).addV("u").property(T.id, __.select("id"))
                .property("pk", __.select("pk")).id().toList();
        long listed = coreWrites() - before;
        assertEquals(2_000, ids.size());
        assertEquals(List.of("p7", "u7"), ids.get(7)); // in creation order
        assertTrue(listed <= 5 * 50, "core writes under toList(): " + listed); // 100, 200, 400, 800, 500

        GraphTraversal<?, ?> partial = g.inject(rows("t", 2_000)).addV("t").property(T.id, __.select("id"))
                .property("pk", __.select("pk"));
        partial.next();
        assertEquals(100L, g.V().hasLabel("t").count().next()); // read with next(): 100 traversers ahead, as before
    }

    /** {id: prefix + i, pk: p(i mod 50)} for i below n. */
    private static Object[] rows(String prefix, int n) {
        Object[] rows = new Object[n];
        for (int i = 0; i < n; i++) {
            rows[i] = Map.of("id", prefix + i, "pk", "p" + (i % 50));
        }
        return rows;
    }

    /** A duplicate deep inside one large flush over 50 partitions: as one write per element. */
    @Test
    void aDuplicateInALargeFlushFailsAsOneByOneWritesFail() {
        g.addV("d").property(T.id, "d700").property("pk", "p0").iterate();
        Object[] rows = rows("d", 1_000);
        Function<GraphTraversalSource, GraphTraversal<?, ?>> load = s -> s.inject(rows).addV("d")
                .property(T.id, __.select("id")).property("pk", __.select("pk"));
        Exception batched = assertThrows(Exception.class, () -> load.apply(g).iterate());
        List<String> batchedIds = sorted(g.V().hasLabel("d").id().toList());
        g.V().hasLabel("d").drop().iterate();
        g.addV("d").property(T.id, "d700").property("pk", "p0").iterate();
        Exception single = assertThrows(Exception.class,
                () -> load.apply(g.withoutStrategies(TetraBatchedAddStrategy.class)).iterate());
        List<String> singleIds = sorted(g.V().hasLabel("d").id().toList());
        assertEquals(single.getMessage(), batched.getMessage());
        assertEquals(701, singleIds.size()); // d0..d699 and the d700 there before
        assertEquals(singleIds, batchedIds);
        assertTrue(graph.store().adjacency().check().consistent());
    }

    @Test
    void chainsOfVerticesAndEdgesAreOneBatchPerPartition() {
        long before = coreWrites();
        Object e = g.addV("city").property(T.id, "a").property("pk", "p1").as("a")
                .addV("city").property(T.id, "b").property("pk", "p2").as("b")
                .addV("city").property(T.id, "c").property("pk", "p1").as("c")
                .addE("road").from("a").to("b").property(T.id, "ab").property("km", 5)
                .addE("road").from("c").to("a").property(T.id, "ca")
                .addE("road").from("b").to("c").property(T.id, "bc").id().next();
        assertEquals(List.of("p2", "bc"), e);
        assertEquals(2, coreWrites() - before); // p1: a, c, ab, ca; p2: b, bc
        assertEquals(List.of(List.of("p2", "b")), g.V(List.of("p1", "a")).out("road").id().toList());
        assertEquals(List.of(List.of("p1", "c")), g.V(List.of("p1", "a")).in("road").id().toList());
        assertEquals(5, g.E(List.of("p1", "ab")).values("km").next());
        assertTrue(graph.store().adjacency().check().consistent());
    }

    /** A duplicate id in the middle: the same error, the elements before it written, none after it. */
    @Test
    void aDuplicateFailsAsOneByOneWritesFail() {
        g.addV("x").property(T.id, "dup").property("pk", "A").iterate();
        Function<GraphTraversalSource, GraphTraversal<?, ?>> chain = s -> s
                .addV("x").property(T.id, "x2").property("pk", "B")
                .addV("x").property(T.id, "x1").property("pk", "A")
                .addV("x").property(T.id, "dup").property("pk", "A")
                .addV("x").property(T.id, "x4").property("pk", "B");
        Exception batched = assertThrows(Exception.class, () -> chain.apply(g).iterate());
        List<Object> batchedIds = g.V().hasLabel("x").id().toList();
        g.V().hasLabel("x").has("pk", "B").drop().iterate();
        g.V(List.of("A", "x1")).drop().iterate();
        Exception single = assertThrows(Exception.class,
                () -> chain.apply(g.withoutStrategies(TetraBatchedAddStrategy.class)).iterate());
        List<Object> singleIds = g.V().hasLabel("x").id().toList();
        assertEquals(single.getClass(), batched.getClass());
        assertEquals(single.getMessage(), batched.getMessage());
        assertEquals(sorted(singleIds), sorted(batchedIds));
        assertFalse(batchedIds.contains(List.of("B", "x4")));
        assertTrue(batchedIds.contains(List.of("B", "x2")));
    }

    /** An invalid element in the middle: the elements before it are written, then its error. */
    @Test
    void aBadElementFailsAfterTheOnesBeforeItAreWritten() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g
                .addV("y").property(T.id, "y1").property("pk", "A")
                .addV("y").property(T.id, "y2").property("pk", "B")
                .addV("y").property(T.id, "y3").iterate()); // no partition key
        assertTrue(e.getMessage().contains("partition key"), e.getMessage());
        assertEquals(2L, g.V().hasLabel("y").count().next());
    }

    @Test
    void readsAndChangesInTheTraversalAreNotBatched() {
        assertFalse(g.V().addV("z").property("pk", "p").explain().toString().contains("TetraBatchedAddStep"));
        assertFalse(g.addV("z").property("pk", "p").property("w", __.V().count()).explain().toString()
                .contains("TetraBatchedAddStep"));
        assertFalse(g.addV("z").property("pk", "p").values("pk").explain().toString().contains("TetraBatchedAddStep"));
        assertFalse(g.inject(1).sideEffect(t -> { }).addV("z").explain().toString().contains("TetraBatchedAddStep"));
    }

    private static List<String> sorted(List<Object> ids) {
        return ids.stream().map(String::valueOf).sorted().toList();
    }
}
