package io.tetradb.document;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.script.ContainerScripts;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ScriptDefinitions.Kind;

import java.util.List;

/** One stored procedure, as azure-cosmos' {@code CosmosStoredProcedure}: read, replace, delete, execute. */
public final class CosmosStoredProcedure {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final CosmosScripts scripts;
    private final String id;

    CosmosStoredProcedure(CosmosScripts scripts, String id) {
        this.scripts = scripts;
        this.id = id;
    }

    public String getId() {
        return id;
    }

    public CosmosStoredProcedureResponse read() {
        return read(null);
    }

    public CosmosStoredProcedureResponse read(CosmosStoredProcedureRequestOptions options) {
        return CosmosException.call(() -> new CosmosStoredProcedureResponse(Status.OK,
                CosmosStoredProcedureProperties.of(scripts.scripts().read(Kind.STORED_PROCEDURE, id)), null, null, 1));
    }

    public CosmosStoredProcedureResponse replace(CosmosStoredProcedureProperties properties) {
        return replace(properties, null);
    }

    public CosmosStoredProcedureResponse replace(CosmosStoredProcedureProperties properties,
                                                 CosmosStoredProcedureRequestOptions options) {
        return CosmosException.call(() -> new CosmosStoredProcedureResponse(Status.OK,
                CosmosStoredProcedureProperties.of(scripts.scripts().replace(Kind.STORED_PROCEDURE, id,
                        properties.toJson(), options == null ? null : options.getIfMatchETag())), null, null, 1));
    }

    public CosmosStoredProcedureResponse delete() {
        return delete(null);
    }

    public CosmosStoredProcedureResponse delete(CosmosStoredProcedureRequestOptions options) {
        return CosmosException.call(() -> {
            scripts.scripts().delete(Kind.STORED_PROCEDURE, id, options == null ? null : options.getIfMatchETag());
            return new CosmosStoredProcedureResponse(Status.NO_CONTENT, null, null, null, 1);
        });
    }

    /**
     * Runs the procedure in the logical partition of {@code options.getPartitionKey()} (required) with the given
     * parameters (each serialised as JSON, passed as the function's arguments). Everything it does commits as one
     * transaction or not at all; a thrown error is 400, running past the time bound 408.
     */
    public CosmosStoredProcedureResponse execute(List<Object> procedureParams,
                                                 CosmosStoredProcedureRequestOptions options) {
        String json;
        try {
            json = procedureParams == null ? "[]" : paramsJson(procedureParams);
        } catch (JsonProcessingException e) {
            throw new CosmosException(Status.BAD_REQUEST, 0, "the parameters cannot be serialised as JSON: "
                    + e.getOriginalMessage());
        }
        return executeJson(json, options);
    }

    /** The parameters as a JSON array: strings, integers, booleans and nulls written directly, the rest by Jackson. */
    private static String paramsJson(List<Object> params) throws JsonProcessingException {
        StringBuilder out = new StringBuilder().append('[');
        for (Object p : params) {
            if (out.length() > 1) {
                out.append(',');
            }
            if (p == null || p instanceof Boolean || p instanceof Integer || p instanceof Long || p instanceof Short
                    || p instanceof Byte) {
                out.append(p);
            } else if (p instanceof String s) {
                out.append('"');
                JSON_STRINGS.quoteAsString(s, out);
                out.append('"');
            } else {
                out.append(MAPPER.writeValueAsString(p));
            }
        }
        return out.append(']').toString();
    }

    private static final com.fasterxml.jackson.core.io.JsonStringEncoder JSON_STRINGS =
            com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance();

    /**
     * TetraDB extension for the REST face: as {@link #execute}, with the parameters as the JSON array text the
     * request carried.
     */
    public CosmosStoredProcedureResponse executeJson(String paramsJsonArray, CosmosStoredProcedureRequestOptions options) {
        return CosmosException.call(() -> {
            if (options == null || options.getPartitionKey() == null) {
                throw new StoreException(Status.BAD_REQUEST, "executing a stored procedure needs a partition key "
                        + "(CosmosStoredProcedureRequestOptions.setPartitionKey)");
            }
            ContainerStore store = containerStore();
            ContainerScripts.Execution e = store.scripts().executeStoredProcedure(id,
                    options.getPartitionKey().toValue(store.definition().partitionKey().levels()), paramsJsonArray);
            return new CosmosStoredProcedureResponse(Status.OK, null, e.body() == null ? "" : e.body(),
                    options.isScriptLoggingEnabled() ? e.log() : null, e.requestCharge());
        });
    }

    private ContainerStore containerStore() {
        return scripts.container().store();
    }
}
