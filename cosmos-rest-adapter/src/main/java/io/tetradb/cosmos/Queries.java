package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.sql.Projection;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.store.ContainerQuery;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Queries and read feeds, run whole by the core (docs/cosmos-rest.md §4): the container shows the SDKs one partition
 * key range, the query plan is a pass-through (empty rewrite, no client-side ORDER BY/aggregates), so the core's one
 * execution computes ORDER BY, TOP, OFFSET/LIMIT, DISTINCT, GROUP BY and aggregates, and its continuation token is
 * handed to the SDK as is.
 */
final class Queries {
    static final int DEFAULT_PAGE = 100;
    static final int MAX_PAGE = 10_000;
    /** Cosmos DB's response-size cap for one page. */
    static final long MAX_PAGE_BYTES = 4L * 1024 * 1024;
    private static final SqlQuery READ_FEED = SqlParser.parse("SELECT * FROM root");

    private final CosmosApi api;

    Queries(CosmosApi api) {
        this.api = api;
    }

    record Spec(String text, Map<String, JsonNode> parameters) {
    }

    /** A query POST: {@code x-ms-documentdb-isquery} (or the Go SDK's {@code -query}) or a query content type. */
    static boolean isQuery(RestRequest r) {
        if (r.flag("x-ms-documentdb-isquery") || r.flag("x-ms-documentdb-query")) {
            return true;
        }
        String ct = r.header("Content-Type");
        if (ct == null) {
            return false;
        }
        ct = ct.toLowerCase(Locale.ROOT);
        return ct.startsWith("application/query+json") || ct.startsWith("application/sql");
    }

    /** The query text and parameters: {@code {"query", "parameters": [{"name", "value"}]}}, or raw SQL text. */
    static Spec spec(RestRequest r) {
        String ct = r.header("Content-Type");
        if (ct != null && ct.toLowerCase(Locale.ROOT).startsWith("application/sql")) {
            return new Spec(new String(r.body(), StandardCharsets.UTF_8), Map.of());
        }
        ObjectNode body = Json.parseObject(r.body());
        JsonNode q = body.get("query");
        if (q == null || !q.isTextual()) {
            throw CosmosError.badRequest("A query body is {\"query\": \"SELECT ...\", \"parameters\": [...]}; "
                    + "'query' is missing or not a string.");
        }
        Map<String, JsonNode> params = new LinkedHashMap<>();
        JsonNode ps = body.get("parameters");
        if (ps != null && !ps.isNull()) {
            if (!ps.isArray()) {
                throw CosmosError.badRequest("'parameters' must be an array of {\"name\": \"@p\", \"value\": ...}.");
            }
            for (JsonNode p : ps) {
                JsonNode name = p.get("name");
                if (name == null || !name.isTextual() || !name.textValue().startsWith("@")) {
                    throw CosmosError.badRequest("Each query parameter needs a 'name' starting with @.");
                }
                params.put(name.textValue(), p.has("value") ? p.get("value")
                        : com.fasterxml.jackson.databind.node.MissingNode.getInstance());
            }
        }
        return new Spec(q.textValue(), params);
    }

    RestResponse query(RestRequest r, Target t) {
        Spec spec = spec(r);
        return run(r, t, SqlParser.parse(spec.text()), spec.parameters());
    }

    RestResponse readFeed(RestRequest r, Target t) {
        return run(r, t, READ_FEED, Map.of());
    }

