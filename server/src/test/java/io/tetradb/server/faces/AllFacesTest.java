package io.tetradb.server.faces;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One process, five endpoints over one store: each face is reached by its own real client (azure-cosmos, MongoDB Java
 * driver, Azure Tables SDK, gremlin-driver); what the Mongo and Gremlin faces write the Cosmos SDK reads, what the
 * Cosmos SDK writes the document API reads, across a restart.
 */
class AllFacesTest {
    /** The Cosmos DB emulator's well-known key, TetraDB's default. */
    static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    /** Azurite's well-known development account key. */
    static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    @Test
    void everyFaceServesTheSameStoreAndSurvivesARestart(@TempDir Path dir) throws Exception {
        ServerConfig config = ServerConfig.ephemeral(dir).withCosmosPort(0).withGremlinPort(0).withMongoPort(0)
                .withTablePort(0);
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            assertEquals(List.of("admin", "cosmos", "gremlin", "mongo", "table"),
                    server.endpoints().stream().map(Endpoint::name).toList());
            try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
                mongo.getDatabase("shop").getCollection("orders")
                        .insertOne(new Document("_id", "o1").append("total", 30.5));
            }
            table(server).upsertEntity(new TableEntity("Smith", "Ben").addProperty("Email", "ben@contoso.com"));
            gremlin(server, "g.addV('city').property('pk','USA').property(T.id,'Seattle').iterate()");

            // the Mongo face's collection is a core container: the document API sees the item
            List<ObjectNode> orders = server.client().getDatabase("shop").getContainer("orders")
                    .queryItems("SELECT * FROM c", null, ObjectNode.class).stream().toList();
            assertEquals(1, orders.size());
            assertEquals(30.5, orders.get(0).get("total").asDouble());

            try (CosmosClient cosmos = cosmos(server)) {
                // the azure-cosmos SDK over the REST face reads what the Mongo and Gremlin faces wrote
                assertEquals(List.of(30.5), cosmos.getDatabase("shop").getContainer("orders")
                        .queryItems("SELECT VALUE c.total FROM c", new CosmosQueryRequestOptions(), Double.class)
                        .stream().toList());
                assertEquals(List.of("Seattle"), cosmos.getDatabase("graphdb").getContainer("graph")
                        .queryItems("SELECT VALUE c.id FROM c WHERE c.pk = 'USA'", new CosmosQueryRequestOptions(),
                                String.class).stream().toList());
                // and what it writes, the document API reads (the other faces' views of foreign items are issue 17's)
                cosmos.createDatabaseIfNotExists("crm");
                cosmos.getDatabase("crm").createContainerIfNotExists(new CosmosContainerProperties("leads", "/region"));
                cosmos.getDatabase("crm").getContainer("leads").createItem(Map.of("id", "l1", "region", "EU"));
            }
            assertEquals("EU", server.client().getDatabase("crm").getContainer("leads")
                    .readItem("l1", new io.tetradb.document.PartitionKey("EU"), ObjectNode.class).getItem()
                    .get("region").asText());
        }
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
                MongoCollection<Document> orders = mongo.getDatabase("shop").getCollection("orders");
                assertEquals(30.5, orders.find(new Document("_id", "o1")).first().getDouble("total"));
            }
            assertEquals("ben@contoso.com", table(server).getEntity("Smith", "Ben").getProperty("Email"));
            assertEquals(List.of(1L), gremlin(server, "g.V(['USA','Seattle']).count()"));
            try (CosmosClient cosmos = cosmos(server)) {
                assertEquals("EU", cosmos.getDatabase("crm").getContainer("leads")
                        .readItem("l1", new PartitionKey("EU"), ObjectNode.class).getItem().get("region").asText());
            }
        }
    }

    /** The azure-cosmos SDK in gateway mode over plain HTTP (the port speaks both; TLS is ReadmeExamplesTest's). */
    private static CosmosClient cosmos(TetraDbServer server) {
        return new CosmosClientBuilder().endpoint("http://" + Endpoint.hostPort(server.endpoint("cosmos").address()))
                .key(EMULATOR_KEY).gatewayMode().buildClient();
    }

    private static TableClient table(TetraDbServer server) {
        InetSocketAddress a = server.endpoint("table").address();
        String endpoint = "http://" + Endpoint.hostPort(a) + "/devstoreaccount1";
        TableClient people = new TableServiceClientBuilder()
                .connectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + DEV_KEY
                        + ";TableEndpoint=" + endpoint + ";")
                .buildClient().getTableClient("people");
        try {
            people.createTable();
        } catch (com.azure.data.tables.models.TableServiceException e) {
            assertEquals(409, e.getResponse().getStatusCode(), "only TableAlreadyExists is expected");
        }
        return people;
    }

    private static List<Object> gremlin(TetraDbServer server, String script) throws Exception {
        InetSocketAddress a = server.endpoint("gremlin").address();
        Cluster cluster = TestGremlin.cluster(a).create();
        try {
            return cluster.connect().submit(script).all().get().stream().map(r -> r.getObject()).toList();
        } finally {
            cluster.close();
        }
    }
}
