package io.tetradb.server.crossface;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.gremlin.GraphSpec;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17: what other faces wrote, read through the Azure Tables Java SDK — documents of the document API, a Mongo
 * collection (MongoDB Java driver) and a graph (gremlin-driver) in the account's database are tables. Their items show
 * PartitionKey / RowKey from the container's partition key and {@code _id}/id, JSON and typed values as Edm types, no
 * system properties or other faces' bookkeeping; a Tables merge keeps what it does not name.
 */
class TablesViewOfOtherFacesTest {
    private static final String DEV_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final String ACCOUNT = "devstoreaccount1";
    private static final ObjectMapper M = new ObjectMapper();
    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts", "_types", "id",
            "_id", "_isEdge", "_vertexId", "_sink", "_value");
    private static String previousFormat;

    /** Typed storage (the core's binary item format) until it becomes the default (issue 17, binary-default). */
    @BeforeAll
    static void typedStorage() {
        previousFormat = System.getProperty("tetradb.itemFormat");
        System.setProperty("tetradb.itemFormat", "binary");
    }

    @AfterAll
    static void restore() {
        if (previousFormat == null) {
            System.clearProperty("tetradb.itemFormat");
        } else {
            System.setProperty("tetradb.itemFormat", previousFormat);
        }
    }

    @Test
    void documentsMongoDocumentsAndVerticesReadAsEntities(@TempDir Path dir) throws Exception {
        ServerConfig config = ServerConfig.ephemeral(dir).withGremlinPort(0).withMongoPort(0).withTablePort(0)
                .withGraphs(List.of(new GraphSpec("people", ACCOUNT, "vertices", "pk")));
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            TableServiceClient tables = tables(server);

            // the document API: JSON types as Edm types, the partition key and id as the keys
            server.client().getDatabase(ACCOUNT).createContainerIfNotExists(
                    new CosmosContainerProperties("docs", "/region"));
            server.client().getDatabase(ACCOUNT).getContainer("docs").createItem(M.readTree("""
                    {"id": "d1", "region": "EU", "n": 5, "big": 9007199254740993, "x": 1.5, "ok": true, "s": "txt",
                     "sub": {"a": 1}, "arr": [1, "two"], "nothing": null}"""));
            TableClient docs = tables.getTableClient("docs");
            TableEntity d1 = docs.getEntity("EU", "d1");
            assertEquals("EU", d1.getPartitionKey());
            assertEquals("d1", d1.getRowKey());
            assertEquals(5, d1.getProperty("n"));
            assertEquals(9007199254740993L, d1.getProperty("big"));
            assertEquals(1.5, d1.getProperty("x"));
            assertEquals(true, d1.getProperty("ok"));
            assertEquals("txt", d1.getProperty("s"));
            assertEquals("{\"a\":1}", d1.getProperty("sub"), "objects as their JSON text");
            assertEquals("[1,\"two\"]", d1.getProperty("arr"));
            assertEquals(Set.of("n", "big", "x", "ok", "s", "sub", "arr"), userProperties(d1),
                    "no region, null, id or system property");
            ObjectNode stored = server.client().getDatabase(ACCOUNT).getContainer("docs")
                    .readItem("d1", new PartitionKey("EU"), ObjectNode.class).getItem();
            assertEquals(Instant.ofEpochSecond(stored.get("_ts").asLong()),
                    d1.getTimestamp().toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                    "Timestamp from _ts");
            assertEquals(List.of("d1"), rowKeys(docs, "n eq 5 and big gt 9007199254740992L"));

            // a Tables merge names one property and keeps everything else of the document
            docs.updateEntity(new TableEntity("EU", "d1").addProperty("n", 6), TableEntityUpdateMode.MERGE);
            ObjectNode merged = server.client().getDatabase(ACCOUNT).getContainer("docs")
                    .readItem("d1", new PartitionKey("EU"), ObjectNode.class).getItem();
            assertEquals(6, merged.get("n").intValue());
            assertEquals(M.readTree("{\"a\": 1}"), merged.get("sub"), "the sub-document stays an object");
            assertTrue(merged.get("arr").isArray());
            assertTrue(merged.get("nothing").isNull(), "a value Tables does not show stays");
            assertFalse(merged.has("PartitionKey") || merged.has("Timestamp"), "no Tables keys added");

            // a Mongo collection of the account's database: PartitionKey "" (unsharded), RowKey the ObjectId's hex
            ObjectId oid = new ObjectId();
            try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
                mongo.getDatabase(ACCOUNT).getCollection("orders").insertOne(new Document("_id", oid)
                        .append("name", "lamp").append("qty", 3).append("price", 19.5).append("ok", true)
                        .append("big", 1L << 40));
            }
            TableClient orders = tables.getTableClient("orders");
            List<TableEntity> all = orders.listEntities().stream().toList();
            assertEquals(1, all.size());
            TableEntity order = all.get(0);
            assertEquals("", order.getPartitionKey());
            assertEquals(oid.toHexString(), order.getRowKey());
            assertEquals("lamp", order.getProperty("name"));
            assertEquals(3, order.getProperty("qty"));
            assertEquals(19.5, order.getProperty("price"));
            assertEquals(true, order.getProperty("ok"));
            assertEquals(1L << 40, order.getProperty("big"));
            assertEquals(Set.of("name", "qty", "price", "ok", "big"), userProperties(order));
            assertEquals("lamp", orders.getEntity("", oid.toHexString()).getProperty("name"), "a point read by _id");
            orders.updateEntity(new TableEntity("", oid.toHexString()).addProperty("qty", 4),
                    TableEntityUpdateMode.MERGE);
            TableEntity after = orders.getEntity("", oid.toHexString());
            assertEquals(4, after.getProperty("qty"));
            assertEquals("lamp", after.getProperty("name"));

            // a graph in the account's database: vertex property values, not the graph's layout
            gremlin(server, "g_people.addV('person').property(T.id,'marko').property('pk','p1')"
                    + ".property('age',29).as('a').addV('person').property(T.id,'vadas').property('pk','p1')"
                    + ".addE('knows').from('a').property('weight',0.5d).iterate()");
            TableClient vertices = tables.getTableClient("vertices");
            TableEntity marko = vertices.getEntity("p1", "marko");
            assertEquals("person", marko.getProperty("label"));
            assertEquals(29, marko.getProperty("age"));
            List<TableEntity> edges = vertices.listEntities(new ListEntitiesOptions().setFilter("label eq 'knows'"),
                    null, null).stream().toList();
            assertEquals(1, edges.size());
            assertEquals(0.5, edges.get(0).getProperty("weight"));
            assertEquals(Set.of("label", "weight"), userProperties(edges.get(0)), "no edge bookkeeping");
            assertNull(edges.get(0).getProperty("_sink"));
        }
    }

    /** The entity's own properties (the SDK adds the keys, Timestamp and odata annotations to the map). */
    private static Set<String> userProperties(TableEntity e) {
        Set<String> names = new TreeSet<>();
        for (String k : e.getProperties().keySet()) {
            if (!k.equals("PartitionKey") && !k.equals("RowKey") && !k.equals("Timestamp") && !k.startsWith("odata.")
                    && !k.contains("@odata")) {
                assertFalse(SYSTEM.contains(k), k);
                names.add(k);
            }
        }
        return names;
    }

    private static List<String> rowKeys(TableClient t, String filter) {
        return t.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
                .map(TableEntity::getRowKey).toList();
    }

    private static TableServiceClient tables(TetraDbServer server) {
        InetSocketAddress a = server.endpoint("table").address();
        return new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT
                + ";AccountKey=" + DEV_KEY + ";TableEndpoint=http://" + Endpoint.hostPort(a) + "/" + ACCOUNT + ";")
                .buildClient();
    }

    private static void gremlin(TetraDbServer server, String script) throws Exception {
        InetSocketAddress a = server.endpoint("gremlin").address();
        Cluster cluster = TestGremlin.cluster(a).create();
        try {
            cluster.connect().submit(script).all().get();
        } finally {
            cluster.close();
        }
    }
}
