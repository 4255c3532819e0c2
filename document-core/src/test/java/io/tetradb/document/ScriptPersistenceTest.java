package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.tetradb.document.ScriptTestSupport.inT1;
import static io.tetradb.document.ScriptTestSupport.read;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Scripts are stored with their container: they survive a close and reopen and go when it is deleted. */
class ScriptPersistenceTest {
    @TempDir
    Path dir;

    @Test
    void scriptsSurviveReopenAndAreDroppedWithTheContainer() throws Exception {
        String etag;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir)
                .scriptLimits(StoredProcedureTest.limits()).buildClient()) {
            CosmosScripts s = ScriptTestSupport.library(client).getScripts();
            etag = s.createStoredProcedure(new CosmosStoredProcedureProperties("addBook",
                    ScriptTestSupport.addBookFromReadme())).getProperties().getETag();
            s.createTrigger(new CosmosTriggerProperties("stamp",
                    "function stamp() { var r = getContext().getRequest(); var b = r.getBody(); b.stamped = true; r.setBody(b); }")
                    .setTriggerType(TriggerType.PRE).setTriggerOperation(TriggerOperation.ALL));
            s.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("twice", "function twice(x) { return 2 * x; }"));
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir)
                .scriptLimits(StoredProcedureTest.limits()).buildClient()) {
            CosmosContainer c = client.getDatabase("db").getContainer("library");
            CosmosScripts s = c.getScripts();
            CosmosStoredProcedureProperties p = s.getStoredProcedure("addBook").read().getProperties();
            assertEquals(etag, p.getETag());
            assertEquals(TriggerType.PRE, s.getTrigger("stamp").read().getProperties().getTriggerType());
            assertEquals(1, s.readAllTriggers().stream().count());
            assertEquals(1, s.readAllUserDefinedFunctions().stream().count());
            s.getStoredProcedure("addBook").execute(List.of(StoredProcedureTest.book("b4", "a1")), inT1());
            assertEquals(4, read(c, "a1").path("countOfBooks").asInt());
            c.createItem(ScriptTestSupport.M.createObjectNode().put("id", "x").put("tenant", "t1"),
                    new PartitionKey("t1"), new CosmosItemRequestOptions().setPreTriggerInclude(List.of("stamp")));
            assertEquals(true, read(c, "x").path("stamped").asBoolean());
            List<JsonNode> v = c.queryItems("SELECT VALUE udf.twice(c.countOfBooks) FROM c WHERE c.id = 'a1'",
                    new CosmosQueryRequestOptions(), JsonNode.class).stream().toList();
            assertEquals(8, v.get(0).asInt());
            c.delete();
            client.getDatabase("db").createContainer("library", "/tenant");
            CosmosScripts fresh = client.getDatabase("db").getContainer("library").getScripts();
            assertEquals(0, fresh.readAllStoredProcedures().stream().count());
            assertEquals(0, fresh.readAllTriggers().stream().count());
            assertEquals(0, fresh.readAllUserDefinedFunctions().stream().count());
        }
    }
}
