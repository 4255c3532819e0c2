package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.tetradb.document.ScriptTestSupport.M;
import static io.tetradb.document.ScriptTestSupport.exists;
import static io.tetradb.document.ScriptTestSupport.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pre/post triggers on item writes and UDFs in SQL, through the public API. */
class TriggerAndUdfTest {
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;
    CosmosScripts scripts;

    @BeforeEach
    void open() throws Exception {
        // Cosmos' 5 s on StoredProcedureTest's ticking clock: the work done, not the machine's load, decides a time-out
        client = new CosmosClientBuilder().dataDirectory(dir).contentResponseOnWriteEnabled(true)
                .scriptLimits(StoredProcedureTest.limits()).buildClient();
        c = ScriptTestSupport.library(client);
        scripts = c.getScripts();
    }

    @AfterEach
    void close() {
        client.close();
    }

    static ObjectNode order(String id, int amount) {
        return M.createObjectNode().put("id", id).put("tenant", "t1").put("type", "order").put("amount", amount);
    }

    static CosmosItemRequestOptions pre(String t) {
        return new CosmosItemRequestOptions().setPreTriggerInclude(List.of(t));
    }

    static CosmosItemRequestOptions post(String t) {
        return new CosmosItemRequestOptions().setPostTriggerInclude(List.of(t));
    }

    @Test
    void aPreTriggerStampsTheItemOnlyWhenNamed() {
        scripts.createTrigger(new CosmosTriggerProperties("stamp", """
                function stamp() {
                  var request = getContext().getRequest();
                  var item = request.getBody();
                  item.stampedBy = "pre-trigger";
                  item.operation = request.getOperationType();
                  request.setBody(item);
                }""").setTriggerType(TriggerType.PRE).setTriggerOperation(TriggerOperation.CREATE));
        CosmosItemResponse<ObjectNode> r = c.createItem(order("o1", 5), new PartitionKey("t1"), pre("stamp"));
        assertEquals("pre-trigger", r.getItem().path("stampedBy").asText());
        assertEquals("pre-trigger", read(c, "o1").path("stampedBy").asText());
        assertEquals("Create", read(c, "o1").path("operation").asText());
        c.createItem(order("o2", 5));
        assertFalse(read(c, "o2").has("stampedBy"), "a trigger runs only when the request names it");
        // the trigger's operation is checked: a Create trigger cannot run on a replace
        CosmosException wrongOp = assertThrows(CosmosException.class,
                () -> c.replaceItem(order("o2", 6), "o2", new PartitionKey("t1"), pre("stamp")));
        assertEquals(400, wrongOp.getStatusCode());
        assertEquals(5, read(c, "o2").path("amount").asInt());
        // a pre-trigger named as post is refused; so are two pre-triggers and an unknown one
        assertEquals(400, assertThrows(CosmosException.class,
                () -> c.createItem(order("o3", 1), new PartitionKey("t1"), post("stamp"))).getStatusCode());
        assertEquals(400, assertThrows(CosmosException.class, () -> c.createItem(order("o3", 1), new PartitionKey("t1"),
                new CosmosItemRequestOptions().setPreTriggerInclude(List.of("stamp", "stamp")))).getStatusCode());
        assertEquals(400, assertThrows(CosmosException.class,
                () -> c.createItem(order("o3", 1), new PartitionKey("t1"), pre("nope"))).getStatusCode());
        assertFalse(exists(c, "o3"));
        // a trigger named on a patch is refused, not silently skipped (Cosmos DB documents none for patch)
        scripts.createTrigger(new CosmosTriggerProperties("stampAll", "function stampAll() {}")
                .setTriggerType(TriggerType.PRE).setTriggerOperation(TriggerOperation.ALL));
        CosmosPatchItemRequestOptions patchWithTrigger = new CosmosPatchItemRequestOptions();
        patchWithTrigger.setPreTriggerInclude(List.of("stampAll"));
        CosmosException onPatch = assertThrows(CosmosException.class, () -> c.patchItem("o2", new PartitionKey("t1"),
                CosmosPatchOperations.create().increment("/amount", 1), patchWithTrigger, ObjectNode.class));
        assertEquals(400, onPatch.getStatusCode());
        assertTrue(onPatch.getMessage().contains("not on patch"), onPatch.getMessage());
        assertEquals(5, read(c, "o2").path("amount").asInt());
    }

