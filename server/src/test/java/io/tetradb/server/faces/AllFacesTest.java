package io.tetradb.server.faces;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One process, four faces over one store: each face is reached by its own real client (MongoDB Java driver, Azure
 * Tables SDK, gremlin-driver), and what the Mongo face writes the document API reads, across a restart.
 */
class AllFacesTest {
    /** Azurite's well-known development account key. */
    static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    @Test
    void everyFaceServesTheSameStoreAndSurvivesARestart(@TempDir Path dir) throws Exception {
        ServerConfig config = ServerConfig.ephemeral(dir).withGremlinPort(0).withMongoPort(0).withTablePort(0);
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            assertEquals(List.of("admin", "gremlin", "mongo", "table"),
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
        }
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
                MongoCollection<Document> orders = mongo.getDatabase("shop").getCollection("orders");
                assertEquals(30.5, orders.find(new Document("_id", "o1")).first().getDouble("total"));
            }
            assertEquals("ben@contoso.com", table(server).getEntity("Smith", "Ben").getProperty("Email"));
            assertEquals(List.of(1L), gremlin(server, "g.V(['USA','Seattle']).count()"));
        }
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
        Cluster cluster = Cluster.build(a.getAddress().getHostAddress()).port(a.getPort()).create();
        try {
            return cluster.connect().submit(script).all().get().stream().map(r -> r.getObject()).toList();
        } finally {
            cluster.close();
        }
    }
}
