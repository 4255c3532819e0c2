package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.step.map.TetraOrderLimitStep;
import org.apache.tinkerpop.gremlin.process.traversal.Order;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.IdentityTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.TokenTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.lambda.ValueTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.RangeGlobalStepContract;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.OrderGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.javatuples.Pair;

import java.util.Comparator;
import java.util.List;

/**
 * {@code order().by(...).limit(n)} → a bounded top-n ({@link TetraOrderLimitStep}) in front of the same range step,
 * when every {@code by} is a property value, a token or the element itself (no side effects, so traversers can be
 * dropped as soon as they cannot be among the first n) and the order is not {@code shuffle}. OLTP only.
 */
public final class TetraOrderLimitStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraOrderLimitStrategy INSTANCE = new TetraOrderLimitStrategy();

    /** Beyond this a top-n keeps about as much as the full sort: left to {@code OrderGlobalStep}. */
    private static final long MAX_LIMIT = 10_000;

    private TetraOrderLimitStrategy() {
    }

    public static TetraOrderLimitStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (TraversalHelper.onGraphComputer(traversal)) {
            return;
        }
        List<Step> steps = traversal.getSteps();
        for (int i = steps.size() - 2; i >= 0; i--) {
            if (steps.get(i) instanceof OrderGlobalStep<?, ?> order
                    && steps.get(i + 1) instanceof RangeGlobalStepContract<?> range && foldable(order)) {
                long high = range.getHighRange();
                if (high < 0 || high > MAX_LIMIT) {
                    continue;
                }
                TetraOrderLimitStep<?, ?> step = new TetraOrderLimitStep(traversal, order.getComparators(), high);
                order.getLabels().forEach(step::addLabel);
                TraversalHelper.replaceStep((Step) order, (Step) step, traversal);
                steps = traversal.getSteps();
            }
        }
    }

    private static boolean foldable(OrderGlobalStep<?, ?> order) {
        if (order.getComparators().isEmpty()) {
            return false;
        }
        for (Pair<? extends Traversal.Admin<?, ?>, ? extends Comparator<?>> c : order.getComparators()) {
            Traversal.Admin<?, ?> t = c.getValue0();
            if (c.getValue1() == Order.shuffle) {
                return false;
            }
            boolean pure = t instanceof IdentityTraversal || t instanceof TokenTraversal
                    || t instanceof ValueTraversal<?, ?> v && v.getBypassTraversal() == null;
            if (!pure) {
                return false;
            }
        }
        return true;
    }
}
