package io.tetradb.server.explorer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.cosmos.CosmosRoute;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosDatabaseProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosItemRequestOptions;
import io.tetradb.document.CosmosItemResponse;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.FeedResponse;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.PartitionKeyBuilder;
import io.tetradb.document.QueryMetrics;
import io.tetradb.server.admin.PartitionsReport;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The explorer page's JSON routes under {@code /_explorer/api/}, over the embedded document API (the same store every
 * face serves; nothing is kept here):
 *
 * <pre>
 * GET    databases                                   {databases: [{id}]}
 * GET    databases/{db}/containers                   {containers: [{id, partitionKeyPaths}]}
 * GET    databases/{db}/containers/{c}/items         {items: [{id, partitionKey}], continuation, requestCharge}
 * GET    databases/{db}/containers/{c}/item?id&pk    {item, etag, requestCharge}
 * PUT    (same, body: the item, If-Match optional)   {item, etag, requestCharge}     replaces it in place
 * DELETE (same)                                      {requestCharge}
 * POST   databases/{db}/containers/{c}/query         {results, continuation, requestCharge, metrics, accessPath, explain}
 * GET    partitions                                  the /api/partitions report
 * </pre>
 *
 * {@code pk} is the partition key as the Cosmos header writes it: a JSON array, one value per level, {@code {}} for
 * undefined. Refusals are JSON {@code {code, message}} with a 4xx status, and change nothing.
 */
final class ExplorerApi {
    static final String PREFIX = "/_explorer/api/";
    private static final int PAGE = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CosmosClient client;

    ExplorerApi(CosmosClient client) {
        this.client = client;
    }

    CosmosRoute.Response handle(CosmosRoute.Request r) {
        try {
            return json(200, route(r));
        } catch (ExplorerError e) {
            return error(e);
        } catch (CosmosException e) {
            return error(ExplorerError.of(e));
        }
    }

    private Object route(CosmosRoute.Request r) {
        List<String> s = List.of(r.path().substring(PREFIX.length()).split("/"));
        Map<String, List<String>> params = new QueryStringDecoder(r.query(), StandardCharsets.UTF_8, false)
                .parameters();
        if (s.equals(List.of("partitions"))) {
            require(r, "GET");
            return PartitionsReport.of(client.readAllPartitionStatistics());
        }
        if (s.isEmpty() || !s.get(0).equals("databases")) {
            throw ExplorerError.notFound("no explorer route " + r.path());
        }
        if (s.size() == 1) {
            require(r, "GET");
            return databases();
        }
        if (s.size() == 3 && s.get(2).equals("containers")) {
            require(r, "GET");
            return containers(s.get(1));
        }
        if (s.size() == 5 && s.get(2).equals("containers")) {
            String db = s.get(1);
            String c = s.get(3);
            switch (s.get(4)) {
                case "items":
                    require(r, "GET");
                    return items(db, c, param(params, "continuation", false));
                case "item":
                    return item(r, db, c, param(params, "id", true), param(params, "pk", true));
                case "query":
                    require(r, "POST");
                    return query(db, c, body(r));
                default:
                    break;
            }
        }
        throw ExplorerError.notFound("no explorer route " + r.path());
    }

    private ObjectNode databases() {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("databases");
        for (CosmosDatabaseProperties d : client.readAllDatabases()) {
            list.addObject().put("id", d.getId());
        }
        return out;
    }

    private ObjectNode containers(String db) {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("containers");
        for (CosmosContainerProperties c : client.getDatabase(db).readAllContainers()) {
            if (c.getId().startsWith("system.")) {
                continue; // faces' own metadata (system.cosmos), hidden as the Cosmos and Mongo listings hide it
            }
            ObjectNode o = list.addObject().put("id", c.getId());
            c.getPartitionKeyDefinition().getPaths().forEach(o.putArray("partitionKeyPaths")::add);
        }
        return out;
    }

