package io.tetradb.graph.process.traversal.step.map;

import io.tetradb.graph.structure.TetraVertex;
import org.apache.tinkerpop.gremlin.process.traversal.Operator;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.TraverserRequirement;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.ReducingBarrierStep;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;
import org.apache.tinkerpop.gremlin.util.function.ConstantSupplier;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * {@code out(labels).count()} (and {@code in}, {@code both}, {@code outE}...): the sum, over the vertices reaching
 * it, of their edge counts in that direction, each counted from the vertex's adjacency entry keys (a key-range count,
 * no edge item or entry decoded). Same result as the hop and the count: an edge counts once per traverser
 * (times its bulk), a self-loop twice for {@code both()}.
 */
public final class TetraDegreeCountStep extends ReducingBarrierStep<Vertex, Long> {
    private final Direction direction;
    private final String[] labels;

    public TetraDegreeCountStep(Traversal.Admin traversal, Direction direction, String[] labels) {
        super(traversal);
        this.direction = direction;
        this.labels = labels;
        this.setSeedSupplier(new ConstantSupplier<>(0L));
        this.setReducingBiOperator((java.util.function.BinaryOperator) Operator.sumLong);
    }

    @Override
    public Long projectTraverser(Traverser.Admin<Vertex> traverser) {
        Vertex v = traverser.get();
        long degree = v instanceof TetraVertex t ? t.graph().finder().countEdges(t, direction, labels)
                : IteratorUtils.count(v.edges(direction, labels));
        return traverser.bulk() * degree;
    }

    @Override
    public Set<TraverserRequirement> getRequirements() {
        return EnumSet.of(TraverserRequirement.OBJECT, TraverserRequirement.BULK);
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, direction, Arrays.asList(labels));
    }
}
