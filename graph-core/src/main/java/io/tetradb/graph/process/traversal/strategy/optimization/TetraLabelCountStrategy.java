package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.query.HasToSql;
import io.tetradb.graph.process.traversal.step.map.TetraLabelCountStep;
import io.tetradb.graph.process.traversal.step.sideEffect.TetraGraphStep;
import io.tetradb.graph.store.Sql;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.TokenTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GroupCountStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.structure.T;

import java.util.List;
import java.util.Set;

/**
 * {@code g.V().hasLabel(...).groupCount().by(label)} (also {@code g.E()}) → one core query
 * {@code SELECT c.label AS k, COUNT(1) AS n ... GROUP BY c.label}, when the root traversal is just the graph step
 * (without ids, every container translated exactly) and the group count: the core counts without making elements.
 * Without has-containers the step first asks the graph's composite label index, whose keys alone give the counts.
 */
public final class TetraLabelCountStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraLabelCountStrategy INSTANCE = new TetraLabelCountStrategy();

    private TetraLabelCountStrategy() {
    }

    public static TetraLabelCountStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!traversal.isRoot() || TraversalHelper.onGraphComputer(traversal)) {
            return;
        }
        List<Step> steps = traversal.getSteps();
        if (steps.size() != 2 || !(steps.get(0) instanceof TetraGraphStep<?, ?> graphStep)
                || graphStep.getIds() == null || graphStep.getIds().length != 0 || !graphStep.getLabels().isEmpty()
                || !(steps.get(1) instanceof GroupCountStep<?, ?> groupCount) || !groupCount.getLabels().isEmpty()
                || groupCount.getLocalChildren().size() != 1
                || !(groupCount.getLocalChildren().get(0) instanceof TokenTraversal<?, ?> token)
                || token.getToken() != T.label) {
            return;
        }
        HasToSql q = graphStep.query();
        if (!q.exact() || q.plainSql() != null) { // two queries (HasToSql): counted by the graph step
            return;
        }
        Sql sql = q.sql().withSelect("SELECT c.label AS k, COUNT(1) AS n FROM c").withTail("GROUP BY c.label");
        TraversalHelper.removeAllSteps(traversal);
        traversal.addStep(new TetraLabelCountStep<>(traversal, sql, graphStep.returnsVertex(),
                graphStep.getHasContainers().isEmpty()));
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPrior() {
        return Set.of(TetraGraphStepStrategy.class);
    }
}
