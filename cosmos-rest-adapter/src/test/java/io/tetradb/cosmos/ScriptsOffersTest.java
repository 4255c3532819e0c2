package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.CosmosTriggerProperties;
import com.azure.cosmos.models.CosmosUserDefinedFunctionProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.TriggerOperation;
import com.azure.cosmos.models.TriggerType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stored procedures, triggers and UDFs as resources (running them: ScriptsExecutionTest); offers; session tokens. */
class ScriptsOffersTest extends ServerFixture {
    CosmosContainer c;

    @BeforeAll
    void container() {
        sdk.createDatabaseIfNotExists("scripts");
        sdk.getDatabase("scripts").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(20000));
        c = sdk.getDatabase("scripts").getContainer("c");
    }

    @Test
    void storedProceduresAreStoredListedReplacedAndDeleted() {
        var scripts = c.getScripts();
        String body = "function hello() { getContext().getResponse().setBody('hi'); }";
        var created = scripts.createStoredProcedure(new CosmosStoredProcedureProperties("hello", body));
        assertEquals(201, created.getStatusCode());
        assertNotNull(created.getProperties().getETag());
        assertEquals(body, scripts.getStoredProcedure("hello").read().getProperties().getBody());
        assertTrue(scripts.readAllStoredProcedures().stream().anyMatch(p -> p.getId().equals("hello")));
        assertEquals(1, scripts.queryStoredProcedures("SELECT * FROM r WHERE r.id = 'hello'", null).stream().count());
        CosmosException dup = assertThrows(CosmosException.class,
                () -> scripts.createStoredProcedure(new CosmosStoredProcedureProperties("hello", body)));
        assertEquals(409, dup.getStatusCode());

        String body2 = "function hello() { getContext().getResponse().setBody('hello'); }";
        CosmosStoredProcedureProperties props = scripts.getStoredProcedure("hello").read().getProperties();
        props.setBody(body2);
        scripts.getStoredProcedure("hello").replace(props); // the SDK sends it to the properties' RID-based _self
        assertEquals(body2, scripts.getStoredProcedure("hello").read().getProperties().getBody());

        assertEquals("\"hello\"", scripts.getStoredProcedure("hello").execute(List.of(),
                new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("p"))).getResponseAsString());

        scripts.getStoredProcedure("hello").delete();
        CosmosException gone = assertThrows(CosmosException.class, () -> scripts.getStoredProcedure("hello").read());
        assertEquals(404, gone.getStatusCode());
    }

    @Test
    void triggersAndUdfsAreStoredListedAndRead() {
        var scripts = c.getScripts();
        CosmosTriggerProperties t = new CosmosTriggerProperties("stamp", "function stamp() {}");
        t.setTriggerType(TriggerType.PRE);
        t.setTriggerOperation(TriggerOperation.CREATE);
        scripts.createTrigger(t);
        CosmosTriggerProperties read = scripts.getTrigger("stamp").read().getProperties();
        assertEquals(TriggerType.PRE, read.getTriggerType());
        assertEquals(TriggerOperation.CREATE, read.getTriggerOperation());
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("tax", "function tax(x) { return x; }"));
        assertEquals(1, scripts.readAllUserDefinedFunctions().stream().count());
        assertEquals(1, scripts.readAllTriggers().stream().count());
        // a trigger of an unknown name is refused rather than the write done without it
        CosmosException e = assertThrows(CosmosException.class, () -> c.createItem(
                Json.object().put("id", "t1").put("pk", "p"), new PartitionKey("p"),
                new CosmosItemRequestOptions().setPreTriggerInclude(List.of("nosuch"))));
        assertEquals(400, e.getStatusCode());
        assertThrows(CosmosException.class, () -> c.readItem("t1", new PartitionKey("p"), ObjectNode.class));
        // no container listing shows anything but the user's containers
        assertTrue(sdk.getDatabase("scripts").readAllContainers().stream().allMatch(x -> x.getId().equals("c")));
    }

    @Test
    void offersReadQueryAndReplace() throws Exception {
        assertEquals(20000, c.readThroughput().getProperties().getManualThroughput());
        c.replaceThroughput(ThroughputProperties.createManualThroughput(25000));
        assertEquals(25000, c.readThroughput().getProperties().getManualThroughput());
        RawClient raw = new RawClient(endpoint(), KEY);
        RawClient.Answer all = raw.send("GET", "/offers", null);
        assertEquals(200, all.status());
        assertTrue(all.json().get("Offers").size() >= 1);
        RawClient.Answer coll = raw.send("GET", "/dbs/scripts/colls/c", null);
        String self = coll.json().get("_self").asText();
        RawClient.Answer byResource = raw.send("POST", "/offers",
                "{\"query\":\"SELECT * FROM root WHERE root.resource = @r\",\"parameters\":[{\"name\":\"@r\",\"value\":\""
                        + self + "\"}]}",
                java.util.Map.of("Content-Type", "application/query+json", "x-ms-documentdb-isquery", "true"));
        assertEquals(1, byResource.json().get("Offers").size(), byResource.text());
        assertEquals(25000, byResource.json().at("/Offers/0/content/offerThroughput").asInt());
        CosmosException tooLow = assertThrows(CosmosException.class,
                () -> c.replaceThroughput(ThroughputProperties.createManualThroughput(100)));
        assertEquals(400, tooLow.getStatusCode());
    }

    @Test
    void sessionTokensNameTheirContainer() throws Exception {
        var r = c.createItem(Json.object().put("id", "s1").put("pk", "p"));
        // <range id>:-1#<lsn>: the container's one physical partition names the range
        assertTrue(r.getSessionToken().matches("\\d+:-1#\\d+"), r.getSessionToken());
        RawClient.Answer a = new RawClient(endpoint(), KEY).send("GET", "/dbs/scripts/colls/c/docs/s1", null,
                java.util.Map.of("x-ms-documentdb-partitionkey", "[\"p\"]"));
        assertEquals(c.read().getProperties().getResourceId(), a.header("x-ms-content-path"));
        assertEquals("dbs/scripts/colls/c", a.header("x-ms-alt-content-path"));
        assertNotNull(a.header("x-ms-session-token"));
    }
}
