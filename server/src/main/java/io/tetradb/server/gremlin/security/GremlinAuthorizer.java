package io.tetradb.server.gremlin.security;

import io.tetradb.server.gremlin.GraphSpec;
import io.tetradb.server.gremlin.security.GremlinPrincipal.Access;
import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.verification.ReadOnlyStrategy;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;
import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;
import org.apache.tinkerpop.gremlin.server.authz.Authorizer;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What an authenticated Gremlin request may do, from its {@link GremlinPrincipal}'s access to the graph it addresses.
 * A bytecode traversal on a graph the principal may only read runs with {@link ReadOnlyStrategy} appended (a mutating
 * step then fails); one on a graph it has no access to is refused. A script could write to anything its bindings
 * reach, so it needs write access to every graph it can reach (its aliases, or every served graph without aliases).
 * Gremlin Server answers a refusal with status 401 UNAUTHORIZED and the message given here.
 */
public final class GremlinAuthorizer implements Authorizer {
    /** The served graphs, by graph name and by traversal source name. */
    public static final String GRAPHS = "graphs";
    private Map<String, GraphSpec> graphs;

    @Override
    @SuppressWarnings("unchecked")
    public void setup(Map<String, Object> config) {
        if (config == null || !(config.get(GRAPHS) instanceof Map<?, ?> m)) {
            throw new IllegalStateException("the Gremlin authorizer needs the served graphs in the settings");
        }
        this.graphs = Map.copyOf((Map<String, GraphSpec>) m);
    }

    @Override
    public Bytecode authorize(AuthenticatedUser user, Bytecode bytecode, Map<String, String> aliases)
            throws AuthorizationException {
        String source = aliases == null ? null : aliases.get(Tokens.VAL_TRAVERSAL_SOURCE_ALIAS);
        GraphSpec graph = source == null ? null : graphs.get(source);
        if (graph == null) {
            throw new AuthorizationException("the traversal names no graph served here");
        }
        switch (access(user, graph)) {
            case WRITE:
                return bytecode;
            case READ:
                Bytecode readOnly = bytecode.clone();
                readOnly.addSource(TraversalSource.Symbols.withStrategies, ReadOnlyStrategy.instance());
                return readOnly;
            default:
                throw new AuthorizationException(user.getName() + " has no access to the graph " + graph.name());
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void authorize(AuthenticatedUser user, RequestMessage msg) throws AuthorizationException {
        Object aliases = msg.getArgs().get(Tokens.ARGS_ALIASES);
        Collection<String> names = aliases instanceof Map<?, ?> m && !m.isEmpty()
                ? ((Map<String, String>) m).values() : graphs.keySet();
        Set<GraphSpec> reached = new LinkedHashSet<>();
        for (String name : names) {
            GraphSpec g = graphs.get(name);
            if (g != null) {
                reached.add(g);
            }
        }
        for (GraphSpec g : reached) {
            if (access(user, g) != Access.WRITE) {
                throw new AuthorizationException(user.getName() + " may not send scripts that reach the graph "
                        + g.name() + ": scripts need write access to every graph they can reach (send a bytecode "
                        + "traversal, or alias the script to graphs it may write)");
            }
        }
    }

    private static Access access(AuthenticatedUser user, GraphSpec graph) {
        return user instanceof GremlinPrincipal p ? p.accessTo(graph) : Access.NONE;
    }
}
