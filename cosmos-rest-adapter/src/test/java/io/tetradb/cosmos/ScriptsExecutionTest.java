package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureResponse;
import com.azure.cosmos.models.CosmosTriggerProperties;
import com.azure.cosmos.models.CosmosUserDefinedFunctionProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.TriggerOperation;
import com.azure.cosmos.models.TriggerType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stored procedures, triggers and UDFs run by the core, through the real Java SDK (gateway mode). */
class ScriptsExecutionTest extends ServerFixture {
    CosmosContainer library;
    CosmosContainer c;

    @BeforeAll
    void containers() throws Exception {
        sdk.createDatabaseIfNotExists("run");
        sdk.getDatabase("run").createContainerIfNotExists(new CosmosContainerProperties("library", "/tenant"));
        library = sdk.getDatabase("run").getContainer("library");
        for (String line : Files.readAllLines(Path.of("..", "examples", "authors-books-hybrid.jsonl"))) {
            if (!line.isBlank()) {
                library.upsertItem((ObjectNode) Json.MAPPER.readTree(line));
            }
        }
        sdk.getDatabase("run").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        c = sdk.getDatabase("run").getContainer("c");
    }

    /** The addBook stored procedure exactly as examples/README.md shows it. */
    static String addBookFromReadme() throws Exception {
        String readme = Files.readString(Path.of("..", "examples", "README.md"));
        int at = readme.indexOf("```javascript\nfunction addBook");
        assertTrue(at >= 0, "examples/README.md has no addBook procedure");
        int start = readme.indexOf('\n', at) + 1;
        return readme.substring(start, readme.indexOf("```", start));
    }

    static ObjectNode book(String id, String... authors) {
        ObjectNode b = Json.object().put("id", id).put("tenant", "t1").put("type", "book").put("name", "Book " + id);
        var arr = b.putArray("authors");
        for (String a : authors) {
            arr.addObject().put("id", a).put("name", a);
        }
        return b;
    }

    ObjectNode read(String id) {
        return library.readItem(id, new PartitionKey("t1"), ObjectNode.class).getItem();
    }

    boolean exists(String id) {
        try {
            library.readItem(id, new PartitionKey("t1"), ObjectNode.class);
            return true;
        } catch (CosmosException e) {
            assertEquals(404, e.getStatusCode());
            return false;
        }
    }

