package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.model.Filters;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Everything acknowledged survives a restart of the store and the server: documents, types, unique indexes. */
class PersistenceTest {

    @Test
    void documentsAndIndexesSurviveARestart(@TempDir Path dir) {
        Document doc = new Document("_id", "p1").append("price", Decimal128.parse("9.99")).append("n", 3L);
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = connect(server)) {
            client.getDatabase("p").getCollection("c").insertOne(doc);
            client.getDatabase("p").getCollection("c").createIndex(new Document("n", 1),
                    new com.mongodb.client.model.IndexOptions().unique(true));
        }
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = connect(server)) {
            assertEquals(doc, client.getDatabase("p").getCollection("c").find(Filters.eq("_id", "p1")).first());
            assertEquals(List.of("p"), client.listDatabaseNames().into(new ArrayList<>()));
            assertEquals(List.of("c"), client.getDatabase("p").listCollectionNames().into(new ArrayList<>()));
            assertEquals(List.of("_id_", "n_1"), client.getDatabase("p").getCollection("c").listIndexes()
                    .map(d -> d.getString("name")).into(new ArrayList<>()));
            com.mongodb.MongoWriteException dup = org.junit.jupiter.api.Assertions.assertThrows(
                    com.mongodb.MongoWriteException.class,
                    () -> client.getDatabase("p").getCollection("c").insertOne(new Document("n", 3)));
            assertEquals(11000, dup.getError().getCode());
        }
    }

    static MongoClient connect(MongoWireServer server) {
        return com.mongodb.client.MongoClients.create("mongodb://127.0.0.1:" + server.address().getPort());
    }
}
