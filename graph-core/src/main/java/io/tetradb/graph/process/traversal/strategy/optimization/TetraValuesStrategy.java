package io.tetradb.graph.process.traversal.strategy.optimization;

import io.tetradb.graph.process.traversal.step.map.TetraVertexValuesStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.PropertiesStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;
import org.apache.tinkerpop.gremlin.structure.PropertyType;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A hop to vertices ({@code out()}, {@code in()}, {@code both()}, {@code inV()}, ...) directly followed (or after
 * LazyBarrierStrategy's {@code NoOpBarrierStep}) by {@code values(k1, ..., k4)} becomes the hop and {@link
 * TetraVertexValuesStep}, which reads only those fields of the reached vertices' items (a batch at a time), instead
 * of loading each vertex whole. Same conditions as {@link TetraPrefetchStrategy} (it reads ahead): not where the
 * traversal has lambdas, side effects or mutations anywhere. OLTP only.
 */
public final class TetraValuesStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
        implements TraversalStrategy.ProviderOptimizationStrategy {
    private static final TetraValuesStrategy INSTANCE = new TetraValuesStrategy();

    /** More keys take the item's field order in {@code properties(keys)}; a partial item has another one. */
    private static final int MAX_KEYS = 4;

    private TetraValuesStrategy() {
    }

    public static TetraValuesStrategy instance() {
        return INSTANCE;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void apply(Traversal.Admin<?, ?> traversal) {
        if (!HopReaders.readAheadIsSafe(traversal)) {
            return;
        }
        List<Step> steps = traversal.getSteps();
        for (int i = steps.size() - 2; i >= 0; i--) {
            if (!HopReaders.toVertices(steps.get(i))) {
                continue;
            }
            int at = HopReaders.readerAfter(steps, i);
            if (steps.get(at) instanceof PropertiesStep<?> p && foldable(p)) {
                TetraVertexValuesStep<?> values = new TetraVertexValuesStep<>(traversal, p.getPropertyKeys());
                p.getLabels().forEach(values::addLabel);
                TraversalHelper.replaceStep(p, (Step) values, traversal);
            }
        }
    }

    private static boolean foldable(PropertiesStep<?> p) {
        String[] keys = p.getReturnType() == PropertyType.VALUE ? p.getPropertyKeys() : null;
        return keys != null && keys.length >= 1 && keys.length <= MAX_KEYS
                && Arrays.stream(keys).allMatch(k -> k != null)
                && new HashSet<>(Arrays.asList(keys)).size() == keys.length
                && p.getParameters().isEmpty();
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPrior() {
        return Set.of(TetraOrderLimitStrategy.class, TetraAdjacencyCountStrategy.class);
    }
}