    static CosmosStoredProcedureRequestOptions inT1() {
        return new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("t1"));
    }

    @Test
    void addBookFromTheExamplesRunsAndCountsItsAuthors() throws Exception {
        var scripts = library.getScripts();
        var created = scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addBook", addBookFromReadme()));
        assertEquals(201, created.getStatusCode());
        int a1 = read("a1").path("countOfBooks").asInt();
        int a2 = read("a2").path("countOfBooks").asInt();

        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("addBook")
                .execute(List.of(book("b50", "a1", "a2")), inT1());
        assertEquals(200, r.getStatusCode());
        JsonNode result = Json.MAPPER.readTree(r.getResponseAsString());
        assertEquals("b50", result.path("id").asText());
        assertEquals("t1", result.path("tenant").asText());
        assertTrue(r.getRequestCharge() > 0, "charge " + r.getRequestCharge());

        assertTrue(exists("b50"));
        assertEquals(a1 + 1, read("a1").path("countOfBooks").asInt());
        assertEquals(a2 + 1, read("a2").path("countOfBooks").asInt());
        assertTrue(read("a1").path("books").toString().contains("\"b50\""));
        assertTrue(read("a2").path("books").toString().contains("\"b50\""));
    }

    @Test
    void aThrowingVariantLeavesNoTrace() throws Exception {
        String body = addBookFromReadme()
                .replace("function addBook(book) {", "function addBookThenFail(book) {\n  var replaced = 0;")
                .replace("if (err3) throw err3;",
                        "if (err3) throw err3; if (++replaced == 2) throw new Error(\"rule: no second author\");");
        assertTrue(body.contains("++replaced"));
        var scripts = library.getScripts();
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("addBookThenFail", body));
        ObjectNode a1 = read("a1");
        ObjectNode a2 = read("a2");
        CosmosException e = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("addBookThenFail")
                .execute(List.of(book("b60", "a1", "a2")), inT1()));
        assertEquals(400, e.getStatusCode());
        assertTrue(e.getMessage().contains("rule: no second author"), e.getMessage());
        assertTrue(e.getMessage().contains("Encountered exception while executing function"), e.getMessage());
        assertFalse(exists("b60"));
        assertEquals(a1, read("a1"));
        assertEquals(a2, read("a2"));
    }

    @Test
    void scriptLogIsReturnedWhenAskedFor() {
        var scripts = c.getScripts();
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("logs",
                "function logs(name) { console.log('hello ' + name + ' & 100%'); "
                        + "getContext().getResponse().setBody({greeted: name}); }"));
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("logs").execute(List.of("world"),
                new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("p"))
                        .setScriptLoggingEnabled(true));
        assertEquals("hello world & 100%\n", r.getScriptLog());
        assertEquals("world", Json.parse(r.getResponseAsString().getBytes()).path("greeted").asText());
        CosmosStoredProcedureResponse quiet = scripts.getStoredProcedure("logs").execute(List.of("x"),
                new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("p")));
        assertNull(quiet.getScriptLog(), "no log unless asked for");
    }

    @Test
    void theLogWrittenBeforeAFailureComesWithTheError() throws Exception {
        var scripts = c.getScripts();
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("logsThenFails",
                "function logsThenFails() { var coll = getContext().getCollection(); "
                        + "coll.createDocument(coll.getSelfLink(), {id: 'never', pk: 'p'}); "
                        + "console.log('step 1 & 100%'); console.log('step', 2); throw new Error('rule broken'); }"));
        CosmosException e = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("logsThenFails")
                .execute(List.of(), new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("p"))
                        .setScriptLoggingEnabled(true)));
        assertEquals(400, e.getStatusCode());
        assertTrue(e.getMessage().contains("rule broken"), e.getMessage());
        String header = e.getResponseHeaders().get("x-ms-documentdb-script-log-results");
        assertEquals("step 1 & 100%\nstep 2\n", java.net.URLDecoder.decode(header, java.nio.charset.StandardCharsets.UTF_8));
        CosmosException quiet = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("logsThenFails")
                .execute(List.of(), new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("p"))));
        assertNull(quiet.getResponseHeaders().get("x-ms-documentdb-script-log-results"), "no log unless asked for");
        assertThrows(CosmosException.class, () -> c.readItem("never", new PartitionKey("p"), ObjectNode.class));
    }

    @Test
    void executionErrorsAnswerTheCoresStatusesAsJson() throws Exception {
        var scripts = c.getScripts();
        CosmosException missing = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("nope")
                .execute(List.of(), new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("p"))));
        assertEquals(404, missing.getStatusCode());

        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("spin",
                "function spin() { getContext().getCollection().createDocument("
                        + "getContext().getCollection().getSelfLink(), {id: 'spun', pk: 'p'}); while (true) {} }"));
        RawClient raw = new RawClient(endpoint(), KEY);
        RawClient.Answer timeout = raw.send("POST", "/dbs/run/colls/c/sprocs/spin", "[]",
                Map.of("x-ms-documentdb-partitionkey", "[\"p\"]", "Content-Type", "application/json"));
        assertEquals(408, timeout.status(), timeout.text());
        assertEquals("RequestTimeout", timeout.json().path("code").asText());
        assertFalse(timeout.json().path("message").asText().isEmpty());
        assertThrows(CosmosException.class, () -> c.readItem("spun", new PartitionKey("p"), ObjectNode.class));

        RawClient.Answer noPk = raw.send("POST", "/dbs/run/colls/c/sprocs/spin", "[]",
                Map.of("Content-Type", "application/json"));
        assertEquals(400, noPk.status(), noPk.text());
        assertEquals("BadRequest", noPk.json().path("code").asText());

        RawClient.Answer batch = raw.send("POST", "/dbs/run/colls/c/docs", "[]", Map.of("Content-Type",
                "application/json", "x-ms-cosmos-is-batch-request", "true", "x-ms-documentdb-partitionkey", "[\"p\"]",
                "x-ms-documentdb-pre-trigger-include", "stamp"));
        assertEquals(400, batch.status(), batch.text());
        assertTrue(batch.json().path("message").asText().contains("Triggers are not run in a transactional batch"));
    }

    @Test
    void preTriggerNamedOnAWriteStampsTheItem() {
        var scripts = c.getScripts();
        CosmosTriggerProperties t = new CosmosTriggerProperties("stamp",
                "function stamp() { var req = getContext().getRequest(); var item = req.getBody(); "
                        + "item.stamped = true; req.setBody(item); }");
        t.setTriggerType(TriggerType.PRE);
        t.setTriggerOperation(TriggerOperation.CREATE);
        scripts.createTrigger(t);
        CosmosTriggerProperties read = scripts.getTrigger("stamp").read().getProperties();
        assertEquals(TriggerType.PRE, read.getTriggerType());
        assertEquals(TriggerOperation.CREATE, read.getTriggerOperation());

        c.createItem(Json.object().put("id", "t1").put("pk", "p"), new PartitionKey("p"),
                new CosmosItemRequestOptions().setPreTriggerInclude(List.of("stamp")));
        assertTrue(c.readItem("t1", new PartitionKey("p"), ObjectNode.class).getItem().path("stamped").asBoolean());
        c.createItem(Json.object().put("id", "t2").put("pk", "p"));
        assertFalse(c.readItem("t2", new PartitionKey("p"), ObjectNode.class).getItem().has("stamped"),
                "triggers run only when named");
        // a pre-trigger for Create named on a replace: refused, nothing written
        CosmosException wrongOp = assertThrows(CosmosException.class, () -> c.replaceItem(
                Json.object().put("id", "t2").put("pk", "p").put("v", 1), "t2", new PartitionKey("p"),
                new CosmosItemRequestOptions().setPreTriggerInclude(List.of("stamp"))));
        assertEquals(400, wrongOp.getStatusCode());
        assertFalse(c.readItem("t2", new PartitionKey("p"), ObjectNode.class).getItem().has("v"));
    }

    @Test
    void aPostTriggerThatThrowsRollsTheWriteBack() {
        CosmosTriggerProperties t = new CosmosTriggerProperties("noBig",
                "function noBig() { var item = getContext().getResponse().getBody(); "
                        + "if (item.size > 10) throw new Error('rule: too big'); }");
        t.setTriggerType(TriggerType.POST);
        t.setTriggerOperation(TriggerOperation.ALL);
        c.getScripts().createTrigger(t);
        var opts = new CosmosItemRequestOptions().setPostTriggerInclude(List.of("noBig"));
        c.createItem(Json.object().put("id", "small").put("pk", "q").put("size", 1), new PartitionKey("q"), opts);
        CosmosException e = assertThrows(CosmosException.class, () -> c.createItem(
                Json.object().put("id", "big").put("pk", "q").put("size", 11), new PartitionKey("q"), opts));
        assertEquals(400, e.getStatusCode());
        assertTrue(e.getMessage().contains("rule: too big"), e.getMessage());
        assertThrows(CosmosException.class, () -> c.readItem("big", new PartitionKey("q"), ObjectNode.class));
        assertEquals(1, c.readItem("small", new PartitionKey("q"), ObjectNode.class).getItem().path("size").asInt());
    }

    @Test
    void udfsWorkInQueriesThroughTheSdk() {
        c.getScripts().createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("gross",
                "function gross(price) { return price * 1.2 + 1; }"));
        for (int i = 1; i <= 3; i++) {
            c.createItem(Json.object().put("id", "u" + i).put("pk", "u").put("price", i * 10));
        }
        var opts = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("u"));
        List<Double> values = c.queryItems("SELECT VALUE udf.gross(c.price) FROM c WHERE c.pk = 'u' ORDER BY c.price",
                opts, Double.class).stream().collect(Collectors.toList());
        assertEquals(List.of(13.0, 25.0, 37.0), values);
        List<String> ids = c.queryItems("SELECT VALUE c.id FROM c WHERE udf.gross(c.price) > 20", opts, String.class)
                .stream().sorted().collect(Collectors.toList());
        assertEquals(List.of("u2", "u3"), ids);
    }

    @Test
    void scriptsLiveInTheCoreNotInTheFace() {
        library.getScripts().createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("shared",
                "function shared(x) { return x; }"));
        // the core's Java API sees what the REST face created: one source of truth
        var coreScripts = core.getDatabase("run").getContainer("library").getScripts();
        assertEquals("function shared(x) { return x; }",
                coreScripts.getUserDefinedFunction("shared").read().getProperties().getBody());
    }
}
