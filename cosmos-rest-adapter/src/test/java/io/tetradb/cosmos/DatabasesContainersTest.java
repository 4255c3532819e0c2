package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerRequestOptions;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.CosmosDatabaseProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.UniqueKey;
import com.azure.cosmos.models.UniqueKeyPolicy;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Databases and containers through the Java SDK: CRUD, listing, queries, policies, hierarchical keys, RIDs. */
class DatabasesContainersTest extends ServerFixture {

    @Test
    void databaseLifecycle() {
        String name = unique("db");
        assertEquals(201, sdk.createDatabase(name).getStatusCode());
        CosmosDatabase db = sdk.getDatabase(name);
        CosmosDatabaseProperties p = db.read().getProperties();
        assertEquals(name, p.getId());
        assertNotNull(p.getResourceId());
        assertTrue(sdk.readAllDatabases().stream().anyMatch(d -> d.getId().equals(name)));
        List<CosmosDatabaseProperties> found = sdk.queryDatabases(new SqlQuerySpec(
                "SELECT * FROM r WHERE r.id = @id", List.of(new SqlParameter("@id", name))), null).stream().toList();
        assertEquals(1, found.size());
        CosmosException dup = assertThrows(CosmosException.class, () -> sdk.createDatabase(name));
        assertEquals(409, dup.getStatusCode());
        db.delete();
        CosmosException gone = assertThrows(CosmosException.class, db::read);
        assertEquals(404, gone.getStatusCode());
    }

