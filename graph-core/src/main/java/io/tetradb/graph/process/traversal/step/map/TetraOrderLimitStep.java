package io.tetradb.graph.process.traversal.step.map;

import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.ComparatorHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.TraversalParent;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.CollectingBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.ProjectedTraverser;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.TraverserRequirement;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.util.TraverserSet;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalProduct;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalUtil;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;
import org.apache.tinkerpop.gremlin.util.function.MultiComparator;
import org.javatuples.Pair;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * {@code order().by(...)} followed by {@code limit(n)} (or {@code range(lo, n)}): a bounded top-n. Sorts exactly as
 * {@code OrderGlobalStep} does (the same projections, traversers that a {@code by} does not produce for are
 * filtered, equal traversers merge their bulk, ties keep arrival order) but keeps only the traversers that can be
 * among the first {@code n} (by bulk): once {@code n} are held, a later traverser that does not sort before the
 * n-th is dropped after one comparison, and the held set is cut back to its first {@code n} whenever it doubles.
 * The range step stays after it (it splits bulks and applies {@code lo}). Only for {@code by} modulators without side
 * effects (property values, tokens, identity; see {@code TetraOrderLimitStrategy}), so dropping early changes
 * nothing else.
 */
public final class TetraOrderLimitStep<S, C extends Comparable> extends CollectingBarrierStep<S>
        implements ComparatorHolder<S, C>, TraversalParent {
    private List<Pair<Traversal.Admin<S, C>, Comparator<C>>> comparators = new ArrayList<>();
    private final long limit;
    private MultiComparator<C> multiComparator;
    /** The n-th held traverser after the last cut (null before the first cut): later ones must sort before it. */
    private Traverser.Admin<S> bound;

    public TetraOrderLimitStep(Traversal.Admin traversal, List<Pair<Traversal.Admin<S, C>, Comparator<C>>> comparators,
                               long limit) {
        super(traversal);
        for (Pair<Traversal.Admin<S, C>, Comparator<C>> c : comparators) {
            addComparator(c.getValue0(), c.getValue1());
        }
        this.limit = limit;
    }

    public long getLimit() {
        return limit;
    }

    @Override
    public void processAllStarts() {
        MultiComparator<C> order = comparator();
        if (traverserSet.isEmpty()) {
            bound = null; // a new round (the step emitted everything it held)
        }
        while (starts.hasNext()) {
            ProjectedTraverser<S, Object> t = project(starts.next());
            if (t == null) {
                continue;
            }
            // an equal traverser already held takes the bulk (as TraverserSet merges), wherever it sorts
            if (bound != null && order.compare((C) t, (C) bound) >= 0 && !traverserSet.contains(t)) {
                continue;
            }
            traverserSet.add((Traverser.Admin<S>) (Traverser.Admin) t);
            if (traverserSet.size() >= Math.max(64, 2 * limit)) {
                cut(order);
            }
        }
    }

    /** Sorts the held traversers and keeps those whose bulks reach {@code limit}, remembering the last as the bound. */
    private void cut(MultiComparator<C> order) {
        traverserSet.sort((Comparator) order);
        TraverserSet<S> kept = new TraverserSet<>();
        long bulk = 0;
        Traverser.Admin<S> last = null;
        for (Traverser.Admin<S> t : traverserSet) {
            if (bulk >= limit) {
                break;
            }
            kept.add(t);
            bulk += t.bulk();
            last = t;
        }
        traverserSet.clear();
        for (Traverser.Admin<S> t : kept) {
            traverserSet.add(t);
        }
        bound = bulk >= limit ? last : null;
    }

    @Override
    public void barrierConsumer(TraverserSet<S> traverserSet) {
        traverserSet.sort((Comparator) comparator());
    }

    private ProjectedTraverser<S, Object> project(Traverser.Admin<S> traverser) {
        List<Object> projections = new ArrayList<>(comparators.size());
        for (Pair<Traversal.Admin<S, C>, Comparator<C>> c : comparators) {
            TraversalProduct p = TraversalUtil.produce(traverser, c.getValue0());
            if (!p.isProductive()) {
                return null;
            }
            projections.add(p.get());
        }
        return new ProjectedTraverser<>(traverser, projections);
    }

    private MultiComparator<C> comparator() {
        if (multiComparator == null) {
            List<Comparator<C>> list = new ArrayList<>(comparators.size());
            for (Pair<Traversal.Admin<S, C>, Comparator<C>> c : comparators) {
                list.add(c.getValue1());
            }
            multiComparator = new MultiComparator<>(list);
        }
        return multiComparator;
    }

    @Override
    public void addComparator(Traversal.Admin<S, C> traversal, Comparator<C> comparator) {
        comparators.add(new Pair<>(integrateChild(traversal), comparator));
        multiComparator = null;
    }

    @Override
    public List<Pair<Traversal.Admin<S, C>, Comparator<C>>> getComparators() {
        return comparators.isEmpty() ? List.of() : List.copyOf(comparators);
    }

    @Override
    public List<Traversal.Admin<S, C>> getLocalChildren() {
        List<Traversal.Admin<S, C>> out = new ArrayList<>(comparators.size());
        for (Pair<Traversal.Admin<S, C>, Comparator<C>> c : comparators) {
            out.add(c.getValue0());
        }
        return out;
    }

    @Override
    public Set<TraverserRequirement> getRequirements() {
        return getSelfAndChildRequirements(TraverserRequirement.BULK, TraverserRequirement.OBJECT);
    }

    @Override
    public void reset() {
        super.reset();
        bound = null;
    }

    @Override
    public TetraOrderLimitStep<S, C> clone() {
        TetraOrderLimitStep<S, C> clone = (TetraOrderLimitStep<S, C>) super.clone();
        clone.comparators = new ArrayList<>(comparators.size());
        for (Pair<Traversal.Admin<S, C>, Comparator<C>> c : comparators) {
            clone.comparators.add(new Pair<>(c.getValue0().clone(), c.getValue1()));
        }
        clone.multiComparator = null;
        clone.bound = null;
        return clone;
    }

    @Override
    public void setTraversal(Traversal.Admin<?, ?> parentTraversal) {
        super.setTraversal(parentTraversal);
        for (Pair<Traversal.Admin<S, C>, Comparator<C>> c : comparators) {
            integrateChild(c.getValue0());
        }
    }

    @Override
    public int hashCode() {
        int result = super.hashCode() ^ Long.hashCode(limit);
        for (Pair<Traversal.Admin<S, C>, Comparator<C>> c : comparators) {
            result ^= c.hashCode();
        }
        return result;
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, comparators, "limit:" + limit);
    }
}
