package io.tetradb.graph;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * A test over a fresh TetraGraph (default configuration) on a client of its own in a temporary directory, opened
 * before each test (before the subclass's own {@code @BeforeEach}) and closed after it.
 */
public abstract class TempDirGraphTest {
    @TempDir
    protected Path dir;
    protected CosmosClient client;
    protected TetraGraph graph;
    protected GraphTraversalSource g;

    @BeforeEach
    void openGraph() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        graph = TetraGraph.open(client, new BaseConfiguration());
        g = graph.traversal();
    }

    @AfterEach
    void closeGraph() {
        graph.close();
        client.close();
    }
}
