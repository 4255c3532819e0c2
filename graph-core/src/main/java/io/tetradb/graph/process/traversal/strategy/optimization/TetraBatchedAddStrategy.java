package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.process.traversal.step.sideEffect.TetraBatchedAddStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.AbstractLambdaTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.ConstantTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.IdentityTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.TokenTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.ValueTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.step.TraversalParent;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.DiscardStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.AddElementStepContract;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.ConstantStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.IdStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.LabelStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.SelectOneStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.SelectStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.UnfoldStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.IdentityStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.InjectStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.StartStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

import java.util.List;
import java.util.Set;

/**
 * A root traversal that only creates elements — {@code g.addV(...).addV(...)}, {@code inject(...).unfold().addV()},
 * {@code addE(...).from('a').to('b')} chains, with {@code as}/{@code select}/{@code constant}/{@code id}/{@code
 * label} between them — gets {@link TetraBatchedAddStep} at its end: its creates are held and written as one core
 * batch per logical partition for every 100 traversers that reach the end, instead of one write each. Nothing else
 * may run in between (no read of the graph, no property change, no lambda): a read would not see the held elements.
 */
public final class TetraBatchedAddStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraBatchedAddStrategy INSTANCE = new TetraBatchedAddStrategy();

    /** Steps that neither read the store nor change an element that exists. */
    private static final List<Class<?>> SAFE = List.of(AddElementStepContract.class, InjectStep.class, StartStep.class,
            UnfoldStep.class, IdentityStep.class, NoOpBarrierStep.class, SelectOneStep.class, SelectStep.class,
            ConstantStep.class, IdStep.class, LabelStep.class, DiscardStep.class);
    /** Child traversals without steps that are safe: a property value, a token, the traverser, a constant. */
    private static final List<Class<?>> SAFE_LAMBDAS = List.of(ValueTraversal.class, TokenTraversal.class,
            IdentityTraversal.class, ConstantTraversal.class);

    private TetraBatchedAddStrategy() {
    }

    public static TetraBatchedAddStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!traversal.isRoot() || TraversalHelper.onGraphComputer(traversal)
                || !(traversal.getGraph().orElse(null) instanceof TetraGraph)
                || !TraversalHelper.hasStepOfAssignableClass(AddElementStepContract.class, traversal)
                || !onlySafeSteps(traversal)) {
            return;
        }
        // before iterate()'s trailing discard, which would pull every traverser into one batch
        Step<?, ?> end = traversal.getEndStep();
        if (end instanceof DiscardStep) {
            TraversalHelper.insertBeforeStep(new TetraBatchedAddStep<>(traversal), end, traversal);
        } else {
            traversal.addStep(new TetraBatchedAddStep<>(traversal));
        }
    }

    private static boolean onlySafeSteps(Traversal.Admin<?, ?> traversal) {
        if (traversal instanceof AbstractLambdaTraversal) {
            return SAFE_LAMBDAS.stream().anyMatch(c -> c.isInstance(traversal));
        }
        for (Step<?, ?> step : traversal.getSteps()) {
            if (SAFE.stream().noneMatch(c -> c.isInstance(step))) {
                return false;
            }
            if (step instanceof TraversalParent parent) {
                for (Traversal.Admin<?, ?> child : parent.getLocalChildren()) {
                    if (!onlySafeSteps(child)) {
                        return false;
                    }
                }
                for (Traversal.Admin<?, ?> child : parent.getGlobalChildren()) {
                    if (!onlySafeSteps(child)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPrior() {
        return Set.of(TetraGraphStepStrategy.class);
    }
}
