package io.tetradb.graph.process.traversal.step.map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.Sql;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * {@code g.V()...groupCount().by(label)} answered by the core: for every vertex (edge), the keys of the graph's
 * composite label index ({@code GraphStore.labelCounts}); else (or on a container without that index) one
 * {@code GROUP BY c.label} query with counts.
 */
public final class TetraLabelCountStep<S> extends AbstractStep<S, Map<String, Long>> {
    private final Sql sql;
    private boolean done;
    /** The label of an item that has none (another face's document): TinkerPop's default. */
    private final String defaultLabel;

    /** Whether every vertex (edge) is counted: the composite label index can answer. */
    private final boolean all;
    private final boolean vertices;

    public TetraLabelCountStep(Traversal.Admin traversal, Sql sql, boolean vertices, boolean all) {
        super(traversal);
        this.sql = sql;
        this.all = all;
        this.vertices = vertices;
        this.defaultLabel = vertices ? org.apache.tinkerpop.gremlin.structure.Vertex.DEFAULT_LABEL
                : org.apache.tinkerpop.gremlin.structure.Edge.DEFAULT_LABEL;
    }

    @Override
    protected Traverser.Admin<Map<String, Long>> processNextStart() {
        if (done) {
            throw FastNoSuchElementException.instance();
        }
        done = true;
        TetraGraph graph = (TetraGraph) getTraversal().getGraph().get();
        Map<String, Long> counts = all ? graph.store().labelCounts(vertices, defaultLabel) : null;
        if (counts != null) {
            return getTraversal().getTraverserGenerator().generate(counts, (AbstractStep) this, 1L);
        }
        counts = new HashMap<>();
        for (Iterator<ObjectNode> it = graph.store().query(sql, null); it.hasNext(); ) {
            ObjectNode row = it.next();
            String label = row.get("k") != null && row.get("k").isTextual() ? row.get("k").textValue() : defaultLabel;
            counts.merge(label, row.path("n").asLong(), Long::sum);
        }
        return getTraversal().getTraverserGenerator().generate(counts, (AbstractStep) this, 1L);
    }

    @Override
    public void reset() {
        super.reset();
        done = false;
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, "sql:" + sql);
    }
}
