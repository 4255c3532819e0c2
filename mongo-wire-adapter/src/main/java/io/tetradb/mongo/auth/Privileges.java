package io.tetradb.mongo.auth;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * MongoDB's built-in roles enforced per command: each command needs one action on a database (or on the cluster),
 * and each role grants a set of actions on its own database or, for the admin-only "AnyDatabase" roles, on every
 * database. The actions and grants follow MongoDB 7.0's built-in role reference; a command that is not listed needs
 * {@link Action#CLUSTER_ADMIN} (refused unless the user may administer the server), so a command added later is
 * closed until someone classifies it.
 */
public final class Privileges {
    /** What a command does, at the granularity the built-in roles distinguish. */
    public enum Action {
        /** Any authenticated user (session and connection housekeeping, the user's own information). */
        ANY,
        FIND, CHANGE_STREAM, LIST, STATS, INSERT, UPDATE, REMOVE, CREATE_COLLECTION, DROP_COLLECTION, CREATE_INDEX,
        DROP_INDEX, COLL_MOD, DROP_DATABASE, VALIDATE, USER_ADMIN, VIEW_USER, CLUSTER_MONITOR, CLUSTER_ADMIN,
        /** mongod's killAnyCursor, killAnySession and killop on the cluster: other users' cursors, sessions, ops. */
        KILL_ANY
    }

    private static final Set<Action> READ = EnumSet.of(Action.FIND, Action.CHANGE_STREAM, Action.LIST, Action.STATS);
    private static final Set<Action> READ_WRITE = union(READ, EnumSet.of(Action.INSERT, Action.UPDATE, Action.REMOVE,
            Action.CREATE_COLLECTION, Action.DROP_COLLECTION, Action.CREATE_INDEX, Action.DROP_INDEX));
    private static final Set<Action> DB_ADMIN = EnumSet.of(Action.LIST, Action.STATS, Action.CREATE_COLLECTION,
            Action.DROP_COLLECTION, Action.CREATE_INDEX, Action.DROP_INDEX, Action.COLL_MOD, Action.DROP_DATABASE,
            Action.VALIDATE);
    private static final Set<Action> USER_ADMIN = EnumSet.of(Action.USER_ADMIN, Action.VIEW_USER);
    private static final Set<Action> DB_OWNER = union(union(READ_WRITE, DB_ADMIN), USER_ADMIN);
    private static final Set<Action> EVERYTHING = EnumSet.allOf(Action.class);

    /** The actions a role grants on its own database. */
    private static final Map<String, Set<Action>> ON_OWN_DATABASE = Map.of(
            "read", READ, "readWrite", READ_WRITE, "dbAdmin", DB_ADMIN, "userAdmin", USER_ADMIN, "dbOwner", DB_OWNER,
            "enableSharding", EnumSet.noneOf(Action.class));
    /** The actions an admin-only role grants on every database. */
    private static final Map<String, Set<Action>> ON_EVERY_DATABASE = Map.of(
            "readAnyDatabase", READ, "readWriteAnyDatabase", READ_WRITE, "dbAdminAnyDatabase", DB_ADMIN,
            "userAdminAnyDatabase", USER_ADMIN, "backup", READ, "restore", union(READ_WRITE, USER_ADMIN),
            "root", EVERYTHING, "__system", EVERYTHING);
    /** The cluster-wide actions of the admin-only roles. */
    private static final Map<String, Set<Action>> ON_CLUSTER = Map.of(
            "clusterMonitor", EnumSet.of(Action.CLUSTER_MONITOR),
            "clusterManager", EnumSet.of(Action.CLUSTER_MONITOR, Action.CLUSTER_ADMIN),
            "clusterAdmin", EnumSet.of(Action.CLUSTER_MONITOR, Action.CLUSTER_ADMIN, Action.KILL_ANY),
            "hostManager", EnumSet.of(Action.CLUSTER_MONITOR, Action.CLUSTER_ADMIN, Action.KILL_ANY),
            "backup", EnumSet.of(Action.CLUSTER_MONITOR), "root", EVERYTHING, "__system", EVERYTHING);

    /** Each command's action, by lower-case name. */
    private static final Map<String, Action> COMMANDS = Map.ofEntries(
            Map.entry("find", Action.FIND), Map.entry("count", Action.FIND), Map.entry("distinct", Action.FIND),
            Map.entry("getmore", Action.FIND), Map.entry("explain", Action.FIND),
            Map.entry("listcollections", Action.LIST), Map.entry("listindexes", Action.LIST),
            Map.entry("collstats", Action.STATS), Map.entry("dbstats", Action.STATS),
            Map.entry("insert", Action.INSERT), Map.entry("update", Action.UPDATE), Map.entry("delete", Action.REMOVE),
            Map.entry("findandmodify", Action.UPDATE),
            Map.entry("create", Action.CREATE_COLLECTION), Map.entry("drop", Action.DROP_COLLECTION),
            Map.entry("createindexes", Action.CREATE_INDEX), Map.entry("dropindexes", Action.DROP_INDEX),
            Map.entry("deleteindexes", Action.DROP_INDEX), Map.entry("collmod", Action.COLL_MOD),
            Map.entry("dropdatabase", Action.DROP_DATABASE), Map.entry("validate", Action.VALIDATE),
            Map.entry("renamecollection", Action.CLUSTER_ADMIN), // checked on both namespaces below
            Map.entry("createuser", Action.USER_ADMIN), Map.entry("updateuser", Action.USER_ADMIN),
            Map.entry("dropuser", Action.USER_ADMIN), Map.entry("dropallusersfromdatabase", Action.USER_ADMIN),
            Map.entry("grantrolestouser", Action.USER_ADMIN), Map.entry("revokerolesfromuser", Action.USER_ADMIN),
            Map.entry("usersinfo", Action.VIEW_USER), Map.entry("rolesinfo", Action.ANY),
            Map.entry("serverstatus", Action.CLUSTER_MONITOR), Map.entry("currentop", Action.CLUSTER_MONITOR),
            Map.entry("hostinfo", Action.CLUSTER_MONITOR), Map.entry("getcmdlineopts", Action.CLUSTER_MONITOR),
            Map.entry("getlog", Action.CLUSTER_MONITOR), Map.entry("replsetgetstatus", Action.CLUSTER_MONITOR),
            Map.entry("replsetgetconfig", Action.CLUSTER_MONITOR), Map.entry("getparameter", Action.CLUSTER_MONITOR),
            Map.entry("getfreemonitoringstatus", Action.CLUSTER_MONITOR),
            Map.entry("replsetinitiate", Action.CLUSTER_ADMIN), Map.entry("enablesharding", Action.CLUSTER_ADMIN),
            Map.entry("shardcollection", Action.CLUSTER_ADMIN),
            // killAnySession: hostManager, clusterAdmin and root have it, clusterManager does not (MongoDB 7.0)
            Map.entry("killallsessions", Action.KILL_ANY), Map.entry("killallsessionsbypattern", Action.KILL_ANY),
            // one's own operations (killOp) and sessions (killSessions) need nothing; the handlers check the owner
            Map.entry("killop", Action.ANY),
            // housekeeping every authenticated user may do (MongoDB checks the cursor's or session's owner)
            Map.entry("killcursors", Action.ANY), Map.entry("killsessions", Action.ANY),
            Map.entry("startsession", Action.ANY), Map.entry("refreshsessions", Action.ANY),
            Map.entry("endsessions", Action.ANY), Map.entry("committransaction", Action.ANY),
            Map.entry("aborttransaction", Action.ANY), Map.entry("connectionstatus", Action.ANY),
            Map.entry("listcommands", Action.ANY), Map.entry("listdatabases", Action.ANY),
            Map.entry("whatsmyuri", Action.ANY), Map.entry("getlastrequeststatistics", Action.ANY),
            Map.entry("atlasversion", Action.ANY), Map.entry("logout", Action.ANY), Map.entry("hello", Action.ANY),
            Map.entry("ismaster", Action.ANY), Map.entry("ping", Action.ANY), Map.entry("buildinfo", Action.ANY),
            Map.entry("saslstart", Action.ANY), Map.entry("saslcontinue", Action.ANY),
            Map.entry("getnonce", Action.ANY));

    private Privileges() {
    }

    private static Set<Action> union(Set<Action> a, Set<Action> b) {
        Set<Action> out = EnumSet.noneOf(Action.class);
        out.addAll(a);
        out.addAll(b);
        return out;
    }

    /** A user's role on a database. */
    public record Grant(String role, String db) {
    }

    /** The grants stored in a user document's {@code roles} ({@code {role, db}} documents). */
    public static List<Grant> grants(BsonDocument user) {
        BsonValue roles = user.get("roles");
        if (!(roles instanceof BsonArray array)) {
            return List.of();
        }
        java.util.ArrayList<Grant> out = new java.util.ArrayList<>();
        for (BsonValue r : array) {
            if (r instanceof BsonDocument d && d.get("role") instanceof BsonString role
                    && d.get("db") instanceof BsonString db) {
                out.add(new Grant(role.getValue(), db.getValue()));
            }
        }
        return out;
    }

    /**
     * The database and action {@code command} needs when run on {@code database}: most act on the database they run
     * on; {@code aggregate} writing with {@code $out}/{@code $merge} inserts too; {@code $currentOp} and
     * {@code $listLocalSessions} on admin need cluster monitoring.
     */
    public static Action actionOf(String name, BsonDocument command) {
        String key = name.toLowerCase(Locale.ROOT);
        if (key.equals("aggregate")) {
            return aggregateAction(command);
        }
        if (key.equals("currentop") && command.get("$ownOps") instanceof org.bson.BsonBoolean own && own.getValue()) {
            return Action.ANY; // mongod: one's own operations need no inprog privilege
        }
        return COMMANDS.getOrDefault(key, Action.CLUSTER_ADMIN);
    }

    private static Action aggregateAction(BsonDocument command) {
        BsonValue pipeline = command.get("pipeline");
        Action action = Action.FIND;
        if (pipeline instanceof BsonArray stages) {
            for (BsonValue s : stages) {
                if (s instanceof BsonDocument stage && !stage.isEmpty()) {
                    String op = stage.getFirstKey();
                    if (op.equals("$out") || op.equals("$merge")) {
                        return Action.INSERT;
                    }
                    if (op.equals("$currentOp") && !allUsers(stage.get(op))) {
                        return Action.ANY; // allUsers: false (the default) lists only the caller's operations
                    }
                    if (op.equals("$currentOp") || op.equals("$listLocalSessions")) {
                        return Action.CLUSTER_MONITOR;
                    }
                    if (op.equals("$changeStream")) {
                        action = Action.CHANGE_STREAM;
                    }
                }
            }
        }
        return action;
    }

    /** {@code $currentOp}/{@code $listLocalSessions}' {@code allUsers} (default false). */
    public static boolean allUsers(BsonValue spec) {
        return spec instanceof BsonDocument d && d.get("allUsers") instanceof org.bson.BsonBoolean b && b.getValue();
    }

    /**
     * Why {@code grants} do not allow {@code command} on {@code database}, or null when they do. Besides the command's
     * own action: {@code renameCollection} needs to read and drop the source and to create and insert into the
     * target; {@code explain} needs what the explained command needs; {@code usersInfo} about oneself needs nothing.
     */
    public static String refusal(List<Grant> grants, String user, String userDb, String database, String name,
                                 BsonDocument command) {
        String key = name.toLowerCase(Locale.ROOT);
        boolean ok;
        if (key.equals("renamecollection")) {
            String from = databaseOf(command.get(name));
            String to = databaseOf(command.get("to"));
            ok = from != null && to != null && allows(grants, Action.FIND, from)
                    && allows(grants, Action.DROP_COLLECTION, from) && allows(grants, Action.CREATE_COLLECTION, to)
                    && allows(grants, Action.INSERT, to);
        } else if (key.equals("explain") && command.get("explain") instanceof BsonDocument inner && !inner.isEmpty()) {
            ok = allows(grants, actionOf(inner.getFirstKey(), inner), database);
        } else if (key.equals("usersinfo") && asksOnlyAbout(command.get(name), user, userDb, database)) {
            ok = true;
        } else {
            ok = allows(grants, actionOf(name, command), database);
        }
        if (ok) {
            return null;
        }
        return "not authorized on " + database + " to execute command { " + name + ": "
                + shortly(command.get(name)) + " }";
    }

    private static String databaseOf(BsonValue namespace) {
        if (!(namespace instanceof BsonString s)) {
            return null;
        }
        int dot = s.getValue().indexOf('.');
        return dot <= 0 ? null : s.getValue().substring(0, dot);
    }

    private static boolean asksOnlyAbout(BsonValue asked, String user, String userDb, String database) {
        if (asked instanceof BsonString name) {
            return name.getValue().equals(user) && database.equals(userDb);
        }
        return asked instanceof BsonDocument d && d.get("user") instanceof BsonString u && u.getValue().equals(user)
                && d.get("db") instanceof BsonString db && db.getValue().equals(userDb);
    }

    private static String shortly(BsonValue v) {
        String text = v == null ? "null" : v instanceof BsonString s ? '"' + s.getValue() + '"'
                : v.isDocument() ? v.asDocument().toJson() : String.valueOf(v);
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }

    /** The admin roles that carry MongoDB's {@code listDatabases} action on the cluster. */
    private static final Set<String> LIST_DATABASES = Set.of("root", "__system", "readAnyDatabase",
            "readWriteAnyDatabase", "dbAdminAnyDatabase", "userAdminAnyDatabase", "clusterMonitor", "clusterManager",
            "clusterAdmin", "backup");

    /** Whether {@code grants} carry the {@code listDatabases} action (every database is listed to them). */
    public static boolean mayListAllDatabases(List<Grant> grants) {
        return grants.stream().anyMatch(g -> g.db().equals(UserDirectory.DATABASE) && LIST_DATABASES.contains(g.role()));
    }

    /** Whether {@code grants} allow {@code action} on {@code database}. */
    public static boolean allows(List<Grant> grants, Action action, String database) {
        if (action == Action.ANY) {
            return true;
        }
        boolean cluster = action == Action.CLUSTER_MONITOR || action == Action.CLUSTER_ADMIN
                || action == Action.KILL_ANY;
        for (Grant g : grants) {
            boolean admin = g.db().equals(UserDirectory.DATABASE);
            if (cluster) {
                if (admin && ON_CLUSTER.getOrDefault(g.role(), Set.of()).contains(action)) {
                    return true;
                }
                continue;
            }
            if (g.db().equals(database) && ON_OWN_DATABASE.getOrDefault(g.role(), Set.of()).contains(action)) {
                return true;
            }
            if (admin && ON_EVERY_DATABASE.getOrDefault(g.role(), Set.of()).contains(action)) {
                return true;
            }
        }
        return false;
    }
}
