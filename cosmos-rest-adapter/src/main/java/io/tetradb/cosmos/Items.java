package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.patch.PatchOperation;
import io.tetradb.core.query.eval.QueryExecutor;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Items ({@code docs}): create, upsert, read, replace, patch (both body forms), delete, with {@code If-Match} /
 * {@code If-None-Match}; {@code POST docs} is also the door to queries, the query plan and batches, told apart by
 * their headers (docs/cosmos-rest.md §3.7).
 */
final class Items {
    private final CosmosApi api;

    Items(CosmosApi api) {
        this.api = api;
    }

    RestResponse handle(RestRequest r, Target t) {
        checkIntendedContainer(r, t);
        if (r.size() == 5) {
            CosmosApi.requireMethod(r, "GET", "POST");
            if (r.method().equals("GET")) {
                if (ChangeFeedReads.isChangeFeed(r)) {
                    return api.changeFeed.read(r, t);
                }
                return api.queries.readFeed(r, t);
            }
            if (r.flag("x-ms-cosmos-is-batch-request")) {
                if (trigger(r, "x-ms-documentdb-pre-trigger-include") != null
                        || trigger(r, "x-ms-documentdb-post-trigger-include") != null) {
                    throw CosmosError.badRequest("Triggers are not run in a transactional batch or bulk request; "
                            + "name them on single item writes.");
                }
                return api.batches.handle(r, t);
            }
            if (r.flag("x-ms-cosmos-is-query-plan-request")) {
                return api.queries.plan(r, t);
            }
            if (Queries.isQuery(r)) {
                return api.queries.query(r, t);
            }
            return create(r, t);
        }
        if (r.size() != 6) {
            throw CosmosError.notFound("Unknown resource under an item.");
        }
        String id = r.segment(5);
        CosmosApi.requireMethod(r, "GET", "PUT", "PATCH", "DELETE");
        switch (r.method()) {
            case "GET": {
                PartitionKeyValue pk = PartitionKeys.required(r, t.definition().partitionKey());
                ItemResult res = readItem(t, pk, id, r.header("If-None-Match"), ConsistencyHeader.of(r));
                return respond(r, t, res, true);
            }
            case "PUT": {
                ItemBody body = ItemBody.parseEncoded(r.body(), t.store().codec()); // write-path: no tree
                PartitionKeyValue pk = PartitionKeys.forDocument(r, t.definition().partitionKey(),
                        body.keyFields(t.definition().partitionKey()));
                return respond(r, t, write(r, t, pk, body.replace(id, r.header("If-Match"))),
                        wantsBody(r), echo(r, body));
            }
            case "PATCH":
                return patch(r, t, id);
            default: {
                PartitionKeyValue pk = PartitionKeys.required(r, t.definition().partitionKey());
                return respond(r, t, write(r, t, pk, ItemOperation.delete(id, r.header("If-Match"))), false);
            }
        }
    }

    /**
     * A write of the item routes: with the triggers the request names ({@code x-ms-documentdb-pre-trigger-include} /
     * {@code -post-trigger-include}) it runs through the core's scripts as one transaction, else as a plain write.
     */
    private ItemResult write(RestRequest r, Target t, PartitionKeyValue pk, ItemOperation op) {
        String pre = trigger(r, "x-ms-documentdb-pre-trigger-include");
        String post = trigger(r, "x-ms-documentdb-post-trigger-include");
        if (pre == null && post == null) {
            return op.type() == ItemOperation.Type.DELETE ? t.store().execute(pk, op) : write(t, pk, op);
        }
        var e = t.store().scripts().writeWithTriggers(pk, op, pre, post);
        ItemResult w = e.item();
        return new ItemResult(w.type(), w.id(), w.status(), w.stored(), w.etag(), e.requestCharge(), w.error());
    }

