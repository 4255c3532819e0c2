package io.tetradb.mongo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.document.PartitionKey;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.conversions.Bson;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Documents are stored as the core's typed values: filters on Int64 beyond 2^53, Decimal128, dates and ObjectIds are
 * exact (and seek the core's indexes where they can), a date another face stored finer than a millisecond and with
 * a UTC offset is found as the millisecond MongoDB sees, and documents stored in the earlier shape (relaxed Extended
 * JSON with the {@code _types} sidecar) read back exactly and are converted when their collection is opened.
 */
class TypedValuesTest extends MongoServerTestBase {
    private static final long TWO_53 = 1L << 53;
    private static final ObjectId A = new ObjectId("5f0000000000000000000001");
    private static final ObjectId B = new ObjectId("5f0000000000000000000002");

    @Test
    void filtersOnTypedValuesAreExact() {
        MongoCollection<BsonDocument> c = client.getDatabase("typed").getCollection("values", BsonDocument.class);
        c.drop();
        for (String field : List.of("n", "d", "o", "dec")) {
            c.createIndex(Indexes.ascending(field));
        }
        c.insertOne(doc(1, TWO_53, 1_000, A).append("dec", new BsonDecimal128(Decimal128.parse("0.1"))));
        c.insertOne(doc(2, TWO_53 + 1, 2_000, B).append("dec", new BsonDouble(0.1)));
        c.insertOne(doc(3, TWO_53 + 2, 3_000, new ObjectId()).append("dec", new BsonDecimal128(Decimal128.parse("0.10"))));
        c.insertOne(new BsonDocument("_id", new BsonInt32(4)).append("o", new BsonString(B.toHexString()))
                .append("d", new BsonString("1970-01-01T00:00:02.0000000Z")));

        assertEquals(List.of(2), ids(c, Filters.eq("n", TWO_53 + 1)));
        assertEquals(List.of(2, 3), ids(c, Filters.gt("n", TWO_53)));
        assertEquals(List.of(1, 2), ids(c, Filters.lte("n", TWO_53 + 1)));
        assertEquals(List.of(1), ids(c, Filters.eq("n", (double) (TWO_53 + 1))), "the double nearest 2^53+1 is 2^53");

        assertEquals(List.of(1, 3), ids(c, Filters.eq("dec", new Decimal128(new java.math.BigDecimal("0.1")))),
                "0.1 and 0.10 are one value, the double 0.1 another");
        assertEquals(List.of(2), ids(c, Filters.eq("dec", 0.1)));

        assertEquals(List.of(2), ids(c, Filters.eq("d", new Date(2_000))), "a string with the date's text is no date");
        assertEquals("IXSCAN", stage("values", Filters.eq("d", new Date(2_000))));
        assertEquals(List.of(1), ids(c, Filters.lt("d", new Date(2_000))));
        assertEquals("IXSCAN", stage("values", Filters.lt("d", new Date(2_000))));
        assertEquals(List.of(1, 2), ids(c, Filters.lte("d", new Date(2_000))));
        assertEquals(List.of(2, 3), ids(c, Filters.gte("d", new Date(2_000))));
        assertEquals(List.of(2, 3), ids(c, Filters.and(Filters.gt("d", new Date(1_000)), Filters.lt("d", new Date(9_000)))));

        assertEquals(List.of(2), ids(c, Filters.eq("o", B)), "the ObjectId, not the string of its hex digits");
        assertEquals("IXSCAN", stage("values", Filters.eq("o", B)));

        List<Integer> byDecimal = new ArrayList<>();
        c.find(Filters.lt("_id", 4)).sort(Sorts.orderBy(Sorts.descending("n"))).forEach(d -> byDecimal.add(
                d.getInt32("_id").getValue()));
        assertEquals(List.of(3, 2, 1), byDecimal, "longs beyond 2^53 sort exactly");

        BsonDocument back = c.find(Filters.eq("_id", 1)).first();
        assertEquals(new BsonInt64(TWO_53), back.get("n"));
        assertEquals(new BsonDateTime(1_000), back.get("d"));
        assertEquals(new BsonObjectId(A), back.get("o"));
        assertEquals(new BsonDecimal128(Decimal128.parse("0.1")), back.get("dec"));
    }

    /** A date the core holds finer than a millisecond, with a UTC offset, is the millisecond MongoDB shows. */
    @Test
    void datesOfOtherFacesAreFoundAsTheirMillisecond() throws Exception {
        MongoCollection<BsonDocument> c = client.getDatabase("typed").getCollection("fine", BsonDocument.class);
        c.drop();
        c.createIndex(Indexes.ascending("d"));
        c.insertOne(new BsonDocument("_id", new BsonString("m")).append("d", new BsonDateTime(1_736_416_800_123L)));
        ObjectNode item = new ObjectMapper().createObjectNode().put("id", "core").put("_id", "core"); // IdCodec: as is
        item.set("d", DateTimeNode.ofTicks(1_736_416_800_123L * 10_000 + 4_567, 14 * 60));
        store.getDatabase("typed").getContainer("fine").createItem(item, PartitionKey.NONE, null);
        assertEquals(List.of("core", "m"), stringIds(c, Filters.eq("d", new Date(1_736_416_800_123L))));
        assertEquals("IXSCAN", stage(c, Filters.eq("d", new Date(1_736_416_800_123L))));
        assertEquals(List.of("core", "m"), stringIds(c, Filters.lte("d", new Date(1_736_416_800_123L))));
        assertEquals(List.of(), stringIds(c, Filters.lt("d", new Date(1_736_416_800_123L))));
        assertEquals(new BsonDateTime(1_736_416_800_123L), c.find(Filters.eq("_id", "core")).first().get("d"));
    }

    /**
     * Documents in the earlier shape, written through the core API into a collection the face has not opened yet,
     * read back exactly; opening the collection converts them, so an ObjectId index seek finds them.
     */
    @Test
    void documentsOfTheEarlierShapeReadAndAreConverted() throws Exception {
        store.createDatabaseIfNotExists("olddata");
        store.getDatabase("olddata").createContainerIfNotExists("orders", "/~pk");
        ObjectMapper json = new ObjectMapper();
        store.getDatabase("olddata").getContainer("orders").createItem(json.readTree("{\"id\": \"o5f0000000000000000000001\","
                + " \"_id\": {\"$oid\": \"5f0000000000000000000001\"}, \"customer\": {\"$oid\": \"5f0000000000000000000002\"},"
                + " \"at\": {\"$date\": \"2025-01-09T10:00:00.5Z\"}, \"qty\": 5, \"total\": 1.5, \"big\": 4000000000,"
                + " \"~id\": \"user id\", \"_types\": {\"/qty\": \"long\", \"/total\": \"decimal:1.50\"}}"),
                PartitionKey.NONE, null);
        MongoCollection<BsonDocument> c = client.getDatabase("olddata").getCollection("orders", BsonDocument.class);
        BsonDocument expected = new BsonDocument("_id", new BsonObjectId(A)).append("customer", new BsonObjectId(B))
                .append("at", new BsonDateTime(1_736_416_800_500L)).append("qty", new BsonInt64(5))
                .append("total", new BsonDecimal128(Decimal128.parse("1.50"))).append("big", new BsonInt64(4_000_000_000L))
                .append("id", new BsonString("user id"));
        assertEquals(expected, c.find(Filters.eq("_id", A)).first());
        c.createIndex(Indexes.ascending("customer"));
        assertEquals(List.of(expected), c.find(Filters.eq("customer", B)).into(new ArrayList<>()));
        assertEquals("IXSCAN", stage(c, Filters.eq("customer", B)));
        ObjectNode stored = store.getDatabase("olddata").getContainer("orders")
                .readItem("~o5f0000000000000000000001", PartitionKey.NONE, ObjectNode.class).getItem(); // its new id
        assertTrue(stored.get("customer") instanceof ObjectIdNode, stored.toString());
        assertFalse(stored.has("_types"), stored.toString());
    }

    /** A store still writing JSON text cannot hold typed values: there the earlier shape is read, never converted. */
    @Test
    void aJsonTextStoreKeepsTheEarlierShape(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        String format = System.setProperty("tetradb.itemFormat", "json");
        try (io.tetradb.document.CosmosClient jsonStore = new io.tetradb.document.CosmosClientBuilder()
                .dataDirectory(dir).buildClient()) {
            MongoWireServer jsonServer = MongoWireServer.start(java.net.InetAddress.getLoopbackAddress(), 0, jsonStore);
            try (com.mongodb.client.MongoClient jsonClient = com.mongodb.client.MongoClients.create(
                    "mongodb://127.0.0.1:" + jsonServer.address().getPort())) {
                jsonStore.createDatabaseIfNotExists("olddata");
                jsonStore.getDatabase("olddata").createContainerIfNotExists("orders", "/~pk");
                jsonStore.getDatabase("olddata").getContainer("orders").createItem(new ObjectMapper().readTree(
                        "{\"id\": \"n1\", \"_id\": 1, \"customer\": {\"$oid\": \"5f0000000000000000000002\"},"
                        + " \"qty\": 5, \"_types\": {\"/qty\": \"long\"}}"), PartitionKey.NONE, null);
                assertEquals(new BsonDocument("_id", new BsonInt32(1)).append("customer", new BsonObjectId(B))
                        .append("qty", new BsonInt64(5)), jsonClient.getDatabase("olddata")
                        .getCollection("orders", BsonDocument.class).find().first());
                ObjectNode stored = jsonStore.getDatabase("olddata").getContainer("orders")
                        .readItem("~n1", PartitionKey.NONE, ObjectNode.class).getItem(); // moved to its new id
                assertTrue(stored.has("_types"), "not converted: " + stored);
            } finally {
                jsonServer.close();
            }
        } finally {
            if (format == null) {
                System.clearProperty("tetradb.itemFormat");
            } else {
                System.setProperty("tetradb.itemFormat", format);
            }
        }
    }

    private static BsonDocument doc(int id, long n, long ms, ObjectId o) {
        return new BsonDocument("_id", new BsonInt32(id)).append("n", new BsonInt64(n)).append("d", new BsonDateTime(ms))
                .append("o", new BsonObjectId(o));
    }

    private static List<Integer> ids(MongoCollection<BsonDocument> c, Bson filter) {
        List<Integer> out = new ArrayList<>();
        c.find(filter).forEach(d -> out.add(d.getInt32("_id").getValue()));
        out.sort(null);
        return out;
    }

    private static List<String> stringIds(MongoCollection<BsonDocument> c, Bson filter) {
        List<String> out = new ArrayList<>();
        c.find(filter).forEach(d -> out.add(d.getString("_id").getValue()));
        out.sort(null);
        return out;
    }

    private static String stage(String collection, Bson filter) {
        return stage(client.getDatabase("typed").getCollection(collection, BsonDocument.class), filter);
    }

    private static String stage(MongoCollection<BsonDocument> c, Bson filter) {
        org.bson.Document e = client.getDatabase(c.getNamespace().getDatabaseName()).runCommand(
                new org.bson.Document("explain", new org.bson.Document("find", c.getNamespace().getCollectionName())
                        .append("filter", filter.toBsonDocument())));
        org.bson.Document plan = e.get("queryPlanner", org.bson.Document.class).get("winningPlan", org.bson.Document.class);
        if (plan.getString("stage").equals("FETCH")) {
            plan = plan.get("inputStage", org.bson.Document.class);
        }
        return plan.getString("stage");
    }
}
