package io.tetradb.graph;

import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.graph.process.traversal.strategy.optimization.TetraCountStrategy;
import io.tetradb.graph.process.traversal.strategy.optimization.TetraGraphStepStrategy;
import io.tetradb.graph.process.traversal.strategy.optimization.TetraIdStrategy;
import io.tetradb.graph.store.GraphStore;
import io.tetradb.graph.store.ValueCodec;
import io.tetradb.graph.store.Layout;
import io.tetradb.graph.store.RequestCharges;
import io.tetradb.graph.store.SharedClients;
import io.tetradb.graph.structure.ElementFinder;
import io.tetradb.graph.structure.TetraFeatures;
import io.tetradb.graph.structure.TetraVertex;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.computer.GraphComputer;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategies;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.nio.file.Path;
import java.util.Iterator;

/**
 * A TinkerPop graph over one container of the TetraDB core store. Vertices and edges are items of that container,
 * laid out as Azure Cosmos DB's Gremlin API does (see {@code graph-core/README.md}); every element id is
 * {@code [partitionKeyValue, id]}.
 *
 * <p>Configuration: {@value #DIRECTORY} (the graph opens, and closes, a client on that data directory), or a client
 * passed to {@link #open(CosmosClient, Configuration)}; {@value #DATABASE} (default {@code graphdb}),
 * {@value #CONTAINER} (default {@code graph}), {@value #PARTITION_KEY} (the partition key property, default
 * {@code pk}), {@value #DEFAULT_PARTITION} (see {@link #defaultPartition()}), {@value #DURABILITY} ({@code SYNC} or
 * {@code ASYNC}, for a client the graph opens), {@value #DEFAULT_CARDINALITY} ({@code single} or {@code list}: what
 * {@code property(key, value)} does without a cardinality).
 */
@Graph.OptIn(Graph.OptIn.SUITE_STRUCTURE_STANDARD)
@Graph.OptIn(Graph.OptIn.SUITE_PROCESS_EMBEDDED_STANDARD)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.FeatureSupportTest$VertexFunctionalityTest",
        method = "shouldSupportUserSuppliedIdsOfTypeString",
        reason = "T.id may be a bare string, the id inside the partition (as Cosmos DB users write it); the vertex id "
                + "is then [pk, id], so a string id is neither refused nor returned as given")
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.FeatureSupportTest$EdgeFunctionalityTest",
        method = "shouldSupportUserSuppliedIdsOfTypeString",
        reason = "T.id may be a bare string, the id inside the source's partition; the edge id is then [pk, id], so a "
                + "string id is neither refused nor returned as given")
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.util.detached.DetachedGraphTest",
        method = "testAttachableCreateMethod",
        reason = "expects the copy to keep the numeric id 0 of a detached vertex; every TetraGraph id is [pk, id]")
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.util.star.StarGraphTest",
        method = "shouldAttachWithCreateMethod",
        reason = "expects the copy to keep the numeric id 0 of a star vertex; every TetraGraph id is [pk, id]")
public final class TetraGraph implements Graph {
    public static final String DIRECTORY = "tetra.directory";
    public static final String DATABASE = "tetra.database";
    public static final String CONTAINER = "tetra.container";
    public static final String PARTITION_KEY = "tetra.partitionKey";
    public static final String DEFAULT_PARTITION = "tetra.defaultPartition";
    public static final String DURABILITY = "tetra.durability";
    public static final String DEFAULT_CARDINALITY = "tetra.defaultCardinality";
    public static final String CACHED_ITEMS = "tetra.cachedItems";
    /** The parsed items' estimated heap size, at most (bytes). */
    public static final String CACHED_BYTES = "tetra.cachedBytes";
    /** Whether hops read the core's adjacency entries (default) or query edge items (for comparisons). */
    public static final String READ_ADJACENCY = "tetra.readAdjacency";

    static {
        TraversalStrategies.GlobalCache.registerStrategies(TetraGraph.class,
                TraversalStrategies.GlobalCache.getStrategies(Graph.class).clone()
                        .addStrategies(TetraGraphStepStrategy.instance(), TetraIdStrategy.instance(),
                                TetraCountStrategy.instance(),
                                io.tetradb.graph.process.traversal.strategy.optimization.TetraAdjacencyCountStrategy
                                        .instance(),
                                io.tetradb.graph.process.traversal.strategy.optimization.TetraLabelCountStrategy
                                        .instance(),
                                io.tetradb.graph.process.traversal.strategy.optimization.TetraOrderLimitStrategy
                                        .instance(),
                                io.tetradb.graph.process.traversal.strategy.optimization.TetraPrefetchStrategy
                                        .instance(),
                                io.tetradb.graph.process.traversal.strategy.optimization.TetraValuesStrategy
                                        .instance(),
                                io.tetradb.graph.process.traversal.strategy.optimization.TetraBatchedAddStrategy
                                        .instance()));
    }

    private final Configuration configuration;
    private final CosmosClient client;
    private final boolean ownsClient;
    private final GraphStore store;
    private final boolean readAdjacency;

    /** The core's adjacency entries when hops read them, else null (hops query edge items). */
    public io.tetradb.core.store.GraphAdjacency adjacency() {
        return readAdjacency ? store.adjacency() : null;
    }
    private final String partitionKey;
    private final Object defaultPartition;
    private final TetraFeatures features;
    private final ElementFinder finder;
    private boolean closed;

