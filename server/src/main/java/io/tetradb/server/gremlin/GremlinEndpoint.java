package io.tetradb.server.gremlin;

import io.tetradb.document.CosmosClient;
import io.tetradb.graph.TetraGraph;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerLimits;
import io.tetradb.server.StartupException;
import io.tetradb.server.gremlin.security.GremlinCredentials;
import io.tetradb.server.gremlin.charge.ChargeMeter;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.server.GremlinServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * Gremlin Server (TinkerPop 3.8.1) inside the TetraDB process, serving graphs over the server's own store: a
 * vertex written here is an item that every other face reads. WebSocket at {@code ws://host:port/gremlin}.
 */
public final class GremlinEndpoint implements Endpoint {
    /** How long a script or traversal may run before it is stopped and answered with 598 (Gremlin Server's own default). */
    public static final Duration DEFAULT_SCRIPT_TIMEOUT = Duration.ofSeconds(30);

    /** Attempts at binding a port we picked as free (another process may take it between the check and the bind). */
    private static final int FREE_PORT_ATTEMPTS = 3;

    private final GremlinServer server;
    private final InetSocketAddress address;
    private final Map<GraphSpec, TetraGraph> graphs;

    private GremlinEndpoint(GremlinServer server, InetSocketAddress address, Map<GraphSpec, TetraGraph> graphs) {
        this.server = server;
        this.address = address;
        this.graphs = graphs;
    }

    /**
     * Opens the graphs on {@code client} and binds {@code bind:port} (0 = a free port). Gremlin Server cannot bind
     * port 0 and tell which port it got, so for 0 a free port is picked first (and picked again if it was taken
     * meanwhile).
     */
    public static GremlinEndpoint start(InetAddress bind, int port, CosmosClient client, List<GraphSpec> specs) {
        return start(bind, port, client, specs, DEFAULT_SCRIPT_TIMEOUT);
    }

    /**
     * As {@link #start(InetAddress, int, CosmosClient, List)}, with the time a script or traversal may run: then it
     * is interrupted (its loops check for that) and answered with 598 SERVER_TIMEOUT. A request may ask for less
     * ({@code evaluationTimeout}), never for more.
     */
    public static GremlinEndpoint start(InetAddress bind, int port, CosmosClient client, List<GraphSpec> specs,
                                        Duration scriptTimeout) {
        return start(bind, port, client, specs, scriptTimeout, null, ServerLimits.defaults());
    }

    /**
     * As {@link #start(InetAddress, int, CosmosClient, List, Duration)}; with {@code credentials} (null: none needed)
     * every connection must authenticate (SASL PLAIN) and each request is checked against the graph it addresses.
     */
    public static GremlinEndpoint start(InetAddress bind, int port, CosmosClient client, List<GraphSpec> specs,
                                        Duration scriptTimeout, GremlinCredentials credentials) {
        return start(bind, port, client, specs, scriptTimeout, credentials, ServerLimits.defaults());
    }

    /** As above, with the server's connection limits and request size cap (Gremlin Server's maxContentLength). */
    public static GremlinEndpoint start(InetAddress bind, int port, CosmosClient client, List<GraphSpec> specs,
                                        Duration scriptTimeout, ServerLimits limits) {
        return start(bind, port, client, specs, scriptTimeout, null, limits);
    }

    /** With credentials (null: none needed) and the server's limits. */
    public static GremlinEndpoint start(InetAddress bind, int port, CosmosClient client, List<GraphSpec> specs,
                                        Duration scriptTimeout, GremlinCredentials credentials, ServerLimits limits) {
        return start(bind, port, client, specs, scriptTimeout, credentials, limits, null);
    }

    /** As above; with {@code tls}, {@code wss://} and {@code ws://} on the same port (null: {@code ws://} only). */
    public static GremlinEndpoint start(InetAddress bind, int port, CosmosClient client, List<GraphSpec> specs,
                                        Duration scriptTimeout, GremlinCredentials credentials, ServerLimits limits,
                                        io.netty.handler.ssl.SslContext tls) {
        for (int attempt = 1; ; attempt++) {
            int actual = port != 0 ? port : freePort(bind);
            Map<GraphSpec, TetraGraph> graphs = open(client, specs);
            EmbeddedSettings settings = new EmbeddedSettings(bind, actual, graphs, scriptTimeout, credentials);
            settings.limit(limits);
            settings.optionalTls(tls);
            GremlinServer server = new GremlinServer(settings);
            try {
                server.start().join();
                return new GremlinEndpoint(server, new InetSocketAddress(bind, actual), graphs);
            } catch (Exception e) {
                server.stop().join();  // releases its threads and closes the graphs
                if (port == 0 && attempt < FREE_PORT_ATTEMPTS) {
                    continue;
                }
                String where = Endpoint.hostPort(new InetSocketAddress(bind, actual));
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                throw new StartupException("cannot bind Gremlin Server to " + where + ": " + cause.getMessage(), cause);
            }
        }
    }

    private static Map<GraphSpec, TetraGraph> open(CosmosClient client, List<GraphSpec> specs) {
        Map<GraphSpec, TetraGraph> graphs = new LinkedHashMap<>();
        try {
            for (GraphSpec spec : specs) {
                BaseConfiguration c = new BaseConfiguration();
                c.setProperty(TetraGraph.DATABASE, spec.database());
                c.setProperty(TetraGraph.CONTAINER, spec.container());
                c.setProperty(TetraGraph.PARTITION_KEY, spec.partitionKey());
                graphs.put(spec, TetraGraph.open(client, c));
            }
        } catch (RuntimeException e) {
            graphs.values().forEach(TetraGraph::close);
            throw new StartupException("cannot open graph: " + e.getMessage(), e);
        }
        return graphs;
    }

    private static int freePort(InetAddress bind) {
        try (ServerSocket s = new ServerSocket(0, 1, bind)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new StartupException("cannot find a free port on " + bind.getHostAddress() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return "gremlin";
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public String url() {
        return "ws://" + Endpoint.hostPort(address) + "/gremlin";
    }

    /** The graphs served, by their declaration. */
    public Map<GraphSpec, TetraGraph> graphs() {
        return graphs;
    }

    /** The request charge meter of this server's graphs. */
    public ChargeMeter chargeMeter() {
        return ((TetraGraphManager) server.getServerGremlinExecutor().getGraphManager()).chargeMeter();
    }

    /** Scripts gremlin-groovy holds compiled now (bounded by {@link CompiledScriptCache#MAX_SCRIPTS}). */
    public long compiledScriptsCached() {
        return io.tetradb.server.gremlin.security.CompiledScriptCache.size(server);
    }

    /** Stops Gremlin Server: no new connections, running requests finished or timed out, graphs closed. */
    @Override
    public void close() {
        server.stop().join();
    }
}