    private RestResponse run(RestRequest r, Target t, SqlQuery q, Map<String, JsonNode> params) {
        PartitionKeyValue pk = PartitionKeys.fromHeader(r, t.definition().partitionKey(), true);
        PartitionKeyRanges.Scope scope = api.ranges.scope(r, t); // 410/1002 for a range that split
        EpkRange range = scope.epk();
        ContainerQuery.Page page;
        String continuation;
        if (api.ranges.physical()) { // range-bound tokens that a split's children can continue
            RangeContinuation.Resume resume = RangeContinuation.resume(range, r.header("x-ms-continuation"));
            if (resume.empty()) {
                return emptyPage(r, scope, t);
            }
            page = t.store().queryPage(q, params, pk, resume.scope(), resume.coreToken(), pageSize(r),
                    MAX_PAGE_BYTES, ConsistencyHeader.of(r));
            continuation = RangeContinuation.wrap(resume.scope(), page.continuation());
        } else {
            page = t.store().queryPage(q, params, pk, range, r.header("x-ms-continuation"), pageSize(r),
                    MAX_PAGE_BYTES, ConsistencyHeader.of(r));
            continuation = page.continuation();
        }
        ObjectNode body = Json.object();
        body.put("_rid", t.collRid());
        ArrayNode docs = body.putArray("Documents");
        page.results().forEach(docs::add);
        body.put("_count", docs.size());
        RestResponse out = RestResponse.json(200, body, page.requestCharge());
        out.header("x-ms-item-count", Integer.toString(docs.size()));
        out.header("x-ms-continuation", continuation);
        PartitionKeyRanges.echo(scope.named(), out);
        if (r.flag("x-ms-documentdb-populatequerymetrics")) {
            out.header("x-ms-documentdb-query-metrics", metrics(page, body));
        }
        out.header("x-ms-tetradb-query-access", page.access()); // how the core read: scan, seek, index order
        Items.sessionHeaders(out, t, 1, api.ranges.sessionRanges(r, t, scope.named()));
        return out;
    }

    /** The last page of a later child range continuing its split parent's token (see {@link RangeContinuation}). */
    private RestResponse emptyPage(RestRequest r, PartitionKeyRanges.Scope scope, Target t) {
        ObjectNode body = Json.object();
        body.put("_rid", t.collRid());
        body.putArray("Documents");
        body.put("_count", 0);
        RestResponse out = RestResponse.json(200, body, 1);
        out.header("x-ms-item-count", "0");
        PartitionKeyRanges.echo(scope.named(), out);
        Items.sessionHeaders(out, t, 1, api.ranges.sessionRanges(r, t, scope.named()));
        return out;
    }

    static int pageSize(RestRequest r) {
        String h = r.header("x-ms-max-item-count");
        if (h == null) {
            return DEFAULT_PAGE;
        }
        int n;
        try {
            n = Integer.parseInt(h.trim());
        } catch (NumberFormatException e) {
            throw CosmosError.badRequest("x-ms-max-item-count must be an integer, got '" + h + "'.");
        }
        if (n < 0) {
            return 1000; // -1: "dynamic", as many as fit
        }
        if (n == 0) {
            throw CosmosError.badRequest("x-ms-max-item-count must be positive or -1.");
        }
        return Math.min(n, MAX_PAGE);
    }

    /** Cosmos DB's query metrics text: {@code name=value;...} with every field the SDKs parse. */
    private static String metrics(ContainerQuery.Page page, ObjectNode body) {
        double ms = page.elapsedNanos() / 1e6;
        long outputBytes = Json.bytes(body.get("Documents")).length;
        long retrieved = page.documentsLoaded();
        double utilization = retrieved == 0 ? 1 : Math.min(1, (double) page.results().size() / retrieved);
        return String.format(Locale.ROOT, "totalExecutionTimeInMs=%.2f;queryCompileTimeInMs=0.00;"
                        + "queryLogicalPlanBuildTimeInMs=0.00;queryPhysicalPlanBuildTimeInMs=0.00;"
                        + "queryOptimizationTimeInMs=0.00;VMExecutionTimeInMs=%.2f;indexLookupTimeInMs=0.00;"
                        + "instructionCount=0;documentLoadTimeInMs=0.00;systemFunctionExecuteTimeInMs=0.00;"
                        + "userFunctionExecuteTimeInMs=0.00;retrievedDocumentCount=%d;retrievedDocumentSize=%d;"
                        + "outputDocumentCount=%d;outputDocumentSize=%d;writeOutputTimeInMs=0.00;"
                        + "indexUtilizationRatio=%.2f",
                ms, ms, retrieved, page.bytesLoaded(), page.results().size(), outputBytes, utilization);
    }

