package io.tetradb.graph.process.traversal.strategy.optimization;

import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.step.LambdaHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.Mutating;
import org.apache.tinkerpop.gremlin.process.traversal.step.SideEffectCapable;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.EdgeVertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

import java.util.List;
import java.util.Set;

/**
 * What the strategies that read a hop's vertices ahead ({@link TetraPrefetchStrategy}, {@link TetraValuesStrategy})
 * share: when reading ahead is safe, which steps are hops to vertices, and which step reads after a hop.
 */
final class HopReaders {
    @SuppressWarnings("rawtypes")
    private static final Set<Class> UNSAFE = Set.of(LambdaHolder.class, SideEffectCapable.class, Mutating.class);

    private HopReaders() {
    }

    /**
     * Reading ahead runs the steps before a hop earlier than a lazy pull would: only in OLTP and where the whole
     * traversal has no lambdas, side effects or mutations.
     */
    static boolean readAheadIsSafe(Traversal.Admin<?, ?> traversal) {
        return !TraversalHelper.onGraphComputer(traversal)
                && !TraversalHelper.hasStepOfAssignableClassRecursively(UNSAFE, TraversalHelper.getRootTraversal(traversal));
    }

    /** {@code out()}, {@code in()}, {@code both()} to vertices, {@code inV()}, {@code outV()}, {@code otherV()}. */
    @SuppressWarnings("rawtypes")
    static boolean toVertices(Step hop) {
        return hop instanceof VertexStep<?> v && v.returnsVertex() || hop instanceof EdgeVertexStep;
    }

    /**
     * The index of the step that reads the vertices of the hop at {@code hop} (not the last step): the next one, or
     * the one after LazyBarrierStrategy's {@code NoOpBarrierStep} (it reads the merged traversers).
     */
    @SuppressWarnings("rawtypes")
    static int readerAfter(List<Step> steps, int hop) {
        return steps.get(hop + 1) instanceof NoOpBarrierStep && hop + 2 < steps.size() ? hop + 2 : hop + 1;
    }
}
