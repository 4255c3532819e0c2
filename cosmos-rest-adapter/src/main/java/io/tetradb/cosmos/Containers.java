package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.DatabaseDefinition;

import java.util.ArrayList;
import java.util.List;

/**
 * Containers ({@code colls}): create, read, replace (a new indexing policy starts the core's online rebuild, whose
 * progress the {@code x-ms-documentdb-collection-index-transformation-progress} header reports), delete, and the
 * one partition key range {@code ["", "FF")} every container presents (docs/cosmos-rest.md §3.3, §3.4).
 */
final class Containers {
    static final String PROGRESS = "x-ms-documentdb-collection-index-transformation-progress";
    /**
     * TetraDB's own header: how many physical partitions (EPK ranges with their own storage) the core keeps for the
     * container behind the one range the SDKs see.
     */
    static final String PHYSICAL_PARTITIONS = "x-ms-tetradb-physical-partitions";
    /** The routing map's version; it never changes, since the one range never splits (for the SDKs). */
    static final String PKRANGES_ETAG = "\"1\"";

    private Containers() {
    }

    static RestResponse create(CosmosApi api, RestRequest r, DatabaseDefinition db) {
        ObjectNode body = Json.parseObject(r.body());
        String id = requiredId(body);
        if (SystemStore.isSystem(id)) {
            throw CosmosError.badRequest("The container id '" + id + "' is reserved for TetraDB's metadata.");
        }
        PartitionKeyDefinition pk = partitionKey(body.get("partitionKey"));
        if (pk == null) {
            throw CosmosError.badRequest("A container needs a partitionKey definition, e.g. "
                    + "{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}.");
        }
        ContainerStore c = api.store.createContainer(db.id(), id, pk, nullIfMissing(body.get("indexingPolicy")),
                ttl(body), CosmosApi.throughput(r), nullIfMissing(body.get("uniqueKeyPolicy")));
        ChangeFeedReads.applyPolicy(body, c);
        if (CosmosApi.isAutoscale(r)) {
            api.offers.record(db.id(), id, c.definition().throughput(), true);
        }
        ObjectNode json = json(CosmosApi.target(db, c));
        return RestResponse.json(201, json, 5).header("etag", json.path("_etag").asText())
                .header(OWNER, "dbs/" + db.id());
    }

    static RestResponse single(CosmosApi api, RestRequest r, Target t) {
        CosmosApi.requireMethod(r, "GET", "PUT", "DELETE");
        switch (r.method()) {
            case "GET": {
                ObjectNode json = json(t);
                // the owner's name: the Java SDK builds the container's name link from it (its change feed needs it)
                return RestResponse.json(200, json, 1).header("etag", json.path("_etag").asText())
                        .header(OWNER, "dbs/" + t.database().id())
                        .header(PROGRESS, Long.toString(t.store().indexTransformationProgress()))
                        .header(PHYSICAL_PARTITIONS, Integer.toString(t.store().partitionMap().partitions().size()));
            }
            case "DELETE":
                api.store.deleteContainer(t.database().id(), t.name());
                api.system.dropContainer(t.database().id(), t.name());
                return RestResponse.empty(204, 1);
            default: {
                ObjectNode body = Json.parseObject(r.body());
                String id = requiredId(body);
                if (!id.equals(t.name())) {
                    throw CosmosError.badRequest("The container id in the body ('" + id + "') differs from the "
                            + "one in the URL ('" + t.name() + "').");
                }
                JsonNode unique = nullIfMissing(body.get("uniqueKeyPolicy"));
                JsonNode stored = t.definition().uniqueKeyPolicy();
                if (unique != null && !sameUniqueKeys(unique, stored)) {
                    throw CosmosError.badRequest("The unique key policy of a container cannot change after it is "
                            + "created.");
                }
                api.store.replaceContainer(t.database().id(), t.name(), partitionKey(body.get("partitionKey")),
                        nullIfMissing(body.get("indexingPolicy")), ttl(body));
                Target after = api.target(t.database(), t.name());
                ChangeFeedReads.applyPolicy(body, after.store());
                ObjectNode json = json(after);
                return RestResponse.json(200, json, 5).header("etag", json.path("_etag").asText())
                        .header(PROGRESS, Long.toString(after.store().indexTransformationProgress()));
            }
        }
    }

    private static boolean sameUniqueKeys(JsonNode given, JsonNode stored) {
        JsonNode a = given.path("uniqueKeys");
        JsonNode b = stored == null ? Json.array() : stored.path("uniqueKeys");
        return (a.isMissingNode() || a.isEmpty()) && (b.isMissingNode() || b.isEmpty()) || a.equals(b);
    }

