package io.tetradb.graph.structure;

import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.TetraGraphProvider;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.structure.StructureStandardSuite;
import org.junit.runner.RunWith;

/** TinkerPop's structure API compliance suite (JUnit 4, run through junit-vintage). */
@RunWith(StructureStandardSuite.class)
@GraphProviderClass(provider = TetraGraphProvider.class, graph = TetraGraph.class)
public class TetraGraphStructureStandardTest {
}
