package io.tetradb.core.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.patch.PatchOperation;
import io.tetradb.core.query.eval.QueryExecutor;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.core.store.OpenTransaction;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The store side of one script execution: every collection operation of the script runs inside one open
 * transaction over the request's logical partition, so the script sees its own writes and nothing else changes the
 * partition meanwhile. Also collects the script log and the operations' request charges.
 */
final class ScriptSession implements ScriptHost {
    private static final String OK = "{\"ok\":true}";
    private final ContainerStore container;
    private final OpenTransaction tx;
    private final ObjectMapper mapper;
    private final ContainerScripts scripts;
    private final int maxLogChars;
    private final int maxResponseBytes;
    private final StringBuilder log = new StringBuilder();
    private double charge;
    /** {@code _rid} → id of the documents the script has seen (self links name documents by rid). */
    private final Map<String, String> idsByRid = new HashMap<>();

    ScriptSession(ContainerScripts scripts, OpenTransaction tx, ScriptLimits limits) {
        this.scripts = scripts;
        this.container = tx.container();
        this.tx = tx;
        this.mapper = container.codec().mapper();
        this.maxLogChars = limits.maxLogBytes();
        this.maxResponseBytes = limits.maxResponseBytes();
    }

    String log() {
        return log.toString();
    }

    double charge() {
        return charge;
    }

    @Override
    public String call(String op, JsonNode args) {
        if (op.equals("links")) {
            return scripts.linksJson();
        }
        try {
            ObjectNode out = switch (op) {
                case "log" -> {
                    if (log.length() < maxLogChars) {
                        String line = args.path("line").asText();
                        log.append(line, 0, Math.min(line.length(), maxLogChars - log.length())).append('\n');
                    }
                    yield ok();
                }
                case "charge" -> ok().put("charge", charge);
                case "limits" -> ok().put("maxResponseSize", maxResponseBytes);
                case "create", "upsert" -> write(op, args);
                case "replace" -> {
                    String id = documentId(args.path("link").asText());
                    ObjectNode doc = document(args);
                    yield item(tx.apply(ItemOperation.replace(id, doc, etag(args))), args);
                }
                case "read" -> {
                    String id = documentId(args.path("link").asText());
                    String ifNoneMatch = textOrNull(args.path("options").path("ifNoneMatch"));
                    yield item(tx.apply(ItemOperation.read(id, ifNoneMatch)), args);
                }
                case "delete" -> {
                    String id = documentId(args.path("link").asText());
                    ItemResult r = tx.apply(ItemOperation.delete(id, etag(args)));
                    charge += r.requestCharge();
                    yield ok();
                }
                case "patch" -> {
                    String id = documentId(args.path("link").asText());
                    yield item(tx.apply(ItemOperation.patch(id, patchOperations(args.path("operations")), etag(args))), args);
                }
                case "query" -> query(args);
                case "documents" -> {
                    ContainerStore.PartitionView view = tx.items();
                    charge += queryCharge(view.bytes());
                    ArrayNode docs = mapper.createArrayNode();
                    for (ObjectNode d : view.items()) {
                        remember(d);
                        docs.add(d);
                    }
                    ObjectNode r = ok();
                    r.set("resources", docs);
                    yield r;
                }
                default -> throw new StoreException(Status.BAD_REQUEST, "unknown operation " + op);
            };
            return out.size() == 1 && out.has("ok") ? OK : mapper.writeValueAsString(out);
        } catch (StoreException e) {
            ObjectNode err = mapper.createObjectNode().put("ok", false).put("status", e.status())
                    .put("message", e.getMessage());
            return err.toString();
        } catch (java.io.IOException e) {
            return mapper.createObjectNode().put("ok", false).put("status", Status.BAD_REQUEST)
                    .put("message", "bad arguments: " + e.getMessage()).toString();
        }
    }

    private ObjectNode ok() {
        return mapper.createObjectNode().put("ok", true);
    }

    private ObjectNode write(String op, JsonNode args) {
        checkCollection(args.path("link").asText());
        ObjectNode doc = document(args);
        if (!doc.has("id") && !args.path("options").path("disableAutomaticIdGeneration").asBoolean(false)) {
            doc.put("id", UUID.randomUUID().toString());
        }
        ItemResult r = op.equals("create") ? tx.apply(ItemOperation.create(doc))
                : tx.apply(ItemOperation.upsert(doc, etag(args)));
        return item(r, args);
    }

    private ObjectNode item(ItemResult r, JsonNode args) {
        charge += r.requestCharge();
        ObjectNode out = ok();
        if (r.stored() != null && args.path("want").asBoolean(true)) {
            ObjectNode d = container.codec().parse(r.stored());
            remember(d);
            out.set("resource", d);
        }
        return out;
    }

    private void remember(ObjectNode d) {
        JsonNode rid = d.get("_rid");
        if (rid != null && d.hasNonNull("id")) {
            idsByRid.put(rid.asText(), d.get("id").asText());
        }
    }

