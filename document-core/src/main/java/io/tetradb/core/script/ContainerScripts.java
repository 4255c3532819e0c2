package io.tetradb.core.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.functions.UdfResolver;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.core.store.OpenTransaction;
import io.tetradb.core.store.ScriptDefinitions;
import io.tetradb.core.store.ScriptDefinitions.Kind;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The server-side scripts of one container: their rules (Cosmos DB's limits, ids, etags), execution of stored
 * procedures and triggers inside one logical-partition transaction, and the UDFs its queries call.
 */
public final class ContainerScripts {
    /** Cosmos DB's limits per container. */
    public static final int MAX_STORED_PROCEDURES = 100;
    public static final int MAX_USER_DEFINED_FUNCTIONS = 50;
    /** TetraDB's limit on a script body (Cosmos DB documents none; its gateway refuses large bodies). */
    public static final int MAX_BODY_CHARS = 256 * 1024;

    private final ContainerStore container;
    private final ScriptEngine engine;
    private final ScriptDefinitions stored;
    private final ObjectMapper mapper;
    /** UDF bodies by id, loaded on first use and dropped on every UDF change. */
    private volatile Map<String, String> udfBodies;

    public ContainerScripts(ContainerStore container, ScriptEngine engine) {
        this.container = container;
        this.engine = engine;
        this.stored = container.scriptDefinitions();
        this.mapper = container.codec().mapper();
    }

    public ScriptEngine engine() {
        return engine;
    }

    // ---- resources ---------------------------------------------------------------------------------------------

    /** Creates a script; 409 if the id exists, 400 for a bad id/body or beyond the container's limit. */
    public synchronized ObjectNode create(Kind kind, ObjectNode properties) {
        String id = validate(kind, properties);
        if (stored.get(kind, id) != null) {
            throw new StoreException(Status.CONFLICT, "a " + noun(kind) + " with id '" + id + "' already exists");
        }
        int max = kind == Kind.STORED_PROCEDURE ? MAX_STORED_PROCEDURES
                : kind == Kind.USER_DEFINED_FUNCTION ? MAX_USER_DEFINED_FUNCTIONS : Integer.MAX_VALUE;
        if (stored.list(kind).size() >= max) {
            throw new StoreException(Status.BAD_REQUEST, "a container holds at most " + max + " " + noun(kind)
                    + "s; delete one before creating another");
        }
        return save(kind, id, properties, null);
    }

    /** Replaces a script's body (and trigger type/operation); 404 if absent, 412 for a stale {@code ifMatch}. */
    public synchronized ObjectNode replace(Kind kind, String id, ObjectNode properties, String ifMatch) {
        String newId = validate(kind, properties);
        if (!newId.equals(id)) {
            throw new StoreException(Status.BAD_REQUEST, "the " + noun(kind) + " id '" + id + "' cannot change to '"
                    + newId + "'");
        }
        ObjectNode current = read(kind, id);
        checkEtag(current, ifMatch);
        return save(kind, id, properties, current.path("_rid").asText());
    }

    public ObjectNode read(Kind kind, String id) {
        ObjectNode r = stored.get(kind, id);
        if (r == null) {
            throw new StoreException(Status.NOT_FOUND, "the " + noun(kind) + " '" + id + "' does not exist in container "
                    + container.definition().id());
        }
        return r;
    }

    public List<ObjectNode> list(Kind kind) {
        return stored.list(kind);
    }

    public synchronized void delete(Kind kind, String id, String ifMatch) {
        checkEtag(read(kind, id), ifMatch);
        stored.delete(kind, id);
        udfBodies = null;
        sprocBodies.remove(id);
    }

    private void checkEtag(ObjectNode current, String ifMatch) {
        if (ifMatch != null && !ifMatch.equals("*") && !ifMatch.equals(current.path("_etag").asText())) {
            throw new StoreException(Status.PRECONDITION_FAILED, "the etag " + ifMatch + " of "
                    + current.path("id").asText() + " is stale");
        }
    }

    private ObjectNode save(Kind kind, String id, ObjectNode properties, String rid) {
        ObjectNode r = mapper.createObjectNode();
        r.put("id", id);
        r.put("body", properties.get("body").asText());
        if (kind == Kind.TRIGGER) {
            r.put("triggerType", properties.get("triggerType").asText());
            r.put("triggerOperation", properties.get("triggerOperation").asText());
        }
        String newRid = rid != null ? rid : newRid();
        r.put("_rid", newRid);
        r.put("_self", container.selfLink() + kind.path() + "/" + newRid + "/");
        r.put("_etag", "\"" + UUID.randomUUID() + "\"");
        r.put("_ts", System.currentTimeMillis() / 1000);
        stored.put(kind, id, r);
        udfBodies = null;
        sprocBodies.remove(id);
        return r;
    }

    private String newRid() {
        byte[] b = new byte[8];
        ThreadLocalRandom.current().nextBytes(b);
        return Base64.getEncoder().encodeToString(b).replace('/', '-');
    }

    private String validate(Kind kind, ObjectNode p) {
        JsonNode idNode = p.get("id");
        if (idNode == null || !idNode.isTextual() || idNode.asText().isEmpty()) {
            throw new StoreException(Status.BAD_REQUEST, "a " + noun(kind) + " needs a non-empty string id");
        }
        String id = idNode.asText();
        if (id.length() > 255 || id.chars().anyMatch(c -> c == '/' || c == '\\' || c == '?' || c == '#')) {
            throw new StoreException(Status.BAD_REQUEST, "the id '" + id
                    + "' is invalid: at most 255 characters, none of / \\ ? #");
        }
        JsonNode body = p.get("body");
        if (body == null || !body.isTextual() || body.asText().isBlank()) {
            throw new StoreException(Status.BAD_REQUEST, "a " + noun(kind) + " needs a body (JavaScript source)");
        }
        if (body.asText().length() > MAX_BODY_CHARS) {
            throw new StoreException(Status.REQUEST_ENTITY_TOO_LARGE, "a script body holds at most "
                    + MAX_BODY_CHARS + " characters");
        }
        if (kind == Kind.TRIGGER) {
            String type = p.path("triggerType").asText("");
            String op = p.path("triggerOperation").asText("");
            if (!type.equals("Pre") && !type.equals("Post")) {
                throw new StoreException(Status.BAD_REQUEST, "triggerType must be Pre or Post, not '" + type + "'");
            }
            if (!List.of("All", "Create", "Replace", "Delete", "Update", "Upsert").contains(op)) {
                throw new StoreException(Status.BAD_REQUEST, "triggerOperation must be All, Create, Replace, "
                        + "Delete, Update or Upsert, not '" + op + "'");
            }
        }
        engine.validate(body.asText());
        return id;
    }

    private static String noun(Kind kind) {
        return switch (kind) {
            case STORED_PROCEDURE -> "stored procedure";
            case TRIGGER -> "trigger";
            case USER_DEFINED_FUNCTION -> "user-defined function";
        };
    }

    // ---- stored procedures -------------------------------------------------------------------------------------

    /** What a stored procedure (or a triggered write) left: response body (JSON text or null), log, charge. */
    public record Execution(String body, String log, double requestCharge, ItemResult item) {
    }

    /**
     * Runs stored procedure {@code id} in the logical partition {@code pk} with {@code paramsJson} (a JSON array of
     * arguments, or null): everything it does commits as one transaction, or nothing does.
     */
    public Execution executeStoredProcedure(String id, PartitionKeyValue pk, String paramsJson) {
        String body = storedProcedureBody(id);
        if (paramsJson != null && !paramsJson.isBlank() && !paramsJson.strip().startsWith("[")) {
            // a malformed array fails in the script's JSON.parse, with its message (400)
            throw new StoreException(Status.BAD_REQUEST, "stored procedure parameters must be a JSON array");
        }
        ScriptLimits limits = engine.limits();
        var budget = container.rateLimiter().admit(container, pk.epk()); // throughput
        try (OpenTransaction tx = container.begin(pk)) {
            ScriptSession session = new ScriptSession(this, tx, limits);
            try {
                ScriptEngine.Result r;
                try {
                    r = engine.execute("sproc", body, session, paramsJson, null, limits);
                } finally {
                    container.rateLimiter().settle(budget, session.charge(), pk); // throughput: what it did, even if it threw
                }
                if (r.body() != null && r.body().length() > limits.maxResponseBytes()) {
                    throw new StoreException(Status.REQUEST_ENTITY_TOO_LARGE, "the response body is "
                            + r.body().length() + " characters; the largest allowed is " + limits.maxResponseBytes());
                }
                tx.commit();
                return new Execution(r.body(), session.log(), round(session.charge() + r.cpuCharge()), null);
            } catch (StoreException e) {
                throw new ScriptFailure(e, session.log()); // rolled back; the log written so far goes with the error
            }
        }
    }

    private volatile String linksJson;

    /** The answer to a script's "links" call: the container's self and alt links (fixed for the container). */
    String linksJson() {
        String l = linksJson;
        if (l == null) {
            l = mapper.createObjectNode().put("ok", true).put("self", container.selfLink())
                    .put("alt", container.altLink()).toString();
            linksJson = l;
        }
        return l;
    }

    /** Stored procedure bodies by id, read on first use and dropped on every change of a stored procedure. */
    private final Map<String, String> sprocBodies = new ConcurrentHashMap<>();

    private String storedProcedureBody(String id) {
        String body = sprocBodies.get(id);
        if (body == null) {
            synchronized (this) { // as the writers, which drop the entry: no stale body is put back
                body = read(Kind.STORED_PROCEDURE, id).path("body").asText();
                sprocBodies.put(id, body);
            }
        }
        return body;
    }

    private static double round(double ru) {
        return Math.round(ru * 100) / 100.0;
    }

    // ---- triggers ----------------------------------------------------------------------------------------------

    /**
     * An item write with the named pre- and post-trigger (either may be null) in one transaction: the pre-trigger
     * may change the request body, the post-trigger sees the written item and may write others; a throw anywhere
     * rolls all of it back.
     */
    public Execution writeWithTriggers(PartitionKeyValue pk, ItemOperation op, String preTrigger, String postTrigger) {
        var budget = container.rateLimiter().admit(container, pk.epk()); // throughput
        Execution done = writeWithTriggersAdmitted(pk, op, preTrigger, postTrigger);
        container.rateLimiter().settle(budget, done.requestCharge(), pk);
        return done;
    }

    private Execution writeWithTriggersAdmitted(PartitionKeyValue pk, ItemOperation op, String preTrigger,
                                                String postTrigger) {
        String operation = switch (op.type()) {
            case CREATE -> "Create";
            case UPSERT -> "Upsert";
            case REPLACE -> "Replace";
            case DELETE -> "Delete";
            // patch: Cosmos DB documents triggers for create, replace, delete (and upsert) only and its trigger
            // operations have no Patch; what it runs on a patch is not documented, so a named trigger is refused
            default -> throw new StoreException(Status.BAD_REQUEST, "triggers run on create, upsert, replace and "
                    + "delete, not on " + op.type().name().toLowerCase());
        };
        String pre = preTrigger == null ? null : trigger(preTrigger, "Pre", operation);
        String post = postTrigger == null ? null : trigger(postTrigger, "Post", operation);
        ScriptLimits limits = engine.limits();
        try (OpenTransaction tx = container.begin(pk)) {
            ScriptSession session = new ScriptSession(this, tx, limits);
            double cpu = 0;
            ObjectNode item = op.withTree().item(); // write-path: an encoded item as a tree
            if (pre != null) {
                ObjectNode request = mapper.createObjectNode().put("operationType", operation);
                if (item != null) {
                    request.set("body", item);
                }
                ScriptEngine.Result r = engine.execute("trigger", pre, session, null, request.toString(), limits);
                cpu += r.cpuCharge();
                if (item != null && r.request() != null) {
                    JsonNode changed = parse(r.request());
                    if (!(changed instanceof ObjectNode o)) {
                        throw new StoreException(Status.BAD_REQUEST, "the pre-trigger " + preTrigger
                                + " set a request body that is not a JSON object");
                    }
                    item = o;
                }
            }
            ItemOperation effective = new ItemOperation(op.type(), op.id(), item, op.patch(), op.ifMatchETag(),
                    op.ifNoneMatchETag());
            ItemResult written = tx.apply(effective);
            if (post != null) {
                ObjectNode request = mapper.createObjectNode().put("operationType", operation);
                if (item != null) {
                    request.set("body", item);
                }
                if (written.stored() != null) {
                    request.set("responseBody", container.codec().parse(written.stored()));
                }
                cpu += engine.execute("trigger", post, session, null, request.toString(), limits).cpuCharge();
            }
            tx.commit();
            return new Execution(null, session.log(), round(written.requestCharge() + session.charge() + cpu), written);
        }
    }

    private String trigger(String id, String type, String operation) {
        ObjectNode t;
        try {
            t = read(Kind.TRIGGER, id);
        } catch (StoreException e) {
            throw new StoreException(Status.BAD_REQUEST, "the trigger '" + id + "' named in the request does not exist");
        }
        if (!type.equals(t.path("triggerType").asText())) {
            throw new StoreException(Status.BAD_REQUEST, "the trigger '" + id + "' is a "
                    + t.path("triggerType").asText() + "-trigger; it cannot be included as a " + type + "-trigger");
        }
        String op = t.path("triggerOperation").asText();
        boolean fits = op.equals("All") || op.equals(operation)
                || op.equals("Update") && (operation.equals("Replace") || operation.equals("Upsert"));
        if (!fits) {
            throw new StoreException(Status.BAD_REQUEST, "the trigger '" + id + "' runs on " + op
                    + " operations; it cannot be used for operation " + operation);
        }
        return t.path("body").asText();
    }

    private JsonNode parse(String json) {
        try {
            return mapper.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- UDFs --------------------------------------------------------------------------------------------------

    private String udfBody(String name) {
        Map<String, String> bodies = udfBodies;
        if (bodies == null) {
            bodies = new ConcurrentHashMap<>();
            for (ObjectNode u : stored.list(Kind.USER_DEFINED_FUNCTION)) {
                bodies.put(u.path("id").asText(), u.path("body").asText());
            }
            udfBodies = bodies;
        }
        return bodies.get(name);
    }

    /** A resolver for one query page: the first UDF call opens one script scope for the page. */
    public UdfResolver udfResolver() {
        return new UdfResolver() {
            private ScriptEngine.UdfSession session;

            @Override
            public synchronized JsonNode call(String name, List<JsonNode> args) {
                if (session == null) {
                    session = engine.udfSession(ContainerScripts.this::udfBody);
                }
                JsonNode out = session.call(name, args);
                return out == null ? MissingNode.getInstance() : out;
            }

            @Override
            public synchronized double cpuCharge() {
                return session == null ? 0 : ScriptEngine.charged(session.instructions()) * ScriptEngine.RU_PER_INSTRUCTION;
            }
        };
    }
}
