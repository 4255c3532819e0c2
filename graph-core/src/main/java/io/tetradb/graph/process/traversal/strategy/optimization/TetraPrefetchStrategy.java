package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.step.map.TetraOrderLimitStep;
import io.tetradb.graph.process.traversal.step.map.TetraPrefetchStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.HasStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GroupCountStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.OrderGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.PropertiesStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.PropertyMapStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

import java.util.List;
import java.util.Set;

/**
 * A hop to vertices ({@code out()}, {@code in()}, {@code both()}, {@code inV()}, ...) directly followed by a step
 * that reads their properties ({@code values}, {@code valueMap}, {@code has}, {@code order}, {@code groupCount})
 * (or by a {@code NoOpBarrierStep} and such a step) gets a {@link TetraPrefetchStep} before the reading step: the hop's vertices are read a batch at a time, one core multi-get
 * per batch for those not cached, instead of one point read per vertex. Not where the traversal has lambdas, side
 * effects or mutations anywhere (reading ahead runs the steps before the hop earlier than they would run). OLTP only.
 */
public final class TetraPrefetchStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraPrefetchStrategy INSTANCE = new TetraPrefetchStrategy();

    private TetraPrefetchStrategy() {
    }

    public static TetraPrefetchStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!HopReaders.readAheadIsSafe(traversal)) {
            return;
        }
        List<Step> steps = traversal.getSteps();
        for (int i = steps.size() - 2; i >= 0; i--) {
            if (!HopReaders.toVertices(steps.get(i))) {
                continue;
            }
            int reader = HopReaders.readerAfter(steps, i); // after a NoOpBarrierStep: its merged traversers
            if (readsProperties(steps.get(reader))) {
                TraversalHelper.insertAfterStep(new TetraPrefetchStep<>(traversal), steps.get(reader - 1), traversal);
            }
        }
    }

    private static boolean readsProperties(Step next) {
        return next instanceof PropertiesStep || next instanceof PropertyMapStep || next instanceof HasStep
                || next instanceof OrderGlobalStep || next instanceof TetraOrderLimitStep
                || next instanceof GroupCountStep;
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPrior() {
        return Set.of(TetraOrderLimitStrategy.class, TetraAdjacencyCountStrategy.class, TetraValuesStrategy.class);
    }
}
