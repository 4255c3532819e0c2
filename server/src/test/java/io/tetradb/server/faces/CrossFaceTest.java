package io.tetradb.server.faces;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Issue 13's cross-face check, through each face's real client over one running server: what azure-cosmos (REST face)
 * writes, the MongoDB Java driver, the Azure Tables SDK and gremlin-driver read, and what they write, azure-cosmos
 * reads. Each container has the shape the reading face needs (a Tables container: key {@code /PartitionKey} and the
 * {@code (PartitionKey, id)} composite index; the graph: vertex items in graph-core's layout). Only ids, partition
 * keys, strings, numbers, booleans and nested objects are compared: the faces' typed-value mappings of richer types
 * are being reworked (issue 17).
 */
class CrossFaceTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void whatEachFaceWritesTheOthersRead(@TempDir Path dir) throws Exception {
        ServerConfig config = ServerConfig.ephemeral(dir).withCosmosPort(0).withGremlinPort(0).withMongoPort(0)
                .withTablePort(0);
        try (TetraDbServer server = new TetraDbServer(config).start();
             CosmosClient cosmos = new CosmosClientBuilder().endpoint("http://" + Endpoint.hostPort(
                     server.endpoint("cosmos").address())).key(AllFacesTest.EMULATOR_KEY).gatewayMode().buildClient();
             MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
            restAndMongo(cosmos, mongo);
            restAndTables(cosmos, tables(server));
            InetSocketAddress a = server.endpoint("gremlin").address();
            Cluster cluster = TestGremlin.cluster(a).create();
            try {
                restAndGremlin(cosmos, cluster.connect());
            } finally {
                cluster.close();
            }
        }
    }

    private static void restAndMongo(CosmosClient cosmos, MongoClient mongo) throws Exception {
        // azure-cosmos → Mongo: an item of a container the SDK made is a document of the collection
        cosmos.createDatabaseIfNotExists("crm");
        cosmos.getDatabase("crm").createContainerIfNotExists(new CosmosContainerProperties("contacts", "/pk"));
        cosmos.getDatabase("crm").getContainer("contacts").createItem(M.readTree("{\"id\":\"c1\",\"pk\":\"EU\","
                + "\"name\":\"Ada\",\"n\":42,\"x\":2.5,\"ok\":true,\"nested\":{\"a\":{\"b\":\"deep\"}}}"));
        Document ada = mongo.getDatabase("crm").getCollection("contacts").find(new Document("name", "Ada")).first();
        assertNotNull(ada, "the Mongo driver finds the item the Cosmos SDK wrote");
        assertEquals("EU", ada.getString("pk"));
        assertEquals(42, ((Number) ada.get("n")).intValue());
        assertEquals(2.5, ((Number) ada.get("x")).doubleValue());
        assertEquals(true, ada.getBoolean("ok"));
        assertEquals("deep", ada.get("nested", Document.class).get("a", Document.class).getString("b"));

        // Mongo → azure-cosmos: the collection is a container keyed /~pk (one logical partition), `_id` kept
        MongoCollection<Document> fromMongo = mongo.getDatabase("crm").getCollection("notes");
        fromMongo.insertOne(Document.parse("{\"_id\":\"m1\",\"name\":\"Bo\",\"n\":7,\"x\":1.5,\"ok\":false,"
                + "\"nested\":{\"a\":{\"b\":\"deep\"}}}"));
        CosmosContainer notes = cosmos.getDatabase("crm").getContainer("notes");
        List<JsonNode> rows = notes.queryItems("SELECT * FROM c WHERE c.name = 'Bo'", new CosmosQueryRequestOptions(),
                JsonNode.class).stream().toList();
        assertEquals(1, rows.size());
        JsonNode bo = notes.readItem(rows.get(0).get("id").asText(), PartitionKey.NONE, JsonNode.class).getItem();
        assertEquals("m1", bo.get("_id").asText());
        assertEquals(7, bo.get("n").asInt());
        assertEquals(1.5, bo.get("x").asDouble());
        assertEquals(false, bo.get("ok").asBoolean());
        assertEquals("deep", bo.at("/nested/a/b").asText());
    }

    private static void restAndTables(CosmosClient cosmos, TableServiceClient tables) throws Exception {
        // azure-cosmos → Tables: a container of the account's database with a table's shape is a table
        cosmos.createDatabaseIfNotExists("devstoreaccount1");
        CosmosContainerProperties shape = new CosmosContainerProperties("people", "/PartitionKey");
        shape.setIndexingPolicy(new IndexingPolicy().setCompositeIndexes(List.of(List.of(
                new CompositePath().setPath("/PartitionKey").setOrder(CompositePathSortOrder.ASCENDING),
                new CompositePath().setPath("/id").setOrder(CompositePathSortOrder.ASCENDING)))));
        cosmos.getDatabase("devstoreaccount1").createContainerIfNotExists(shape);
        cosmos.getDatabase("devstoreaccount1").getContainer("people").createItem(M.readTree("{\"id\":\"Ben\","
                + "\"PartitionKey\":\"Smith\",\"Email\":\"ben@contoso.com\",\"Age\":42,\"Ratio\":2.5,\"Active\":true}"));
        TableEntity ben = tables.getTableClient("people").getEntity("Smith", "Ben");
        assertEquals("ben@contoso.com", ben.getProperty("Email"));
        assertEquals(42, ((Number) ben.getProperty("Age")).intValue());
        assertEquals(2.5, ((Number) ben.getProperty("Ratio")).doubleValue());
        assertEquals(true, ben.getProperty("Active"));
        assertEquals(List.of("Ben"), tables.getTableClient("people").listEntities().stream()
                .map(TableEntity::getRowKey).toList());

        // Tables → azure-cosmos: PartitionKey is the partition key, RowKey the id
        tables.createTableIfNotExists("orders");
        tables.getTableClient("orders").upsertEntity(new TableEntity("EU", "o1").addProperty("Item", "pen")
                .addProperty("Qty", 3).addProperty("Price", 1.25).addProperty("Paid", true));
        JsonNode order = cosmos.getDatabase("devstoreaccount1").getContainer("orders")
                .readItem("o1", new PartitionKey("EU"), JsonNode.class).getItem();
        assertEquals("EU", order.get("PartitionKey").asText());
        assertEquals("pen", order.get("Item").asText());
        assertEquals(3, order.get("Qty").asInt());
        assertEquals(1.25, order.get("Price").asDouble());
        assertEquals(true, order.get("Paid").asBoolean());
    }

    private static void restAndGremlin(CosmosClient cosmos, Client gremlin) throws Exception {
        CosmosContainer graph = cosmos.getDatabase("graphdb").getContainer("graph");
        // azure-cosmos → Gremlin: an item in graph-core's vertex layout (each property a list of {id, _value})
        graph.createItem(M.readTree("{\"id\":\"Portland\",\"pk\":\"USA\",\"label\":\"city\","
                + "\"name\":[{\"id\":\"n1\",\"_value\":\"Portland\"}],\"pop\":[{\"id\":\"p1\",\"_value\":650000}],"
                + "\"coastal\":[{\"id\":\"c1\",\"_value\":false}]}"));
        assertEquals(List.of(Map.of("pk", List.of("USA"), "name", List.of("Portland"), "pop", List.of(650000),
                "coastal", List.of(false))), submit(gremlin, "g.V(['USA','Portland']).valueMap()"));
        assertEquals(List.of("city"), submit(gremlin, "g.V(['USA','Portland']).label()"));
        assertEquals(List.of(650000), submit(gremlin, "g.V().has('city','name','Portland').values('pop')"));

        // Gremlin → azure-cosmos: the vertex is an item of that layout
        submit(gremlin, "g.addV('city').property('pk','USA').property(T.id,'Seattle').property('name','Seattle')"
                + ".property('pop',750000).property('coastal',true).iterate()");
        JsonNode seattle = graph.readItem("Seattle", new PartitionKey("USA"), JsonNode.class).getItem();
        assertEquals("city", seattle.get("label").asText());
        assertEquals("USA", seattle.get("pk").asText());
        assertEquals("Seattle", seattle.at("/name/0/_value").asText());
        assertEquals(750000, seattle.at("/pop/0/_value").asInt());
        assertEquals(true, seattle.at("/coastal/0/_value").asBoolean());
    }

    private static List<Object> submit(Client gremlin, String script) throws Exception {
        return gremlin.submit(script).all().get().stream().map(r -> r.getObject()).toList();
    }

    private static TableServiceClient tables(TetraDbServer server) {
        String endpoint = "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/devstoreaccount1";
        return new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName="
                + "devstoreaccount1;AccountKey=" + AllFacesTest.DEV_KEY + ";TableEndpoint=" + endpoint + ";")
                .buildClient();
    }
}
