package io.tetradb.graph.process;

import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.TetraGraphProvider;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.process.ProcessEmbeddedStandardSuite;
import org.junit.runner.RunWith;

/** TinkerPop's traversal compliance suite, embedded mode (JUnit 4, run through junit-vintage). */
@RunWith(ProcessEmbeddedStandardSuite.class)
@GraphProviderClass(provider = TetraGraphProvider.class, graph = TetraGraph.class)
public class TetraGraphProcessStandardTest {
}