    private ObjectNode items(String db, String c, String continuation) {
        CosmosContainer container = container(db, c);
        ContainerStore store = store(db, c);
        FeedResponse<JsonNode> page = firstPage(container, "SELECT * FROM c", continuation,
                new CosmosQueryRequestOptions());
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("items");
        for (JsonNode item : page.getResults()) {
            list.addObject().put("id", item.path("id").asText()).set("partitionKey",
                    store.partitionKeyOf(item).toJson());
        }
        out.put("continuation", page.getContinuationToken());
        out.put("requestCharge", page.getRequestCharge());
        return out;
    }

    private ObjectNode item(CosmosRoute.Request r, String db, String c, String id, String pkText) {
        CosmosContainer container = container(db, c);
        ContainerStore store = store(db, c);
        List<JsonNode> components = partitionKey(pkText);
        PartitionKey pk = toPartitionKey(components);
        ObjectNode out = JSON.createObjectNode();
        switch (r.method()) {
            case "GET" -> {
                CosmosItemResponse<ObjectNode> read = container.readItem(id, pk, ObjectNode.class);
                out.set("item", read.getItem());
                out.put("etag", read.getETag());
                out.put("requestCharge", read.getRequestCharge());
            }
            case "PUT" -> {
                JsonNode body = body(r);
                if (!body.isObject()) {
                    throw ExplorerError.badRequest("the item must be a JSON object, not " + body.getNodeType());
                }
                ObjectNode item = (ObjectNode) body;
                if (!id.equals(item.path("id").textValue())) {
                    throw ExplorerError.badRequest("the item's \"id\" must stay \"" + id + "\": the explorer replaces "
                            + "an item in place (create one with another id through an SDK)");
                }
                PartitionKeyValue edited = store.partitionKeyOf(item);
                if (!Arrays.equals(edited.epk(), PartitionKeyValue.of(components).epk())) {
                    throw ExplorerError.badRequest("the item's partition key must stay " + pkText + " (the edit has "
                            + edited + "): the explorer replaces an item in place");
                }
                CosmosItemRequestOptions options = new CosmosItemRequestOptions()
                        .setIfMatchETag(r.headers().get("if-match"));
                CosmosItemResponse<ObjectNode> replaced = container.replaceItem(item, id, pk, options);
                out.set("item", replaced.getItem());
                out.put("etag", replaced.getETag());
                out.put("requestCharge", replaced.getRequestCharge());
            }
            case "DELETE" -> {
                CosmosItemResponse<Object> deleted = container.deleteItem(id, pk, new CosmosItemRequestOptions()
                        .setIfMatchETag(r.headers().get("if-match")));
                out.put("requestCharge", deleted.getRequestCharge());
            }
            default -> throw new ExplorerError(405, r.method() + " is not allowed on an item (GET, PUT, DELETE)");
        }
        return out;
    }

    private ObjectNode query(String db, String c, JsonNode body) {
        JsonNode text = body.path("query");
        if (!text.isTextual() || text.textValue().isBlank()) {
            throw ExplorerError.badRequest("the body must be {\"query\": \"SELECT ...\"} (with an optional "
                    + "\"continuation\")");
        }
        JsonNode continuation = body.path("continuation");
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setExplain(true)
                .setQueryMetricsEnabled(true).setIndexMetricsEnabled(true);
        FeedResponse<JsonNode> page = firstPage(container(db, c), text.textValue(),
                continuation.isTextual() ? continuation.textValue() : null, options);
        ObjectNode out = JSON.createObjectNode();
        page.getResults().forEach(out.putArray("results")::add);
        out.put("continuation", page.getContinuationToken());
        out.put("requestCharge", page.getRequestCharge());
        QueryMetrics m = page.getQueryMetrics();
        out.putObject("metrics")
                .put("retrievedDocumentCount", m.getRetrievedDocumentCount())
                .put("retrievedDocumentSize", m.getRetrievedDocumentSize())
                .put("outputDocumentCount", m.getOutputDocumentCount())
                .put("indexHitCount", m.getIndexHitCount())
                .put("totalQueryExecutionTimeMs", m.getTotalQueryExecutionTime().toNanos() / 1e6);
        out.put("accessPath", page.getAccessPath());
        out.put("indexMetrics", page.getIndexMetrics());
        out.set("explain", page.getExplain());
        return out;
    }

