package io.tetradb.server.crossface;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Issue 17's cross-face views, Mongo column: what the document API (SQL face), the Azure Tables SDK and the
 * gremlin-driver write, the MongoDB Java driver reads in BSON types — {@code _id} from the item id, dates as dates,
 * Int64 as long, Guid as BinData 4, Binary as BinData, and none of the core's or another face's bookkeeping
 * ({@code _rid _self _etag _attachments _ts _types}, the graph's property lists and edge fields).
 *
 * <p>Runs on the binary item format (typed storage), which the core's default becomes with issue 17's phase 2.
 */
class MongoViewOfOtherFacesTest {
    static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final Set<String> BOOKKEEPING = Set.of("_rid", "_self", "_etag", "_attachments", "_ts", "_types",
            "_isEdge", "_vertexId", "_vertexLabel", "_sink", "_sinkLabel", "_sinkPartition", "id");
    private static String previousFormat;

    @BeforeAll
    static void typedStorage() {
        previousFormat = System.setProperty("tetradb.itemFormat", "binary");
    }

    @AfterAll
    static void restoreFormat() {
        if (previousFormat == null) {
            System.clearProperty("tetradb.itemFormat");
        } else {
            System.setProperty("tetradb.itemFormat", previousFormat);
        }
    }

    @Test
    void mongoReadsEveryFacesItemsInBsonTypes(@TempDir Path dir) throws Exception {
        ServerConfig config = ServerConfig.ephemeral(dir).withGremlinPort(0).withMongoPort(0).withTablePort(0);
        try (TetraDbServer server = new TetraDbServer(config).start();
             MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
            // the document API (what the SQL / Cosmos face stores): JSON types
            server.client().createDatabaseIfNotExists("crm");
            server.client().getDatabase("crm").createContainerIfNotExists("leads", "/region");
            ObjectNode lead = (ObjectNode) new ObjectMapper().readTree("{\"id\": \"l1\", \"region\": \"EU\", \"n\": 7,"
                    + " \"big\": 5000000000, \"score\": 1.5, \"ok\": true, \"none\": null, \"tags\": [1, \"a\"],"
                    + " \"addr\": {\"city\": \"Oslo\"}}");
            server.client().getDatabase("crm").getContainer("leads").createItem(lead);
            BsonDocument leadSeen = only(mongo.getDatabase("crm").getCollection("leads", BsonDocument.class));
            assertEquals(new BsonDocument("_id", new BsonString("l1")).append("region", new BsonString("EU"))
                    .append("n", new BsonInt32(7)).append("big", new BsonInt64(5_000_000_000L))
                    .append("score", new BsonDouble(1.5)).append("ok", BsonBoolean.TRUE).append("none", BsonNull.VALUE)
                    .append("tags", new BsonArray(List.of(new BsonInt32(1), new BsonString("a"))))
                    .append("addr", new BsonDocument("city", new BsonString("Oslo"))), leadSeen);

            // the Azure Tables SDK: _id = RowKey, PartitionKey, Edm types as BSON types, Timestamp as a date
            OffsetDateTime joined = OffsetDateTime.of(2016, 3, 1, 9, 30, 0, 123_000_000, ZoneOffset.UTC);
            UUID guid = UUID.fromString("0b5f1e8e-4a0c-4d7b-9d7c-3c1b2a4e5f60");
            table(server).upsertEntity(new TableEntity("Smith", "Ben").addProperty("Email", "ben@contoso.com")
                    .addProperty("Age", 42).addProperty("Balance", 5L).addProperty("Rate", 0.25)
                    .addProperty("Joined", joined).addProperty("Key", guid).addProperty("Raw", new byte[]{1, 2, (byte) 255}));
            MongoCollection<BsonDocument> people = mongo.getDatabase("devstoreaccount1")
                    .getCollection("people", BsonDocument.class);
            BsonDocument ben = people.find(Filters.eq("PartitionKey", "Smith")).first();
            assertEquals(ben, people.find(Filters.eq("_id", "Ben")).first(), "found by its _id, the RowKey");
            assertEquals(new BsonString("Ben"), ben.get("_id"));
            assertEquals(new BsonString("Smith"), ben.get("PartitionKey"));
            assertEquals(new BsonString("ben@contoso.com"), ben.get("Email"));
            assertEquals(new BsonInt32(42), ben.get("Age"));
            assertEquals(new BsonInt64(5), ben.get("Balance"));
            assertEquals(new BsonDouble(0.25), ben.get("Rate"));
            assertEquals(new BsonDateTime(joined.toInstant().toEpochMilli()), ben.get("Joined"));
            assertEquals(new BsonBinary(guid), ben.get("Key"));
            assertEquals(new BsonBinary(new byte[]{1, 2, (byte) 255}), ben.get("Raw"));
            assertEquals(org.bson.BsonType.DATE_TIME, ben.get("Timestamp").getBsonType());
            long age = System.currentTimeMillis() - ben.getDateTime("Timestamp").getValue();
            assertFalse(age < -1000 || age > 600_000, "Timestamp is the write time: " + ben.get("Timestamp"));
            assertEquals(List.of("_id"), List.copyOf(ben.keySet()).subList(0, 1), "_id first");
            noBookkeeping(ben);

            // the gremlin-driver: a vertex's properties as their values in their types, an edge without endpoints
            gremlin(server, "g.addV('city').property(T.id,'Seattle').property('pk','USA').property('name','Seattle')"
                    + ".property('pop', 737015L).property('area', 217.4d).as('a')"
                    + ".addV('city').property(T.id,'Tacoma').property('pk','USA').as('b')"
                    + ".addE('road').from('a').to('b').property('miles', 33).iterate()");
            MongoCollection<BsonDocument> graph = mongo.getDatabase("graphdb").getCollection("graph", BsonDocument.class);
            BsonDocument seattle = graph.find(Filters.eq("_id", "Seattle")).first();
            assertEquals(2, graph.countDocuments(Filters.eq("label", "city")));
            assertEquals(new BsonString("USA"), seattle.get("pk"));
            assertEquals(new BsonString("Seattle"), seattle.get("name"));
            assertEquals(new BsonInt64(737_015L), seattle.get("pop"));
            assertEquals(new BsonDouble(217.4), seattle.get("area"));
            noBookkeeping(seattle);
            BsonDocument road = graph.find(Filters.eq("label", "road")).first();
            assertEquals(new BsonInt32(33), road.get("miles"));
            noBookkeeping(road);
        }
    }

    private static BsonDocument only(MongoCollection<BsonDocument> c) {
        List<BsonDocument> all = c.find().into(new java.util.ArrayList<>());
        assertEquals(1, all.size(), all.toString());
        return all.get(0);
    }

    private static void noBookkeeping(BsonDocument d) {
        for (String name : d.keySet()) {
            assertFalse(BOOKKEEPING.contains(name), name + " shown in " + d.toJson());
        }
    }

    private static TableClient table(TetraDbServer server) {
        InetSocketAddress a = server.endpoint("table").address();
        String endpoint = "http://" + Endpoint.hostPort(a) + "/devstoreaccount1";
        TableClient people = new TableServiceClientBuilder()
                .connectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + DEV_KEY
                        + ";TableEndpoint=" + endpoint + ";")
                .buildClient().getTableClient("people");
        people.createTable();
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
