package io.tetradb.graph.process.traversal.step.sideEffect;

import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.structure.PendingCreates;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;

import java.util.ArrayDeque;

/**
 * The last step of a traversal that only creates elements ({@code TetraBatchedAddStrategy}): pulls up to 100
 * traversers with a {@link PendingCreates} batch open, so the {@code addV}/{@code addE} steps before it hold their
 * items, then writes them in per-partition batches ({@link PendingCreates#flush()}) before passing the traversers on
 * unchanged. An error raised while pulling (a bad label, a missing partition key) comes after the held elements are
 * written, as it came after their writes one by one.
 */
public final class TetraBatchedAddStep<S> extends AbstractStep<S, S> {
    private static final int BATCH = 100;

    private ArrayDeque<Traverser.Admin<S>> ready = new ArrayDeque<>();

    public TetraBatchedAddStep(Traversal.Admin traversal) {
        super(traversal);
    }

    @Override
    protected Traverser.Admin<S> processNextStart() {
        if (ready.isEmpty()) {
            PendingCreates batch = PendingCreates.open((TetraGraph) getTraversal().getGraph().orElseThrow());
            RuntimeException failure = null;
            try {
                while (ready.size() < BATCH && starts.hasNext()) {
                    ready.add(starts.next());
                }
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                batch.close();
            }
            batch.flush(); // a write error came first: it is thrown instead
            if (failure != null) {
                ready.clear();
                throw failure;
            }
            if (ready.isEmpty()) {
                throw FastNoSuchElementException.instance();
            }
        }
        return ready.poll();
    }

    @Override
    public void reset() {
        super.reset();
        ready.clear();
    }

    @Override
    @SuppressWarnings("unchecked")
    public TetraBatchedAddStep<S> clone() {
        TetraBatchedAddStep<S> clone = (TetraBatchedAddStep<S>) super.clone();
        clone.ready = new ArrayDeque<>(); // AbstractStep.clone copies fields shallowly
        return clone;
    }
}
