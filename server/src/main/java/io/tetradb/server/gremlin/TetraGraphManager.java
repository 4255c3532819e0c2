package io.tetradb.server.gremlin;

import io.tetradb.graph.TetraGraph;
import io.tetradb.server.gremlin.charge.ChargeMeter;
import io.tetradb.server.gremlin.security.InterruptibleRepeatStrategy;
import io.tetradb.server.gremlin.security.NoServerFilesStrategy;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.server.util.DefaultGraphManager;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * Gremlin Server's graph registry, filled with the graphs the server opened on its own store. Gremlin Server
 * instantiates it by class name with its {@link Settings}; ours are {@link EmbeddedSettings}, which carry the open
 * graphs (so no static registry is needed and several servers can run in one JVM). Binds each graph under its name
 * and its traversal source ({@code g} for {@code graph}), and starts the request charge meter of each request.
 */
public final class TetraGraphManager extends DefaultGraphManager {
    private final ChargeMeter meter;

    public TetraGraphManager(Settings settings) {
        super(settings);
        if (!(settings instanceof EmbeddedSettings embedded)) {
            throw new IllegalArgumentException(TetraGraphManager.class.getSimpleName()
                    + " runs only inside the TetraDB server (its settings carry the open graphs)");
        }
        List<TetraGraph> graphs = new ArrayList<>();
        embedded.graphs().forEach((spec, graph) -> {
            putGraph(spec.name(), graph);
            putTraversalSource(spec.traversalSourceName(), graph.traversal()
                    .withStrategies(NoServerFilesStrategy.instance(), InterruptibleRepeatStrategy.instance()));
            graphs.add(graph);
        });
        meter = new ChargeMeter(graphs);
    }

    public ChargeMeter chargeMeter() {
        return meter;
    }

    /** Runs on the thread that is about to evaluate the request (scripts and bytecode alike). */
    @Override
    public void beforeQueryStart(RequestMessage msg) {
        meter.start(msg.getRequestId());
    }
}
