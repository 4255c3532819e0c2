package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.DatabaseDefinition;

import java.util.ArrayList;
import java.util.List;

/**
 * Offers (provisioned throughput, docs/cosmos-rest.md §3.5): one per database created with throughput, one per
 * container (its own throughput, 400 RU/s when neither it nor its database has any; none when it shares its
 * database's). Read, list, query (the SDKs find an offer by {@code offerResourceId} or {@code resource}) and replace.
 * A replaced throughput is recorded and reported; the physical partition count stays what creation chose.
 */
final class Offers {
    static final int MIN_THROUGHPUT = 400;
    private static final String KIND = "offer";

    private final CosmosApi api;

    Offers(CosmosApi api) {
        this.api = api;
    }

    RestResponse handle(RestRequest r) {
        if (r.size() == 1) {
            CosmosApi.requireMethod(r, "GET", "POST");
            return api.feed(r, "", "Offers", all());
        }
        if (r.size() != 2) {
            throw CosmosError.notFound("Unknown offer route.");
        }
        String rid = r.segment(1);
        CosmosApi.requireMethod(r, "GET", "PUT");
        Located found = find(rid);
        if (r.method().equals("GET")) {
            return RestResponse.json(200, found.offer, 1).header("etag", found.offer.path("_etag").asText());
        }
        ObjectNode body = Json.parseObject(r.body());
        JsonNode content = body.path("content");
        int throughput;
        boolean autoscale = content.path("offerAutopilotSettings").path("maxThroughput").canConvertToInt();
        if (autoscale) {
            throughput = content.path("offerAutopilotSettings").path("maxThroughput").intValue();
        } else if (content.path("offerThroughput").canConvertToInt()) {
            throughput = content.path("offerThroughput").intValue();
        } else {
            throw CosmosError.badRequest("An offer replace needs content.offerThroughput (or "
                    + "content.offerAutopilotSettings.maxThroughput).");
        }
        if (throughput < MIN_THROUGHPUT) {
            throw CosmosError.badRequest("The offer throughput must be at least " + MIN_THROUGHPUT + " RU/s, got "
                    + throughput + ".");
        }
        record(found.database, found.container, throughput, autoscale);
        ObjectNode offer = find(rid).offer;
        return RestResponse.json(200, offer, 1).header("etag", offer.path("_etag").asText());
    }

    /** Records a throughput set after creation (or an autoscale maximum given at creation). */
    void record(String database, String container, int throughput, boolean autoscale) {
        ObjectNode setting = Json.object().put("offerThroughput", throughput);
        if (autoscale) {
            setting.put("autoscaleMaxThroughput", throughput);
        }
        api.system.upsert(database, container, KIND, "throughput", setting);
    }

    private record Located(String database, String container, ObjectNode offer) {
    }

    private Located find(String rid) {
        for (DatabaseDefinition d : api.store.listDatabases()) {
            if (d.throughput() != null && ResourceIds.databaseOffer(d).equals(rid)) {
                return new Located(d.id(), "", databaseOffer(d));
            }
            for (ContainerDefinition c : api.store.listContainers(d.id())) {
                if (!SystemStore.isSystem(c.id()) && ResourceIds.containerOffer(c).equals(rid)) {
                    ObjectNode offer = containerOffer(d, c);
                    if (offer != null) {
                        return new Located(d.id(), c.id(), offer);
                    }
                }
            }
        }
        throw CosmosError.notFound("Resource Not Found: offer '" + rid + "' does not exist.");
    }

    List<ObjectNode> all() {
        List<ObjectNode> out = new ArrayList<>();
        for (DatabaseDefinition d : api.store.listDatabases()) {
            if (d.throughput() != null) {
                out.add(databaseOffer(d));
            }
            for (ContainerDefinition c : api.store.listContainers(d.id())) {
                if (!SystemStore.isSystem(c.id())) {
                    ObjectNode offer = containerOffer(d, c);
                    if (offer != null) {
                        out.add(offer);
                    }
                }
            }
        }
        return out;
    }

    private ObjectNode databaseOffer(DatabaseDefinition d) {
        SystemStore.Entry e = api.system.get(d.id(), "", KIND, "throughput");
        return offer(ResourceIds.databaseOffer(d), "dbs/" + d.rid() + "/", d.rid(), d.throughput(), e, d.ts());
    }

    private ObjectNode containerOffer(DatabaseDefinition d, ContainerDefinition c) {
        Integer own = c.throughput();
        if (own == null && d.throughput() != null) {
            return null; // shares its database's throughput
        }
        String collRid = ResourceIds.container(c);
        SystemStore.Entry e = api.system.get(d.id(), c.id(), KIND, "throughput");
        return offer(ResourceIds.containerOffer(c), "dbs/" + d.rid() + "/colls/" + collRid + "/", collRid,
                own == null ? MIN_THROUGHPUT : own, e, c.ts());
    }

    /** An offer: the recorded setting if there is one, else the throughput the resource was created with. */
    private static ObjectNode offer(String rid, String resource, String resourceRid, int initial,
                                    SystemStore.Entry recorded, long ts) {
        int throughput = recorded == null ? initial : recorded.resource().path("offerThroughput").asInt(initial);
        int autoscaleMax = recorded == null ? 0 : recorded.resource().path("autoscaleMaxThroughput").asInt(0);
        ObjectNode o = Json.object();
        o.put("resource", resource);
        o.put("offerType", "Invalid");
        o.put("offerResourceId", resourceRid);
        o.put("offerVersion", "V2");
        ObjectNode content = o.putObject("content");
        if (autoscaleMax > 0) {
            // autoscale: the current throughput is a tenth of the maximum while idle, as Cosmos DB reports it
            content.put("offerThroughput", Math.max(MIN_THROUGHPUT, autoscaleMax / 10));
            content.putObject("offerAutopilotSettings").put("maxThroughput", autoscaleMax);
        } else {
            content.put("offerThroughput", throughput);
        }
        content.put("offerIsRUPerMinuteThroughputEnabled", false);
        o.put("id", rid);
        o.put("_rid", rid);
        o.put("_self", "offers/" + rid + "/");
        o.put("_etag", "\"" + Integer.toHexString(java.util.Objects.hash(rid, throughput, autoscaleMax)) + "\"");
        o.put("_ts", ts);
        return o;
    }
}
