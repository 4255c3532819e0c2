package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.DatabaseDefinition;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code /dbs/{db}/users[/{user}[/permissions[/{permission}]]]}: Cosmos DB users and their permissions (create,
 * upsert, read, replace, delete, list, query), stored by {@link UserStore}. Every permission answer carries a fresh
 * {@code _token} valid for {@code x-ms-documentdb-expiry-seconds} (3600 s by default), as Cosmos DB mints one on
 * each read. Only the master key reaches these routes; the read-only key may list users but not read permissions
 * (their tokens could grant writes).
 */
final class Users {
    private final CosmosApi api;
    private final ResourceTokens tokens;

    Users(CosmosApi api, ResourceTokens tokens) {
        this.api = api;
        this.tokens = tokens;
    }

    RestResponse handle(RestRequest r, DatabaseDefinition db, MasterKeyAuth.Grant grant) {
        int n = r.size();
        if (n == 3) {
            CosmosApi.requireMethod(r, "GET", "POST");
            if (r.method().equals("GET") || Queries.isQuery(r)) {
                List<ObjectNode> users = new ArrayList<>();
                for (UserStore.Entry e : api.users.users(db.id())) {
                    users.add(userJson(db, e));
                }
                return api.feed(r, db.rid(), "Users", users);
            }
            ObjectNode body = properties(r);
            boolean replaces = r.flag("x-ms-documentdb-is-upsert") && api.users.user(db.id(), id(body)) != null;
            UserStore.Entry e = replaces ? api.users.replaceUser(db.id(), id(body), body, null)
                    : api.users.createUser(db.id(), body);
            return answer(replaces ? 200 : 201, userJson(db, e)); // an upsert that creates is 201, as Cosmos DB
        }
        String user = userName(db, r.segment(3));
        if (n == 4) {
            CosmosApi.requireMethod(r, "GET", "PUT", "DELETE");
            switch (r.method()) {
                case "GET":
                    return answer(200, userJson(db, existingUser(db, user)));
                case "PUT": {
                    ObjectNode body = properties(r);
                    return answer(200, userJson(db, api.users.replaceUser(db.id(), user, body,
                            r.header("if-match"))));
                }
                default:
                    existingUser(db, user);
                    api.users.deleteUser(db.id(), user, r.header("if-match"));
                    return RestResponse.empty(204, 1);
            }
        }
        if (!r.segment(4).equals("permissions") || n > 6) {
            throw CosmosError.notFound("Unknown resource '" + r.segment(4) + "' under a user.");
        }
        if (grant == MasterKeyAuth.Grant.READ_ONLY) {
            throw new CosmosError(401, "The input authorization token can't serve the request. The read-only key "
                    + "cannot read permissions (their resource tokens may grant writes); sign with the read-write "
                    + "master key.");
        }
        existingUser(db, user);
        int seconds = ResourceTokens.expirySeconds(r);
        if (n == 5) {
            CosmosApi.requireMethod(r, "GET", "POST");
            if (r.method().equals("GET") || Queries.isQuery(r)) {
                List<ObjectNode> permissions = new ArrayList<>();
                for (UserStore.Entry e : api.users.permissions(db.id(), user)) {
                    permissions.add(permissionJson(db, user, e, seconds));
                }
                return api.feed(r, userRid(db, user), "Permissions", permissions);
            }
            ObjectNode body = permission(r, db);
            ObjectNode scope = (ObjectNode) body.remove("_scope");
            boolean upsert = r.flag("x-ms-documentdb-is-upsert");
            boolean replaces = upsert && api.users.permission(db.id(), user, id(body)) != null;
            UserStore.Entry e = upsert ? api.users.upsertPermission(db.id(), user, body, scope)
                    : api.users.createPermission(db.id(), user, body, scope);
            return answer(replaces ? 200 : 201, permissionJson(db, user, e, seconds));
        }
        String name = permissionName(db, user, r.segment(5));
        CosmosApi.requireMethod(r, "GET", "PUT", "DELETE");
        switch (r.method()) {
            case "GET": {
                UserStore.Entry e = api.users.permission(db.id(), user, name);
                if (e == null) {
                    throw missing("permission", name);
                }
                return answer(200, permissionJson(db, user, e, seconds));
            }
            case "PUT": {
                ObjectNode body = permission(r, db);
                ObjectNode scope = (ObjectNode) body.remove("_scope");
                if (!id(body).equals(name)) {
                    throw CosmosError.badRequest("A permission's id cannot change on replace ('" + name + "' → '"
                            + id(body) + "').");
                }
                return answer(200, permissionJson(db, user, api.users.replacePermission(db.id(), user, name, body,
                        scope, r.header("if-match")), seconds));
            }
            default:
                api.users.deletePermission(db.id(), user, name, r.header("if-match"));
                return RestResponse.empty(204, 1);
        }
    }

