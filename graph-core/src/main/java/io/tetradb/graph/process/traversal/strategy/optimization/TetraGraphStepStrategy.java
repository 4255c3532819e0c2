package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.step.sideEffect.TetraGraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.HasContainerHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.HasStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStepContract;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

/**
 * Replaces every {@code GraphStep} by a {@link TetraGraphStep} and moves the {@code has} steps right after it into
 * that step: {@code hasId(eq|within)} become its ids, the others its containers, which run as one core query.
 */
public final class TetraGraphStepStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraGraphStepStrategy INSTANCE = new TetraGraphStepStrategy();

    private TetraGraphStepStrategy() {
    }

    public static TetraGraphStepStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (TraversalHelper.onGraphComputer(traversal)) {
            return;
        }
        for (GraphStepContract original : TraversalHelper.getStepsOfClass(GraphStepContract.class, traversal)) {
            TetraGraphStep<?, ?> step = new TetraGraphStep<>(original);
            TraversalHelper.replaceStep(original, step, traversal);
            Step<?, ?> current = step.getNextStep();
            while (current instanceof HasStep || current instanceof NoOpBarrierStep) {
                if (current instanceof HasStep) {
                    for (HasContainer c : ((HasContainerHolder<?, ?>) current).getHasContainers()) {
                        if (!GraphStep.processHasContainerIds(step, c)) {
                            step.addHasContainer(c);
                        }
                    }
                    TraversalHelper.copyLabels(current, current.getPreviousStep(), false);
                    traversal.removeStep(current);
                }
                current = current.getNextStep();
            }
        }
    }
}
