package io.tetradb.server.config;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Who may be reached from another host: a server binds beyond loopback only when every face it serves requires
 * credentials that are not public — the Cosmos master key is not the emulator's, a Tables account key is not
 * Azurite's, Gremlin requires a login and the Mongo face has at least one user (it then requires SCRAM for every
 * connection). MongoDB's own precedent is the localhost exception: create the first user over loopback, then open up.
 */
public final class BindPolicy {
    private BindPolicy() {
    }

    /**
     * What is missing for {@code bind} (empty: allowed). Each flag says whether the face is served and locked;
     * a face that is not served needs nothing.
     */
    public static List<String> missing(InetAddress bind, Face cosmos, Face tables, Face gremlin, Face mongo) {
        List<String> missing = new ArrayList<>();
        if (bind.isLoopbackAddress()) {
            return missing;
        }
        if (cosmos.served() && !cosmos.locked()) {
            missing.add("a Cosmos master key other than the emulator's (cosmos.key in tetradb.yaml, "
                    + SecurityConfig.ENV_COSMOS_KEY + " or --cosmos-key)");
        }
        if (tables.served() && !tables.locked()) {
            missing.add("Tables accounts with keys other than Azurite's (tables.accounts in tetradb.yaml or "
                    + SecurityConfig.ENV_TABLES_ACCOUNTS + ")");
        }
        if (gremlin.served() && !gremlin.locked()) {
            missing.add("Gremlin authentication (gremlin.auth: true, " + SecurityConfig.ENV_GREMLIN_AUTH
                    + "=true or --gremlin-auth)");
        }
        if (mongo.served() && !mongo.locked()) {
            missing.add("a Mongo user (start on 127.0.0.1 and run db.getSiblingDB('admin').createUser(...) first)");
        }
        return missing;
    }

    /** The refusal for {@code missing}. */
    public static String refusal(InetAddress bind, List<String> missing) {
        return "--bind " + bind.getHostAddress() + " is refused: beyond loopback every face must require "
                + "credentials; missing: " + String.join("; ", missing);
    }

    /** One face: whether this server serves it and whether it requires non-public credentials. */
    public record Face(boolean served, boolean locked) {
    }
}
