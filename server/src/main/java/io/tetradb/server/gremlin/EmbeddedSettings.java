package io.tetradb.server.gremlin;

import io.tetradb.graph.TetraGraph;
import io.tetradb.server.gremlin.charge.ChargingWebSocketChannelizer;
import io.tetradb.server.gremlin.security.BoundedGraphBinaryRegistry;
import io.tetradb.server.gremlin.security.CompiledScriptCache;
import io.tetradb.server.gremlin.security.GremlinAuthenticator;
import io.tetradb.server.gremlin.security.GremlinAuthorizer;
import io.tetradb.server.gremlin.security.GremlinCredentials;
import io.tetradb.server.gremlin.security.GremlinSandbox;
import io.tetradb.server.gremlin.security.SandboxGremlinPlugin;
import org.apache.tinkerpop.gremlin.groovy.jsr223.GroovyCompilerGremlinPlugin;
import org.apache.tinkerpop.gremlin.jsr223.ImportGremlinPlugin;
import io.tetradb.core.net.ConnectionGuard;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.core.net.NettyTransport;
import io.tetradb.server.ServerLimits;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.server.jsr223.GremlinServerGremlinPlugin;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;
import org.apache.tinkerpop.gremlin.util.ser.GraphSONMessageSerializerV2;
import org.apache.tinkerpop.gremlin.util.ser.GraphSONMessageSerializerV3;

import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gremlin Server's settings for the embedded server, built in code (there is no YAML file to keep in step):
 * WebSocket with request charges, GraphBinary v1 and GraphSON v3 and v2, script engines gremlin-groovy and
 * gremlin-lang, and the graphs the server opened (handed to {@link TetraGraphManager} through these settings).
 *
 * <p>Scripts are sandboxed: gremlin-groovy compiles statically with {@link GremlinSandbox} (an allow-list of Gremlin
 * and value types, no lambdas in traversals), refuses annotations ({@link SandboxGremlinPlugin}) and checks for
 * interruption in every loop and closure, so that a script stopped at its {@code evaluationTimeout} really stops;
 * gremlin-lang parses nothing but Gremlin. GraphBinary requests are read with lengths bounded by their frame
 * ({@link BoundedGraphBinaryRegistry}). With credentials, every connection authenticates first (SASL PLAIN) and
 * each request is authorised against the graph it addresses.
 */
public final class EmbeddedSettings extends Settings {
    private final Map<GraphSpec, TetraGraph> graphs;
    /** Counts this server's connections against the limits; read by the channelizer for each new connection. */
    private ConnectionGuard connectionGuard = new ConnectionGuard("gremlin", ConnectionLimits.defaults());