    private static String requiredId(ObjectNode body) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw CosmosError.badRequest("The input content is invalid because the required properties - 'id; ' - "
                    + "are missing.");
        }
        return id.textValue();
    }

    private static JsonNode nullIfMissing(JsonNode n) {
        return n == null || n.isNull() ? null : n;
    }

    private static Integer ttl(ObjectNode body) {
        JsonNode ttl = body.get("defaultTtl");
        if (ttl == null || ttl.isNull()) {
            return null;
        }
        if (!ttl.canConvertToInt() || !ttl.isIntegralNumber()) {
            throw CosmosError.badRequest("defaultTtl must be an integer (-1 or a positive number of seconds).");
        }
        return ttl.intValue();
    }

    static PartitionKeyDefinition partitionKey(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject() || !n.path("paths").isArray()) {
            throw CosmosError.badRequest("partitionKey must be an object with a 'paths' array.");
        }
        List<String> paths = new ArrayList<>();
        for (JsonNode p : n.path("paths")) {
            if (!p.isTextual()) {
                throw CosmosError.badRequest("partitionKey.paths must hold strings such as \"/pk\".");
            }
            paths.add(p.textValue());
        }
        String kind = n.path("kind").isTextual() ? n.path("kind").textValue() : null;
        if (kind != null && !kind.equals("Hash") && !kind.equals("MultiHash")) {
            throw CosmosError.badRequest("partitionKey.kind must be Hash or MultiHash, not " + kind + ".");
        }
        if ("Hash".equals(kind) && paths.size() > 1) {
            throw CosmosError.badRequest("A partition key with more than one path must be of kind MultiHash.");
        }
        int version = n.path("version").asInt(2);
        return new PartitionKeyDefinition(paths, kind, version);
    }

    static final String OWNER = "x-ms-alt-content-path";

    static ObjectNode json(Target t) {
        ContainerDefinition d = t.definition();
        ObjectNode n = Json.object();
        n.put("id", d.id());
        n.set("indexingPolicy", d.indexingPolicy() != null ? d.indexingPolicy().deepCopy() : defaultPolicy());
        ObjectNode pk = n.putObject("partitionKey");
        ArrayNode paths = pk.putArray("paths");
        d.partitionKey().paths().forEach(paths::add);
        pk.put("kind", d.partitionKey().kind());
        pk.put("version", d.partitionKey().version());
        if (d.defaultTimeToLive() != null) {
            n.put("defaultTtl", d.defaultTimeToLive());
        }
        n.set("uniqueKeyPolicy", d.uniqueKeyPolicy() != null ? d.uniqueKeyPolicy().deepCopy()
                : Json.object().set("uniqueKeys", Json.array()));
        n.putObject("conflictResolutionPolicy").put("mode", "LastWriterWins")
                .put("conflictResolutionPath", "/_ts").put("conflictResolutionProcedure", "");
        n.putObject("geospatialConfig").put("type", "Geography");
        ChangeFeedReads.describePolicy(n, t.store());
        n.put("_rid", t.collRid());
        n.put("_ts", d.ts());
        n.put("_self", t.self());
        n.put("_etag", "\"" + Integer.toHexString(java.util.Objects.hash(d.indexingPolicy(), d.defaultTimeToLive(),
                d.collId())) + "\"");
        n.put("_docs", "docs/");
        n.put("_sprocs", "sprocs/");
        n.put("_triggers", "triggers/");
        n.put("_udfs", "udfs/");
        n.put("_conflicts", "conflicts/");
        return n;
    }

    static ObjectNode defaultPolicy() {
        ObjectNode p = Json.object();
        p.put("indexingMode", "consistent");
        p.put("automatic", true);
        p.putArray("includedPaths").addObject().put("path", "/*");
        p.putArray("excludedPaths").addObject().put("path", "/\"_etag\"/?");
        return p;
    }

    /**
     * The container's routing map: always the one range {@code "0"} over {@code ["", "FF")}. Java reads it as an
     * incremental feed and stops on 304, which answers an {@code If-None-Match} carrying the map's etag.
     */
    static RestResponse partitionKeyRanges(RestRequest r, Target t) {
        String inm = r.header("If-None-Match");
        if (inm != null && (inm.equals(PKRANGES_ETAG) || inm.equals("1") || inm.equals("*"))) {
            return RestResponse.empty(304, 1).header("etag", PKRANGES_ETAG).header("x-ms-item-count", "0")
                    .header("lsn", "1").header("x-ms-global-committed-lsn", "1");
        }
        ObjectNode range = Json.object();
        String rid = ResourceIds.pkrange(t.collRid());
        range.put("_rid", rid);
        range.put("id", "0");
        range.put("_etag", "\"" + rid + "\"");
        range.put("minInclusive", "");
        range.put("maxExclusive", "FF");
        range.put("ridPrefix", 0);
        range.put("_self", t.self() + "pkranges/" + rid + "/");
        range.put("throughputFraction", 1);
        range.put("status", "online");
        range.putArray("parents");
        range.put("_ts", t.definition().ts());
        range.put("_lsn", 1);
        ObjectNode body = Json.object();
        body.put("_rid", t.collRid());
        body.putArray("PartitionKeyRanges").add(range);
        body.put("_count", 1);
        return RestResponse.json(200, body, 1).header("etag", PKRANGES_ETAG).header("x-ms-item-count", "1")
                .header("lsn", "1").header("x-ms-global-committed-lsn", "1");
    }
}
