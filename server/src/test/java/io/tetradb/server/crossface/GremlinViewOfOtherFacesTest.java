package io.tetradb.server.crossface;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a Gremlin client (gremlin-driver) sees of items other faces wrote into the graph's container (the Gremlin
 * column of the cross-face table, document-core/README.md): documents written with the azure-cosmos SDK in Cosmos
 * DB's Gremlin layout are vertices and edges with their JSON values; plain documents (azure-cosmos or the MongoDB
 * Java driver) are vertices of the default label whose fields are single properties, a sub-document a Map, an array
 * a List; no face's bookkeeping ({@code _types}, system properties) is shown.
 */
class GremlinViewOfOtherFacesTest {
    /** The Cosmos DB emulator's well-known key, TetraDB's default. */
    private static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    @TempDir
    static Path dir;
    static TetraDbServer server;
    static Cluster cluster;
    static Client gremlin;

    @BeforeAll
    static void start() throws Exception {
        server = new TetraDbServer(ServerConfig.ephemeral(dir).withCosmosPort(0).withGremlinPort(0).withMongoPort(0))
                .start();
        InetSocketAddress a = server.endpoint("gremlin").address();
        cluster = TestGremlin.cluster(a).create();
        gremlin = cluster.connect();
        // the graph's container (graphdb/graph, partition key /pk) exists once the graph wrote to it
        gremlin.submit("g.addV('city').property('pk','USA').property(T.id,'Seattle')").all().get();
        ObjectMapper json = new ObjectMapper();
        try (CosmosClient cosmos = new CosmosClientBuilder()
                .endpoint("http://" + Endpoint.hostPort(server.endpoint("cosmos").address()))
                .key(EMULATOR_KEY).gatewayMode().buildClient()) {
            CosmosContainer graph = cosmos.getDatabase("graphdb").getContainer("graph");
            // a vertex and an edge as Cosmos DB's Gremlin API lays them out, written as documents
            graph.createItem(json.readTree("""
                    {"id": "ann", "pk": "USA", "label": "person",
                     "name": [{"id": "n1", "_value": "Ann"}],
                     "age": [{"id": "a1", "_value": 42, "since": 2001}],
                     "score": [{"id": "s1", "_value": 2.5}, {"id": "s2", "_value": 3.5}]}"""),
                    new PartitionKey("USA"), null);
            graph.createItem(json.readTree("""
                    {"id": "knows1", "pk": "USA", "label": "knows", "_isEdge": true,
                     "_vertexId": "ann", "_vertexLabel": "person",
                     "_sink": "Seattle", "_sinkLabel": "city", "_sinkPartition": "USA", "years": 3}"""),
                    new PartitionKey("USA"), null);
            // a plain document: no label, fields that are not property lists
            graph.createItem(json.readTree("""
                    {"id": "plain", "pk": "USA", "nick": "p", "big": 5000000000,
                     "address": {"city": "Seattle", "zip": 98101, "geo": {"lat": 47.6}}, "tags": ["a", "b"]}"""),
                    new PartitionKey("USA"), null);
        }
        try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
            // the graph's container seen as a Mongo collection: its partition key path is the shard key
            mongo.getDatabase("graphdb").getCollection("graph").insertOne(new Document("_id", "m1").append("pk", "USA")
                    .append("name", "m-one")
                    .append("address", new Document("city", "Portland").append("zip", 97201))
                    .append("tags", List.of("x", "y")));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static List<Object> submit(String script) throws Exception {
        return gremlin.submit(script).all().get().stream().map(Result::getObject).toList();
    }

    @Test
    void aCosmosLayoutDocumentIsAVertexWithItsValues() throws Exception {
        assertEquals(List.of("person"), submit("g.V(['USA','ann']).label()"));
        assertEquals(List.of("Ann"), submit("g.V(['USA','ann']).values('name')"));
        assertEquals(List.of(42), submit("g.V(['USA','ann']).values('age')"));
        assertEquals(List.of(2001), submit("g.V(['USA','ann']).properties('age').values('since')"));
        assertEquals(List.of(2.5, 3.5), submit("g.V(['USA','ann']).values('score')"));
        assertEquals(List.of("Ann"), submit("g.V().has('person','name','Ann').values('name')"));
    }

    @Test
    void aCosmosLayoutEdgeDocumentIsFollowed() throws Exception {
        assertEquals(List.of(List.of("USA", "Seattle")), submit("g.V(['USA','ann']).out('knows').id()"));
        assertEquals(List.of(3), submit("g.V(['USA','ann']).outE('knows').values('years')"));
        assertEquals(List.of("person"), submit("g.V(['USA','Seattle']).in('knows').label()"));
    }

    @Test
    void aPlainDocumentShowsItsFieldsAsSingleProperties() throws Exception {
        assertEquals(List.of("vertex"), submit("g.V(['USA','plain']).label()"));
        assertEquals(List.of("p"), submit("g.V(['USA','plain']).values('nick')"));
        assertEquals(List.of(5_000_000_000L), submit("g.V(['USA','plain']).values('big')"));
        assertEquals(List.of(Map.of("city", "Seattle", "zip", 98101, "geo", Map.of("lat", 47.6))),
                submit("g.V(['USA','plain']).values('address')"));
        assertEquals(List.of(List.of("a", "b")), submit("g.V(['USA','plain']).values('tags')"));
        assertEquals(List.of(List.of("address", "big", "nick", "pk", "tags")),
                submit("g.V(['USA','plain']).properties().key().order().fold()"));
    }

    @Test
    void aMongoSubDocumentIsAMap() throws Exception {
        // a string _id is the item id, so the vertex id, as in Cosmos DB's API for MongoDB (IdCodec)
        String mongoDoc = "g.V(['USA','m1'])";
        assertEquals(List.of(List.of("USA", "m1")), submit("g.V().hasLabel('vertex').has('pk','USA').not(has('nick')).id()"));
        assertEquals(List.of(Map.of("city", "Portland", "zip", 97201)), submit(mongoDoc + ".values('address')"));
        assertEquals(List.of(List.of("x", "y")), submit(mongoDoc + ".values('tags')"));
        // the Mongo face's own fields (_id: the element's identity there; _types) are not properties
        assertEquals(List.of(List.of("address", "name", "pk", "tags")),
                submit(mongoDoc + ".properties().key().order().fold()"));
    }

    /**
     * {@code has()} on a property finds the plain fields of other faces' documents as well as the property lists of
     * Cosmos DB's Gremlin layout (two index-seeking queries, HasToSql), also when counted by the core.
     */
    @Test
    void hasFindsPlainFieldsOfOtherFacesDocuments() throws Exception {
        assertEquals(List.of(List.of("USA", "plain")), submit("g.V().has('nick','p').id()"));
        assertEquals(List.of(List.of("USA", "m1")), submit("g.V().has('name','m-one').id()"));
        assertEquals(List.of(List.of("USA", "plain")), submit("g.V().has('big', 5000000000L).id()"));
        assertEquals(List.of(List.of("USA", "plain")), submit("g.V().has('big', gt(1)).id()"));
        assertEquals(List.of(List.of("USA", "m1")), submit("g.V().has('pk','USA').has('name','m-one').id()"));
        assertEquals(List.of(List.of(List.of("USA", "ann"), List.of("USA", "m1"))),
                submit("g.V().has('name', within('Ann','m-one')).id().order().by(tail(local)).fold()"));
        assertEquals(List.of(2L), submit("g.V().has('name', within('Ann','m-one')).count()"));
        assertEquals(List.of(1L), submit("g.V().has('nick','p').count()"));
        assertEquals(List.of(0L), submit("g.V().has('nick','q').count()"));
        assertEquals(List.of(Map.of("person", 1L, "vertex", 1L)),
                submit("g.V().has('name', within('Ann','m-one')).groupCount().by(label)"));
    }

    @Test
    void labelsOfDocumentsWithoutOneAreTheDefault() throws Exception {
        Object counts = submit("g.V().groupCount().by(label)").get(0);
        assertEquals(Map.of("city", 1L, "person", 1L, "vertex", 2L), counts);
        assertEquals(List.of(2L), submit("g.V().hasLabel('vertex').count()"));
    }
}
