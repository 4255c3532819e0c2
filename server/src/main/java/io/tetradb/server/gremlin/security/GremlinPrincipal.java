package io.tetradb.server.gremlin.security;

import io.tetradb.mongo.auth.StoredUserCheck.Role;
import io.tetradb.server.gremlin.GraphSpec;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;

import java.util.List;
import java.util.Set;

/**
 * Who a Gremlin connection authenticated as, and what that lets it do to each graph: nothing, read, or read and write.
 * Two kinds: the Cosmos DB Gremlin API's form (user {@code /dbs/{db}/colls/{coll}}, password a Cosmos key), which
 * opens that one graph, and a user of the server (made with the Mongo face's {@code createUser}), whose roles on the
 * graph's database decide, as they would for that database's collections.
 */
public abstract sealed class GremlinPrincipal extends AuthenticatedUser {
    /** What a principal may do to one graph. */
    public enum Access { NONE, READ, WRITE }

    GremlinPrincipal(String name) {
        super(name);
    }

    public abstract Access accessTo(GraphSpec graph);

    /** The Cosmos form: one graph, read-write with the master key, read-only with the read-only key. */
    static final class CosmosKey extends GremlinPrincipal {
        private final String database;
        private final String container;
        private final boolean readOnly;

        CosmosKey(String database, String container, boolean readOnly) {
            super("/dbs/" + database + "/colls/" + container);
            this.database = database;
            this.container = container;
            this.readOnly = readOnly;
        }

        @Override
        public Access accessTo(GraphSpec graph) {
            if (!graph.database().equals(database) || !graph.container().equals(container)) {
                return Access.NONE;
            }
            return readOnly ? Access.READ : Access.WRITE;
        }
    }

    /** A user of the server, with MongoDB's built-in roles read as they apply to the graph's database. */
    static final class StoredUser extends GremlinPrincipal {
        private static final Set<String> WRITE_ON_DB = Set.of("readWrite", "dbOwner");
        private static final Set<String> READ_ON_DB = Set.of("read");
        private static final Set<String> WRITE_ANY = Set.of("root", "readWriteAnyDatabase", "__system");
        private static final Set<String> READ_ANY = Set.of("readAnyDatabase");
        private final List<Role> roles;

        StoredUser(String name, List<Role> roles) {
            super(name);
            this.roles = List.copyOf(roles);
        }

        @Override
        public Access accessTo(GraphSpec graph) {
            Access best = Access.NONE;
            for (Role r : roles) {
                boolean admin = r.db().equals("admin");
                boolean here = r.db().equals(graph.database());
                if ((admin && WRITE_ANY.contains(r.role())) || (here && WRITE_ON_DB.contains(r.role()))) {
                    return Access.WRITE;
                }
                if ((admin && READ_ANY.contains(r.role())) || (here && READ_ON_DB.contains(r.role()))) {
                    best = Access.READ;
                }
            }
            return best;
        }
    }
}
