package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;

import java.util.ArrayList;
import java.util.List;

/**
 * Cosmos DB users and permissions of one database, kept in the database's face metadata container
 * ({@code system.cosmos}, see {@link SystemStore}): users in the logical partition {@code /users}, a user's
 * permissions in {@code /users/<user>}. Container names cannot hold a slash, so these partitions never meet the
 * per-container entries of {@link SystemStore} (and are not dropped with any container); they go with the database.
 * Each entry is {@code {id, coll, resource: <what the client sent, cleaned>, scope?: <a permission's resolved
 * target>}}; its core {@code _etag} and {@code _ts} are the resource's.
 */
final class UserStore {
    private static final String USERS = "/users";

    private final CoreStore store;

    UserStore(CoreStore store) {
        this.store = store;
    }

    /** A stored user or permission: the resource body, its resolved scope (permissions) and the core's etag/ts. */
    record Entry(String id, ObjectNode resource, ObjectNode scope, String etag, long ts) {
    }

    private ContainerStore container(String db, boolean create) {
        return store.metadataContainer(db, SystemStore.CONTAINER, PartitionKeyDefinition.of("/coll"), create);
    }

    private static PartitionKeyValue usersKey() {
        return PartitionKeyValue.of(TextNode.valueOf(USERS));
    }

    private static PartitionKeyValue permissionsKey(String user) {
        return PartitionKeyValue.of(TextNode.valueOf(USERS + "/" + user));
    }

    Entry user(String db, String user) {
        return read(db, usersKey(), user);
    }

    List<Entry> users(String db) {
        return list(db, usersKey());
    }

    Entry permission(String db, String user, String permission) {
        return read(db, permissionsKey(user), permission);
    }

    List<Entry> permissions(String db, String user) {
        return list(db, permissionsKey(user));
    }

    /** Creates a user; 409 when one has this id. */
    Entry createUser(String db, ObjectNode resource) {
        return write(db, usersKey(), ItemOperation.create(item(resource, USERS, null)));
    }

    /** Replaces a user (a new id renames it and moves its permissions); 404/409/412 as the core answers. */
    Entry replaceUser(String db, String user, ObjectNode resource, String ifMatch) {
        String newId = resource.path("id").asText();
        if (newId.equals(user)) {
            return write(db, usersKey(), ItemOperation.replace(user, item(resource, USERS, null), ifMatch));
        }
        Entry old = user(db, user);
        if (old == null) {
            throw new CosmosError(404, "Resource Not Found: user '" + user + "' does not exist.");
        }
        if (ifMatch != null && !ifMatch.equals(old.etag())) {
            throw new CosmosError(412, "One of the specified pre-condition is not met.");
        }
        Entry renamed = write(db, usersKey(), ItemOperation.create(item(resource, USERS, null)));
        for (Entry p : permissions(db, user)) {
            write(db, permissionsKey(newId), ItemOperation.create(item(p.resource(), USERS + "/" + newId,
                    p.scope())));
        }
        deleteUser(db, user, null);
        return renamed;
    }

    /** Deletes a user and its permissions (their tokens stop working at once). */
    void deleteUser(String db, String user, String ifMatch) {
        for (Entry p : permissions(db, user)) {
            deletePermission(db, user, p.id(), null);
        }
        write(db, usersKey(), ItemOperation.delete(user, ifMatch));
    }

    // Permission writes are serialized: the one-permission-per-resource check and the write must not interleave.
    synchronized Entry createPermission(String db, String user, ObjectNode resource, ObjectNode scope) {
        OnePermissionPerResource.check(permissions(db, user), resource.path("id").asText(), scope);
        return write(db, permissionsKey(user), ItemOperation.create(item(resource, USERS + "/" + user, scope)));
    }

    synchronized Entry upsertPermission(String db, String user, ObjectNode resource, ObjectNode scope) {
        OnePermissionPerResource.check(permissions(db, user), resource.path("id").asText(), scope);
        return write(db, permissionsKey(user), ItemOperation.upsert(item(resource, USERS + "/" + user, scope),
                null));
    }

    synchronized Entry replacePermission(String db, String user, String permission, ObjectNode resource,
                                         ObjectNode scope, String ifMatch) {
        OnePermissionPerResource.check(permissions(db, user), permission, scope);
        return write(db, permissionsKey(user), ItemOperation.replace(permission,
                item(resource, USERS + "/" + user, scope), ifMatch));
    }

    void deletePermission(String db, String user, String permission, String ifMatch) {
        write(db, permissionsKey(user), ItemOperation.delete(permission, ifMatch));
    }

    private static ObjectNode item(ObjectNode resource, String partition, ObjectNode scope) {
        ObjectNode item = Json.object();
        item.put("id", resource.path("id").asText());
        item.put("coll", partition);
        item.set("resource", resource);
        if (scope != null) {
            item.set("scope", scope);
        }
        return item;
    }

    private Entry write(String db, PartitionKeyValue pk, ItemOperation op) {
        ContainerStore c = container(db, op.type() != ItemOperation.Type.DELETE
                && op.type() != ItemOperation.Type.REPLACE);
        if (c == null) {
            throw new CosmosError(404, "Resource Not Found: '" + op.id() + "' does not exist.");
        }
        ItemResult r;
        try {
            r = c.execute(pk, op);
        } catch (StoreException e) {
            throw switch (e.status()) {
                case 404 -> new CosmosError(404, "Resource Not Found: '" + op.id() + "' does not exist.");
                case 409 -> new CosmosError(409, "Resource with specified id or name already exists.");
                case 412 -> new CosmosError(412, "One of the specified pre-condition is not met.");
                default -> e;
            };
        }
        return r.stored() == null ? null : entry(c, r.stored());
    }

    private Entry read(String db, PartitionKeyValue pk, String id) {
        ContainerStore c = container(db, false);
        if (c == null) {
            return null;
        }
        try {
            return entry(c, c.read(pk, id, null).stored());
        } catch (StoreException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    private List<Entry> list(String db, PartitionKeyValue pk) {
        ContainerStore c = container(db, false);
        List<Entry> out = new ArrayList<>();
        if (c != null) {
            c.scan(pk, stored -> {
                out.add(entry(c, stored));
                return true;
            });
        }
        return out;
    }

    private static Entry entry(ContainerStore c, byte[] stored) {
        ObjectNode item = c.codec().parse(stored);
        ObjectNode resource = item.path("resource").isObject() ? (ObjectNode) item.get("resource") : Json.object();
        ObjectNode scope = item.path("scope").isObject() ? (ObjectNode) item.get("scope") : null;
        return new Entry(item.path("id").asText(), resource, scope, item.path("_etag").asText(),
                item.path("_ts").asLong());
    }
}
