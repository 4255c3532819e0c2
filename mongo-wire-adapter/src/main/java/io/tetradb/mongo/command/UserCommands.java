package io.tetradb.mongo.command;

import io.tetradb.mongo.auth.BuiltinRoles;
import io.tetradb.mongo.auth.UserDirectory;
import io.tetradb.mongo.query.FilterMatcher;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * User management as MongoDB 7.0 answers it: {@code createUser}, {@code updateUser}, {@code dropUser},
 * {@code dropAllUsersFromDatabase}, {@code usersInfo}, {@code grantRolesToUser}, {@code revokeRolesFromUser}. A user
 * belongs to the database the command runs on; only SCRAM-SHA-256 credentials are kept. Roles are MongoDB's
 * built-in ones, stored with the user but not enforced yet.
 */
final class UserCommands {
    private final UserDirectory users;

    UserCommands(UserDirectory users) {
        this.users = users;
    }

    void register(CommandDispatcher d) {
        d.register("createUser", this::createUser);
        d.register("updateUser", this::updateUser);
        d.register("dropUser", (ctx, cmd) -> {
            users.drop(ctx.database(), userName(cmd, "dropUser"));
            return Replies.ok();
        });
        d.register("dropAllUsersFromDatabase", (ctx, cmd) -> Replies.ok(new BsonDocument("n",
                new BsonInt32(users.dropAll(ctx.database())))));
        d.register("usersInfo", this::usersInfo);
        d.register("rolesInfo", UserCommands::rolesInfo);
        d.register("grantRolesToUser", (ctx, cmd) -> {
            users.changeRoles(ctx.database(), userName(cmd, "grantRolesToUser"), roles(ctx, cmd, true),
                    new BsonArray());
            return Replies.ok();
        });
        d.register("revokeRolesFromUser", (ctx, cmd) -> {
            users.changeRoles(ctx.database(), userName(cmd, "revokeRolesFromUser"), new BsonArray(),
                    roles(ctx, cmd, true));
            return Replies.ok();
        });
    }

