package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.IdMatch;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.HasContainerHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.structure.T;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Rewrites the {@code hasId}/{@code has(T.id, ...)} tests that remain after {@link TetraGraphStepStrategy} (those not
 * turned into the graph step's ids, e.g. {@code out().hasId(...)}) into {@link IdMatch}, which understands
 * {@code [pk, id]} ids in every form users write them.
 */
public final class TetraIdStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraIdStrategy INSTANCE = new TetraIdStrategy();

    private TetraIdStrategy() {
    }

    public static TetraIdStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(Traversal.Admin<?, ?> traversal) {
        for (HasContainerHolder<?, ?> holder : TraversalHelper.getStepsOfAssignableClass(HasContainerHolder.class,
                traversal)) {
            for (HasContainer c : new ArrayList<>(holder.getHasContainers())) {
                HasContainer rewritten = rewrite(c);
                if (rewritten != null) {
                    holder.removeHasContainer(c);
                    holder.addHasContainer(rewritten);
                }
            }
        }
    }

    private static HasContainer rewrite(HasContainer c) {
        if (!T.id.getAccessor().equals(c.getKey())) {
            return null;
        }
        Object value = c.getPredicate().getValue();
        Collection<?> values = value instanceof Collection<?> col ? col : value == null ? null : List.of(value);
        if (values == null) {
            return null;
        }
        IdMatch match;
        if (c.getBiPredicate() == Compare.eq || c.getBiPredicate() == Contains.within) {
            match = IdMatch.ANY_OF;
        } else if (c.getBiPredicate() == Compare.neq || c.getBiPredicate() == Contains.without) {
            match = IdMatch.NONE_OF;
        } else {
            return null;
        }
        return new HasContainer(T.id.getAccessor(), new P<>((org.apache.tinkerpop.gremlin.process.traversal.PBiPredicate)
                match, new IdMatch.Accepted(values)));
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPrior() {
        return Set.of(TetraGraphStepStrategy.class);
    }
}
