package io.tetradb.graph.process.traversal.step.sideEffect;

import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.structure.PendingCreates;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.filter.DiscardStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;

import java.util.ArrayDeque;

/**
 * The last step of a traversal that only creates elements ({@code TetraBatchedAddStrategy}): pulls traversers with a
 * {@link PendingCreates} batch open, so the {@code addV}/{@code addE} steps before it hold their items, then writes
 * them in per-partition batches ({@link PendingCreates#flush()}) before passing the traversers on unchanged. An error
 * raised while pulling (a bad label, a missing partition key) comes after the held elements are written, as it came
 * after their writes one by one.
 *
 * <p>How much one flush holds: under {@code iterate()} (nobody reads the traversers, the whole traversal runs) up to
 * {@link #MAX_ELEMENTS} created elements, so a partition's batch holds many of them even when the creates spread over
 * hundreds of partitions; otherwise 100 traversers first (a traversal read with {@code next()} creates little ahead),
 * doubling per flush up to the same element bound.
 */
public final class TetraBatchedAddStep<S> extends AbstractStep<S, S> {
    /** Traversers of the first flush when the traversers are read (not under iterate()). */
    private static final int FIRST_TRAVERSERS = 100;
    /**
     * Elements held at most before a flush (a few MB of items). {@code -Dtetradb.graph.addBatchTraversers=100
     * -Dtetradb.graph.addBatchElements=2147483647} gives the earlier rule (a flush every 100 traversers), kept for
     * comparisons.
     */
    static final int MAX_ELEMENTS = Integer.getInteger("tetradb.graph.addBatchElements", 10_000);
    private static final int MAX_TRAVERSERS = Integer.getInteger("tetradb.graph.addBatchTraversers", Integer.MAX_VALUE);

    private int traversers = 0; // the next flush's traverser bound; 0 until the first

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
                int bound = nextTraverserBound();
                while (ready.size() < bound && batch.size() < MAX_ELEMENTS && starts.hasNext()) {
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

    private int nextTraverserBound() {
        if (getNextStep() instanceof DiscardStep) {
            traversers = MAX_TRAVERSERS;
        } else {
            traversers = traversers == 0 ? FIRST_TRAVERSERS : (int) Math.min((long) traversers * 2, MAX_TRAVERSERS);
        }
        return Math.min(traversers, MAX_TRAVERSERS);
    }

    @Override
    public void reset() {
        super.reset();
        ready.clear();
        traversers = 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public TetraBatchedAddStep<S> clone() {
        TetraBatchedAddStep<S> clone = (TetraBatchedAddStep<S>) super.clone();
        clone.ready = new ArrayDeque<>(); // AbstractStep.clone copies fields shallowly
        clone.traversers = 0;
        return clone;
    }
}
