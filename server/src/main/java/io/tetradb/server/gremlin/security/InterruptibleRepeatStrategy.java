package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.LoopTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.step.branch.RepeatStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

/**
 * Keeps a long {@code repeat(…).times(n)} a loop. TinkerPop's {@code RepeatUnrollStrategy} copies the repeated steps
 * {@code n} times while the traversal is prepared, without ever checking for interruption: {@code times(2000000000)}
 * keeps a core busy (and fills the heap) long after the request's timeout has answered. Before it runs, a repeat of
 * more than {@link #MAX_UNROLLED_LOOPS} loops gets an {@code emit} that never emits, which leaves its results as they
 * were but makes it ineligible for unrolling: it then runs as RepeatStep's own loop, which stops when interrupted.
 */
public final class InterruptibleRepeatStrategy extends AbstractTraversalStrategy<TraversalStrategy.DecorationStrategy>
        implements TraversalStrategy.DecorationStrategy {
    /** Up to here unrolling stays cheap (and keeps its speed-up for the usual times(2) or times(3)). */
    static final long MAX_UNROLLED_LOOPS = 64;
    private static final InterruptibleRepeatStrategy INSTANCE = new InterruptibleRepeatStrategy();

    private InterruptibleRepeatStrategy() {
    }

    public static InterruptibleRepeatStrategy instance() {
        return INSTANCE;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void apply(Traversal.Admin<?, ?> traversal) {
        for (RepeatStep repeat : TraversalHelper.getStepsOfClass(RepeatStep.class, traversal)) {
            if (repeat.getEmitTraversal() == null && repeat.getUntilTraversal() instanceof LoopTraversal<?> loops
                    && loops.getMaxLoops() > MAX_UNROLLED_LOOPS) {
                repeat.setEmitTraversal(__.not(__.identity()).asAdmin());
            }
        }
    }
}
