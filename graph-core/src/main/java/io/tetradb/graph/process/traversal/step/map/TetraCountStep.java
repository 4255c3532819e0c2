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

/** {@code g.V()...count()} answered by the core: {@code SELECT COUNT(1)} with the folded conditions. */
public final class TetraCountStep<S> extends AbstractStep<S, Long> {
    private final Sql countSql;
    /** The count of vertices whose tested properties are plain fields (HasToSql#plainSql), or null. */
    private final Sql plainCountSql;
    private boolean done;

    public TetraCountStep(Traversal.Admin traversal, Sql sql, Sql plainSql) {
        super(traversal);
        this.countSql = sql;
        this.plainCountSql = plainSql;
    }

    @Override
    protected Traverser.Admin<Long> processNextStart() {
        if (done) {
            throw FastNoSuchElementException.instance();
        }
        done = true;
        TetraGraph graph = (TetraGraph) getTraversal().getGraph().get();
        long n = 0;
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
        return StringFactory.stepString(this, "sql:" + countSql + (plainCountSql == null ? "" : " + " + plainCountSql));
    }
}
