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

    /** Writes acknowledged with {@code w: 1} (before their fsync) are applied and survive a restart too. */
    @Test
    void unjournaledWritesAreAppliedAndSurviveARestart(@TempDir Path dir) {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = connect(server)) {
            com.mongodb.client.MongoCollection<Document> c = client.getDatabase("p").getCollection("w1")
                    .withWriteConcern(com.mongodb.WriteConcern.W1);
            List<Document> docs = new ArrayList<>();
            for (int i = 0; i < 250; i++) {
                docs.add(new Document("_id", i).append("n", 0));
            }
            c.insertMany(docs);
            for (int i = 0; i < 50; i++) {
                c.updateOne(Filters.eq("_id", i), com.mongodb.client.model.Updates.inc("n", 1));
            }
            c.deleteOne(Filters.eq("_id", 249));
            c.insertOne(new Document("_id", "one"));
            assertEquals(250, c.countDocuments(), "acknowledged writes are visible at once");
            assertEquals(50, c.countDocuments(Filters.eq("n", 1)));
        }
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = connect(server)) {
            com.mongodb.client.MongoCollection<Document> c = client.getDatabase("p").getCollection("w1");
            assertEquals(250, c.countDocuments());
            assertEquals(50, c.countDocuments(Filters.eq("n", 1)));
            assertEquals(null, c.find(Filters.eq("_id", 249)).first());
        }
    }

    static MongoClient connect(MongoWireServer server) {
        return PatientDriver.client(server);
    }
}
