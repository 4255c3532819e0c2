package io.tetradb.graph.process.traversal.step.map;

import io.tetradb.graph.structure.HopPrefetch;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.structure.Element;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Between a hop and a step that reads the reached elements' properties: takes the hop's traversers a batch at a
 * time (16, doubling up to 512), loads the batch's items together ({@link HopPrefetch}: one multi-get for those not
 * cached) and passes the traversers on unchanged, in order, without merging bulks.
 */
public final class TetraPrefetchStep<S extends Element> extends AbstractStep<S, S> {
    private ArrayDeque<Traverser.Admin<S>> ready = new ArrayDeque<>();
    private ReadAheadBatches batches = new ReadAheadBatches();

    public TetraPrefetchStep(Traversal.Admin traversal) {
        super(traversal);
    }

    @Override
    protected Traverser.Admin<S> processNextStart() {
        if (ready.isEmpty()) {
            List<Traverser.Admin<S>> taken = batches.take(starts);
            if (taken.isEmpty()) {
                throw FastNoSuchElementException.instance();
            }
            List<S> elements = new ArrayList<>(taken.size());
            for (Traverser.Admin<S> t : taken) {
                elements.add(t.get());
            }
            HopPrefetch.load(elements);
            ready.addAll(taken);
        }
        return ready.poll();
    }

    @Override
    public void reset() {
        super.reset();
        ready.clear();
        batches.reset();
    }

    @Override
    public TetraPrefetchStep<S> clone() {
        TetraPrefetchStep<S> clone = (TetraPrefetchStep<S>) super.clone();
        clone.ready = new ArrayDeque<>(); // AbstractStep.clone copies fields shallowly
        clone.batches = new ReadAheadBatches();
        return clone;
    }
}
