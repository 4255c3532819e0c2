package io.tetradb.graph;

import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosException;
import io.tetradb.graph.process.traversal.step.map.TetraCountStep;
import io.tetradb.graph.process.traversal.step.sideEffect.TetraGraphStep;
import io.tetradb.graph.store.SharedClients;
import io.tetradb.graph.structure.TetraEdge;
import io.tetradb.graph.structure.TetraProperty;
import io.tetradb.graph.structure.TetraVertex;
import io.tetradb.graph.structure.TetraVertexProperty;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.AbstractGraphProvider;
import org.apache.tinkerpop.gremlin.LoadGraphWith;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * TetraGraph for TinkerPop's test suites. Creating a RocksDB store per test would dominate the run, so the whole JVM
 * shares one data directory (held open here) and every test graph gets its own container, deleted by
 * {@link #clear}. TinkerPop's tests never set a partition key, so the graphs put such vertices into a default
 * partition ({@link TetraGraph#DEFAULT_PARTITION}).
 */
public class TetraGraphProvider extends AbstractGraphProvider {
    public static final String DEFAULT_PARTITION = "p0";
    static final Path DIRECTORY;
    private static final CosmosClient CLIENT;

    static {
        try {
            DIRECTORY = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "tinkerpop-suite-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CLIENT = SharedClients.acquire(DIRECTORY, Durability.ASYNC);
    }

    private static final Set<Class> IMPLEMENTATIONS = Set.of(TetraGraph.class, TetraVertex.class, TetraEdge.class,
            TetraVertexProperty.class, TetraProperty.class, TetraGraphStep.class, TetraCountStep.class);

    @Override
    public Map<String, Object> getBaseConfiguration(String graphName, Class<?> test, String testMethodName,
                                                    LoadGraphWith.GraphData loadGraphWith) {
        Map<String, Object> c = new HashMap<>();
        c.put(Graph.GRAPH, TetraGraph.class.getName());
        c.put(TetraGraph.DIRECTORY, DIRECTORY.toString());
        c.put(TetraGraph.DATABASE, "suite");
        // the same test asking again (to reopen a closed graph) gets the same container
        c.put(TetraGraph.CONTAINER, "g-" + Integer.toHexString((graphName + "|" + test.getName() + "|"
                + testMethodName).hashCode()) + "-" + Integer.toHexString(testMethodName.length()));
        c.put(TetraGraph.DEFAULT_PARTITION, DEFAULT_PARTITION);
        c.put(TetraGraph.DURABILITY, "ASYNC");
        if (loadGraphWith == LoadGraphWith.GraphData.CREW) {
            // the crew graph has multi-properties: loading it needs list as the default cardinality
            c.put(TetraGraph.DEFAULT_CARDINALITY, "list");
        }
        return c;
    }

    @Override
    public void clear(Graph graph, Configuration configuration) throws Exception {
        if (graph != null) {
            graph.close();
        }
        if (configuration != null && configuration.containsKey(TetraGraph.CONTAINER)) {
            try {
                CLIENT.getDatabase(configuration.getString(TetraGraph.DATABASE))
                        .getContainer(configuration.getString(TetraGraph.CONTAINER)).delete();
            } catch (CosmosException e) {
                if (e.getStatusCode() != 404) {
                    throw e;
                }
            }
        }
    }

    /** Test ids become addresses in the default partition; vertex property ids are strings. */
    @Override
    public Object convertId(Object id, Class<? extends Element> c) {
        if (VertexProperty.class.isAssignableFrom(c)) {
            return id.toString();
        }
        return Arrays.asList(DEFAULT_PARTITION, id.toString());
    }

    @Override
    public Set<Class> getImplementations() {
        return IMPLEMENTATIONS;
    }
}