    /**
     * The query plan: a pass-through that lets the SDK send the query as written to the one range and stream the
     * server's rows. {@code hasSelectValue} must say whether the query is {@code SELECT VALUE}: Java wraps scalar
     * rows as {@code {"_value": x}} and unwraps them only when it is set.
     */
    RestResponse plan(RestRequest r, Target t) {
        Spec spec = spec(r);
        SqlQuery q = SqlParser.parse(spec.text());
        CrossRangeQueries.Merge merge = CrossRangeQueries.Merge.WHOLE;
        if (api.ranges.physical() && r.header("x-ms-documentdb-partitionkey") == null) {
            // the merge form even over one range, so that a split under the query or before a resumed token finds
            // the plan (and the token shape) it needs; a shape without one runs whole while there is one range
            int ranges = api.ranges.current(t).size();
            try {
                merge = CrossRangeQueries.plan(q, spec.parameters(), ranges);
            } catch (CosmosError refused) {
                if (ranges > 1) {
                    throw refused;
                }
            }
        }
        Integer top = merge.top();
        ObjectNode plan = Json.object();
        plan.put("partitionedQueryExecutionInfoVersion", 2);
        ObjectNode info = plan.putObject("queryInfo");
        info.put("distinctType", merge.distinct() ? "Unordered" : "None"); // the SDK de-duplicates the ranges' rows
        if (top == null) {
            info.putNull("top");
        } else {
            info.put("top", top.intValue()); // each range returns its first n; the SDK keeps n of them
        }
        if (merge.offset() == null) {
            info.putNull("offset");
            info.putNull("limit");
        } else { // each range returns offset + limit rows; the SDK skips and takes
            info.put("offset", merge.offset().intValue());
            info.put("limit", merge.limit().intValue());
        }
        ArrayNode orderBy = info.putArray("orderBy");
        ArrayNode orderByExpressions = info.putArray("orderByExpressions");
        if (merge.orderBy() != null) { // the SDK sends the rewritten query to each range and merges the rows
            merge.orderBy().orderBy().forEach(orderBy::add);
            merge.orderBy().expressions().forEach(orderByExpressions::add);
        }
        ArrayNode groupByExpressions = info.putArray("groupByExpressions");
        ArrayNode groupByAliases = info.putArray("groupByAliases");
        ObjectNode aliasTypes = Json.object();
        if (merge.groupBy() != null) { // each range answers its groups with partial aggregates; the SDK merges them
            merge.groupBy().expressions().forEach(groupByExpressions::add);
            merge.groupBy().aliasTypes().forEach((alias, type) -> {
                groupByAliases.add(alias);
                if (type == null) {
                    aliasTypes.putNull(alias);
                } else {
                    aliasTypes.put(alias, type);
                }
            });
        }
        ArrayNode aggregates = info.putArray("aggregates");
        if (merge.aggregate() != null) { // each range answers its partial; the SDK combines them
            aggregates.add(merge.aggregate().aggregate());
        } else if (merge.groupBy() != null && merge.groupBy().valueAggregate() != null) { // SELECT VALUE AGG per group
            aggregates.add(merge.groupBy().valueAggregate());
        }
        info.set("groupByAliasToAggregateType", aliasTypes);
        info.put("rewrittenQuery", merge.rewrittenQuery());
        info.put("hasSelectValue", q.select().projection() instanceof Projection.Value);
        if (merge.distinctCountAlias() == null) {
            info.putNull("dCountInfo");
        } else { // the SDK counts the ranges' distinct rows (Cosmos DB's form of COUNT over a DISTINCT subquery)
            info.putObject("dCountInfo").put("dCountAlias", merge.distinctCountAlias());
        }
        info.put("hasNonStreamingOrderBy", false);
        if (merge.firstRangeOnly()) { // one point of the key space: the SDK sends the query to the first range only
            plan.putArray("queryRanges").addObject().put("min", "").put("max", "").put("isMinInclusive", true)
                    .put("isMaxInclusive", true);
        } else {
            plan.putArray("queryRanges").addObject().put("min", "").put("max", "FF").put("isMinInclusive", true)
                    .put("isMaxInclusive", false);
        }
        plan.putNull("hybridSearchQueryInfo");
        return RestResponse.json(200, plan, 0);
    }
}
