package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.core.throughput.RequestRateTooLargeException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Transactional batch and bulk (docs/cosmos-rest.md §3.7): both are a JSON array of operations POSTed to
 * {@code docs} with {@code x-ms-cosmos-is-batch-request}. An atomic batch (one logical partition, the partition key
 * header) runs as one core transaction: 200 when every operation succeeded, else 207 with the failed operation's
 * status and 424 for the others, nothing applied. Bulk ({@code x-ms-cosmos-batch-atomic: false}) runs each operation
 * on its own, with its partition key in the operation; an operation refused by its partition's RU budget is that
 * operation's 429 (sub-status 3200, {@code retryAfterMilliseconds}), which the SDKs' bulk executors retry on their
 * own, while the operations that had budget are applied, as in Cosmos DB.
 */
final class Batches {
    static final int MAX_OPERATIONS = 100;

    private final CosmosApi api;

    Batches(CosmosApi api) {
        this.api = api;
    }

    RestResponse handle(RestRequest r, Target t) {
        // bulk names its range: 410/1002 once it split, so the SDK regroups the operations
        PartitionKeyRanges.Range named = api.ranges.named(r, t);
        // encoded-writes: item bodies encoded from the tokens (no tree) where the reader can, else the tree path
        List<EncodedBatchReader.Operation> encoded = EncodedBatchReader.read(r.body(), t.store().codec());
        if (encoded == null) {
            TREE_BATCHES.increment();
        }
        JsonNode body = encoded != null ? operationFields(encoded) : Json.parse(r.body());
        if (!body.isArray()) {
            throw CosmosError.badRequest("A batch body is a JSON array of operations.");
        }
        if (body.isEmpty()) {
            throw CosmosError.badRequest("A batch needs at least one operation.");
        }
        if (body.size() > MAX_OPERATIONS) {
            throw CosmosError.badRequest("Batch request has more operations than what is supported (" + body.size()
                    + " > " + MAX_OPERATIONS + ").");
        }
        String atomic = r.header("x-ms-cosmos-batch-atomic");
        boolean isAtomic = atomic == null || !atomic.trim().equalsIgnoreCase("false");
        List<ItemResult> results = new ArrayList<>();
        // per bulk operation: the wait a throttled operation's result carries (0 when it was not throttled)
        long[] retryAfter = new long[body.size()];
        if (isAtomic) {
            PartitionKeyValue pk = PartitionKeys.required(r, t.definition().partitionKey());
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < body.size(); i++) {
                ops.add(operation(body.get(i), encoded == null ? null : encoded.get(i).body()));
            }
            // the core checks unique keys inside the batch's transaction: the failing operation gets 409, the others 424
            results.addAll(t.store().executeBatch(pk, ops));
        } else {
            int i = 0;
            for (JsonNode o : body) {
                try {
                    results.add(bulkOne(r, t, o, encoded == null ? null : encoded.get(i).body()));
                } catch (RequestRateTooLargeException e) {
                    retryAfter[i] = e.retryAfterMillis();
                    results.add(new ItemResult(null, o.path("id").asText(null), e.status(), null, null, 0,
                            e.getMessage()));
                }
                i++;
            }
        }
        ArrayNode out = Json.array();
        boolean allOk = true;
        double charge = 0;
        long lsn = 1;
        for (int i = 0; i < results.size(); i++) {
            ItemResult res = results.get(i);
            ObjectNode e = out.addObject();
            e.put("statusCode", res.status());
            if (!res.isSuccess()) {
                allOk = false;
                if (res.status() == 403) {
                    e.put("subStatusCode", 1014);
                }
                if (retryAfter[i] > 0) {
                    e.put("subStatusCode", RequestRateTooLargeException.SUB_STATUS_RU_BUDGET_EXCEEDED);
                    e.put("retryAfterMilliseconds", retryAfter[i]);
                }
                if (res.error() != null) {
                    e.put("message", res.error());
                }
            }
            e.put("requestCharge", res.requestCharge());
            charge += res.requestCharge();
            if (res.etag() != null) {
                e.put("eTag", "\"" + res.etag() + "\"");
            }
            if (res.stored() != null && res.isSuccess() && res.status() != 304) {
                e.set("resourceBody", t.store().codec().parse(res.stored()));
                lsn = Math.max(lsn, io.tetradb.core.store.ItemCodec.lsn(res.stored()));
            }
        }
        RestResponse resp = RestResponse.json(allOk ? 200 : 207, out, charge);
        Items.sessionHeaders(resp, t, lsn, api.ranges.sessionRanges(r, t, named));
        return PartitionKeyRanges.echo(named, resp);
    }

    /** One bulk operation on its own; its failure is its result, not the request's. */
    private ItemResult bulkOne(RestRequest r, Target t, JsonNode o, io.tetradb.core.store.EncodedItem encoded) {
        String type = o.path("operationType").asText("");
        try {
            ItemOperation op = operation(o, encoded);
            PartitionKeyValue pk;
            JsonNode p = o.get("partitionKey");
            if (p != null && p.isTextual()) {
                pk = PartitionKeys.parse(p.textValue(), t.definition().partitionKey(), false);
            } else if (p != null && p.isArray()) {
                pk = PartitionKeys.parse(p.toString(), t.definition().partitionKey(), false);
            } else if (r.header(PartitionKeys.HEADER) != null) {
                pk = PartitionKeys.required(r, t.definition().partitionKey());
            } else if (op.item() != null) {
                pk = t.definition().partitionKey().extract(op.item());
            } else if (op.encoded() != null) { // encoded-writes: the key from the item's key fields only
                pk = t.definition().partitionKey().extract(op.encoded().keyFields(t.definition().partitionKey()));
            } else {
                throw CosmosError.badRequest("A bulk operation needs its partitionKey.");
            }
            return api.items.write(t, pk, op);
        } catch (CosmosError e) {
            return new ItemResult(null, o.path("id").asText(null), e.status, null, null, 0, e.getMessage());
        } catch (RequestRateTooLargeException e) {
            throw e; // the caller records its wait with the operation's result
        } catch (StoreException e) {
            return new ItemResult(null, o.path("id").asText(null), e.status(), null, null, 0, e.getMessage());
        }
    }

    static ItemOperation operation(JsonNode o) {
        return operation(o, null);
    }

    /** encoded-writes: the operation {@code o}, whose create, upsert or replace body is {@code encoded} if not null. */
    static ItemOperation operation(JsonNode o, io.tetradb.core.store.EncodedItem encoded) {
        if (!o.isObject()) {
            throw CosmosError.badRequest("Each batch operation is a JSON object.");
        }
        String type = o.path("operationType").asText("").toLowerCase(Locale.ROOT);
        String id = o.path("id").isTextual() ? o.path("id").textValue() : null;
        String ifMatch = o.path("ifMatch").isTextual() ? o.path("ifMatch").textValue() : null;
        String ifNoneMatch = o.path("ifNoneMatch").isTextual() ? o.path("ifNoneMatch").textValue() : null;
        JsonNode body = o.get("resourceBody");
        if (encoded != null) { // the reader encodes only these operations' object bodies
            switch (type) {
                case "create":
                    return ItemOperation.create(encoded);
                case "upsert":
                    return ItemOperation.upsert(encoded, ifMatch);
                case "replace":
                    return ItemOperation.replace(id(id, encoded.fields(List.of("id"))), encoded, ifMatch);
                default:
                    throw new IllegalStateException("an encoded body on a " + type);
            }
        }
        switch (type) {
            case "create":
                return ItemOperation.create(object(body, type));
            case "upsert":
                return ItemOperation.upsert(object(body, type), ifMatch);
            case "replace":
                return ItemOperation.replace(id(id, body), object(body, type), ifMatch);
            case "delete":
                return ItemOperation.delete(id(id, null), ifMatch);
            case "read":
                return ItemOperation.read(id(id, null), ifNoneMatch);
            case "patch": {
                ObjectNode patch = object(body, type);
                JsonNode cond = patch.get("condition");
                if (cond != null && !cond.isNull()) {
                    throw CosmosError.badRequest("A conditional patch inside a batch is not supported yet; send it "
                            + "as its own PATCH request.");
                }
                return ItemOperation.patch(id(id, null), Items.patchOperations(patch.get("operations")), ifMatch);
            }
            default:
                throw CosmosError.badRequest("Unknown batch operationType '" + o.path("operationType").asText("")
                        + "'; expected Create, Upsert, Replace, Delete, Read or Patch.");
        }
    }

    /** encoded-writes: how many batch and bulk requests were read as a tree (tests tell the paths apart by it). */
    private static final java.util.concurrent.atomic.LongAdder TREE_BATCHES = new java.util.concurrent.atomic.LongAdder();

    static long treeBatches() {
        return TREE_BATCHES.sum();
    }

    /** The operations' own fields, as the array the tree path reads (their bodies are encoded beside). */
    private static ArrayNode operationFields(List<EncodedBatchReader.Operation> ops) {
        ArrayNode a = Json.array();
        for (EncodedBatchReader.Operation op : ops) {
            a.add(op.fields());
        }
        return a;
    }

    private static ObjectNode object(JsonNode body, String type) {
        if (body == null || !body.isObject()) {
            throw CosmosError.badRequest("The batch operation '" + type + "' needs an object resourceBody.");
        }
        return (ObjectNode) body;
    }

    private static String id(String id, JsonNode body) {
        if (id != null) {
            return id;
        }
        if (body != null && body.path("id").isTextual()) {
            return body.path("id").textValue();
        }
        throw CosmosError.badRequest("The batch operation needs an 'id'.");
    }
}