    private ObjectNode document(JsonNode args) {
        JsonNode doc = args.get("doc");
        if (!(doc instanceof ObjectNode o)) {
            throw new StoreException(Status.BAD_REQUEST, "the document must be a JSON object");
        }
        return o;
    }

    private static String etag(JsonNode args) {
        return textOrNull(args.path("options").path("etag"));
    }

    private static String textOrNull(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }

    private ObjectNode query(JsonNode args) {
        checkCollection(args.path("link").asText());
        String text = args.path("query").asText(null);
        if (text == null) {
            throw new StoreException(Status.BAD_REQUEST, "queryDocuments needs a query string or {query, parameters}");
        }
        Map<String, JsonNode> params = new LinkedHashMap<>();
        for (JsonNode p : args.path("parameters")) {
            params.put(p.path("name").asText(), p.has("value") ? p.get("value") : com.fasterxml.jackson.databind.node.MissingNode.getInstance());
        }
        ContainerStore.PartitionView view = tx.items();
        io.tetradb.core.query.functions.UdfResolver udfs = scripts.udfResolver();
        List<JsonNode> results = QueryExecutor.execute(SqlParser.parse(text), view.items(), params,
                FunctionContext.forQuery(Clock.systemUTC()).withUdfs(udfs));
        charge += queryCharge(view.bytes()) + udfs.cpuCharge();
        JsonNode options = args.path("options");
        int pageSize = options.path("pageSize").asInt(100);
        if (pageSize <= 0) {
            pageSize = Integer.MAX_VALUE;
        }
        int from = 0;
        if (options.path("continuation").isTextual()) {
            try {
                from = Integer.parseInt(options.path("continuation").asText());
            } catch (NumberFormatException e) {
                throw new StoreException(Status.BAD_REQUEST, "invalid continuation " + options.path("continuation"));
            }
        }
        int to = (int) Math.min(results.size(), (long) from + pageSize);
        ArrayNode page = mapper.createArrayNode();
        for (int i = from; i < to; i++) {
            JsonNode r = results.get(i);
            if (r instanceof ObjectNode o) {
                remember(o);
            }
            page.add(r);
        }
        ObjectNode out = ok();
        out.set("resources", page);
        ObjectNode responseOptions = out.putObject("options");
        if (to < results.size()) {
            responseOptions.put("continuation", String.valueOf(to));
        }
        return out;
    }

    /**
     * As a query page's charge: 2 + 0.1 per KB read, twice when the account reads at strong or bounded staleness
     * (a script's reads are charged at the account's level, as Cosmos DB's are).
     */
    private double queryCharge(long bytes) {
        return io.tetradb.core.store.RequestCharge.atFactor(2 + 0.1 * Math.ceil(bytes / 1024.0),
                tx.readChargeFactor());
    }

    private List<PatchOperation> patchOperations(JsonNode ops) {
        if (!ops.isArray()) {
            throw new StoreException(Status.BAD_REQUEST, "patchDocument needs an array of operations");
        }
        List<PatchOperation> out = new ArrayList<>();
        for (JsonNode o : ops) {
            String name = o.path("op").asText("").toUpperCase(Locale.ROOT);
            if (name.equals("INCR")) {
                name = "INCREMENT";
            }
            PatchOperation.Type type;
            try {
                type = PatchOperation.Type.valueOf(name);
            } catch (IllegalArgumentException e) {
                throw new StoreException(Status.BAD_REQUEST, "unknown patch operation " + o.path("op"));
            }
            out.add(new PatchOperation(type, o.path("path").asText(), textOrNull(o.path("from")),
                    o.has("value") ? o.get("value") : null));
        }
        return out;
    }

    // ---- links ------------------------------------------------------------------------------------------------

    private static String trim(String link) {
        String s = link == null ? "" : link;
        while (s.startsWith("/")) {
            s = s.substring(1);
        }
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    /** A collection link must name this container, by rids or by names. */
    private boolean checkCollection(String link) {
        String l = trim(link);
        if (l.equals(trim(container.selfLink()))) {
            return true;
        }
        if (l.equals(trim(container.altLink()))) {
            return false;
        }
        throw new StoreException(Status.BAD_REQUEST, "the link '" + link + "' does not name this collection ("
                + container.altLink() + "); a script reaches only its own collection");
    }

    /** The id a document link names: {@code <collection link>/docs/<id or rid>}. */
    private String documentId(String link) {
        String l = trim(link);
        int at = l.lastIndexOf("/docs/");
        if (at < 0) {
            throw new StoreException(Status.BAD_REQUEST, "'" + link + "' is not a document link");
        }
        boolean byRid = checkCollection(l.substring(0, at));
        String last = l.substring(at + "/docs/".length());
        if (!byRid) {
            return last;
        }
        String id = idsByRid.get(last);
        if (id == null) {
            for (ObjectNode d : tx.items().items()) {
                remember(d);
            }
            id = idsByRid.get(last);
        }
        if (id == null) {
            throw new StoreException(Status.NOT_FOUND, "no document with _rid " + last + " in this partition");
        }
        return id;
    }
}
