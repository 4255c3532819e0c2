package io.tetradb.graph.process.traversal.step.map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.Sql;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.Iterator;

/**
 * {@code g.V()...count()} answered by the core: {@code SELECT COUNT(1)} with the folded conditions. A bare
 * {@code g.V().count()} / {@code g.E().count()} first sums the keys of the graph's composite label index
 * ({@code GraphStore.labelCounts}: no item read), since the graph's policy does not index {@code _isEdge}.
 */
public final class TetraCountStep<S> extends AbstractStep<S, Long> {
    private final Sql countSql;
    /** The count of vertices whose tested properties are plain fields (HasToSql#plainSql), or null. */
    private final Sql plainCountSql;
    private boolean done;
    /** Null, or whether every vertex (true) or every edge (false) is counted: the label index's keys can answer. */
    private final Boolean allOfKind;

    public TetraCountStep(Traversal.Admin traversal, Sql sql, Sql plainSql) {
        this(traversal, sql, plainSql, null);
    }

    public TetraCountStep(Traversal.Admin traversal, Sql sql, Sql plainSql, Boolean allOfKind) {
        super(traversal);
        this.countSql = sql;
        this.plainCountSql = plainSql;
        this.allOfKind = allOfKind;
    }

    @Override
    protected Traverser.Admin<Long> processNextStart() {
        if (done) {
            throw FastNoSuchElementException.instance();
        }
        done = true;
        TetraGraph graph = (TetraGraph) getTraversal().getGraph().get();
        long n = 0;
        java.util.Map<String, Long> perLabel = allOfKind == null ? null
                : graph.store().labelCounts(allOfKind, allOfKind ? "vertex" : "edge");
        if (perLabel != null) {
            for (long c : perLabel.values()) {
                n += c;
            }
            return getTraversal().getTraverserGenerator().generate(n, (AbstractStep) this, 1L);
        }
        for (Iterator<ObjectNode> it = graph.store().query(countSql, null); it.hasNext(); ) {
            n += it.next().path("n").asLong();
        }
        if (plainCountSql != null) {
            for (Iterator<ObjectNode> it = graph.store().query(plainCountSql, null); it.hasNext(); ) {
                n += it.next().path("n").asLong();
            }
        }
        return getTraversal().getTraverserGenerator().generate(n, (AbstractStep) this, 1L);
    }

    @Override
    public void reset() {
        super.reset();
        done = false;
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, (allOfKind == null ? "" : "label index keys, else ") + "sql:" + countSql + (plainCountSql == null ? "" : " + " + plainCountSql));
    }
}
