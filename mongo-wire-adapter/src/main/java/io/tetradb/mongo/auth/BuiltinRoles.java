package io.tetradb.mongo.auth;

import java.util.Set;

/**
 * MongoDB's built-in roles, the only roles a user can be given here (there is no {@code createRole}). Roles are
 * stored with the user and enforced per command by {@link Privileges}.
 */
public final class BuiltinRoles {
    /** Roles of any database. */
    private static final Set<String> ANY_DATABASE = Set.of("read", "readWrite", "dbAdmin", "dbOwner", "userAdmin",
            "enableSharding");
    /** Roles that exist only in the admin database. */
    private static final Set<String> ADMIN_ONLY = Set.of("readAnyDatabase", "readWriteAnyDatabase",
            "userAdminAnyDatabase", "dbAdminAnyDatabase", "clusterAdmin", "clusterManager", "clusterMonitor",
            "hostManager", "backup", "restore", "root", "__system", "__queryableBackup", "directShardOperations",
            "searchCoordinator");

    private BuiltinRoles() {
    }

    public static boolean exists(String role, String db) {
        return ANY_DATABASE.contains(role) || db.equals(UserDirectory.DATABASE) && ADMIN_ONLY.contains(role);
    }

    /** The built-in roles of {@code db}, by name. */
    public static java.util.SortedSet<String> of(String db) {
        java.util.SortedSet<String> out = new java.util.TreeSet<>(ANY_DATABASE);
        if (db.equals(UserDirectory.DATABASE)) {
            out.addAll(ADMIN_ONLY);
        }
        return out;
    }
}