    /** A user named by id, or by the RID in its {@code _self} (the Java SDK replaces a permission through it). */
    private String userName(DatabaseDefinition db, String idOrRid) {
        if (api.users.user(db.id(), idOrRid) == null && ResourceIds.decode(idOrRid) != null) {
            for (UserStore.Entry e : api.users.users(db.id())) {
                if (userRid(db, e.id()).equals(idOrRid)) {
                    return e.id();
                }
            }
        }
        return idOrRid;
    }

    private String permissionName(DatabaseDefinition db, String user, String idOrRid) {
        if (api.users.permission(db.id(), user, idOrRid) == null && ResourceIds.decode(idOrRid) != null) {
            for (UserStore.Entry e : api.users.permissions(db.id(), user)) {
                if (ResourceIds.permission(userRid(db, user), e.id()).equals(idOrRid)) {
                    return e.id();
                }
            }
        }
        return idOrRid;
    }

    private static RestResponse answer(int status, ObjectNode json) {
        return RestResponse.json(status, json, 1).header("etag", json.path("_etag").asText(null));
    }

    private UserStore.Entry existingUser(DatabaseDefinition db, String user) {
        UserStore.Entry e = api.users.user(db.id(), user);
        if (e == null) {
            throw missing("user", user);
        }
        return e;
    }

    private static CosmosError missing(String kind, String id) {
        return CosmosError.notFound("Resource Not Found: " + kind + " '" + id + "' does not exist.");
    }

    /** The body without system properties, with a valid {@code id}. */
    private static ObjectNode properties(RestRequest r) {
        ObjectNode body = Json.parseObject(r.body());
        ObjectNode clean = Json.object();
        body.fields().forEachRemaining(f -> {
            if (!f.getKey().startsWith("_")) {
                clean.set(f.getKey(), f.getValue());
            }
        });
        id(clean);
        return clean;
    }

