package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Cosmos DB's rule that a user holds one permission per resource: "You can associate only one permission to a
 * particular resource for a user ... An attempt to add another permission ... results in an error (409 Conflict)"
 * (REST API reference, Permissions; Create a Permission: "409 is also returned when the new permission is assigned to
 * a resource already associated with another permission for the user"). The resource is the permission's link
 * together with its {@code resourcePartitionKey}: permissions of one user on one container for different partition
 * keys are allowed (the DocumentDB team's answer on Stack Overflow, and what @azure/cosmos samples do), so the same
 * link with another key, or with and without a key, is another resource. Compared on the resolved scope (database
 * and container RIDs, the item or script), so a link by name and one by RID meet.
 */
final class OnePermissionPerResource {
    private OnePermissionPerResource() {
    }

    /** 409 when a permission of this user other than {@code id} already covers the resource of {@code scope}. */
    static void check(List<UserStore.Entry> existing, String id, ObjectNode scope) {
        if (scope == null) {
            return;
        }
        for (UserStore.Entry e : existing) {
            if (!e.id().equals(id) && e.scope() != null && sameResource(e.scope(), scope)) {
                throw new CosmosError(409, "Resource with specified id, name or unique index already exists. The "
                        + "user already has permission '" + e.id() + "' on resource '"
                        + e.resource().path("resource").asText() + "'" + partitionKey(scope)
                        + "; a user holds one permission per resource: replace or delete that one.");
            }
        }
    }

    private static boolean sameResource(ObjectNode a, ObjectNode b) {
        return same(a, b, "db") && same(a, b, "coll") && same(a, b, "item") && same(a, b, "child")
                && same(a, b, "pk");
    }

    private static boolean same(ObjectNode a, ObjectNode b, String field) {
        JsonNode x = a.get(field);
        JsonNode y = b.get(field);
        return x == null || x.isNull() ? y == null || y.isNull() : x.equals(y);
    }

    private static String partitionKey(ObjectNode scope) {
        JsonNode pk = scope.get("pk");
        return pk == null || pk.isNull() ? "" : " with partition key " + pk;
    }
}