    EmbeddedSettings(InetAddress host, int port, Map<GraphSpec, TetraGraph> graphs, Duration scriptTimeout,
                     GremlinCredentials credentials) {
        if (scriptTimeout.isNegative() || scriptTimeout.isZero()) {
            throw new IllegalArgumentException("the Gremlin script timeout must be positive, not " + scriptTimeout);
        }
        this.graphs = new LinkedHashMap<>(graphs);
        this.host = host.getHostAddress();
        this.port = port;
        this.evaluationTimeout = scriptTimeout.toMillis();
        this.channelizer = ChargingWebSocketChannelizer.class.getName();
        // the transport every face shares (io.tetradb.core.net.NettyTransport); Gremlin Server knows epoll or NIO
        this.useEpollEventLoop = NettyTransport.get() == NettyTransport.EPOLL;
        this.graphManager = TetraGraphManager.class.getName();
        // GraphSON v3 after v2: both accept plain application/json, which then means v3
        String bounded = BoundedGraphBinaryRegistry.class.getName();
        this.serializers = List.of(
                serializer(GraphBinaryMessageSerializerV1.class.getName(),
                        Map.of(GraphBinaryMessageSerializerV1.TOKEN_BUILDER, bounded)),
                // results as strings (the "-stringd" mime type): what conf/remote.yaml asks for, for the Console
                serializer(GraphBinaryMessageSerializerV1.class.getName(),
                        Map.of(GraphBinaryMessageSerializerV1.TOKEN_SERIALIZE_RESULT_TO_STRING, true,
                                GraphBinaryMessageSerializerV1.TOKEN_BUILDER, bounded)),
                serializer(GraphSONMessageSerializerV2.class.getName(), Map.of()),
                serializer(GraphSONMessageSerializerV3.class.getName(), Map.of()));

        ScriptEngineSettings groovy = new ScriptEngineSettings();
        groovy.plugins.put(GremlinServerGremlinPlugin.class.getName(), Map.of());
        groovy.plugins.put(ImportGremlinPlugin.class.getName(), Map.of(
                "classImports", List.of("java.lang.Math"),
                "methodImports", List.of("java.lang.Math#*")));
        // mutable: Gremlin Server's sessions add their own option to this map
        groovy.plugins.put(GroovyCompilerGremlinPlugin.class.getName(), new HashMap<>(Map.of(
                "compilation", GroovyCompilerGremlinPlugin.Compilation.COMPILE_STATIC.name(),
                "extensions", GremlinSandbox.class.getName(),
                "enableThreadInterrupt", true,
                // bounded: every distinct script, a failed compilation too, would stay cached (CompiledScriptCache)
                "classMapCacheSpecification", CompiledScriptCache.specification(),
                // @Grab would fetch code at parse time, before any check
                "compilerConfigurationOptions", Map.of("DisabledGlobalASTTransformations",
                        Set.of("groovy.grape.GrabAnnotationTransformation")))));
        groovy.plugins.put(SandboxGremlinPlugin.class.getName(), Map.of());
        this.scriptEngines = new LinkedHashMap<>();
        this.scriptEngines.put("gremlin-groovy", groovy);
        this.scriptEngines.put("gremlin-lang", new ScriptEngineSettings());
        if (credentials != null) {
            requireCredentials(credentials);
        }
    }

    /** SASL PLAIN on the WebSocket, checked by {@link GremlinAuthenticator}; access per graph by {@link GremlinAuthorizer}. */
    private void requireCredentials(GremlinCredentials credentials) {
        this.authentication = new AuthenticationSettings();
        this.authentication.authenticator = GremlinAuthenticator.class.getName();
        this.authentication.config = Map.of(GremlinAuthenticator.CREDENTIALS, credentials);
        Map<String, GraphSpec> byName = new HashMap<>();
        for (GraphSpec g : graphs.keySet()) {
            byName.put(g.name(), g);
            byName.put(g.traversalSourceName(), g);
        }
        this.authorization = new AuthorizationSettings();
        this.authorization.authorizer = GremlinAuthorizer.class.getName();
        this.authorization.config = Map.of(GremlinAuthorizer.GRAPHS, byName);
    }

    /**
     * The server's limits: connections per face and per address, and a lower maxContentLength (Gremlin Server
     * answers a larger HTTP request 413 and closes a WebSocket with a larger frame with status 1009). Gremlin
     * Server's idleConnectionTimeout closes a connection that sends nothing for twice the drivers' keep-alive interval
     * (the Java driver pings every 180 s).
     */
    void limit(ServerLimits limits) {
        this.connectionGuard = new ConnectionGuard("gremlin", limits.connections());
        this.maxContentLength = limits.requestBytes((int) Math.min(Integer.MAX_VALUE, this.maxContentLength));
        this.idleConnectionTimeout = IDLE_CONNECTION_TIMEOUT_MS;
    }

    static final long IDLE_CONNECTION_TIMEOUT_MS = 360_000;

    public ConnectionGuard connectionGuard() {
        return connectionGuard;
    }

    /**
     * TLS with the server's certificate, optional on the same port (Gremlin Server's own {@code ssl} settings would
     * make it the only way in and want a key store file; the channelizer adds Netty's OptionalSslHandler instead).
     */
    private io.netty.handler.ssl.SslContext optionalTls;

    void optionalTls(io.netty.handler.ssl.SslContext context) {
        this.optionalTls = context;
    }

    /** The server's TLS context, or null for plain WebSocket only. */
    public io.netty.handler.ssl.SslContext optionalTls() {
        return optionalTls;
    }

    private static SerializerSettings serializer(String className, Map<String, Object> config) {
        SerializerSettings s = new SerializerSettings();
        s.className = className;
        s.config = config;
        return s;
    }

    /** The graphs to serve, in declaration order. */
    public Map<GraphSpec, TetraGraph> graphs() {
        return graphs;
    }
}
