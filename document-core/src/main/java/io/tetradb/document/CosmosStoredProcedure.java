package io.tetradb.document;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.script.ContainerScripts;
import io.tetradb.core.script.ScriptFailure;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ScriptDefinitions.Kind;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

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

    /** The response header of a stored procedure's console log. */
    public static final String SCRIPT_LOG_HEADER = "x-ms-documentdb-script-log-results";

    /** As Cosmos DB sends the log header: percent-encoded, spaces as %20. */
    public static String percentEncoded(String log) {
        return URLEncoder.encode(log == null ? "" : log, StandardCharsets.UTF_8).replace("+", "%20");
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
            ContainerScripts.Execution e;
            try {
                e = store.scripts().executeStoredProcedure(id,
                        options.getPartitionKey().toValue(store.definition().partitionKey().levels()), paramsJsonArray);
            } catch (ScriptFailure f) {
                throw new CosmosException(f, options.isScriptLoggingEnabled()
                        ? Map.of(SCRIPT_LOG_HEADER, percentEncoded(f.scriptLog())) : Map.of());
            }
            return new CosmosStoredProcedureResponse(Status.OK, null, e.body() == null ? "" : e.body(),
                    options.isScriptLoggingEnabled() ? e.log() : null, e.requestCharge());
        });
    }

    private ContainerStore containerStore() {
        return scripts.container().store();
    }
}
