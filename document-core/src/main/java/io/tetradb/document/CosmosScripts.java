package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.query.eval.QueryExecutor;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.script.ContainerScripts;
import io.tetradb.core.store.ScriptDefinitions.Kind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A container's server-side scripts, as azure-cosmos' {@code CosmosScripts}: stored procedures, triggers and
 * user-defined functions, stored with the container (they survive restarts and go with it).
 */
public final class CosmosScripts {
    private final CosmosContainer container;

    CosmosScripts(CosmosContainer container) {
        this.container = container;
    }

    CosmosContainer container() {
        return container;
    }

    ContainerScripts scripts() {
        return container.store().scripts();
    }

    // ---- stored procedures ----

    public CosmosStoredProcedureResponse createStoredProcedure(CosmosStoredProcedureProperties properties) {
        return createStoredProcedure(properties, null);
    }

    /** Creates a stored procedure (201); 409 if the id exists, 400 for a body that does not compile. */
    public CosmosStoredProcedureResponse createStoredProcedure(CosmosStoredProcedureProperties properties,
                                                               CosmosStoredProcedureRequestOptions options) {
        return CosmosException.call(() -> new CosmosStoredProcedureResponse(Status.CREATED,
                CosmosStoredProcedureProperties.of(scripts().create(Kind.STORED_PROCEDURE, properties.toJson())),
                null, null, 1));
    }

    public CosmosStoredProcedure getStoredProcedure(String id) {
        return new CosmosStoredProcedure(this, id);
    }

    public CosmosPagedIterable<CosmosStoredProcedureProperties> readAllStoredProcedures() {
        return readAllStoredProcedures(null);
    }

    public CosmosPagedIterable<CosmosStoredProcedureProperties> readAllStoredProcedures(CosmosQueryRequestOptions options) {
        return queryStoredProcedures("SELECT * FROM root r", options);
    }

    public CosmosPagedIterable<CosmosStoredProcedureProperties> queryStoredProcedures(String query,
                                                                                     CosmosQueryRequestOptions options) {
        return query(Kind.STORED_PROCEDURE, new SqlQuerySpec(query), options, CosmosStoredProcedureProperties::of);
    }

    // ---- triggers ----

    public CosmosTriggerResponse createTrigger(CosmosTriggerProperties properties) {
        return CosmosException.call(() -> new CosmosTriggerResponse(Status.CREATED,
                CosmosTriggerProperties.of(scripts().create(Kind.TRIGGER, properties.toJson()))));
    }

    public CosmosTrigger getTrigger(String id) {
        return new CosmosTrigger(this, id);
    }

    public CosmosPagedIterable<CosmosTriggerProperties> readAllTriggers() {
        return readAllTriggers(null);
    }

    public CosmosPagedIterable<CosmosTriggerProperties> readAllTriggers(CosmosQueryRequestOptions options) {
        return queryTriggers("SELECT * FROM root r", options);
    }

    public CosmosPagedIterable<CosmosTriggerProperties> queryTriggers(String query, CosmosQueryRequestOptions options) {
        return query(Kind.TRIGGER, new SqlQuerySpec(query), options, CosmosTriggerProperties::of);
    }

    // ---- user-defined functions ----

    public CosmosUserDefinedFunctionResponse createUserDefinedFunction(CosmosUserDefinedFunctionProperties properties) {
        return CosmosException.call(() -> new CosmosUserDefinedFunctionResponse(Status.CREATED,
                CosmosUserDefinedFunctionProperties.of(scripts().create(Kind.USER_DEFINED_FUNCTION,
                        properties.toJson()))));
    }

    public CosmosUserDefinedFunction getUserDefinedFunction(String id) {
        return new CosmosUserDefinedFunction(this, id);
    }

    public CosmosPagedIterable<CosmosUserDefinedFunctionProperties> readAllUserDefinedFunctions() {
        return readAllUserDefinedFunctions(null);
    }

    public CosmosPagedIterable<CosmosUserDefinedFunctionProperties> readAllUserDefinedFunctions(
            CosmosQueryRequestOptions options) {
        return queryUserDefinedFunctions("SELECT * FROM root r", options);
    }

    public CosmosPagedIterable<CosmosUserDefinedFunctionProperties> queryUserDefinedFunctions(
            String query, CosmosQueryRequestOptions options) {
        return query(Kind.USER_DEFINED_FUNCTION, new SqlQuerySpec(query), options,
                CosmosUserDefinedFunctionProperties::of);
    }

    /** A query over the (few) stored scripts of a kind, run in memory; the continuation is an offset. */
    private <T> CosmosPagedIterable<T> query(Kind kind, SqlQuerySpec spec, CosmosQueryRequestOptions options,
                                             Function<ObjectNode, T> convert) {
        var parsed = CosmosException.call(() -> SqlParser.parse(spec.getQueryText()));
        Map<String, JsonNode> params = new LinkedHashMap<>();
        for (SqlParameter p : spec.getParameters()) {
            params.put(p.getName(), p.toJson());
        }
        int pageSize = options == null || options.getMaxItemCount() == null || options.getMaxItemCount() <= 0
                ? 100 : options.getMaxItemCount();
        return new CosmosPagedIterable<>((continuation, size) -> CosmosException.call(() -> {
            List<JsonNode> all = QueryExecutor.execute(parsed, scripts().list(kind), params, null);
            int from = continuation == null ? 0 : Integer.parseInt(continuation);
            int to = Math.min(all.size(), from + size);
            List<T> out = new ArrayList<>();
            for (JsonNode n : all.subList(from, to)) {
                out.add(convert.apply((ObjectNode) n));
            }
            return new FeedResponse<>(out, to < all.size() ? String.valueOf(to) : null, 1, null, null, null, null);
        }), pageSize);
    }
}
