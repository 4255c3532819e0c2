package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.DatabaseDefinition;
import io.tetradb.core.store.ThroughputCatalog;
import io.tetradb.core.throughput.ThroughputSettings;

import java.util.ArrayList;
import java.util.List;

/**
 * Offers (provisioned throughput, docs/cosmos-rest.md §3.5): one per database created with throughput, one per
 * container with its own (the core's default 400 RU/s when neither it nor its database has any; none when it shares
 * its database's). Read, list, query (the SDKs find an offer by {@code offerResourceId} or {@code resource}) and
 * replace, all on the core's throughput catalog: lowering is immediate; a raise past 10,000 RU/s per physical
 * partition splits partitions and answers {@code x-ms-offer-replace-pending: true} until they exist, as Cosmos DB.
 */
final class Offers {
    static final int MIN_THROUGHPUT = ThroughputSettings.MIN_MANUAL;

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
        if (r.method().equals("PUT")) {
            ObjectNode body = Json.parseObject(r.body());
            JsonNode content = body.path("content");
            ThroughputSettings settings;
            if (content.path("offerAutopilotSettings").path("maxThroughput").canConvertToInt()) {
                settings = ThroughputSettings.autoscale(content.path("offerAutopilotSettings").path("maxThroughput").intValue());
            } else if (content.path("offerThroughput").canConvertToInt()) {
                settings = ThroughputSettings.manual(content.path("offerThroughput").intValue());
            } else {
                throw CosmosError.badRequest("An offer replace needs content.offerThroughput (or "
                        + "content.offerAutopilotSettings.maxThroughput).");
            }
            if (settings.validationError() != null) {
                throw CosmosError.badRequest("The offer " + settings.validationError() + ".");
            }
            if (found.container.isEmpty()) {
                api.store.throughput().replaceDatabase(found.database, settings);
            } else {
                api.store.throughput().replaceContainer(found.database, found.container, settings);
            }
            found = find(rid);
        }
        return RestResponse.json(200, found.offer, 1).header("etag", found.offer.path("_etag").asText())
                .header("x-ms-offer-replace-pending", found.pending ? "true" : null);
    }

    /** Records the autoscale maximum given at creation (the core sized the partitions by it). */
    void record(String database, String container, int throughput, boolean autoscale) {
        if (!autoscale) {
            return;
        }
        ThroughputSettings settings = ThroughputSettings.autoscale(throughput);
        if (container.isEmpty()) {
            api.store.throughput().recordDatabase(api.store.readDatabase(database), settings);
        } else {
            api.store.throughput().recordContainer(api.store.container(database, container), settings);
        }
    }

    private record Located(String database, String container, ObjectNode offer, boolean pending) {
    }

    private Located find(String rid) {
        for (DatabaseDefinition d : api.store.listDatabases()) {
            if (ResourceIds.databaseOffer(d).equals(rid)) {
                ObjectNode offer = databaseOffer(d);
                if (offer != null) {
                    return new Located(d.id(), "", offer, false);
                }
            }
            for (ContainerDefinition c : api.store.listContainers(d.id())) {
                if (!SystemStore.isSystem(c.id()) && ResourceIds.containerOffer(c).equals(rid)) {
                    ContainerStore store = api.store.container(d.id(), c.id());
                    ObjectNode offer = containerOffer(d, store);
                    if (offer != null) {
                        return new Located(d.id(), c.id(), offer, api.store.throughput().effective(store).replacePending());
                    }
                }
            }
        }
        throw CosmosError.notFound("Resource Not Found: offer '" + rid + "' does not exist.");
    }

    List<ObjectNode> all() {
        List<ObjectNode> out = new ArrayList<>();
        for (DatabaseDefinition d : api.store.listDatabases()) {
            ObjectNode dbOffer = databaseOffer(d);
            if (dbOffer != null) {
                out.add(dbOffer);
            }
            for (ContainerDefinition c : api.store.listContainers(d.id())) {
                if (!SystemStore.isSystem(c.id())) {
                    ObjectNode offer = containerOffer(d, api.store.container(d.id(), c.id()));
                    if (offer != null) {
                        out.add(offer);
                    }
                }
            }
        }
        return out;
    }

    private ObjectNode databaseOffer(DatabaseDefinition d) {
        ThroughputSettings s = api.store.throughput().database(d);
        if (s == null) {
            return null;
        }
        int current = api.store.rateLimiter().currentThroughput(s, api.store.rateLimiter().databaseBudgets(d));
        return offer(ResourceIds.databaseOffer(d), "dbs/" + d.rid() + "/", d.rid(), s, current, d.ts());
    }

    private ObjectNode containerOffer(DatabaseDefinition d, ContainerStore c) {
        ThroughputCatalog.ContainerThroughput t = api.store.throughput().effective(c);
        if (t.sharedWithDatabase()) {
            return null; // shares its database's throughput
        }
        ContainerDefinition def = c.definition();
        String collRid = ResourceIds.container(def);
        int current = api.store.rateLimiter().currentThroughput(t.settings(), api.store.rateLimiter().budgets(c).all());
        return offer(ResourceIds.containerOffer(def), "dbs/" + d.rid() + "/colls/" + collRid + "/", collRid,
                t.settings(), current, def.ts());
    }

    /** An offer as Cosmos DB shows it; autoscale reports its current level as {@code offerThroughput}. */
    private static ObjectNode offer(String rid, String resource, String resourceRid, ThroughputSettings s,
                                    int current, long ts) {
        ObjectNode o = Json.object();
        o.put("resource", resource);
        o.put("offerType", "Invalid");
        o.put("offerResourceId", resourceRid);
        o.put("offerVersion", "V2");
        ObjectNode content = o.putObject("content");
        content.put("offerThroughput", current);
        if (s.isAutoscale()) {
            content.putObject("offerAutopilotSettings").put("maxThroughput", s.autoscaleMax());
        }
        content.put("offerIsRUPerMinuteThroughputEnabled", false);
        o.put("id", rid);
        o.put("_rid", rid);
        o.put("_self", "offers/" + rid + "/");
        o.put("_etag", "\"" + Integer.toHexString(java.util.Objects.hash(rid, s)) + "\"");
        o.put("_ts", ts);
        return o;
    }
}
