package io.tetradb.graph.process.traversal.step.sideEffect;

import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.process.traversal.query.HasToSql;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.structure.ElementIds;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.step.HasContainerHolder;
import org.apache.tinkerpop.gremlin.process.traversal.step.Profiling;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStepContract;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.HasContainer;
import org.apache.tinkerpop.gremlin.process.traversal.util.AndP;
import org.apache.tinkerpop.gremlin.process.traversal.util.MutableMetrics;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * {@code g.V()/g.E()} with the {@code has} steps that followed it folded in: ids become point reads (or a fan-out
 * query on {@code id}), the other containers a Cosmos SQL query that the core routes and answers from its indexes
 * (see {@link HasToSql}). Every result is tested against all containers again, so the semantics are TinkerPop's.
 * {@code explain()} shows the SQL; {@code profile()} adds it, the core's access path and the request charge.
 */
public final class TetraGraphStep<S, E extends Element> extends GraphStep<S, E> implements HasContainerHolder<S, E>,
        Profiling {
    private final List<HasContainer> hasContainers = new ArrayList<>();
    private transient MutableMetrics metrics;

    public TetraGraphStep(GraphStepContract<S, E> original) {
        super(original.getTraversal(), original.getReturnClass(), original.isStartStep(), original.getIds());
        original.getLabels().forEach(this::addLabel);
        setIteratorSupplier(this::elements);
    }

    private TetraGraph graph() {
        return (TetraGraph) getTraversal().getGraph().get();
    }

    private boolean vertices() {
        return Vertex.class.isAssignableFrom(returnClass);
    }

    /** The SQL the containers fold into (for explain, profile and the count strategy). */
    public HasToSql query() {
        TetraGraph g = graph();
        return new HasToSql(vertices(), g.partitionKey(), g.defaultPartition(), hasContainers);
    }

    private Iterator<E> elements() {
        TetraGraph g = graph();
        double before = g.requestCharges().current();
        Iterator<? extends Element> found;
        String sql;
        if (ids == null) {
            return Collections.emptyIterator();
        } else if (ids.length > 0) {
            Object[] lookups = addressesFromPartitionKey(g);
            sql = "ids " + Arrays.toString(lookups);
            found = vertices() ? g.vertices(lookups) : g.edges(lookups);
        } else {
            HasToSql q = query();
            sql = q.sql().toString();
            found = byLabel(g);
            if (found != null) {
                sql = "label keys, then cached reads: " + sql;
            } else {
                Iterator<Element> lists = g.finder().query(q.sql(), null);
                found = lists;
                if (q.plainSql() != null) { // another face's documents: the tested properties as plain fields
                    sql += " + " + q.plainSql();
                    found = IteratorUtils.concat(lists, g.finder().query(q.plainSql(), null));
                }
            }
        }
        if (metrics != null) {
            metrics.setAnnotation("query", sql);
        }
        Iterator<E> filtered = (Iterator<E>) IteratorUtils.filter(found, e -> HasContainer.testAll(e, hasContainers));
        return metrics == null ? filtered : annotateWhenDone(filtered, g, before);
    }

    /**
     * {@code g.V().hasLabel('x')} and nothing else: the vertices' addresses from the core's label index keys, each
     * read through the graph's exact item cache (a query would read and parse every item again); null otherwise.
     * Edges that share the label are skipped here, the has-containers are tested on every vertex anyway.
     */
    private Iterator<? extends Element> byLabel(TetraGraph g) {
        if (!vertices() || hasContainers.size() != 1) {
            return null;
        }
        HasContainer c = hasContainers.get(0);
        if (!T.label.getAccessor().equals(c.getKey()) || c.getBiPredicate() != Compare.eq
                || !(c.getValue() instanceof String label) || label.equals(Vertex.DEFAULT_LABEL)) {
            return null; // a vertex without a label field has the default label: not in the label index
        }
        Iterator<com.fasterxml.jackson.databind.node.ObjectNode> items = g.store().itemsWithLabel(label);
        if (items == null) {
            return null;
        }
        return IteratorUtils.map(IteratorUtils.filter(items, item -> !item.has(Layout.IS_EDGE)),
                item -> (Vertex) g.finder().wrap(item));
    }

    /**
     * {@code g.V('Seattle').has('pk', 'USA')}: bare ids with a partition key given by {@code eq}/{@code within}
     * become {@code [pk, id]} addresses, read directly instead of queried in every partition.
     */
    private Object[] addressesFromPartitionKey(TetraGraph g) {
        Collection<?> pks = null;
        for (HasContainer c : hasContainers) {
            if (g.partitionKey().equals(c.getKey())) {
                if (c.getBiPredicate() == Compare.eq) {
                    pks = List.of(c.getValue());
                } else if (c.getBiPredicate() == Contains.within && c.getValue() instanceof Collection<?> v) {
                    pks = v;
                }
            }
        }
        if (pks == null || ElementIds.mayBeFlattenedPair(ids)) {
            return ids;
        }
        List<Object> out = new ArrayList<>();
        for (Object id : ids) {
            if (id instanceof Element || id instanceof Collection || !ElementIds.isIdValue(id)) {
                return ids;
            }
            for (Object pk : pks) {
                if (ElementIds.isPartitionKeyValue(pk)) {
                    out.add(ElementIds.of(pk, id.toString()));
                }
            }
        }
        return out.toArray();
    }

    private Iterator<E> annotateWhenDone(Iterator<E> it, TetraGraph g, double before) {
        return new Iterator<>() {
            private boolean done;

            @Override
            public boolean hasNext() {
                boolean more = it.hasNext();
                if (!more && !done) {
                    done = true;
                    metrics.setAnnotation("accessPath", g.store().lastAccessPath());
                    metrics.setAnnotation("requestCharge", g.requestCharges().current() - before);
                }
                return more;
            }

            @Override
            public E next() {
                return it.next();
            }
        };
    }

    @Override
    public void setMetrics(MutableMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public List<HasContainer> getHasContainers() {
        return Collections.unmodifiableList(hasContainers);
    }

    @Override
    public void addHasContainer(HasContainer hasContainer) {
        if (hasContainer.getPredicate() instanceof AndP<?> and) {
            for (P<?> p : and.getPredicates()) {
                addHasContainer(new HasContainer(hasContainer.getKey(), p));
            }
        } else {
            hasContainers.add(hasContainer);
        }
    }

    @Override
    public void removeHasContainer(HasContainer hasContainer) {
        hasContainers.remove(hasContainer);
    }

    @Override
    public String toString() {
        if (hasContainers.isEmpty()) {
            return super.toString();
        }
        String kind = returnClass.getSimpleName().toLowerCase();
        if (ids != null && ids.length > 0) {
            return StringFactory.stepString(this, kind, Arrays.toString(ids), hasContainers);
        }
        return getTraversal().getGraph().isPresent()
                ? StringFactory.stepString(this, kind, hasContainers, "sql:" + query().sql())
                : StringFactory.stepString(this, kind, hasContainers);
    }

    @Override
    public int hashCode() {
        return super.hashCode() ^ hasContainers.hashCode();
    }
}
