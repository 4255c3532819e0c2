package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.step.map.TetraDegreeCountStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.CountGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

import java.util.List;

/**
 * A hop followed by {@code count()} ({@code out().count()}, {@code inE('route').count()}, also inside
 * {@code by(...)}, {@code repeat(...)} and other child traversals) becomes a {@link TetraDegreeCountStep}, which
 * counts adjacency entry keys instead of making the elements of the hop.
 */
public final class TetraAdjacencyCountStrategy
        extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraAdjacencyCountStrategy INSTANCE = new TetraAdjacencyCountStrategy();

    private TetraAdjacencyCountStrategy() {
    }

    public static TetraAdjacencyCountStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (TraversalHelper.onGraphComputer(traversal)) {
            return;
        }
        List<Step> steps = traversal.getSteps();
        for (int i = steps.size() - 2; i >= 0; i--) {
            if (steps.get(i) instanceof VertexStep<?> hop && steps.get(i + 1) instanceof CountGlobalStep<?> count
                    && hop.getLabels().isEmpty() && count.getLabels().isEmpty()) {
                TetraDegreeCountStep step = new TetraDegreeCountStep(traversal, hop.getDirection(),
                        hop.getEdgeLabels());
                TraversalHelper.replaceStep((Step) count, (Step) step, traversal);
                traversal.removeStep(hop);
                steps = traversal.getSteps();
            }
        }
    }
}