    @Test
    void containerWithPoliciesReadsBackAsCreated() {
        CosmosDatabase db = database();
        CosmosContainerProperties props = new CosmosContainerProperties("orders", "/customerId");
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/*")));
        policy.setExcludedPaths(List.of(new ExcludedPath("/notes/*")));
        props.setIndexingPolicy(policy);
        UniqueKeyPolicy unique = new UniqueKeyPolicy();
        unique.setUniqueKeys(List.of(new UniqueKey(List.of("/email"))));
        props.setUniqueKeyPolicy(unique);
        props.setDefaultTimeToLiveInSeconds(3600);
        CosmosContainerResponse created = db.createContainer(props);
        assertEquals(201, created.getStatusCode());

        CosmosContainer c = db.getContainer("orders");
        CosmosContainerProperties read = c.read().getProperties();
        assertEquals(List.of("/customerId"), read.getPartitionKeyDefinition().getPaths());
        assertEquals(3600, read.getDefaultTimeToLiveInSeconds());
        assertEquals(List.of("/email"), read.getUniqueKeyPolicy().getUniqueKeys().get(0).getPaths());
        assertTrue(read.getIndexingPolicy().getExcludedPaths().stream().anyMatch(x -> x.getPath().equals("/notes/*")));
        assertNotNull(read.getResourceId());

        // unique keys are enforced by the core: a second item with the same email in the partition is a conflict
        c.createItem(Json.object().put("id", "1").put("customerId", "c1").put("email", "a@x"));
        CosmosException conflict = assertThrows(CosmosException.class,
                () -> c.createItem(Json.object().put("id", "2").put("customerId", "c1").put("email", "a@x")));
        assertEquals(409, conflict.getStatusCode());
        // another partition may hold the same value; a patch or a batch may not make a duplicate
        c.createItem(Json.object().put("id", "2").put("customerId", "c2").put("email", "a@x"));
        c.createItem(Json.object().put("id", "3").put("customerId", "c1").put("email", "b@x"));
        CosmosException patched = assertThrows(CosmosException.class, () -> c.patchItem("3",
                new com.azure.cosmos.models.PartitionKey("c1"),
                com.azure.cosmos.models.CosmosPatchOperations.create().set("/email", "a@x"), ObjectNode.class));
        assertEquals(409, patched.getStatusCode());
        com.azure.cosmos.models.CosmosBatch batch = com.azure.cosmos.models.CosmosBatch.createCosmosBatch(
                new com.azure.cosmos.models.PartitionKey("c3"));
        batch.createItemOperation(Json.object().put("id", "4").put("customerId", "c3").put("email", "z@x"));
        batch.createItemOperation(Json.object().put("id", "5").put("customerId", "c3").put("email", "z@x"));
        assertEquals(409, c.executeCosmosBatch(batch).getStatusCode()); // from 207: 424, then 409
        assertEquals(0, c.readAllItems(new com.azure.cosmos.models.PartitionKey("c3"), ObjectNode.class).stream()
                .count());
        // an absent value counts as null: two items without an email in one partition conflict
        c.createItem(Json.object().put("id", "6").put("customerId", "c4"));
        assertEquals(409, assertThrows(CosmosException.class,
                () -> c.createItem(Json.object().put("id", "7").put("customerId", "c4"))).getStatusCode());

        assertTrue(db.readAllContainers().stream().anyMatch(x -> x.getId().equals("orders")));
        CosmosException dup = assertThrows(CosmosException.class, () -> db.createContainer(props));
        assertEquals(409, dup.getStatusCode());
    }

    @Test
    void replacingTheIndexingPolicyRebuildsOnline() {
        CosmosDatabase db = database();
        db.createContainer(new CosmosContainerProperties("idx", "/pk"));
        CosmosContainer c = db.getContainer("idx");
        for (int i = 0; i < 50; i++) {
            c.createItem(Json.object().put("id", "i" + i).put("pk", "p" + (i % 5)).put("n", i));
        }
        CosmosContainerProperties props = c.read().getProperties();
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/n/?")));
        policy.setExcludedPaths(List.of(new ExcludedPath("/*")));
        props.setIndexingPolicy(policy);
        props.setDefaultTimeToLiveInSeconds(-1);
        CosmosContainerResponse replaced = c.replace(props);
        assertEquals(200, replaced.getStatusCode());
        CosmosContainerResponse read = c.read(new CosmosContainerRequestOptions().setQuotaInfoEnabled(true));
        assertTrue(read.getProperties().getIndexingPolicy().getExcludedPaths().stream()
                .anyMatch(x -> x.getPath().equals("/*")));
        assertEquals(-1, read.getProperties().getDefaultTimeToLiveInSeconds());
        long progress = read.getIndexTransformationProgress();
        assertTrue(progress >= 0 && progress <= 100, "progress " + progress);
        // queries keep answering right while and after the index is rebuilt
        assertEquals(List.of(49), c.queryItems("SELECT VALUE c.n FROM c WHERE c.n > 48", null, Integer.class)
                .stream().toList());
        // the partition key cannot change
        props.setPartitionKeyDefinition(new PartitionKeyDefinition());
        props.getPartitionKeyDefinition().setPaths(List.of("/other"));
        CosmosException bad = assertThrows(CosmosException.class, () -> c.replace(props));
        assertEquals(400, bad.getStatusCode());
    }

    @Test
    void hierarchicalPartitionKeys() {
        CosmosDatabase db = database();
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        def.setPaths(List.of("/tenant", "/user", "/session"));
        def.setKind(PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        db.createContainer(new CosmosContainerProperties("hpk", def));
        CosmosContainer c = db.getContainer("hpk");
        assertEquals(PartitionKind.MULTI_HASH, c.read().getProperties().getPartitionKeyDefinition().getKind());
        for (int i = 0; i < 6; i++) {
            c.createItem(Json.object().put("id", "e" + i).put("tenant", i < 4 ? "t1" : "t2").put("user", "u" + (i % 2))
                    .put("session", "s" + i));
        }
        ObjectNode one = c.readItem("e2", new PartitionKeyBuilder().add("t1").add("u0").add("s2").build(),
                ObjectNode.class).getItem();
        assertEquals("s2", one.get("session").asText());
        // a prefix of the key scopes a query to every item under it
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKeyBuilder().add("t1").build());
        List<String> ids = c.queryItems("SELECT VALUE c.id FROM c ORDER BY c.id", o, String.class).stream().toList();
        assertEquals(List.of("e0", "e1", "e2", "e3"), ids);
        o.setPartitionKey(new PartitionKeyBuilder().add("t1").add("u1").build());
        assertEquals(List.of("e1", "e3"), c.queryItems("SELECT VALUE c.id FROM c ORDER BY c.id", o, String.class)
                .stream().toList());
    }

    @Test
    void databaseAndContainerThroughput() {
        String name = unique("tp");
        sdk.createDatabase(name, ThroughputProperties.createManualThroughput(1000));
        CosmosDatabase db = sdk.getDatabase(name);
        assertEquals(1000, db.readThroughput().getProperties().getManualThroughput());
        db.createContainer(new CosmosContainerProperties("own", "/pk"),
                ThroughputProperties.createManualThroughput(20000));
        CosmosContainer own = db.getContainer("own");
        assertEquals(20000, own.readThroughput().getProperties().getManualThroughput());
        own.replaceThroughput(ThroughputProperties.createManualThroughput(30000));
        assertEquals(30000, own.readThroughput().getProperties().getManualThroughput());
        db.createContainer(new CosmosContainerProperties("auto", "/pk"),
                ThroughputProperties.createAutoscaledThroughput(4000));
        CosmosContainer auto = db.getContainer("auto");
        assertEquals(4000, auto.readThroughput().getProperties().getAutoscaleMaxThroughput());
        auto.replaceThroughput(ThroughputProperties.createAutoscaledThroughput(6000));
        assertEquals(6000, auto.readThroughput().getProperties().getAutoscaleMaxThroughput());
        auto.replaceThroughput(ThroughputProperties.createManualThroughput(800));
        assertEquals(800, auto.readThroughput().getProperties().getManualThroughput());
        assertEquals(0, auto.readThroughput().getProperties().getAutoscaleMaxThroughput());
        // a container without its own throughput shares the database's and has no offer
        db.createContainer(new CosmosContainerProperties("shared", "/pk"));
        CosmosException none = assertThrows(CosmosException.class,
                () -> db.getContainer("shared").readThroughput());
        assertEquals(400, none.getStatusCode());
    }

    @Test
    void containerDeleteAndReadIs404() {
        CosmosDatabase db = database();
        db.createContainer(new CosmosContainerProperties("tmp", "/pk"));
        db.getContainer("tmp").delete();
        CosmosException e = assertThrows(CosmosException.class, () -> db.getContainer("tmp").read());
        assertEquals(404, e.getStatusCode());
        assertFalse(db.readAllContainers().stream().anyMatch(x -> x.getId().equals("tmp")));
    }

    @Test
    void aContainerRecreatedUnderTheSameNameIsFoundAgain() throws Exception {
        CosmosDatabase db = database();
        db.createContainer(new CosmosContainerProperties("again", "/pk"));
        CosmosContainer c = db.getContainer("again");
        c.createItem(Json.object().put("id", "1").put("pk", "p"));
        String before = c.read().getProperties().getResourceId();
        // another client drops and recreates it: this SDK still holds the old RID in its caches
        RawClient raw = new RawClient(endpoint(), KEY);
        assertEquals(204, raw.send("DELETE", "/dbs/" + db.getId() + "/colls/again", null).status());
        assertEquals(201, raw.send("POST", "/dbs/" + db.getId() + "/colls",
                "{\"id\":\"again\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}")
                .status());
        // the server answers 400/1024 for the stale RID; the SDK refreshes and writes into the new container
        c.createItem(Json.object().put("id", "2").put("pk", "p"));
        assertEquals(List.of("2"), c.queryItems("SELECT VALUE c.id FROM c", null, String.class).stream().toList());
        assertFalse(before.equals(c.read().getProperties().getResourceId()));
    }

    @Test
    void resourceIdsSurviveARestart() {
        CosmosDatabase db = database();
        db.createContainer(new CosmosContainerProperties("kept", "/pk"));
        db.getContainer("kept").createItem(Json.object().put("id", "x").put("pk", "p"));
        String dbRid = db.read().getProperties().getResourceId();
        String collRid = db.getContainer("kept").read().getProperties().getResourceId();
        stopServer();
        startOn(dir);
        CosmosDatabase again = sdk.getDatabase(db.getId());
        assertEquals(dbRid, again.read().getProperties().getResourceId());
        assertEquals(collRid, again.getContainer("kept").read().getProperties().getResourceId());
        assertEquals("p", again.getContainer("kept").readItem("x", new com.azure.cosmos.models.PartitionKey("p"),
                ObjectNode.class).getItem().get("pk").asText());
    }

    private CosmosDatabase database() {
        String name = unique("db");
        sdk.createDatabase(name);
        return sdk.getDatabase(name);
    }
}