    /** The one trigger a header names (Cosmos DB takes a comma-separated list; at most one runs per request). */
    private static String trigger(RestRequest r, String header) {
        String v = r.header(header);
        if (v == null || v.isBlank()) {
            return null;
        }
        String[] names = v.split(",");
        if (names.length > 1) {
            throw CosmosError.badRequest("At most one trigger of each kind may be included in a request; " + header
                    + " names " + names.length + ": " + v);
        }
        return java.net.URLDecoder.decode(names[0].trim(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** One write; the core enforces the container's unique keys (409 "Unique index constraint violation."). */
    ItemResult write(Target t, PartitionKeyValue pk, ItemOperation op) {
        return t.store().execute(pk, op);
    }

    private ItemResult readItem(Target t, PartitionKeyValue pk, String id, String ifNoneMatch,
                                io.tetradb.core.consistency.ConsistencyLevel consistency) {
        try {
            return t.store().read(pk, id, ifNoneMatch, consistency);
        } catch (StoreException e) {
            if (e.status() == 404) {
                throw new CosmosError(404, "Entity with the specified id does not exist in the system. More info: "
                        + "https://aka.ms/cosmosdb-tsg-not-found (id '" + id + "', partition key " + pk + ")");
            }
            throw e;
        }
    }

    private RestResponse create(RestRequest r, Target t) {
        ItemBody body = ItemBody.parseEncoded(r.body(), t.store().codec()); // write-path: no tree
        PartitionKeyValue pk = PartitionKeys.forDocument(r, t.definition().partitionKey(),
                body.keyFields(t.definition().partitionKey()));
        ItemOperation op = body.createOrUpsert(r.flag("x-ms-documentdb-is-upsert"), r.header("If-Match"));
        return respond(r, t, write(r, t, pk, op), wantsBody(r), echo(r, body));
    }

    /** The body the answer may echo: not when a pre-trigger may have changed what was stored. */
    private static ItemBody echo(RestRequest r, ItemBody body) {
        return trigger(r, "x-ms-documentdb-pre-trigger-include") == null ? body : null;
    }

    private RestResponse patch(RestRequest r, Target t, String id) {
        PartitionKeyValue pk = PartitionKeys.required(r, t.definition().partitionKey());
        JsonNode body = Json.parse(r.body());
        JsonNode ops;
        String condition = null;
        if (body.isArray()) {
            ops = body;
        } else if (body.isObject()) {
            ops = body.get("operations");
            JsonNode c = body.get("condition");
            if (c != null && !c.isNull()) {
                if (!c.isTextual()) {
                    throw CosmosError.badRequest("The patch condition must be a string such as "
                            + "\"from c where c.status = 'open'\".");
                }
                condition = c.textValue();
            }
        } else {
            throw CosmosError.badRequest("A patch body is {\"operations\": [...], \"condition\"?: \"from c where ...\"} "
                    + "or an array of operations.");
        }
        List<PatchOperation> parsed = patchOperations(ops);
        String ifMatch = r.header("If-Match");
        if (condition == null) {
            return respond(r, t, write(r, t, pk, ItemOperation.patch(id, parsed, ifMatch)), wantsBody(r));
        }
        SqlQuery filter = conditionQuery(condition);
        for (int attempt = 0; ; attempt++) {
            ItemResult current = readItem(t, pk, id, null, null);
            ObjectNode item = t.store().codec().parse(current.stored());
            if (QueryExecutor.execute(filter, List.of(item), Map.of(), null).isEmpty()) {
                throw new CosmosError(412, "Precondition Failed: the patch condition '" + condition + "' is false "
                        + "for item '" + id + "'.");
            }
            if (ifMatch != null && !sameEtag(ifMatch, current.etag())) {
                throw new CosmosError(412, "Precondition Failed: the item's etag is not " + ifMatch + ".");
            }
            try {
                return respond(r, t, write(r, t, pk, ItemOperation.patch(id, parsed, current.etag())),
                        wantsBody(r));
            } catch (StoreException e) {
                if (e.status() != 412 || ifMatch != null || attempt >= 10) {
                    throw e;
                }
                // another writer changed the item between the condition check and the patch: check again
            }
        }
    }

    static SqlQuery conditionQuery(String condition) {
        String text = condition.trim();
        if (!text.regionMatches(true, 0, "from", 0, 4)) {
            throw CosmosError.badRequest("The patch condition must start with FROM, e.g. \"from c where c.x > 1\".");
        }
        return SqlParser.parse("SELECT VALUE 1 " + text);
    }

    private static boolean sameEtag(String given, String etag) {
        String g = given.length() >= 2 && given.startsWith("\"") && given.endsWith("\"")
                ? given.substring(1, given.length() - 1) : given;
        return g.equals(etag);
    }

    /** Cosmos patch operations ({@code add, set, replace, remove, incr, move}) as the core's. */
    static List<PatchOperation> patchOperations(JsonNode ops) {
        if (ops == null || !ops.isArray() || ops.isEmpty()) {
            throw CosmosError.badRequest("A patch needs a non-empty array of operations.");
        }
        if (ops.size() > 10) {
            throw CosmosError.badRequest("A patch may hold at most 10 operations, got " + ops.size() + ".");
        }
        List<PatchOperation> out = new ArrayList<>();
        for (JsonNode o : ops) {
            String op = o.path("op").asText("").toLowerCase(Locale.ROOT);
            PatchOperation.Type type = switch (op) {
                case "add" -> PatchOperation.Type.ADD;
                case "set" -> PatchOperation.Type.SET;
                case "replace" -> PatchOperation.Type.REPLACE;
                case "remove" -> PatchOperation.Type.REMOVE;
                case "incr", "increment" -> PatchOperation.Type.INCREMENT;
                case "move" -> PatchOperation.Type.MOVE;
                default -> throw CosmosError.badRequest("Unknown patch operation '" + o.path("op").asText("")
                        + "'; expected add, set, replace, remove, incr or move.");
            };
            JsonNode path = o.get("path");
            if (path == null || !path.isTextual()) {
                throw CosmosError.badRequest("Each patch operation needs a string 'path'.");
            }
            JsonNode value = o.get("value");
            boolean needsValue = type != PatchOperation.Type.REMOVE && type != PatchOperation.Type.MOVE;
            if (needsValue && value == null) {
                throw CosmosError.badRequest("The patch operation '" + op + "' at " + path.textValue()
                        + " needs a 'value'.");
            }
            String from = o.path("from").isTextual() ? o.path("from").textValue() : null;
            if (type == PatchOperation.Type.MOVE && from == null) {
                throw CosmosError.badRequest("The patch operation 'move' needs a string 'from'.");
            }
            out.add(new PatchOperation(type, path.textValue(), from, value));
        }
        return out;
    }

    /** {@code POST .../operations/partitionkeydelete}: every item of one logical partition. */
    RestResponse deleteAllByPartitionKey(RestRequest r, Target t) {
        PartitionKeyValue pk = PartitionKeys.required(r, t.definition().partitionKey());
        List<String> ids = new ArrayList<>();
        t.store().scan(pk, stored -> {
            ids.add(t.store().codec().parse(stored).path("id").asText());
            return true;
        });
        double charge = 1;
        for (String id : ids) {
            try {
                charge += t.store().execute(pk, ItemOperation.delete(id, null)).requestCharge();
            } catch (StoreException e) {
                if (e.status() != 404) {
                    throw e;
                }
            }
        }
        return RestResponse.empty(200, charge);
    }

    /** Java's default {@code contentResponseOnWriteEnabled=false} asks for no body: {@code Prefer: return=minimal}. */
    static boolean wantsBody(RestRequest r) {
        String prefer = r.header("Prefer");
        return prefer == null || !prefer.toLowerCase(Locale.ROOT).contains("return=minimal");
    }

    /** Java names the container RID it resolved; a container recreated under the same name has another (400/1024). */
    private static void checkIntendedContainer(RestRequest r, Target t) {
        String intended = r.header("x-ms-cosmos-intended-collection-rid");
        if (intended != null && !intended.equals(t.collRid())) {
            throw new CosmosError(400, 1024, "The container RID " + intended + " the request names is not the RID "
                    + "of container '" + t.name() + "' (" + t.collRid() + "): it was deleted and created again.");
        }
    }

    RestResponse respond(RestRequest r, Target t, ItemResult res, boolean withBody) {
        return respond(r, t, res, withBody, null);
    }

    /** With {@code sent} non-null the answer is its text plus the stored system properties when that is the view. */
    RestResponse respond(RestRequest r, Target t, ItemResult res, boolean withBody, ItemBody sent) {
        byte[] body = null;
        if (withBody && res.stored() != null && res.status() != 304) {
            body = sent == null ? null : sent.answer(res.stored());
            if (body == null) {
                body = t.store().codec().jsonText(res.stored()); // either stored format: the JSON view
            }
        }
        int status = res.type() == ItemOperation.Type.DELETE ? 204 : res.status();
        RestResponse out = new RestResponse(status, body, res.requestCharge());
        if (res.etag() != null) {
            out.header("etag", "\"" + res.etag() + "\"");
        }
        long lsn = res.stored() != null ? ItemCodec.lsn(res.stored()) : 1;
        sessionHeaders(out, t, lsn, api.ranges.sessionRanges(r, t, null));
        return out;
    }

    /**
     * Cosmos DB's session token names each serving range with its vector token, {@code <rangeId>:-1#<lsn>} (a list,
     * comma-separated, when a request covered several), so the SDKs keep one per range. The server accepts any
     * incoming token and needs none: every acknowledged write is in the one store a read sees.
     */
    static void sessionHeaders(RestResponse out, Target t, long lsn, List<String> rangeIds) {
        long shown = Math.max(1, lsn);
        StringBuilder token = new StringBuilder();
        for (String id : rangeIds) {
            token.append(token.length() == 0 ? "" : ",").append(id).append(":-1#").append(shown);
        }
        out.header("x-ms-session-token", token.toString());
        out.header("x-ms-content-path", t.collRid());
        out.header("x-ms-alt-content-path", t.altLink());
        out.header("lsn", Long.toString(Math.max(1, lsn)));
    }
}
