package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.script.ContainerScripts;
import io.tetradb.core.script.ScriptFailure;
import io.tetradb.document.CosmosStoredProcedure;
import io.tetradb.core.store.ScriptDefinitions.Kind;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Stored procedures, triggers and user-defined functions (docs/cosmos-rest.md §3.6), served from the core's scripts
 * of the container ({@code ContainerStore.scripts()}, what {@code CosmosContainer.getScripts()} wraps): create, read,
 * list, query, replace, delete, and {@code POST sprocs/{id}} to execute. The core keeps the rules (limits, ids, etags,
 * validation) and the only copy; this class maps REST onto it and gives resources the face's RIDs and links.
 */
final class Scripts {
    private static final String SCRIPT_ERROR = "Encountered exception while executing function.";

    private final CosmosApi api;

    Scripts(CosmosApi api) {
        this.api = api;
    }

    RestResponse handle(RestRequest r, Target t, String path) {
        Kind kind = kindOf(path);
        ContainerScripts scripts = t.store().scripts();
        if (r.size() == 5) {
            CosmosApi.requireMethod(r, "GET", "POST");
            if (r.method().equals("GET") || Queries.isQuery(r)) {
                List<ObjectNode> all = new ArrayList<>();
                for (ObjectNode s : scripts.list(kind)) {
                    all.add(json(t, kind, s));
                }
                return api.feed(r, t.collRid(), listKey(kind), all);
            }
            ObjectNode json = json(t, kind, conflictAsCosmos(() -> scripts.create(kind, properties(r))));
            return RestResponse.json(201, json, 5).header("etag", json.path("_etag").asText());
        }
        if (r.size() != 6) {
            throw CosmosError.notFound("Unknown script route.");
        }
        String id = nameOf(scripts, t, kind, r.segment(5));
        CosmosApi.requireMethod(r, kind == Kind.STORED_PROCEDURE
                ? new String[]{"GET", "PUT", "DELETE", "POST"} : new String[]{"GET", "PUT", "DELETE"});
        switch (r.method()) {
            case "GET": {
                ObjectNode json = json(t, kind, scripts.read(kind, id));
                return RestResponse.json(200, json, 1).header("etag", json.path("_etag").asText());
            }
            case "PUT": {
                ObjectNode json = json(t, kind, scripts.replace(kind, id, properties(r), r.header("If-Match")));
                return RestResponse.json(200, json, 5).header("etag", json.path("_etag").asText());
            }
            case "DELETE":
                scripts.delete(kind, id, r.header("If-Match"));
                return RestResponse.empty(204, 1);
            default:
                return execute(r, t, scripts, id);
        }
    }

    /**
     * Runs a stored procedure: the partition key from {@code x-ms-documentdb-partitionkey}, the body a JSON array of
     * parameters; answers the procedure's response body, its charge and, when asked, its console log.
     */
    private RestResponse execute(RestRequest r, Target t, ContainerScripts scripts, String id) {
        PartitionKeyValue pk = PartitionKeys.required(r, t.definition().partitionKey());
        String params = r.body() == null || r.body().length == 0 ? null
                : new String(r.body(), StandardCharsets.UTF_8);
        // the core's other errors (404) reach CosmosApi.handle, which answers them via asCosmos
        boolean logging = r.flag("x-ms-documentdb-script-enable-logging");
        ContainerScripts.Execution e;
        try {
            e = scripts.executeStoredProcedure(id, pk, params);
        } catch (ScriptFailure f) { // 400 script error, 408, 413: with the log written before the failure
            RestResponse error = RestResponse.error(asCosmos(f));
            if (logging) {
                error.header(CosmosStoredProcedure.SCRIPT_LOG_HEADER, CosmosStoredProcedure.percentEncoded(f.scriptLog()));
            }
            return error;
        }
        String body = e.body() == null ? "" : e.body();
        RestResponse out = new RestResponse(200, body.getBytes(StandardCharsets.UTF_8), e.requestCharge());
        if (logging) {
            // Cosmos DB percent-encodes the log (spaces as %20); the SDKs URL-decode it
            out.header(CosmosStoredProcedure.SCRIPT_LOG_HEADER, CosmosStoredProcedure.percentEncoded(e.log()));
        }
        Items.sessionHeaders(out, t, 1, api.ranges.sessionRanges(r, t, null));
        return out;
    }

