package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.DatabaseDefinition;

import java.util.List;

/**
 * Authorizes a request that carries a resource token: the token must be one this server made, unexpired, and its
 * permission must still exist unchanged (deleting or replacing a permission, or deleting its user, revokes the
 * tokens already handed out). The request must then stay inside the permission, as Cosmos DB enforces it:
 * <ul>
 *   <li>the account ({@code GET /}) is readable with any valid token (the SDKs read it first);</li>
 *   <li>a database permission: the database and everything in it ({@link PermissionScope});</li>
 *   <li>the permitted container and its children only: its definition and partition key ranges (which the SDKs
 *       need even with an item-scoped token), items, queries, feeds, scripts; an item-scoped token only that
 *       item, a script- or conflict-scoped token only that script or conflict;</li>
 *   <li>{@code Read}: reads, queries, feeds; {@code All}: writes too (stored procedure execution included);</li>
 *   <li>with a {@code resourcePartitionKey}: only requests whose partition key header lies in it;</li>
 *   <li>never databases, users, permissions or offers.</li>
 * </ul>
 * Outside its scope a valid token gets Cosmos DB's 403; an invalid or expired one 401.
 */
final class ResourceTokenAuth {
    private final CosmosApi api;
    private final ResourceTokens tokens;

    ResourceTokenAuth(CosmosApi api, ResourceTokens tokens) {
        this.api = api;
        this.tokens = tokens;
    }

    void authorize(RestRequest r) {
        ResourceTokens.Claims c = tokens.verify(r.header("authorization"));
        DatabaseDefinition db = ResourceIds.findDatabase(api.store, c.dbRid());
        UserStore.Entry permission = db == null ? null : api.users.permission(db.id(), c.user(), c.permission());
        if (permission == null || !permission.etag().equals(c.permissionEtag())) {
            throw ResourceTokens.invalid(); // revoked: the permission was deleted or replaced
        }
        List<String> s = r.segments();
        if (s.isEmpty()) {
            return;
        }
        if (s.size() < 2 || !s.get(0).equals("dbs") || (s.size() >= 3 && s.get(2).equals("users"))) {
            throw forbidden(); // databases feed, offers, users and permissions: the master key's
        }
        DatabaseDefinition requestedDb;
        try {
            requestedDb = api.database(s.get(1));
        } catch (CosmosError missing) {
            throw forbidden(); // a token learns nothing about resources outside its scope
        }
        if (!requestedDb.rid().equals(c.dbRid())) {
            throw forbidden();
        }
        boolean writes = CosmosApi.writes(r);
        if (writes && !c.all()) {
            throw forbidden();
        }
        if (c.collRid() == null) {
            return; // a database permission: the database and everything in it (the prefix rule)
        }
        if (s.size() < 4 || !s.get(2).equals("colls")) {
            throw forbidden();
        }
        Target t;
        try {
            t = api.target(requestedDb, s.get(3));
        } catch (CosmosError missing) {
            throw forbidden();
        }
        if (!t.collRid().equals(c.collRid())) {
            throw forbidden();
        }
        boolean narrow = c.item() != null || c.child() != null;
        if (s.size() == 4) { // the container itself: any token of it reads it, an All container token may change it
            if (writes && narrow) {
                throw forbidden();
            }
            return;
        }
        String kind = s.get(4);
        if (kind.equals("pkranges") || r.flag("x-ms-cosmos-is-query-plan-request")) {
            return; // routing metadata and the query plan: no data
        }
        if (c.item() != null && !(kind.equals("docs") && s.size() == 6 && s.get(5).equals(c.item()))) {
            throw forbidden();
        }
        if (c.child() != null && !(s.size() == 6 && PermissionScope.isChild(t, c.child(), kind, s.get(5)))) {
            throw forbidden();
        }
        if (c.partitionKey() != null && !withinPartition(r, t.definition().partitionKey(), c.partitionKey())) {
            throw forbidden();
        }
    }

    /** Whether the request's partition key header names the permitted key, or a key under a permitted prefix. */
    private static boolean withinPartition(RestRequest r, PartitionKeyDefinition def, JsonNode permitted) {
        PartitionKeyValue requested;
        PartitionKeyValue allowed;
        try {
            requested = PartitionKeys.fromHeader(r, def, true);
            allowed = PartitionKeys.parse(Json.MAPPER.writeValueAsString(permitted), def, true);
        } catch (CosmosError | com.fasterxml.jackson.core.JsonProcessingException e) {
            return false;
        }
        if (requested == null || requested.levels() < allowed.levels()) {
            return false;
        }
        PartitionKeyValue head = PartitionKeyValue.of(requested.components().subList(0, allowed.levels()));
        return PartitionKeys.same(head, allowed);
    }

    static CosmosError forbidden() {
        return new CosmosError(403, "Insufficient permissions provided in the authorization header for the "
                + "corresponding request. Please retry with another authorization header.");
    }
}