    private BsonDocument createUser(CommandContext ctx, BsonDocument cmd) {
        String user = userName(cmd, "createUser");
        checkDatabase(ctx.database());
        if (!cmd.containsKey("pwd")) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Must provide a 'pwd' field for all user documents, except "
                    + "those with '$external' as the user's source db");
        }
        checkMechanisms(cmd);
        users.create(ctx.database(), user, password(cmd), roles(ctx, cmd, true), customData(cmd));
        return Replies.ok();
    }

    private BsonDocument updateUser(CommandContext ctx, BsonDocument cmd) {
        String user = userName(cmd, "updateUser");
        checkMechanisms(cmd);
        String password = cmd.containsKey("pwd") ? password(cmd) : null;
        BsonArray roles = cmd.containsKey("roles") ? roles(ctx, cmd, true) : null;
        BsonDocument customData = customData(cmd);
        if (password == null && roles == null && customData == null) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Must specify at least one field to update in updateUser");
        }
        users.update(ctx.database(), user, password, roles, customData);
        return Replies.ok();
    }

    /**
     * {@code usersInfo: 1 | "name" | {user, db} | [those…] | {forAllDBs: true}} with {@code showCredentials}
     * (MongoDB's stored SCRAM fields: salt, keys, iteration count — never a password), {@code showCustomData} and
     * {@code filter}. Users that do not exist are simply absent.
     */
    private BsonDocument usersInfo(CommandContext ctx, BsonDocument cmd) {
        BsonValue which = cmd.get("usersInfo");
        if (Args.bool(cmd, "showPrivileges", false)) {
            throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "usersInfo with showPrivileges is not supported: roles "
                    + "are not enforced by this server yet");
        }
        List<BsonDocument> found = new ArrayList<>();
        if (which.isNumber()) {
            found.addAll(users.list(ctx.database()));
        } else if (which.isDocument() && which.asDocument().containsKey("forAllDBs")) {
            if (!ctx.database().equals(UserDirectory.DATABASE)) {
                throw new MongoError(ErrorCode.BAD_VALUE, "forAllDBs is only valid in the admin database");
            }
            found.addAll(users.list(null));
        } else {
            for (BsonValue one : which.isArray() ? which.asArray() : List.of(which)) {
                String[] name = userAndDb(ctx, one);
                BsonDocument user = users.get(name[1], name[0]);
                if (user != null && !found.contains(user)) {
                    found.add(user);
                }
            }
        }
        boolean credentials = Args.bool(cmd, "showCredentials", false);
        boolean customData = Args.bool(cmd, "showCustomData", true);
        boolean restrictions = Args.bool(cmd, "showAuthenticationRestrictions", false);
        FilterMatcher filter = FilterMatcher.compile(Args.document(cmd, "filter"));
        BsonArray out = new BsonArray();
        for (BsonDocument user : found) {
            if (!credentials) {
                user.remove("credentials");
            }
            if (!customData) {
                user.remove("customData");
            }
            if (restrictions) {
                user.append("authenticationRestrictions", new BsonArray());
            }
            user.append("mechanisms", new BsonArray(List.of(new BsonString(UserDirectory.MECHANISM))));
            if (filter.test(user)) {
                out.add(user);
            }
        }
        return Replies.ok(new BsonDocument("users", out));
    }

    /**
     * {@code rolesInfo}: there are no user-defined roles, so {@code 1} lists nothing unless {@code showBuiltinRoles};
     * a named role (a string or {@code {role, db}}) is described if it is built in ({@code isBuiltin: true}).
     */
    private static BsonDocument rolesInfo(CommandContext ctx, BsonDocument cmd) {
        BsonValue which = cmd.get("rolesInfo");
        List<String[]> named = new ArrayList<>();
        if (which.isNumber()) {
            if (Args.bool(cmd, "showBuiltinRoles", false)) {
                BuiltinRoles.of(ctx.database()).forEach(r -> named.add(new String[]{r, ctx.database()}));
            }
        } else {
            for (BsonValue one : which.isArray() ? which.asArray() : List.of(which)) {
                if (one.isString()) {
                    named.add(new String[]{one.asString().getValue(), ctx.database()});
                } else if (one.isDocument() && one.asDocument().get("role") instanceof BsonString r
                        && one.asDocument().get("db") instanceof BsonString db) {
                    named.add(new String[]{r.getValue(), db.getValue()});
                } else {
                    throw new MongoError(ErrorCode.BAD_VALUE, "Role names must be either strings or objects with "
                            + "'role' and 'db' fields, not " + one);
                }
            }
        }
        BsonArray roles = new BsonArray();
        for (String[] r : named) {
            if (BuiltinRoles.exists(r[0], r[1])) {
                roles.add(new BsonDocument("role", new BsonString(r[0])).append("db", new BsonString(r[1]))
                        .append("isBuiltin", org.bson.BsonBoolean.TRUE).append("roles", new BsonArray())
                        .append("inheritedRoles", new BsonArray()));
            }
        }
        return Replies.ok(new BsonDocument("roles", roles));
    }

    private static String[] userAndDb(CommandContext ctx, BsonValue v) {
        if (v.isString()) {
            return new String[]{v.asString().getValue(), ctx.database()};
        }
        if (v.isDocument() && v.asDocument().get("user") instanceof BsonString u
                && v.asDocument().get("db") instanceof BsonString db) {
            return new String[]{u.getValue(), db.getValue()};
        }
        throw new MongoError(ErrorCode.BAD_VALUE, "User name must be either a string or an object with 'user' and "
                + "'db' fields, not " + v);
    }

    private static String userName(BsonDocument cmd, String field) {
        String user = Args.string(cmd, field);
        if (user.isEmpty()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "User document needs 'user' field to be non-empty");
        }
        return user;
    }

    private static void checkDatabase(String db) {
        if (db.equals("local")) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Cannot create users in the local database");
        }
    }

    private static String password(BsonDocument cmd) {
        String pwd = Args.string(cmd, "pwd");
        if (pwd.isEmpty()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "User passwords must not be empty");
        }
        if (!Args.bool(cmd, "digestPassword", true)) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Use of SCRAM-SHA-256 requires undigested passwords");
        }
        return pwd;
    }

    /** {@code mechanisms} may name MongoDB's two SCRAM mechanisms, and must include SCRAM-SHA-256 (the only one kept). */
    private static void checkMechanisms(BsonDocument cmd) {
        BsonValue v = cmd.get("mechanisms");
        if (v == null) {
            return;
        }
        if (!v.isArray() || v.asArray().isEmpty()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "mechanisms field must not be empty");
        }
        boolean sha256 = false;
        for (BsonValue m : v.asArray()) {
            String name = m.isString() ? m.asString().getValue() : String.valueOf(m);
            if (!name.equals("SCRAM-SHA-1") && !name.equals(UserDirectory.MECHANISM)) {
                throw new MongoError(ErrorCode.BAD_VALUE, "Unknown auth mechanism '" + name + "'");
            }
            sha256 |= name.equals(UserDirectory.MECHANISM);
        }
        if (!sha256) {
            throw new MongoError(ErrorCode.BAD_VALUE, "this server keeps SCRAM-SHA-256 credentials only: "
                    + "mechanisms must include SCRAM-SHA-256");
        }
    }

    private static BsonDocument customData(BsonDocument cmd) {
        BsonValue v = cmd.get("customData");
        if (v == null) {
            return null;
        }
        if (!v.isDocument()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "\"customData\" must be an object");
        }
        return v.asDocument();
    }

    /** The command's {@code roles} as {@code {role, db}} documents (a plain name is a role of the command's db). */
    private static BsonArray roles(CommandContext ctx, BsonDocument cmd, boolean required) {
        BsonValue v = cmd.get("roles");
        if (v == null) {
            if (required) {
                throw new MongoError(ErrorCode.IDL_MISSING_FIELD, "BSON field '" + cmd.getFirstKey()
                        + ".roles' is missing but a required field");
            }
            return new BsonArray();
        }
        if (!v.isArray()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + cmd.getFirstKey()
                    + ".roles' is the wrong type '" + v.getBsonType() + "', expected type 'array'");
        }
        BsonArray out = new BsonArray();
        for (BsonValue r : v.asArray()) {
            String role;
            String db;
            if (r.isString()) {
                role = r.asString().getValue();
                db = ctx.database();
            } else if (r.isDocument() && r.asDocument().get("role") instanceof BsonString name
                    && r.asDocument().get("db") instanceof BsonString in) {
                role = name.getValue();
                db = in.getValue();
            } else {
                throw new MongoError(ErrorCode.BAD_VALUE, "Role names must be either strings or objects with "
                        + "'role' and 'db' fields, not " + r);
            }
            if (!BuiltinRoles.exists(role, db)) {
                throw new MongoError(ErrorCode.ROLE_NOT_FOUND, "Could not find role: " + role + "@" + db);
            }
            BsonDocument doc = new BsonDocument("role", new BsonString(role)).append("db", new BsonString(db));
            if (!out.contains(doc)) {
                out.add(doc);
            }
        }
        return out;
    }
}