    @Test
    void aPostTriggerKeepsAnAggregateRightAndAbortsTheWriteOnARule() {
        c.createItem(M.createObjectNode().put("id", "totals").put("tenant", "t1").put("orders", 0).put("sum", 0));
        scripts.createTrigger(new CosmosTriggerProperties("keepTotals", """
                function keepTotals() {
                  var coll = getContext().getCollection();
                  var written = getContext().getResponse().getBody();
                  if (written.amount > 1000) throw new Error("orders above 1000 need approval");
                  var ok = coll.readDocument(coll.getAltLink() + "/docs/totals", {}, function (err, totals) {
                    if (err) throw err;
                    totals.orders += 1;
                    totals.sum += written.amount;
                    coll.replaceDocument(totals._self, totals, function (err2) { if (err2) throw err2; });
                  });
                  if (!ok) throw new Error("not accepted");
                }""").setTriggerType(TriggerType.POST).setTriggerOperation(TriggerOperation.ALL));
        c.createItem(order("o1", 10), new PartitionKey("t1"), post("keepTotals"));
        c.upsertItem(order("o2", 32), new PartitionKey("t1"), post("keepTotals"));
        assertEquals(2, read(c, "totals").path("orders").asInt());
        assertEquals(42, read(c, "totals").path("sum").asInt());
        CosmosException e = assertThrows(CosmosException.class,
                () -> c.createItem(order("big", 5000), new PartitionKey("t1"), post("keepTotals")));
        assertEquals(400, e.getStatusCode());
        assertTrue(e.getMessage().contains("need approval"), e.getMessage());
        assertFalse(exists(c, "big"), "the post-trigger threw: the write rolled back");
        assertEquals(2, read(c, "totals").path("orders").asInt());
        assertEquals(42, read(c, "totals").path("sum").asInt());
    }

    @Test
    void udfsWorkInWhereAndSelect() {
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("tax",
                "function tax(amount) { return amount < 100 ? amount * 0.1 : amount * 0.2; }"));
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("fullName",
                "function fullName(a) { return a.firstName + ' ' + a.lastName; }"));
        for (int i = 1; i <= 5; i++) {
            c.createItem(order("o" + i, i * 40));
        }
        List<JsonNode> rows = c.queryItems("SELECT c.id, udf.tax(c.amount) AS tax FROM c "
                        + "WHERE c.type = 'order' AND udf.tax(c.amount) > 10 ORDER BY c.id",
                new CosmosQueryRequestOptions(), JsonNode.class).stream().toList();
        assertEquals(List.of("o3", "o4", "o5"), rows.stream().map(r -> r.path("id").asText()).toList());
        assertEquals(List.of(24.0, 32.0, 40.0), rows.stream().map(r -> r.path("tax").asDouble()).toList());
        List<String> names = c.queryItems("SELECT VALUE udf.fullName(c) FROM c WHERE c.type = 'author'",
                new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("t1")), String.class).stream().sorted().toList();
        assertEquals(List.of("Thomas Andersen", "William Wakefield"), names);
        // an unknown UDF and a throwing one are query errors
        assertEquals(400, assertThrows(CosmosException.class, () -> c.queryItems("SELECT VALUE udf.nope(c) FROM c",
                new CosmosQueryRequestOptions(), JsonNode.class).stream().toList()).getStatusCode());
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("boom",
                "function boom() { throw new Error('bad input'); }"));
        CosmosException boom = assertThrows(CosmosException.class, () -> c.queryItems("SELECT VALUE udf.boom() FROM c",
                new CosmosQueryRequestOptions(), JsonNode.class).stream().toList());
        assertTrue(boom.getMessage().contains("bad input"), boom.getMessage());
        // UDFs have no context
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("sneaky",
                "function sneaky() { return getContext(); }"));
        assertEquals(400, assertThrows(CosmosException.class, () -> c.queryItems("SELECT VALUE udf.sneaky() FROM c",
                new CosmosQueryRequestOptions(), JsonNode.class).stream().toList()).getStatusCode());
        // a replaced UDF takes effect at once
        scripts.getUserDefinedFunction("tax").replace(new CosmosUserDefinedFunctionProperties("tax",
                "function tax(amount) { return 0; }"));
        assertEquals(0, c.queryItems("SELECT VALUE c.id FROM c WHERE udf.tax(c.amount) > 0",
                new CosmosQueryRequestOptions(), String.class).stream().count());
    }

    @Test
    void aUdfAddsItsDeterministicCpuCostToTheQueryCharge() {
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("slow",
                "function slow(x) { var s = 0; for (var i = 0; i < 200000; i++) { s += i % 3; } return x; }"));
        String udf = "SELECT VALUE udf.slow(c.id) FROM c";
        String plain = "SELECT VALUE c.id FROM c";
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("t1"));
        double withUdf = c.queryItems(udf, o, String.class).iterableByPage().iterator().next().getRequestCharge();
        double again = c.queryItems(udf, o, String.class).iterableByPage().iterator().next().getRequestCharge();
        double without = c.queryItems(plain, o, String.class).iterableByPage().iterator().next().getRequestCharge();
        assertEquals(withUdf, again, 1e-9, "counted instructions, not time");
        assertTrue(withUdf > without + 5, withUdf + " vs " + without);
    }

    @Test
    void udfsCanBeCalledFromQueriesInsideAStoredProcedure() throws Exception {
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("double",
                "function double(x) { return 2 * x; }"));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("q", """
                function q() {
                  var coll = getContext().getCollection();
                  coll.queryDocuments(coll.getSelfLink(), "SELECT VALUE udf.double(r.countOfBooks) FROM r WHERE r.id = 'a1'",
                    function (err, feed) { if (err) throw err; getContext().getResponse().setBody(feed[0]); });
                }"""));
        assertEquals("6", scripts.getStoredProcedure("q").execute(null, ScriptTestSupport.inT1()).getResponseAsString());
    }
}
