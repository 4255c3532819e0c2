package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.UuidNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.table.filter.Filter;
import io.tetradb.table.filter.FilterEvaluator;
import io.tetradb.table.filter.FilterParser;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.Entity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Entities as the core's typed values (issue 17): typed filters exact on seeks and scans, entities stored in the
 * earlier shape ({@code _types}) still read and filter, and other faces' items shown as Edm types with their typed
 * values kept by Tables merges and updates.
 */
class TypedEntityItemsTest {
    private static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    TableService service;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        service = new TableService(client, "devstoreaccount1");
    }

    @AfterEach
    void close() {
        client.close();
    }

    private ContainerStore core(String table) {
        return client.coreStore().container("devstoreaccount1", table);
    }

    private ObjectNode stored(String table, PartitionKeyValue pk, String id) {
        ContainerStore c = core(table);
        return c.codec().parse(c.read(pk, id, null).stored());
    }

    private static PartitionKeyValue pk(String s) {
        return PartitionKeyValue.of(TextNode.valueOf(s));
    }

    private static List<String> rowKeys(Table t, String filter) {
        List<String> out = new ArrayList<>();
        String token = null;
        do {
            Table.Page page = t.query(FilterParser.parse(filter), 1000, token);
            page.entities().forEach(e -> out.add(e.rowKey()));
            token = page.continuation();
        } while (token != null);
        return out;
    }

    @Test
    void typedFiltersAreExactOnSeeksAndScans() {
        Table t = service.createTable("typed");
        Instant base = Instant.parse("2020-05-05T10:00:00.1234567Z");
        Random rnd = new Random(17);
        List<Entity> all = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            Map<String, EdmValue> p = new LinkedHashMap<>();
            p.put("T", EdmValue.dateTime(base.plusNanos(100L * (i % 40))));         // 100 ns apart
            p.put("G", EdmValue.guid(new UUID(i % 7, i)));
            p.put("Bin", EdmValue.binary(new byte[]{(byte) (i % 5), 1}));
            p.put("S", EdmValue.string(i % 2 == 0 ? "2020-05-05T10:00:00.1234567Z" : "x"));
            p.put("N", EdmValue.int64(i % 11));
            if (i % 10 == 0) {
                p.put("G", EdmValue.binary(new byte[20]));                     // another type under the same name
                p.put("T", EdmValue.string("2020-05-05T10:00:00.1234570Z"));   // a text that looks like a date
            }
            Entity e = new Entity("p" + (i % 3), String.format("r%03d", i), p);
            t.insert(e);
            all.add(e);
        }
        List<String> filters = List.of(
                "T eq datetime'2020-05-05T10:00:00.1234567Z'", "T eq datetime'2020-05-05T10:00:00.1234570Z'",
                "T gt datetime'2020-05-05T10:00:00.1234600Z'", "T le datetime'2020-05-05T10:00:00.1234569Z'",
                "T ge datetime'2020-05-05T10:00:00.1234567Z' and T lt datetime'2020-05-05T10:00:00.1234577Z'",
                "T ne datetime'2020-05-05T10:00:00.1234567Z'", "T eq '2020-05-05T10:00:00.1234570Z'",
                "S eq datetime'2020-05-05T10:00:00.1234567Z'", "S eq '2020-05-05T10:00:00.1234567Z'",
                "G eq guid'00000000-0000-0003-0000-000000000003'", "G gt guid'00000000-0000-0004-0000-000000000000'",
                "G lt guid'00000000-0000-0001-0000-000000000000'", "G eq X'0000000000000000000000000000000000000000'",
                "Bin eq X'0201'", "Bin ne X'0201'", "N eq 3", "N ge 9L and T gt datetime'2020-05-05T10:00:00.1234590Z'",
                "not (T lt datetime'2020-05-05T10:00:00.1234580Z')", "T gt datetime'2020-05-05T10:00:00Z' or N eq 1");
        for (String f : filters) {
            Filter parsed = FilterParser.parse(f);
            List<String> expected = all.stream().filter(e -> FilterEvaluator.matches(parsed, e.properties()::get))
                    .map(Entity::rowKey).sorted().toList();
            List<String> got = new ArrayList<>(rowKeys(t, f));
            got.sort(null);
            assertEquals(expected, got, f);
        }
        assertEquals(3, rowKeys(t, "T eq datetime'2020-05-05T10:00:00.1234568Z'").size(), "100 ns exact");
        assertEquals(List.of(), rowKeys(t, "S eq datetime'2020-05-05T10:00:00.1234567Z'"), "a String is no DateTime");
        assertEquals(12, rowKeys(t, "T eq '2020-05-05T10:00:00.1234570Z'").size(), "a DateTime is no String");
        assertEquals(12, rowKeys(t, "G eq X'0000000000000000000000000000000000000000'").size(),
                "a Binary is no Guid");
        for (String f : List.of("T eq datetime'2020-05-05T10:00:00.1234567Z'",
                "T gt datetime'2020-05-05T10:00:00.1234600Z'", "G eq guid'00000000-0000-0003-0000-000000000003'",
                "Bin eq X'0201'")) {
            String access = t.query(FilterParser.parse(f), 1000, null).access();
            String path = f.substring(0, f.indexOf(' '));
            assertTrue(access.contains("/" + path), f + " is an index seek: " + access);
        }
    }

    /** An entity in the earlier shape (JSON + {@code _types}), written through the core API as that code did. */
    @Test
    void entitiesStoredInTheEarlierShapeStillReadFilterAndMerge() throws Exception {
        Table t = service.createTable("legacy");
        UUID g = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
        ObjectNode old = (ObjectNode) M.readTree("""
                {"id": "Ben", "PartitionKey": "Smith", "Timestamp": "2026-11-23T21:11:31.1234567Z",
                 "Age": 42, "Balance": 9007199254740993, "Small": 5, "Joined": "2016-03-01T09:30:00.1234567Z",
                 "Ratio": 2.0, "N": "NaN", "G": "0f8fad5b-d9cb-469f-a165-70867728950e", "Bin": "00ff", "Name": "Ben",
                 "~id": "mine",
                 "_types": {"Balance": "Edm.Int64", "Small": "Edm.Int64", "Joined": "Edm.DateTime", "Ratio": "Edm.Double",
                            "N": "Edm.Double", "G": "Edm.Guid", "Bin": "Edm.Binary"}}""");
        core("legacy").execute(pk("Smith"), ItemOperation.create(old));
        Instant joined = Instant.parse("2016-03-01T09:30:00.1234567Z");

        Entity ben = t.get("Smith", "Ben").entity();
        Map<String, EdmValue> expected = new LinkedHashMap<>();
        expected.put("Age", EdmValue.int32(42));
        expected.put("Balance", EdmValue.int64(9007199254740993L));
        expected.put("Small", EdmValue.int64(5));
        expected.put("Joined", EdmValue.dateTime(joined));
        expected.put("Ratio", EdmValue.dbl(2.0));
        expected.put("N", EdmValue.dbl(Double.NaN));
        expected.put("G", EdmValue.guid(g));
        expected.put("Bin", EdmValue.binary(new byte[]{0, (byte) 0xff}));
        expected.put("Name", EdmValue.string("Ben"));
        expected.put("id", EdmValue.string("mine"));
        assertEquals(expected, ben.properties());
        assertEquals(Instant.parse("2026-11-23T21:11:31.1234567Z"), ben.timestamp());

        assertEquals(List.of("Ben"), rowKeys(t, "Joined eq datetime'2016-03-01T09:30:00.1234567Z'"));
        assertEquals(List.of("Ben"), rowKeys(t, "Joined gt datetime'2016-01-01T00:00:00Z'"));
        assertEquals(List.of(), rowKeys(t, "Joined eq '2016-03-01T09:30:00.1234567Z'"), "still a DateTime");
        assertEquals(List.of("Ben"), rowKeys(t, "G eq guid'0f8fad5b-d9cb-469f-a165-70867728950e'"));
        assertEquals(List.of(), rowKeys(t, "G eq '0f8fad5b-d9cb-469f-a165-70867728950e'"));
        assertEquals(List.of("Ben"), rowKeys(t, "Bin eq X'00ff'"));
        assertEquals(List.of("Ben"), rowKeys(t, "Small eq 5 and Balance gt 9007199254740992L"));
        assertEquals(List.of("Ben"), rowKeys(t, "Timestamp eq datetime'2026-11-23T21:11:31.1234567Z'"));

        // the next write stores it typed, without the sidecar, every value kept
        t.merge(new Entity("Smith", "Ben", Map.of("Extra", EdmValue.bool(true))), "*", false);
        ObjectNode now = stored("legacy", pk("Smith"), "Ben");
        assertFalse(now.has("_types"));
        assertEquals(DateTimeNode.of(joined), now.get("Joined"));
        assertEquals(LongNode.valueOf(5), now.get("Small"));
        assertEquals(UuidNode.of(g), now.get("G"));
        Map<String, EdmValue> merged = new LinkedHashMap<>(expected);
        merged.put("Extra", EdmValue.bool(true));
        assertEquals(merged, t.get("Smith", "Ben").entity().properties());
    }

    /** A document as the Mongo face stores it on the core's typed values, in a collection of the account. */
    @Test
    void anotherFacesItemsShowAsEdmTypesAndKeepTheirTypesThroughMerges() {
        client.coreStore().createDatabase("devstoreaccount1", null);
        client.coreStore().createContainer("devstoreaccount1", "orders", PartitionKeyDefinition.of("/region"), null,
                null, null, null);
        ObjectIdNode oid = ObjectIdNode.ofHex("65f1a2b3c4d5e6f708192a3b");
        DateTimeNode when = DateTimeNode.ofEpochMillis(1_700_000_000_123L);
        UUID u = UUID.fromString("3b241101-e2bb-4255-8caf-4136c566a962");
        ObjectNode doc = M.createObjectNode();
        doc.put("id", "o65f1a2b3c4d5e6f708192a3b");
        doc.set("_id", oid);
        doc.put("region", "east");
        doc.set("when", when);
        doc.set("count", LongNode.valueOf(5));
        doc.set("qty", IntNode.valueOf(3));
        doc.set("ref", ObjectIdNode.ofHex("000000000000000000000001"));
        doc.set("bin", BinaryDataNode.of(0, new byte[]{1, 2, 3}));
        doc.set("u", UuidNode.of(u));
        doc.set("price", Decimal128Node.of(new BigDecimal("1.50")));
        ObjectNode sub = doc.putObject("sub");
        sub.put("a", 1);
        sub.set("d", when);
        doc.putArray("tags").add("x").add(2);
        doc.set("low", MinKeyNode.INSTANCE);
        doc.set("nothing", NullNode.getInstance());
        doc.put("~rep", true);
        core("orders").execute(pk("east"), ItemOperation.create(doc));
        ObjectNode noPk = M.createObjectNode().put("id", "plain").put("n", 1);
        core("orders").execute(PartitionKeyValue.none(1), ItemOperation.create(noPk));

        Table t = service.table("orders");
        Entity e = t.query(FilterParser.parse("PartitionKey eq 'east'"), 10, null).entities().get(0);
        assertEquals("east", e.partitionKey());
        assertEquals("65f1a2b3c4d5e6f708192a3b", e.rowKey(), "RowKey: the ObjectId _id as 24 hex digits");
        Map<String, EdmValue> expected = new LinkedHashMap<>();
        expected.put("when", EdmValue.dateTime(when.instant()));
        expected.put("count", EdmValue.int64(5));
        expected.put("qty", EdmValue.int32(3));
        expected.put("ref", EdmValue.string("000000000000000000000001"));
        expected.put("bin", EdmValue.binary(new byte[]{1, 2, 3}));
        expected.put("u", EdmValue.guid(u));
        expected.put("price", EdmValue.string("1.50"));
        expected.put("sub", EdmValue.string("{\"a\":1,\"d\":\"2023-11-14T22:13:20.1230000Z\"}"));
        expected.put("tags", EdmValue.string("[\"x\",2]"));
        assertEquals(expected, e.properties(), "no _id, region, MinKey, null or the Mongo face's marker");
        JsonNode item = stored("orders", pk("east"), "o65f1a2b3c4d5e6f708192a3b");
        assertEquals(Instant.ofEpochSecond(item.get("_ts").asLong()), e.timestamp().truncatedTo(
                java.time.temporal.ChronoUnit.SECONDS), "Timestamp from _ts");
        assertEquals(List.of("65f1a2b3c4d5e6f708192a3b"), rowKeys(t, "when ge datetime'2023-11-14T22:13:20.123Z'"));
        assertEquals(List.of("65f1a2b3c4d5e6f708192a3b"), rowKeys(t, "count eq 5L and qty lt 4"));
        assertEquals(List.of("plain"), rowKeys(t, "PartitionKey eq ''"), "no partition key value: PartitionKey ''");
        assertEquals(Map.of("n", EdmValue.int32(1)), t.get("", "plain").entity().properties());

        // a merge changes what it names and keeps every other typed value, the keys and the bookkeeping
        t.merge(new Entity("east", "65f1a2b3c4d5e6f708192a3b", Map.of("count", EdmValue.int64(6),
                "note", EdmValue.string("y"))), e.etag(), false);
        ObjectNode merged = stored("orders", pk("east"), "o65f1a2b3c4d5e6f708192a3b");
        assertEquals(LongNode.valueOf(6), merged.get("count"));
        assertEquals("y", merged.get("note").textValue());
        for (String kept : List.of("_id", "region", "when", "ref", "bin", "u", "price", "sub", "tags", "low",
                "nothing", "~rep")) {
            assertEquals(doc.get(kept), merged.get(kept), kept);
        }
        assertFalse(merged.has("Timestamp") || merged.has("PartitionKey"), "no Tables keys in another face's item");

        // an update with what Tables showed keeps the types behind the shown values; left-out properties go
        Entity shown = t.get("east", "65f1a2b3c4d5e6f708192a3b").entity();
        Map<String, EdmValue> replaced = new LinkedHashMap<>(shown.properties());
        replaced.remove("tags");
        replaced.put("qty", EdmValue.int32(4));
        t.update(new Entity("east", shown.rowKey(), replaced), shown.etag());
        ObjectNode updated = stored("orders", pk("east"), "o65f1a2b3c4d5e6f708192a3b");
        assertEquals(oid, updated.get("_id"));
        assertEquals(doc.get("ref"), updated.get("ref"), "an ObjectId shown as a String and sent back stays one");
        assertEquals(doc.get("sub"), updated.get("sub"), "a sub-document shown as JSON text and sent back stays one");
        assertEquals(doc.get("price"), updated.get("price"));
        assertEquals(IntNode.valueOf(4), updated.get("qty"));
        assertNull(updated.get("tags"), "a shown property the update leaves out is removed");
        assertEquals(MinKeyNode.INSTANCE, updated.get("low"), "values Tables does not show stay");

        // the other face's partition key property is not the Tables client's to write
        io.tetradb.table.model.TableException refused = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.table.model.TableException.class, () -> t.merge(new Entity("east", shown.rowKey(),
                        Map.of("region", EdmValue.string("west"))), "*", false));
        assertEquals(400, refused.status());
        assertEquals("east", stored("orders", pk("east"), "o65f1a2b3c4d5e6f708192a3b").get("region").textValue());

        // an upsert (insert or replace) of the existing item replaces it the same way
        t.upsert(new Entity("east", shown.rowKey(), Map.of("qty", EdmValue.int32(5))));
        ObjectNode upserted = stored("orders", pk("east"), "o65f1a2b3c4d5e6f708192a3b");
        assertEquals(oid, upserted.get("_id"));
        assertEquals("east", upserted.get("region").textValue());
        assertEquals(IntNode.valueOf(5), upserted.get("qty"));
        assertNull(upserted.get("ref"));
        assertEquals(Map.of("qty", EdmValue.int32(5)), t.get("east", shown.rowKey()).entity().properties());
    }

    /**
     * While the core writes JSON text (its default until the binary item format is), typed values would lose their
     * types there: entities are then written in the earlier shape, which keeps them, and filters still find them.
     */
    @Test
    void aCoreStoringJsonTextGetsTheEarlierShape(@TempDir Path jsonDir) {
        String previous = System.getProperty("tetradb.itemFormat");
        System.setProperty("tetradb.itemFormat", "json");
        try (CosmosClient json = new CosmosClientBuilder().dataDirectory(jsonDir).buildClient()) {
            Table t = new TableService(json, "devstoreaccount1").createTable("jsontext");
            Instant when = Instant.parse("2016-03-01T09:30:00.1234567Z");
            Map<String, EdmValue> p = new LinkedHashMap<>();
            p.put("L", EdmValue.int64(5));
            p.put("T", EdmValue.dateTime(when));
            p.put("G", EdmValue.guid(new UUID(1, 2)));
            p.put("N", EdmValue.dbl(Double.NaN));
            t.insert(new Entity("p", "r", p));
            t.merge(new Entity("p", "r", Map.of("B", EdmValue.binary(new byte[]{7}))), "*", false);
            Map<String, EdmValue> expected = new LinkedHashMap<>(p);
            expected.put("B", EdmValue.binary(new byte[]{7}));
            assertEquals(expected, t.get("p", "r").entity().properties());
            ContainerStore c = json.coreStore().container("devstoreaccount1", "jsontext");
            JsonNode item = c.codec().parse(c.read(pk("p"), "r", null).stored());
            assertEquals("Edm.DateTime", item.path("_types").path("T").textValue());
            assertEquals(List.of("r"), rowKeys(t, "T eq datetime'2016-03-01T09:30:00.1234567Z' and L eq 5L"));
            assertEquals(List.of("r"), rowKeys(t, "B eq X'07'"));
        } finally {
            if (previous == null) {
                System.clearProperty("tetradb.itemFormat");
            } else {
                System.setProperty("tetradb.itemFormat", previous);
            }
        }
    }

    /** Vertices and edges in Cosmos DB's Gremlin layout: their property values, not the graph's bookkeeping. */
    @Test
    void graphItemsShowTheirPropertyValues() throws Exception {
        client.coreStore().createDatabase("devstoreaccount1", null);
        client.coreStore().createContainer("devstoreaccount1", "graph", PartitionKeyDefinition.of("/pk"), null,
                null, null, null);
        core("graph").execute(pk("g"), ItemOperation.create((ObjectNode) M.readTree("""
                {"id": "v1", "pk": "g", "label": "person", "name": [{"id": "p1", "_value": "marko"}],
                 "age": [{"id": "p2", "_value": 29}]}""")));
        core("graph").execute(pk("g"), ItemOperation.create((ObjectNode) M.readTree("""
                {"id": "e1", "pk": "g", "label": "knows", "_isEdge": true, "_vertexId": "v1", "_vertexLabel": "person",
                 "_sink": "v2", "_sinkLabel": "person", "_sinkPartition": "g", "weight": 0.5}""")));
        Table t = service.table("graph");
        assertEquals(Map.of("label", EdmValue.string("person"), "name", EdmValue.string("marko"),
                "age", EdmValue.int32(29)), t.get("g", "v1").entity().properties());
        assertEquals(Map.of("label", EdmValue.string("knows"), "weight", EdmValue.dbl(0.5)),
                t.get("g", "e1").entity().properties());
        t.merge(new Entity("g", "v1", Map.of("age", EdmValue.int32(30))), "*", false);
        assertEquals(M.readTree("[{\"id\": \"p2\", \"_value\": 30}]"), stored("graph", pk("g"), "v1").get("age"),
                "the vertex property entry keeps its id");
    }
}
