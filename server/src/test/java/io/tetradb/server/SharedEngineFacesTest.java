package io.tetradb.server;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server on a shared engine as on {@code --storage cassandra} (here the metadata and item stores of another
 * embedded engine, so no cluster is needed; the cluster run is cassandra-engine's): every face serves its requests
 * through the storage contracts (TTL containers and changes, index rebuilds, Mongo unique and TTL indexes), the graph
 * face keeps and reads adjacency entries through them, and the start log names what is left off.
 */
@Timeout(180)
class SharedEngineFacesTest {
    private static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    private static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    @TempDir
    static Path dir;
    static RocksEngine shared;
    static TetraDbServer server;
    static CosmosClient cosmos;
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void start() {
        shared = RocksEngine.open(dir.resolve("shared"), Durability.SYNC, 8 << 20);
        server = new TetraDbServer(ServerConfig.ephemeral(dir.resolve("local")).withCosmosPort(0).withGremlinPort(0)
                .withMongoPort(0).withTablePort(0))
                .onSharedStores(new EmbeddedMetadataStore(shared), new EmbeddedPartitionStore(shared)).start();
        cosmos = new CosmosClientBuilder().endpoint("http://" + Endpoint.hostPort(server.endpoint("cosmos").address()))
                .key(EMULATOR_KEY).gatewayMode().buildClient();
    }

    @AfterAll
    static void stop() {
        if (cosmos != null) {
            cosmos.close();
        }
        if (server != null) {
            server.close();
        }
        if (shared != null) {
            shared.close();
        }
    }

    @Test
    void cosmosServesItemsQueriesTtlContainersTtlChangesAndPolicyChanges() throws Exception {
        cosmos.createDatabaseIfNotExists("shop");
        cosmos.getDatabase("shop").createContainer("orders", "/pk");
        CosmosContainer orders = cosmos.getDatabase("shop").getContainer("orders");
        ObjectNode item = (ObjectNode) json.readTree("{\"id\":\"o1\",\"pk\":\"p\",\"qty\":3}");
        String etag = orders.createItem(item).getETag();
        assertEquals(3, orders.readItem("o1", new PartitionKey("p"), JsonNode.class).getItem().get("qty").asInt());
        item.put("qty", 4);
        orders.replaceItem(item, "o1", new PartitionKey("p"), new CosmosItemRequestOptions().setIfMatchETag(etag));
        CosmosException stale = assertThrows(CosmosException.class, () -> orders.replaceItem(item, "o1",
                new PartitionKey("p"), new CosmosItemRequestOptions().setIfMatchETag(etag)));
        assertEquals(412, stale.getStatusCode());
        List<JsonNode> found = orders.queryItems("SELECT * FROM c WHERE c.qty = 4", new CosmosQueryRequestOptions(),
                JsonNode.class).stream().toList();
        assertEquals(1, found.size());
        orders.deleteItem("o1", new PartitionKey("p"), new CosmosItemRequestOptions());
        assertEquals(404, assertThrows(CosmosException.class,
                () -> orders.readItem("o1", new PartitionKey("p"), JsonNode.class)).getStatusCode());

        // a TTL container is served (expiry entries and the purge go through the contracts), and so is a TTL change
        // (the rule in the metadata, the entries converted per logical partition: SharedExpiryRebuild)
        cosmos.getDatabase("shop").createContainer(new CosmosContainerProperties("expiring", "/pk")
                .setDefaultTimeToLiveInSeconds(60));
        CosmosContainer expiring = cosmos.getDatabase("shop").getContainer("expiring");
        assertEquals(60, expiring.read().getProperties().getDefaultTimeToLiveInSeconds());
        expiring.createItem(json.readTree("{\"id\":\"e1\",\"pk\":\"p\"}"));
        assertEquals(200, expiring.replace(expiring.read().getProperties().setDefaultTimeToLiveInSeconds(120))
                .getStatusCode());
        assertEquals(120, expiring.read().getProperties().getDefaultTimeToLiveInSeconds(), "changed");
        assertEquals("e1", expiring.readItem("e1", new PartitionKey("p"), JsonNode.class).getItem().get("id").asText());

        CosmosContainerProperties props = orders.read().getProperties();
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/qty/?")));
        policy.setExcludedPaths(List.of(new com.azure.cosmos.models.ExcludedPath("/*")));
        props.setIndexingPolicy(policy);
        // an indexing-policy replace is served: one logical partition converted per conditional apply, the progress
        // header answered from the rebuild record in the shared metadata
        for (int i = 0; i < 20; i++) {
            orders.createItem(json.readTree("{\"id\":\"r" + i + "\",\"pk\":\"p" + (i % 7) + "\",\"qty\":" + i
                    + "}"));
        }
        assertEquals(200, orders.replace(props).getStatusCode());
        long progress = orders.read(new com.azure.cosmos.models.CosmosContainerRequestOptions().setQuotaInfoEnabled(true))
                .getIndexTransformationProgress();
        assertTrue(progress >= 0 && progress <= 100, "progress " + progress);
        assertEquals(List.of(19), orders.queryItems("SELECT VALUE c.qty FROM c WHERE c.qty > 18",
                new CosmosQueryRequestOptions(), Integer.class).stream().toList(), "right while the index is rebuilt");
        server.client().coreStore().container("shop", "orders").awaitIndexRebuild();
        assertEquals(100, orders.read(new com.azure.cosmos.models.CosmosContainerRequestOptions()
                .setQuotaInfoEnabled(true)).getIndexTransformationProgress());
        assertTrue(server.client().coreStore().container("shop", "orders").checkIndexes().consistent());
        assertEquals(List.of(19), orders.queryItems("SELECT VALUE c.qty FROM c WHERE c.qty > 18",
                new CosmosQueryRequestOptions(), Integer.class).stream().toList());
    }

    @Test
    void mongoServesDocumentsPlainUniqueAndTtlIndexes() throws Exception {
        try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
            MongoCollection<Document> people = mongo.getDatabase("app").getCollection("people");
            people.insertOne(new Document("_id", 1).append("name", "ann"));
            assertEquals("ann", people.find(new Document("_id", 1)).first().getString("name"));
            // a unique index is served: its owners are owner records decided by conditional applies
            people.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true).sparse(true));
            people.insertOne(new Document("_id", 100).append("email", "a@x"));
            com.mongodb.MongoWriteException dup = assertThrows(com.mongodb.MongoWriteException.class,
                    () -> people.insertOne(new Document("_id", 101).append("email", "a@x")));
            assertEquals(11000, dup.getError().getCode());
            people.dropIndex("email_1");
            people.deleteOne(new Document("_id", 100));
            // a TTL index is served: the date-field expiry in the metadata (SharedExpiryRebuild)
            people.insertOne(new Document("_id", 102).append("at", new java.util.Date(0))); // expired long ago
            people.createIndex(Indexes.ascending("at"), new IndexOptions().expireAfter(60L,
                    java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(0, people.countDocuments(new Document("_id", 102)), "expired: hidden at once");
            people.dropIndex("at_1");
            List<String> indexes = people.listIndexes().map(d -> d.getString("name")).into(new java.util.ArrayList<>());
            assertEquals(List.of("_id_"), indexes);
            people.insertOne(new Document("_id", 2).append("name", "ann"));
            assertEquals(2, people.countDocuments(new Document("name", "ann")));
            // a plain index is served: its build is an index rebuild through the contracts
            for (int i = 3; i < 23; i++) {
                people.insertOne(new Document("_id", i).append("name", "n" + (i % 4)).append("age", i));
            }
            assertEquals("age_1", people.createIndex(Indexes.ascending("age")));
            assertEquals(List.of("_id_", "age_1"),
                    people.listIndexes().map(d -> d.getString("name")).into(new java.util.ArrayList<>()));
            assertEquals(List.of(21, 22), people.find(new Document("age", new Document("$gt", 20)))
                    .map(d -> d.getInteger("age")).into(new java.util.ArrayList<>()));
            Document plan = people.find(new Document("age", new Document("$gt", 20))).explain();
            assertTrue(plan.toJson().contains("IXSCAN"), plan.toJson());
            assertTrue(server.client().coreStore().container("app", "people").checkIndexes().consistent());
            people.dropIndex("age_1");
            assertEquals(List.of("_id_"),
                    people.listIndexes().map(d -> d.getString("name")).into(new java.util.ArrayList<>()));
            server.client().coreStore().container("app", "people").awaitIndexRebuild();
            assertTrue(server.client().coreStore().container("app", "people").checkIndexes().consistent());
        }
    }

    @Test
    void gremlinServesTraversalsFromAdjacencyEntries() throws Exception {
        InetSocketAddress a = server.endpoint("gremlin").address();
        Cluster cluster = TestGremlin.cluster(a).create();
        try {
            Client g = cluster.connect();
            g.submit("g.addV('person').property('pk','x').property(T.id,'ann').as('a')"
                    + ".addV('person').property('pk','x').property(T.id,'bob').property('name','Bob').as('b')"
                    + ".addE('knows').from('a').to('b')").all().get();
            List<Object> names = g.submit("g.V('ann').out('knows').values('name')").all().get().stream()
                    .map(Result::getObject).toList();
            assertEquals(List.of("Bob"), names);
            assertEquals(1L, g.submit("g.V('bob').in('knows').count()").all().get().get(0).getLong());
            long[] entries = {0};
            shared.scan(io.tetradb.core.storage.Space.ADJACENCY, new byte[0], null, kv -> ++entries[0] > 0);
            assertEquals(2, entries[0], "the edge's two adjacency entries are in the shared item store");
        } finally {
            cluster.close();
        }
    }

    @Test
    void tablesServeEntities() {
        String endpoint = "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/devstoreaccount1";
        TableClient t = new TableServiceClientBuilder()
                .connectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + DEV_KEY
                        + ";TableEndpoint=" + endpoint + ";").buildClient().getTableClient("people");
        t.createTable();
        t.createEntity(new TableEntity("p", "r").addProperty("n", 7));
        assertEquals(7, t.getEntity("p", "r").getProperty("n"));
        assertFalse(t.listEntities().stream().toList().isEmpty());
    }

    @Test
    void theStartLogNamesWhatIsLeftOff() {
        String notice = CassandraStorage.startNotice();
        assertTrue(notice.contains(io.tetradb.core.storage.SharedEngineLimits.OPTION), notice);
        for (String leftOff : io.tetradb.core.storage.SharedEngineLimits.leftOff()) {
            assertTrue(notice.contains(leftOff), notice);
        }
        assertTrue(server.client().coreStore().onSharedEngine());
        assertTrue(server.client().coreStore().ttlPurger().isRunning(), "the TTL purger runs through the contracts");
    }
}