    private TetraGraph(Configuration configuration, CosmosClient client, boolean ownsClient) {
        this.configuration = configuration;
        this.client = client;
        this.ownsClient = ownsClient;
        this.partitionKey = configuration.getString(PARTITION_KEY, "pk");
        if (partitionKey.isEmpty() || partitionKey.equals("id") || partitionKey.equals("label")
                || partitionKey.startsWith("_") || partitionKey.contains("/")) {
            throw new IllegalArgumentException("the partition key property of a graph cannot be '" + partitionKey
                    + "' (id and label are the element's own, names with / or a leading _ are not allowed)");
        }
        this.defaultPartition = configuration.getProperty(DEFAULT_PARTITION);
        this.features = new TetraFeatures(VertexProperty.Cardinality.valueOf(
                configuration.getString(DEFAULT_CARDINALITY, "single")));
        String database = configuration.getString(DATABASE, "graphdb");
        String container = configuration.getString(CONTAINER, "graph");
        client.createDatabaseIfNotExists(database);
        CosmosDatabase db = client.getDatabase(database);
        db.createContainerIfNotExists(new CosmosContainerProperties(container, "/" + partitionKey)
                .setIndexingPolicy(Layout.indexingPolicy()));
        CosmosContainer c = db.getContainer(container);
        String actual = c.read().getProperties().getPartitionKeyDefinition().getPaths().get(0);
        if (!actual.equals("/" + partitionKey)) {
            throw new IllegalArgumentException("container " + database + "/" + container + " is partitioned by "
                    + actual + ", not /" + partitionKey);
        }
        // typed property values when the core keeps them (TB1 items), the old shape on a JSON-text store
        ValueCodec.useTypedValues(client.coreStore().codec().writesBinary());
        this.store = new GraphStore(c, configuration.getInt(CACHED_ITEMS, GraphStore.DEFAULT_CACHED_ITEMS),
                configuration.getLong(CACHED_BYTES, GraphStore.DEFAULT_CACHED_BYTES), () -> client.coreStore().container(database, container));
        store.enableAdjacency();
        this.readAdjacency = configuration.getBoolean(READ_ADJACENCY, true);
        this.finder = new ElementFinder(this);
    }

    /** Opens the graph that the configuration names, with its own client on {@value #DIRECTORY}. */
    public static TetraGraph open(Configuration configuration) {
        String directory = configuration.getString(DIRECTORY, null);
        if (directory == null) {
            throw new IllegalArgumentException("TetraGraph needs " + DIRECTORY + " (a data directory), or open it with "
                    + "an existing CosmosClient");
        }
        Durability durability = Durability.valueOf(configuration.getString(DURABILITY, "SYNC").toUpperCase());
        CosmosClient client = SharedClients.acquire(Path.of(directory), durability);
        try {
            return new TetraGraph(configuration, client, true);
        } catch (RuntimeException e) {
            SharedClients.release(client);
            throw e;
        }
    }

    /** Opens a graph over a store someone else owns (the server's): closing the graph leaves the client open. */
    public static TetraGraph open(CosmosClient client, Configuration configuration) {
        return new TetraGraph(configuration, client, false);
    }

    /** Opens database {@code graphdb}, container {@code graph}, partition key {@code pk} of a data directory. */
    public static TetraGraph open(Path directory) {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(DIRECTORY, directory.toString());
        return open(c);
    }

    public GraphStore store() {
        return store;
    }

    /** The name of the partition key property. */
    public String partitionKey() {
        return partitionKey;
    }

    /**
     * The partition key value given to vertices added without one, or null (then such an add is refused, as in
     * Cosmos DB). Meant for code written for graphs without partitions, such as TinkerPop's test suites; the default
     * partition's key is not shown as a property.
     */
    public Object defaultPartition() {
        return defaultPartition;
    }

    /** The request charges (RU) of the core operations this thread ran; see {@link RequestCharges}. */
    public RequestCharges requestCharges() {
        return store.charges();
    }

    public ElementFinder finder() {
        return finder;
    }

    @Override
    public Vertex addVertex(Object... keyValues) {
        return TetraVertex.create(this, keyValues);
    }

    @Override
    public Iterator<Vertex> vertices(Object... vertexIds) {
        return finder.vertices(vertexIds);
    }

    @Override
    public Iterator<Edge> edges(Object... edgeIds) {
        return finder.edges(edgeIds);
    }

    @Override
    public <C extends GraphComputer> C compute(Class<C> graphComputerClass) {
        throw Graph.Exceptions.graphComputerNotSupported();
    }

    @Override
    public GraphComputer compute() {
        throw Graph.Exceptions.graphComputerNotSupported();
    }

    @Override
    public Transaction tx() {
        throw Graph.Exceptions.transactionsNotSupported();
    }

    @Override
    public Variables variables() {
        throw Graph.Exceptions.variablesNotSupported();
    }

    @Override
    public Configuration configuration() {
        return configuration;
    }

    @Override
    public Features features() {
        return features;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ownsClient) {
            SharedClients.release(client);
        }
    }

    @Override
    public String toString() {
        return StringFactory.graphString(this, configuration.getString(DATABASE, "graphdb") + "/"
                + configuration.getString(CONTAINER, "graph"));
    }
}