    private static String id(ObjectNode body) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual() || id.textValue().isEmpty()) {
            throw CosmosError.badRequest("The input content is invalid because the required properties - 'id; ' - "
                    + "are missing.");
        }
        String s = id.textValue();
        if (s.length() > 255 || s.chars().anyMatch(ch -> ch == '/' || ch == '\\' || ch == '?' || ch == '#')) {
            throw CosmosError.badRequest("The input name '" + s + "' is invalid. Ensure to provide a unique "
                    + "non-empty string less than '255' characters without '/', '\\', '?' or '#'.");
        }
        return s;
    }

    /**
     * A permission body checked and normalized: {@code permissionMode} Read or All (the SDKs send lower case),
     * {@code resource} the link of this database, of a container of it, or of an item, stored procedure, trigger,
     * UDF or conflict of one (Cosmos DB's permission resources; the scope is the link and what lies under it, see
     * {@link PermissionScope}), {@code resourcePartitionKey} an array fitting the container's key (none on a
     * database). Its resolved scope travels under {@code _scope}.
     */
    private ObjectNode permission(RestRequest r, DatabaseDefinition db) {
        ObjectNode body = properties(r);
        String mode = body.path("permissionMode").asText("").toLowerCase(Locale.ROOT);
        if (!mode.equals("read") && !mode.equals("all")) {
            throw CosmosError.badRequest("The permission's permissionMode must be 'Read' or 'All', not "
                    + body.path("permissionMode") + ".");
        }
        body.put("permissionMode", mode.equals("all") ? "All" : "Read");
        JsonNode link = body.get("resource");
        if (link == null || !link.isTextual()) {
            throw CosmosError.badRequest("The permission's resource must be the link of a database (dbs/{db}), a "
                    + "container (dbs/{db}/colls/{container}) or a resource of one (dbs/{db}/colls/{container}/"
                    + "{docs|sprocs|triggers|udfs|conflicts}/{id}).");
        }
        List<String> s = new ArrayList<>(Arrays.asList(link.textValue().split("/")));
        s.removeIf(String::isEmpty);
        boolean database = s.size() == 2;
        boolean child = s.size() == 6 && PermissionScope.CHILD_KINDS.contains(s.get(4));
        if (!(database || s.size() == 4 || child) || !s.get(0).equals("dbs")
                || (!database && !s.get(2).equals("colls"))) {
            throw CosmosError.badRequest("The permission's resource '" + link.textValue() + "' is not the link of a "
                    + "database (dbs/{db}), a container (dbs/{db}/colls/{container}) or a resource of one "
                    + "(dbs/{db}/colls/{container}/{docs|sprocs|triggers|udfs|conflicts}/{id}).");
        }
        DatabaseDefinition linked = api.database(s.get(1));
        if (!linked.rid().equals(db.rid())) {
            throw CosmosError.badRequest("The permission's resource '" + link.textValue() + "' is not in database '"
                    + db.id() + "', the user's.");
        }
        ObjectNode scope = Json.object();
        scope.put("db", db.rid());
        JsonNode pk = body.get("resourcePartitionKey");
        boolean hasKey = pk != null && !pk.isNull();
        if (database) { // everything in the database: its containers and what they hold
            if (hasKey) {
                throw CosmosError.badRequest("A permission on a database cannot have a resourcePartitionKey: a "
                        + "partition key belongs to a container; give the permission a container's link.");
            }
            body.remove("resourcePartitionKey");
            body.set("_scope", scope);
            return body;
        }
        Target t = api.target(linked, s.get(3));
        scope.put("coll", t.collRid());
        if (child && s.get(4).equals("docs")) {
            scope.put("item", s.get(5));
        } else if (child) {
            scope.put("child", s.get(4) + "/" + s.get(5));
        }
        if (hasKey) {
            ArrayNode key = pk.isArray() ? (ArrayNode) pk : Json.array().add(pk);
            PartitionKeys.parse(key.toString(), t.definition().partitionKey(), true); // 400 when it does not fit
            body.set("resourcePartitionKey", key);
            scope.set("pk", key);
        } else {
            body.remove("resourcePartitionKey");
        }
        body.set("_scope", scope);
        return body;
    }

    private ObjectNode userJson(DatabaseDefinition db, UserStore.Entry e) {
        ObjectNode n = e.resource().deepCopy();
        n.put("id", e.id());
        n.put("_rid", userRid(db, e.id()));
        n.put("_self", "dbs/" + db.rid() + "/users/" + userRid(db, e.id()) + "/");
        n.put("_etag", e.etag());
        n.put("_permissions", "permissions/");
        n.put("_ts", e.ts());
        return n;
    }

    private ObjectNode permissionJson(DatabaseDefinition db, String user, UserStore.Entry e, int seconds) {
        ObjectNode n = e.resource().deepCopy();
        String rid = ResourceIds.permission(userRid(db, user), e.id());
        n.put("id", e.id());
        n.put("_rid", rid);
        n.put("_self", "dbs/" + db.rid() + "/users/" + userRid(db, user) + "/permissions/" + rid + "/");
        n.put("_etag", e.etag());
        n.put("_ts", e.ts());
        ObjectNode scope = e.scope() == null ? Json.object() : e.scope();
        n.put("_token", tokens.mint(db.rid(), user, e.id(), e.etag(), "All".equals(n.path("permissionMode").asText()),
                scope.hasNonNull("coll") ? scope.get("coll").asText() : null,
                scope.hasNonNull("item") ? scope.get("item").asText() : null,
                scope.hasNonNull("child") ? scope.get("child").asText() : null, scope.get("pk"), seconds));
        return n;
    }

    private static String userRid(DatabaseDefinition db, String user) {
        return ResourceIds.user(db.rid(), user.getBytes(StandardCharsets.UTF_8));
    }
}
