package io.tetradb.graph.process.traversal.step.map;

import io.tetradb.graph.structure.PartialValues;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.TraverserRequirement;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * {@code values(k1, ..., k4)} right after a hop to vertices ({@code TetraValuesStrategy}): takes the hop's traversers
 * a batch at a time (16, doubling up to 512) and reads only the asked fields of those vertices ({@link
 * PartialValues}), then emits each vertex's values in order, as {@code PropertiesStep} does (each value a split of
 * its traverser, bulk kept).
 */
public final class TetraVertexValuesStep<E> extends AbstractStep<Element, E> {
    private final String[] keys;
    private ArrayDeque<Traverser.Admin<E>> ready = new ArrayDeque<>();
    private ReadAheadBatches batches = new ReadAheadBatches();

    public TetraVertexValuesStep(Traversal.Admin traversal, String... keys) {
        super(traversal);
        this.keys = keys;
    }

    public String[] getPropertyKeys() {
        return keys;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Traverser.Admin<E> processNextStart() {
        while (ready.isEmpty()) {
            List<Traverser.Admin<Element>> taken = batches.take(starts);
            if (taken.isEmpty()) {
                throw FastNoSuchElementException.instance();
            }
            List<Vertex> vertices = new ArrayList<>(taken.size());
            for (Traverser.Admin<Element> t : taken) {
                vertices.add(t.get() instanceof Vertex v ? v : null);
            }
            List<List<Object>> values = PartialValues.of(withoutNulls(vertices), keys);
            int next = 0;
            for (int i = 0; i < taken.size(); i++) {
                Traverser.Admin<Element> t = taken.get(i);
                List<Object> vs;
                if (vertices.get(i) == null) { // not a vertex: the element reads itself
                    vs = new ArrayList<>();
                    t.get().values(keys).forEachRemaining(vs::add);
                } else {
                    vs = values.get(next++);
                }
                for (Object v : vs) {
                    ready.add(t.split((E) v, this));
                }
            }
        }
        return ready.poll();
    }

    private static List<Vertex> withoutNulls(List<Vertex> vertices) {
        if (!vertices.contains(null)) {
            return vertices;
        }
        List<Vertex> out = new ArrayList<>(vertices);
        out.removeAll(Collections.singleton(null));
        return out;
    }

    @Override
    public Set<TraverserRequirement> getRequirements() {
        return Collections.singleton(TraverserRequirement.OBJECT);
    }

    @Override
    public void reset() {
        super.reset();
        ready.clear();
        batches.reset();
    }

    @Override
    @SuppressWarnings("unchecked")
    public TetraVertexValuesStep<E> clone() {
        TetraVertexValuesStep<E> clone = (TetraVertexValuesStep<E>) super.clone();
        clone.ready = new ArrayDeque<>(); // AbstractStep.clone copies fields shallowly
        clone.batches = new ReadAheadBatches();
        return clone;
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, Arrays.asList(keys), "value");
    }

    @Override
    public int hashCode() {
        return super.hashCode() ^ Arrays.hashCode(keys);
    }
}
