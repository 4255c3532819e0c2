package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.query.eval.QueryExecutor;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.DatabaseDefinition;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Cosmos DB REST routes (docs/cosmos-rest.md §3.1): authenticates each request, resolves names or RIDs to the
 * core's databases and containers, and hands items, queries, batches, scripts and offers to their handlers.
 */
final class CosmosApi {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CosmosApi.class);

    final CoreStore store;
    final MasterKeyAuth auth;
    final SystemStore system;
    final Items items;
    final Queries queries;
    final ChangeFeedReads changeFeed = new ChangeFeedReads(this);
    final Batches batches;
    final Offers offers;
    final Scripts scripts;
    final UserStore users;
    final PartitionKeyRanges ranges;
    private final ResourceTokenAuth resourceTokenAuth;
    private final Users userRoutes;
    private final java.util.concurrent.ConcurrentHashMap<String, Target> targets =
            new java.util.concurrent.ConcurrentHashMap<>();

    CosmosApi(CoreStore store, CosmosRestOptions options, Clock clock) {
        this(store, options, CosmosKeys.of(options.masterKey(), options.readOnlyKey()), clock);
    }

    /** With {@code keys} in force instead of the options' keys (a server that rotates them while it runs). */
    CosmosApi(CoreStore store, CosmosRestOptions options, CosmosKeys keys, Clock clock) {
        this.store = store;
        this.ranges = new PartitionKeyRanges(options.physicalPartitionRanges());
        this.auth = new MasterKeyAuth(keys, options.allowedClockSkew(), clock);
        this.system = new SystemStore(store);
        this.items = new Items(this);
        this.queries = new Queries(this);
        this.batches = new Batches(this);
        this.offers = new Offers(this);
        this.scripts = new Scripts(this);
        this.users = new UserStore(store);
        ResourceTokens tokens = new ResourceTokens(keys, store.config().clock());
        this.resourceTokenAuth = new ResourceTokenAuth(this, tokens);
        this.userRoutes = new Users(this, tokens);
    }

    /** The request time limit (and its clock) every request runs under; the server's limits replace the default. */
    private volatile io.tetradb.core.net.ConnectionLimits limits = io.tetradb.core.net.ConnectionLimits.defaults();

    void limits(io.tetradb.core.net.ConnectionLimits limits) {
        this.limits = limits;
    }

    RestResponse handle(RestRequest r) {
        // past the request time limit the core stops inside its loops: 408 RequestTimeout through the StoreException
        try (io.tetradb.core.cancel.CallStop.Scope stop = io.tetradb.core.cancel.CallStop.install(
                limits.requestDeadline())) {
            return answer(r);
        }
    }

    private RestResponse answer(RestRequest r) {
        try {
            return route(r);
        } catch (CosmosError e) {
            return RestResponse.error(e);
        } catch (io.tetradb.core.throughput.RequestRateTooLargeException e) {
            // 429 / 3200 with the wait the SDKs' throttling retry policies read
            return RestResponse.error(Scripts.asCosmos(e))
                    .header("x-ms-retry-after-ms", Long.toString(e.retryAfterMillis()));
        } catch (StoreException e) {
            return RestResponse.error(Scripts.asCosmos(e));
        } catch (RuntimeException | Error e) {
            LOG.error("{} /{} failed", r.method(), String.join("/", r.segments()), e); // a pattern: repeats limited
            return RestResponse.error(500, 0, "InternalServerError", String.valueOf(e));
        }
    }

    private RestResponse route(RestRequest r) {
        List<String> s = r.segments();
        MasterKeyAuth.Grant grant = null;
        if (ResourceTokens.isResourceToken(r.header("authorization"))) {
            resourceTokenAuth.authorize(r); // 401/403 unless the permission covers the request (null grant)
        } else {
            grant = auth.verify(r);
        }
        if (grant == MasterKeyAuth.Grant.READ_ONLY && writes(r)) {
            // Cosmos DB answers a write signed with a read-only key (a stored procedure's execution included) as it
            // answers a wrong key: 401 (learn.microsoft.com troubleshoot-unauthorized; azure-cosmos-dotnet-v2#123)
            throw new CosmosError(401, "The input authorization token can't serve the request. The wrong key is "
                    + "being used: the read-only key may read and query but not write or execute a stored "
                    + "procedure; sign with the read-write master key.");
        }
        ConsistencyHeader.check(r, store); // 400 for a level stronger than the account's
        if (s.isEmpty()) {
            requireMethod(r, "GET");
            return RestResponse.json(200, Account.document(r, store.consistency().defaultLevel()), 1);
        }
        if (s.size() >= 3 && s.get(0).equals("dbs") && s.get(2).equals("users")) {
            return userRoutes.handle(r, database(s.get(1)), grant);
        }
        switch (s.get(0)) {
            case "dbs":
                return databases(r);
            case "offers":
                return offers.handle(r);
            default:
                throw CosmosError.notFound("Unknown resource '/" + String.join("/", s) + "'.");
        }
    }

    /**
     * Whether the request may change something (the read-only key may not): any write verb, or a POST that is no
     * query (a stored procedure's execution is one, even when the procedure only reads).
     */
    static boolean writes(RestRequest r) {
        return switch (r.method()) {
            case "GET", "HEAD" -> false;
            case "POST" -> !Queries.isQuery(r) && !r.flag("x-ms-cosmos-is-query-plan-request");
            default -> true;
        };
    }

    static void requireMethod(RestRequest r, String... allowed) {
        for (String m : allowed) {
            if (m.equals(r.method())) {
                return;
            }
        }
        throw new CosmosError(405, "The method " + r.method() + " is not allowed on /" + String.join("/",
                r.segments()) + " (allowed: " + String.join(", ", allowed) + ").");
    }

    // ---- databases ---------------------------------------------------------------------------------------------

    private RestResponse databases(RestRequest r) {
        int n = r.size();
        if (n == 1) {
            requireMethod(r, "GET", "POST");
            if (r.method().equals("GET") || Queries.isQuery(r)) {
                List<ObjectNode> dbs = new ArrayList<>();
                for (DatabaseDefinition d : store.listDatabases()) {
                    dbs.add(databaseJson(d));
                }
                return feed(r, "", "Databases", dbs);
            }
            return createDatabase(r);
        }
        if (n >= 4 && r.segment(2).equals("colls")) {
            Target cached = cachedTarget(r.segment(1), r.segment(3));
            if (cached != null) {
                return containerRoutes(r, cached);
            }
        }
        DatabaseDefinition db = database(r.segment(1));
        if (n == 2) {
            requireMethod(r, "GET", "DELETE");
            if (r.method().equals("GET")) {
                return RestResponse.json(200, databaseJson(db), 1).header("etag", etagOf(databaseJson(db)));
            }
            store.deleteDatabase(db.id());
            return RestResponse.empty(204, 1);
        }
        if (!r.segment(2).equals("colls")) {
            throw CosmosError.notFound("Unknown resource '" + r.segment(2) + "' under a database.");
        }
        if (n == 3) {
            requireMethod(r, "GET", "POST");
            if (r.method().equals("GET") || Queries.isQuery(r)) {
                List<ObjectNode> colls = new ArrayList<>();
                for (ContainerDefinition c : store.listContainers(db.id())) {
                    if (!SystemStore.isSystem(c.id())) {
                        colls.add(containerJson(target(db, store.container(db.id(), c.id()))));
                    }
                }
                return feed(r, db.rid(), "DocumentCollections", colls);
            }
            return Containers.create(this, r, db);
        }
        Target t = target(db, r.segment(3));
        targets.put(r.segment(1) + "/" + r.segment(3), t);
        return containerRoutes(r, t);
    }

    /**
     * The container of an earlier request with the same path segments, if it is still the one the core serves under
     * that name (a deleted or recreated container is another object): saves reading the database on every item call.
     */
    private Target cachedTarget(String db, String container) {
        Target t = targets.get(db + "/" + container);
        if (t == null) {
            return null;
        }
        try {
            if (!t.store().isDeleted() && store.container(t.database().id(), t.name()) == t.store()) {
                return t;
            }
        } catch (StoreException gone) {
            // fall through: resolved afresh, which answers the 404
        }
        targets.remove(db + "/" + container);
        return null;
    }

    private RestResponse containerRoutes(RestRequest r, Target t) {
        int n = r.size();
        if (n == 4) {
            return Containers.single(this, r, t);
        }
        String kind = r.segment(4);
        switch (kind) {
            case "docs":
                return items.handle(r, t);
            case "pkranges":
                requireMethod(r, "GET");
                if (n != 5) {
                    throw CosmosError.notFound("Unknown partition key range route.");
                }
                return ranges.physical() ? ranges.feed(r, t) : Containers.partitionKeyRanges(r, t);
            case "sprocs":
            case "triggers":
            case "udfs":
                return scripts.handle(r, t, kind);
            case "conflicts":
                requireMethod(r, "GET", "POST");
                if (n != 5) {
                    throw CosmosError.notFound("Conflict '" + r.segment(5) + "' does not exist.");
                }
                return feed(r, t.collRid(), "Conflicts", List.of());
            case "operations":
                if (n == 6 && r.segment(5).equals("partitionkeydelete")) {
                    requireMethod(r, "POST");
                    return items.deleteAllByPartitionKey(r, t);
                }
                throw CosmosError.notFound("Unknown container operation.");
            default:
                throw CosmosError.notFound("Unknown resource '" + kind + "' under a container.");
        }
    }

    private RestResponse createDatabase(RestRequest r) {
        ObjectNode body = Json.parseObject(r.body());
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw CosmosError.badRequest("The input content is invalid because the required properties - 'id; ' - "
                    + "are missing.");
        }
        DatabaseDefinition db = store.createDatabase(id.textValue(), throughput(r));
        if (isAutoscale(r)) {
            offers.record(db.id(), "", db.throughput(), true);
        }
        ObjectNode json = databaseJson(db);
        return RestResponse.json(201, json, 1).header("etag", etagOf(json));
    }

    /** {@code x-ms-offer-throughput: N}, or autoscale {@code {"maxThroughput": N}}; null when neither is sent. */
    static Integer throughput(RestRequest r) {
        String manual = r.header("x-ms-offer-throughput");
        String auto = r.header("x-ms-cosmos-offer-autopilot-settings");
        try {
            if (manual != null) {
                return Integer.parseInt(manual.trim());
            }
            if (auto != null) {
                return Json.MAPPER.readTree(auto).path("maxThroughput").intValue();
            }
        } catch (NumberFormatException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw CosmosError.badRequest("The throughput header is malformed: " + (manual != null ? manual : auto));
        }
        return null;
    }

    /** Whether the throughput was asked for as autoscale ({@code x-ms-cosmos-offer-autopilot-settings}). */
    static boolean isAutoscale(RestRequest r) {
        return r.header("x-ms-offer-throughput") == null && r.header("x-ms-cosmos-offer-autopilot-settings") != null;
    }

    DatabaseDefinition database(String nameOrRid) {
        if (ResourceIds.isDatabaseRid(nameOrRid)) {
            DatabaseDefinition d = ResourceIds.findDatabase(store, nameOrRid);
            if (d != null) {
                return d;
            }
        }
        try {
            return store.readDatabase(nameOrRid);
        } catch (StoreException e) {
            throw new CosmosError(404, "Resource Not Found: database '" + nameOrRid + "' does not exist.");
        }
    }

    Target target(DatabaseDefinition db, String nameOrRid) {
        String name = nameOrRid;
        if (ResourceIds.isContainerRid(nameOrRid)) {
            ContainerDefinition c = ResourceIds.findContainer(store, db.id(), nameOrRid);
            if (c != null) {
                name = c.id();
            }
        }
        if (SystemStore.isSystem(name)) {
            throw new CosmosError(404, "Resource Not Found: container '" + name + "' does not exist.");
        }
        ContainerStore c;
        try {
            c = store.container(db.id(), name);
        } catch (StoreException e) {
            if (e.status() == 404) {
                throw new CosmosError(404, "Resource Not Found: container '" + name + "' does not exist in "
                        + "database '" + db.id() + "'.");
            }
            throw e;
        }
        return target(db, c);
    }

    static Target target(DatabaseDefinition db, ContainerStore c) {
        return new Target(db, c, db.rid(), ResourceIds.container(c.definition()));
    }

    static ObjectNode databaseJson(DatabaseDefinition d) {
        ObjectNode n = Json.object();
        n.put("id", d.id());
        n.put("_rid", d.rid());
        n.put("_self", "dbs/" + d.rid() + "/");
        n.put("_etag", "\"" + Long.toHexString(((long) d.dbId() << 32) ^ d.ts()) + "\"");
        n.put("_colls", "colls/");
        n.put("_users", "users/");
        n.put("_ts", d.ts());
        return n;
    }

    ObjectNode containerJson(Target t) {
        return Containers.json(t);
    }

    static String etagOf(JsonNode n) {
        return n.path("_etag").asText(null);
    }

    /**
     * A feed of metadata resources ({@code {"_rid", "<Key>": [...], "_count"}}); a POST with a query runs it over
     * them with the core's SQL engine.
     */
    RestResponse feed(RestRequest r, String rid, String key, List<ObjectNode> resources) {
        List<? extends JsonNode> rows = resources;
        if (r.method().equals("POST")) {
            Queries.Spec spec = Queries.spec(r);
            SqlQuery q = SqlParser.parse(spec.text());
            rows = QueryExecutor.execute(q, resources, spec.parameters(), null);
        }
        ObjectNode body = Json.object();
        body.put("_rid", rid);
        ArrayNode arr = body.putArray(key);
        rows.forEach(arr::add);
        body.put("_count", arr.size());
        return RestResponse.json(200, body, 1 + arr.size() * 0.1)
                .header("x-ms-item-count", Integer.toString(arr.size()));
    }

    static Map<String, String> lowerCaseHeaders(io.netty.handler.codec.http.HttpHeaders h) {
        Map<String, String> m = new LinkedHashMap<>();
        h.forEach(e -> m.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
        return m;
    }
}
