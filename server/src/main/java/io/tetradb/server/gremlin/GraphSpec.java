package io.tetradb.server.gremlin;

import java.util.regex.Pattern;

/**
 * One graph that Gremlin Server serves: its name in the server and the core container it lives in.
 * Written {@code name=database/container/partitionKey} on the command line ({@code --graph}).
 *
 * @param name         the graph's name (Gremlin Server binds the graph under it)
 * @param database     core database (created if missing)
 * @param container    core container (created if missing, partitioned by {@code /partitionKey})
 * @param partitionKey the vertex property that holds the partition key value
 */
public record GraphSpec(String name, String database, String container, String partitionKey) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");  // before DEFAULT uses it

    /** The graph every server has unless configured otherwise: {@code graph=graphdb/graph/pk}, traversed as {@code g}. */
    public static final GraphSpec DEFAULT = new GraphSpec("graph", "graphdb", "graph", "pk");

    public GraphSpec {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("graph name '" + name + "' must be an identifier (letters, digits, _)");
        }
        for (String part : new String[] {database, container, partitionKey}) {
            if (part == null || part.isBlank() || part.contains("/")) {
                throw new IllegalArgumentException("graph " + name + ": database, container and partition key must be "
                        + "non-empty and without '/'");
            }
        }
    }

    /** Parses {@code name=database/container/partitionKey}. */
    public static GraphSpec parse(String text) {
        int eq = text.indexOf('=');
        String[] parts = eq < 0 ? new String[0] : text.substring(eq + 1).split("/", -1);
        if (eq <= 0 || parts.length != 3) {
            throw new IllegalArgumentException("a graph is written name=database/container/partitionKey, not '"
                    + text + "'");
        }
        return new GraphSpec(text.substring(0, eq), parts[0], parts[1], parts[2]);
    }

    /**
     * The traversal source bound for this graph: {@code g} for the graph named {@code graph}, {@code g_<name>}
     * for the others.
     */
    public String traversalSourceName() {
        return name.equals(DEFAULT.name) ? "g" : "g_" + name;
    }

    @Override
    public String toString() {
        return name + "=" + database + "/" + container + "/" + partitionKey;
    }
}
