package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Stored procedures, triggers and user-defined functions as stored resources (docs/cosmos-rest.md §3.6): create,
 * read, list, query, replace, delete. Running them (sproc execution, trigger includes, {@code udf.x()} in queries) is
 * refused with a clear 400 until the core's server-side JavaScript is served through this face.
 */
final class Scripts {
    private static final Set<String> TRIGGER_TYPES = Set.of("Pre", "Post");
    private static final Set<String> TRIGGER_OPERATIONS = Set.of("All", "Create", "Replace", "Delete", "Update",
            "Upsert");

    private final CosmosApi api;

    Scripts(CosmosApi api) {
        this.api = api;
    }

    RestResponse handle(RestRequest r, Target t, String kind) {
        String db = t.database().id();
        if (r.size() == 5) {
            CosmosApi.requireMethod(r, "GET", "POST");
            if (r.method().equals("GET") || Queries.isQuery(r)) {
                List<ObjectNode> all = new ArrayList<>();
                for (SystemStore.Entry e : api.system.list(db, t.name(), kind)) {
                    all.add(json(t, kind, e));
                }
                return api.feed(r, t.collRid(), listKey(kind), all);
            }
            ObjectNode body = validated(kind, Json.parseObject(r.body()));
            String id = body.get("id").textValue();
            SystemStore.Entry e = api.system.put(db, t.name(), kind, id, body, true, null);
            ObjectNode json = json(t, kind, e);
            return RestResponse.json(201, json, 5).header("etag", json.path("_etag").asText());
        }
        if (r.size() != 6) {
            throw CosmosError.notFound("Unknown script route.");
        }
        String id = nameOf(db, t, kind, r.segment(5));
        CosmosApi.requireMethod(r, kind.equals("sprocs")
                ? new String[]{"GET", "PUT", "DELETE", "POST"} : new String[]{"GET", "PUT", "DELETE"});
        try {
            switch (r.method()) {
                case "GET": {
                    ObjectNode json = json(t, kind, existing(db, t, kind, id));
                    return RestResponse.json(200, json, 1).header("etag", json.path("_etag").asText());
                }
                case "PUT": {
                    ObjectNode body = validated(kind, Json.parseObject(r.body()));
                    if (!body.get("id").textValue().equals(id)) {
                        throw CosmosError.badRequest("The id in the body ('" + body.get("id").textValue()
                                + "') differs from the one in the URL ('" + id + "').");
                    }
                    existing(db, t, kind, id);
                    SystemStore.Entry e = api.system.put(db, t.name(), kind, id, body, false,
                            r.header("If-Match"));
                    ObjectNode json = json(t, kind, e);
                    return RestResponse.json(200, json, 5).header("etag", json.path("_etag").asText());
                }
                case "DELETE":
                    existing(db, t, kind, id);
                    api.system.delete(db, t.name(), kind, id, r.header("If-Match"));
                    return RestResponse.empty(204, 1);
                default:
                    existing(db, t, kind, id);
                    throw CosmosError.badRequest("Stored procedure '" + id + "' is stored but cannot be executed "
                            + "yet: this endpoint does not run server-side JavaScript (a later release will).");
            }
        } catch (StoreException e) {
            if (e.status() == 409) {
                throw new CosmosError(409, "Resource with specified id or name already exists.");
            }
            throw e;
        }
    }

    /** A script addressed by its RID (the SDKs replace through the resource's {@code _self}) → its name. */
    private String nameOf(String db, Target t, String kind, String segment) {
        byte[] b = ResourceIds.decode(segment);
        if (b == null || b.length != 16 || api.system.get(db, t.name(), kind, segment) != null) {
            return segment;
        }
        for (SystemStore.Entry e : api.system.list(db, t.name(), kind)) {
            String name = e.resource().path("id").asText();
            if (ResourceIds.child(t.collRid(), kindNibble(kind), name).equals(segment)) {
                return name;
            }
        }
        return segment;
    }

    private SystemStore.Entry existing(String db, Target t, String kind, String id) {
        SystemStore.Entry e = api.system.get(db, t.name(), kind, id);
        if (e == null || !e.kind().equals(kind)) {
            throw CosmosError.notFound("Resource Not Found: " + singular(kind) + " '" + id + "' does not exist in "
                    + "container '" + t.name() + "'.");
        }
        return e;
    }

    private static ObjectNode validated(String kind, ObjectNode body) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual() || id.textValue().isEmpty()) {
            throw CosmosError.badRequest("The input content is invalid because the required properties - 'id; ' - "
                    + "are missing.");
        }
        JsonNode code = body.get("body");
        if (code == null || !code.isTextual()) {
            throw CosmosError.badRequest("A " + singular(kind) + " needs its JavaScript as a string 'body'.");
        }
        if (kind.equals("triggers")) {
            String type = body.path("triggerType").asText("");
            String op = body.path("triggerOperation").asText("");
            if (!TRIGGER_TYPES.contains(type)) {
                throw CosmosError.badRequest("triggerType must be Pre or Post, got '" + type + "'.");
            }
            if (!TRIGGER_OPERATIONS.contains(op)) {
                throw CosmosError.badRequest("triggerOperation must be one of " + TRIGGER_OPERATIONS + ", got '"
                        + op + "'.");
            }
        }
        ObjectNode clean = Json.object();
        body.fields().forEachRemaining(f -> {
            if (!f.getKey().startsWith("_")) {
                clean.set(f.getKey(), f.getValue());
            }
        });
        return clean;
    }

    private static ObjectNode json(Target t, String kind, SystemStore.Entry e) {
        ObjectNode n = e.resource().deepCopy();
        String id = n.path("id").asText();
        String rid = ResourceIds.child(t.collRid(), kindNibble(kind), id);
        n.put("_rid", rid);
        n.put("_self", t.self() + kind + "/" + rid + "/");
        n.put("_etag", e.etag());
        n.put("_ts", e.ts());
        return n;
    }

    private static int kindNibble(String kind) {
        return switch (kind) {
            case "sprocs" -> ResourceIds.KIND_SPROC;
            case "triggers" -> ResourceIds.KIND_TRIGGER;
            default -> ResourceIds.KIND_UDF;
        };
    }

    private static String listKey(String kind) {
        return switch (kind) {
            case "sprocs" -> "StoredProcedures";
            case "triggers" -> "Triggers";
            default -> "UserDefinedFunctions";
        };
    }

    private static String singular(String kind) {
        return switch (kind) {
            case "sprocs" -> "stored procedure";
            case "triggers" -> "trigger";
            default -> "user-defined function";
        };
    }
}