    private static FeedResponse<JsonNode> firstPage(CosmosContainer container, String query, String continuation,
                                                    CosmosQueryRequestOptions options) {
        Iterator<FeedResponse<JsonNode>> pages = container.queryItems(query, options, JsonNode.class)
                .iterableByPage(continuation, PAGE).iterator();
        return pages.next(); // a query always answers one page, empty or not
    }

    private CosmosContainer container(String db, String c) {
        store(db, c); // 404 for an unknown database or container before anything runs
        return client.getDatabase(db).getContainer(c);
    }

    private ContainerStore store(String db, String c) {
        try {
            return client.coreStore().container(db, c);
        } catch (StoreException e) {
            throw new ExplorerError(e.status(), e.getMessage());
        }
    }

    /** The {@code pk} parameter: a JSON array, a value or {@code {}} (undefined) per level. */
    private static List<JsonNode> partitionKey(String text) {
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw ExplorerError.badRequest("pk is not JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isArray() || n.isEmpty()) {
            throw ExplorerError.badRequest("pk must be a JSON array with one value per level, such as [\"c42\"]");
        }
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode c : n) {
            if (c.isObject() && c.isEmpty()) {
                out.add(MissingNode.getInstance());
            } else if (c.isValueNode()) {
                out.add(c);
            } else {
                throw ExplorerError.badRequest("pk levels are strings, numbers, booleans, null or {}, not " + c);
            }
        }
        return out;
    }

    private static PartitionKey toPartitionKey(List<JsonNode> components) {
        PartitionKeyBuilder b = new PartitionKeyBuilder();
        for (JsonNode c : components) {
            if (c.isMissingNode()) {
                b.addNoneValue();
            } else if (c.isNull()) {
                b.addNullValue();
            } else if (c.isTextual()) {
                b.add(c.textValue());
            } else if (c.isNumber()) {
                b.add(c.doubleValue());
            } else {
                b.add(c.booleanValue());
            }
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw ExplorerError.badRequest(e.getMessage());
        }
    }

    private static JsonNode body(CosmosRoute.Request r) {
        String type = r.headers().getOrDefault("content-type", "");
        if (!type.startsWith("application/json")) {
            // a JSON content type makes a cross-site form post impossible without a CORS preflight, which fails
            throw new ExplorerError(415, "the body must be sent as application/json");
        }
        try {
            JsonNode n = JSON.readTree(r.body());
            if (n == null || n.isMissingNode()) {
                throw ExplorerError.badRequest("the body is empty: send JSON");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw ExplorerError.badRequest("the body is not valid JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw ExplorerError.badRequest("the body cannot be read: " + e.getMessage());
        }
    }

    private static String param(Map<String, List<String>> params, String name, boolean required) {
        List<String> v = params.get(name);
        if (v == null || v.isEmpty() || v.get(0).isEmpty()) {
            if (required) {
                throw ExplorerError.badRequest("the query parameter " + name + " is required");
            }
            return null;
        }
        return v.get(0);
    }

    private static void require(CosmosRoute.Request r, String method) {
        if (!r.method().equals(method)) {
            throw new ExplorerError(405, r.method() + " is not allowed on " + r.path() + " (" + method + ")");
        }
    }

    static CosmosRoute.Response json(int status, Object body) {
        try {
            return new CosmosRoute.Response(status, "application/json", JSON.writeValueAsBytes(body),
                    Map.of("Cache-Control", "no-store"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static CosmosRoute.Response error(ExplorerError e) {
        return json(e.status, JSON.createObjectNode().put("code", e.code()).put("message", e.getMessage()));
    }
}
