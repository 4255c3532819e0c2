package io.tetradb.graph.process;

import io.tetradb.graph.TempDirGraphTest;
import io.tetradb.graph.process.traversal.strategy.optimization.TetraOrderLimitStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.Order;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code order().by(...).limit(n)} as a bounded top-n gives exactly what the full sort gives (same graph, so the
 * same arrival order and the same ties): random values with many ties, missing properties (filtered), bulked
 * traversers (a barrier before the order), {@code range(lo, hi)}, and inside child traversals.
 */
class OrderLimitTest extends TempDirGraphTest {
    @BeforeEach
    void seed() {
        Random random = new Random(18);
        List<Vertex> vs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            var t = g.addV(random.nextBoolean() ? "a" : "b").property(T.id, "v" + i).property("pk", "p" + (i % 7))
                    .property("name", "n" + random.nextInt(50));
            if (random.nextInt(10) > 0) {
                t = t.property("x", random.nextInt(20)); // ties on purpose; some vertices have none
            }
            vs.add(t.next());
        }
        for (int i = 0; i < 1500; i++) {
            g.addE("e").from(vs.get(random.nextInt(vs.size()))).to(vs.get(random.nextInt(vs.size())))
                    .property("w", random.nextInt(10)).iterate();
        }
    }

    @Test
    void topNEqualsTheFullSort() {
        List<Function<GraphTraversalSource, GraphTraversal<?, ?>>> cases = List.of(
                s -> s.V().order().by("x", Order.desc).by("name").limit(10).values("name"),
                s -> s.V().hasLabel("a").order().by("x").limit(1).id(),
                s -> s.V().order().by("x").limit(150).id(),
                s -> s.V().order().by("name").by(T.id, Order.desc).range(5, 25).id(),
                s -> s.V().out().out().barrier().order().by("x", Order.desc).limit(7).id(),
                s -> s.V().out().order().by("x").limit(12).id(),
                s -> s.V().outE().order().by("w", Order.desc).limit(9).inV().id(),
                s -> s.V().local(__.out().order().by("x").limit(2)).id(),
                s -> s.V().order().by(T.label).by("x").limit(33).values("x"),
                s -> s.V().values("x").order().by(Order.desc).limit(4));
        for (Function<GraphTraversalSource, GraphTraversal<?, ?>> c : cases) {
            List<?> fast = c.apply(g).toList();
            List<?> full = c.apply(g.withoutStrategies(TetraOrderLimitStrategy.class)).toList();
            assertFalse(full.isEmpty());
            assertEquals(full, fast, c.apply(g).toString());
        }
        assertTrue(g.V().order().by("x").limit(3).explain().toString().contains("TetraOrderLimitStep"));
        assertFalse(g.V().order().by(__.out().count()).limit(3).explain().toString().contains("TetraOrderLimitStep"));
    }
}