    /**
     * A core error as the face answers it: a script's own error in Cosmos DB's message shape ({@code Message:
     * {"Errors":["Encountered exception while executing function. ..."]}}), others with the core's status and text.
     */
    static CosmosError asCosmos(StoreException e) {
        String message = e.getMessage();
        if (e.status() == 400 && message != null && message.startsWith(SCRIPT_ERROR)) {
            ObjectNode errors = Json.object();
            errors.putArray("Errors").add(message);
            message = "Message: " + errors;
        }
        return new CosmosError(e.status(), e.subStatus(), message);
    }

    private static ObjectNode properties(RestRequest r) {
        ObjectNode body = Json.parseObject(r.body());
        ObjectNode clean = Json.object();
        body.fields().forEachRemaining(f -> {
            if (!f.getKey().startsWith("_")) {
                clean.set(f.getKey(), f.getValue());
            }
        });
        return clean;
    }

    private static ObjectNode conflictAsCosmos(java.util.function.Supplier<ObjectNode> create) {
        try {
            return create.get();
        } catch (StoreException e) {
            if (e.status() == 409) {
                throw new CosmosError(409, "Resource with specified id or name already exists.");
            }
            throw e;
        }
    }

    /** A script addressed by its RID (the SDKs may follow a resource's {@code _self}) → its name. */
    private static String nameOf(ContainerScripts scripts, Target t, Kind kind, String segment) {
        byte[] b = ResourceIds.decode(segment);
        if (b == null || b.length != 16) {
            return segment;
        }
        for (ObjectNode s : scripts.list(kind)) {
            String name = s.path("id").asText();
            if (name.equals(segment)) {
                return name;
            }
            if (ResourceIds.child(t.collRid(), kindNibble(kind), name).equals(segment)) {
                return name;
            }
        }
        return segment;
    }

    /** The core's resource with the face's RID and link (RIDs the SDKs can parse, under the face's container RID). */
    private static ObjectNode json(Target t, Kind kind, ObjectNode core) {
        ObjectNode n = core.deepCopy();
        String rid = ResourceIds.child(t.collRid(), kindNibble(kind), n.path("id").asText());
        n.put("_rid", rid);
        n.put("_self", t.self() + kind.path() + "/" + rid + "/");
        return n;
    }

    private static Kind kindOf(String path) {
        return switch (path) {
            case "sprocs" -> Kind.STORED_PROCEDURE;
            case "triggers" -> Kind.TRIGGER;
            default -> Kind.USER_DEFINED_FUNCTION;
        };
    }

    /** The RID this face gives script {@code name} of kind path {@code path}; null for conflicts (they have none). */
    static String rid(Target t, String path, String name) {
        return switch (path) {
            case "sprocs", "triggers", "udfs" -> ResourceIds.child(t.collRid(), kindNibble(kindOf(path)), name);
            default -> null;
        };
    }

    private static int kindNibble(Kind kind) {
        return switch (kind) {
            case STORED_PROCEDURE -> ResourceIds.KIND_SPROC;
            case TRIGGER -> ResourceIds.KIND_TRIGGER;
            case USER_DEFINED_FUNCTION -> ResourceIds.KIND_UDF;
        };
    }

    private static String listKey(Kind kind) {
        return switch (kind) {
            case STORED_PROCEDURE -> "StoredProcedures";
            case TRIGGER -> "Triggers";
            case USER_DEFINED_FUNCTION -> "UserDefinedFunctions";
        };
    }
}
