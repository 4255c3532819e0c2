package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.query.HasToSql;
import io.tetradb.graph.process.traversal.step.map.TetraCountStep;
import io.tetradb.graph.process.traversal.step.sideEffect.TetraGraphStep;
import io.tetradb.graph.store.Sql;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.CountGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.IdentityStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

import java.util.List;
import java.util.Set;

/**
 * {@code g.V().hasLabel('person').count()} → one core {@code COUNT} query, when the whole root traversal is the
 * graph step (without ids, every container translated exactly) and the count. Anything else counts traversers.
 */
public final class TetraCountStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraCountStrategy INSTANCE = new TetraCountStrategy();

    private TetraCountStrategy() {
    }

    public static TetraCountStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!traversal.isRoot() || TraversalHelper.onGraphComputer(traversal)) {
            return;
        }
        List<Step> steps = traversal.getSteps();
        if (steps.size() < 2 || !(steps.get(0) instanceof TetraGraphStep<?, ?> graphStep)
                || graphStep.getIds() == null || graphStep.getIds().length != 0 || !graphStep.getLabels().isEmpty()
                || !(steps.get(steps.size() - 1) instanceof CountGlobalStep)
                || !steps.get(steps.size() - 1).getLabels().isEmpty()) {
            return;
        }
        for (int i = 1; i < steps.size() - 1; i++) {
            Step s = steps.get(i);
            if (!(s instanceof IdentityStep || s instanceof NoOpBarrierStep) || !s.getLabels().isEmpty()) {
                return;
            }
        }
        HasToSql q = graphStep.query();
        if (!q.exact()) {
            return;
        }
        Sql count = q.sql().withSelect("SELECT COUNT(1) AS n FROM c");
        Sql plainCount = q.plainSql() == null ? null : q.plainSql().withSelect("SELECT COUNT(1) AS n FROM c");
        TraversalHelper.removeAllSteps(traversal);
        Boolean allOfKind = graphStep.getHasContainers().isEmpty() ? graphStep.returnsVertex() : null;
        traversal.addStep(new TetraCountStep<>(traversal, count, plainCount, allOfKind));
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPrior() {
        return Set.of(TetraGraphStepStrategy.class);
    }
}
