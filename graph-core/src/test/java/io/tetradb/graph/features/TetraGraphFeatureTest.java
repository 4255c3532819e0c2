package io.tetradb.graph.features;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Stage;
import io.cucumber.guice.CucumberModules;
import io.cucumber.junit.Cucumber;
import io.cucumber.junit.CucumberOptions;
import org.apache.tinkerpop.gremlin.features.AbstractGuiceFactory;
import org.apache.tinkerpop.gremlin.features.World;
import org.junit.runner.RunWith;

/**
 * TinkerPop's Gherkin feature suite against TetraGraph. Excluded tags (see graph-core/README.md): what needs a
 * graph computer or a remote server, null property values (not supported) and TinkerGraph's own service registry;
 * single scenarios are opted out in {@link TetraGraphWorld#OPT_OUTS}.
 */
@RunWith(Cucumber.class)
@CucumberOptions(
        tags = "not @RemoteOnly and not @GraphComputerOnly and not @AllowNullPropertyValues"
                + " and not @TinkerServiceRegistry",
        glue = {"org.apache.tinkerpop.gremlin.features"},
        objectFactory = TetraGraphFeatureTest.Factory.class,
        features = {"classpath:/org/apache/tinkerpop/gremlin/test/features"},
        plugin = {"progress", "junit:target/cucumber.xml"})
public class TetraGraphFeatureTest {
    public static final class WorldModule extends AbstractModule {
        @Override
        protected void configure() {
            bind(World.class).to(TetraGraphWorld.class);
        }
    }

    public static final class Factory extends AbstractGuiceFactory {
        public Factory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new WorldModule()));
        }
    }
}
