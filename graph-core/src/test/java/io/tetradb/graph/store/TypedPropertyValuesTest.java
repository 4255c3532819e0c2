package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MaxKeyNode;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import io.tetradb.graph.TempDirGraphTest;
import io.tetradb.graph.TetraGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 for the graph face: property values are stored as the core's typed values (no {@code _types} sidecar),
 * read back with their Java types through the item and through adjacency entries; items of the old shape still
 * read; other faces' typed values show as the cross-face table's TinkerPop types.
 */
class TypedPropertyValuesTest extends TempDirGraphTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    CosmosContainer container;

    @BeforeEach
    void findContainer() {
        container = client.getDatabase("graphdb").getContainer("graph");
    }

    private ObjectNode stored(String pk, String id) {
        return container.readItem(id, new PartitionKey(pk), ObjectNode.class).getItem();
    }

    @Test
    void valuesAreStoredAsTypedValuesWithoutSidecar() {
        UUID uuid = UUID.randomUUID();
        OffsetDateTime odt = OffsetDateTime.of(2026, 11, 26, 3, 4, 5, 123_456_700, ZoneOffset.ofHours(2));
        g.addV("t").property(T.id, "v").property("pk", "p")
                .property("l", 5L).property("i", 5).property("f", 1.5f).property("d", Double.NaN)
                .property("bd", new BigDecimal("1.10")).property("bi", new BigInteger("123456789012345678901234567890"))
                .property("date", new Date(1_700_000_000_123L)).property("odt", odt).property("u", uuid)
                .property("bin", new byte[]{1, 2, 3}).property("list", List.of(1L, "x"))
                .property("map", Map.of("k", 2L)).iterate();
        ObjectNode v = stored("p", "v");
        assertFalse(v.toString().contains("_types"), v.toString());
        assertInstanceOf(LongNode.class, entry(v, "l"));
        assertInstanceOf(IntNode.class, entry(v, "i"));
        assertInstanceOf(FloatNode.class, entry(v, "f"));
        assertTrue(Double.isNaN(entry(v, "d").doubleValue()));
        assertInstanceOf(DecimalNode.class, entry(v, "bd"));
        assertEquals("1.10", entry(v, "bd").decimalValue().toPlainString());
        assertInstanceOf(BigIntegerNode.class, entry(v, "bi"));
        assertEquals(DateTimeNode.ofEpochMillis(1_700_000_000_123L), entry(v, "date"));
        assertEquals(DateTimeNode.of(odt), entry(v, "odt"));
        assertEquals(UuidNode.of(uuid), entry(v, "u"));
        assertEquals(BinaryDataNode.of(0, new byte[]{1, 2, 3}), entry(v, "bin"));
        assertInstanceOf(LongNode.class, entry(v, "list").get(0));
        assertInstanceOf(LongNode.class, entry(v, "map").get("k"));

        Vertex read = graph.vertices(Arrays.asList("p", "v")).next();
        assertEquals(5L, (Object) read.value("l"));
        assertEquals(5, (Object) read.value("i"));
        assertEquals(1.5f, (Object) read.value("f"));
        assertTrue(Double.isNaN(read.value("d")));
        assertEquals(new BigDecimal("1.10"), read.value("bd"));
        assertEquals(new BigInteger("123456789012345678901234567890"), read.value("bi"));
        assertEquals(new Date(1_700_000_000_123L), read.value("date"));
        assertEquals(odt, read.value("odt"));
        assertEquals(uuid, read.value("u"));
        assertEquals(java.nio.ByteBuffer.wrap(new byte[]{1, 2, 3}), read.value("bin"), "TinkerPop's binary type");
        assertEquals(List.of(1L, "x"), read.value("list"));
        assertEquals(Map.of("k", 2L), read.value("map"));
        // indexed has() over typed values: a Long found by an Integer, a date not folded but tested
        assertEquals(1, g.V().has("l", 5).count().next());
        assertEquals(1, g.V().has("date", new Date(1_700_000_000_123L)).count().next());
    }

    private static JsonNode entry(ObjectNode vertex, String key) {
        return vertex.get(key).get(0).get("_value");
    }

    @Test
    void edgeAndMetaPropertiesKeepTheirTypesThroughItemsAndAdjacencyEntries() throws Exception {
        OffsetDateTime odt = OffsetDateTime.of(2020, 1, 2, 3, 4, 5, 0, ZoneOffset.ofHoursMinutes(-5, -30));
        Vertex a = g.addV("t").property(T.id, "a").property("pk", "p").next();
        Vertex b = g.addV("t").property(T.id, "b").property("pk", "q").next();
        g.V(a).property(VertexProperty.Cardinality.list, "name", "x", "since", 7L, "at", odt).iterate();
        Set<Object> set = new LinkedHashSet<>(List.of(1, 2));
        Map<Object, Object> intKeys = new LinkedHashMap<>();
        intKeys.put(1, "one");
        g.addE("e").from(a).to(b).property(T.id, "ab").property("w", 3L).property("f", 0.5f).property("at", odt)
                .property("s", set).property("m", intKeys).property("by", (byte) 4).property("sh", (short) 5).iterate();
        ObjectNode e = stored("p", "ab");
        assertFalse(e.toString().contains("_types"), e.toString());
        assertInstanceOf(LongNode.class, e.get("w"));
        assertEquals(DateTimeNode.of(odt), e.get("at"));
        // another graph object, so nothing is remembered from the writes: through adjacency entries, and the item
        try (TetraGraph other = TetraGraph.open(client, new BaseConfiguration())) {
            for (Edge edge : List.of(other.traversal().V(Arrays.asList("q", "b")).inE("e").next(),
                    other.traversal().V(Arrays.asList("p", "a")).outE().next(),
                    other.traversal().E(Arrays.asList("p", "ab")).next())) {
                assertEquals(3L, (Object) edge.value("w"));
                assertEquals(0.5f, (Object) edge.value("f"));
                assertEquals(odt, edge.value("at"));
                assertEquals(set, edge.value("s"));
                assertInstanceOf(Set.class, edge.value("s"));
                assertEquals(intKeys, edge.value("m"));
                assertEquals((byte) 4, (Object) edge.value("by"));
                assertEquals((short) 5, (Object) edge.value("sh"));
            }
            VertexProperty<Object> name = other.vertices(Arrays.asList("p", "a")).next().property("name");
            assertEquals(7L, (Object) name.value("since"));
            assertEquals(odt, name.value("at"));
        }
    }

    /**
     * On a store that writes JSON text (the core's default before TB1; still a setting), typed values would lose
     * their type: values are written in the old shape there, which JSON keeps.
     */
    @Test
    void aJsonTextStoreGetsTheOldShape(@TempDir Path jsonDir) throws Exception {
        String format = System.getProperty("tetradb.itemFormat");
        System.setProperty("tetradb.itemFormat", "json"); // read by the core's ItemCodec when a store opens
        try (CosmosClient json = new CosmosClientBuilder().dataDirectory(jsonDir).buildClient();
             TetraGraph jsonGraph = TetraGraph.open(json, new BaseConfiguration())) {
            assertFalse(ValueCodec.typedValues());
            UUID uuid = UUID.randomUUID();
            jsonGraph.traversal().addV("t").property(T.id, "v").property("pk", "p").property("l", 5L)
                    .property("date", new Date(42)).property("u", uuid).iterate();
            ObjectNode v = json.getDatabase("graphdb").getContainer("graph")
                    .readItem("v", new PartitionKey("p"), ObjectNode.class).getItem();
            assertEquals("long", v.get("l").get(0).get("_types").get("_value").asText());
            try (TetraGraph again = TetraGraph.open(json, new BaseConfiguration())) {
                Vertex read = again.vertices(Arrays.asList("p", "v")).next();
                assertEquals(5L, (Object) read.value("l"));
                assertEquals(new Date(42), read.value("date"));
                assertEquals(uuid, read.value("u"));
            }
        } finally {
            if (format == null) {
                System.clearProperty("tetradb.itemFormat");
            } else {
                System.setProperty("tetradb.itemFormat", format);
            }
        }
        // the next graph on a TB1 store writes typed values again
        try (TetraGraph typedAgain = TetraGraph.open(client, new BaseConfiguration())) {
            assertTrue(ValueCodec.typedValues());
        }
    }

    /** Items in the graph face's earlier shape, written through the core API, read as before and heal on write. */
    @Test
    void itemsOfTheOldShapeStillRead() throws Exception {
        ObjectMapper json = new ObjectMapper();
        container.createItem(json.readTree("""
                {"id": "old", "pk": "p", "label": "legacy",
                 "n": [{"id": "e1", "_value": 42, "_types": {"_value": "long"}}],
                 "when": [{"id": "e2", "_value": 1600000000000, "_types": {"_value": "date", "since": "short"},
                           "since": 3}],
                 "odt": [{"id": "e3", "_value": 1577836800000,
                          "_types": {"_value": "datetime:2020-01-01T02:00:00.000000001+02:00"}}],
                 "big": [{"id": "e4", "_value": 1.1, "_types": {"_value": "bigdecimal:1.10"}}],
                 "u": [{"id": "e5", "_value": {"@type": "uuid", "@value": "123e4567-e89b-12d3-a456-426614174000"}}],
                 "nan": [{"id": "e6", "_value": {"@type": "double", "@value": "NaN"}}],
                 "m": [{"id": "e7", "_value": {"@type": "map", "@value": [[{"@type": "long", "@value": 1}, "x"]]}}],
                 "s": [{"id": "e8", "_value": {"@type": "set", "@value": [1, {"@type": "float", "@value": 2.5}]}}]}
                """), new PartitionKey("p"), null);
        container.createItem(json.readTree("""
                {"id": "old2", "pk": "p", "label": "legacy"}"""), new PartitionKey("p"), null);
        container.createItem(json.readTree("""
                {"id": "oldE", "pk": "p", "label": "knows", "_isEdge": true, "_vertexId": "old",
                 "_vertexLabel": "legacy", "_sink": "old2", "_sinkLabel": "legacy", "_sinkPartition": "p",
                 "w": 5, "f": 0.25, "_types": {"w": "long", "f": "float"}}"""), new PartitionKey("p"), null);
        Vertex v = graph.vertices(Arrays.asList("p", "old")).next();
        assertEquals(42L, (Object) v.value("n"));
        assertEquals(new Date(1_600_000_000_000L), v.value("when"));
        assertEquals((short) 3, (Object) v.property("when").value("since"));
        assertEquals(OffsetDateTime.parse("2020-01-01T02:00:00.000000001+02:00"), v.value("odt"));
        assertEquals(new BigDecimal("1.10"), v.value("big"));
        assertEquals(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), v.value("u"));
        assertTrue(Double.isNaN(v.value("nan")));
        assertEquals(Map.of(1L, "x"), v.value("m"));
        assertEquals(Set.of(1, 2.5f), v.value("s"));
        for (Edge e : List.of(g.V(Arrays.asList("p", "old")).outE().next(), g.E(Arrays.asList("p", "oldE")).next())) {
            assertEquals(5L, (Object) e.value("w"));
            assertEquals(0.25f, (Object) e.value("f"));
            assertEquals(Set.of("w", "f"), e.keys());
        }
        // a write through the graph stores a typed value and drops that key's sidecar record
        g.E(Arrays.asList("p", "oldE")).property("w", 6L).iterate();
        ObjectNode e = stored("p", "oldE");
        assertInstanceOf(LongNode.class, e.get("w"));
        assertEquals("{\"f\":\"float\"}", e.get("_types").toString());
        assertEquals(0.25f, (Object) g.E(Arrays.asList("p", "oldE")).next().value("f"));
        g.V(Arrays.asList("p", "old")).property("n", 43L).iterate();
        assertInstanceOf(LongNode.class, entry(stored("p", "old"), "n"));
        assertFalse(stored("p", "old").get("n").get(0).has("_types"));
    }

    /** A document another face wrote into the graph's container: its typed values in TinkerPop types. */
    @Test
    void otherFacesValuesShowAsTinkerPopTypes() {
        ObjectNode doc = F.objectNode();
        doc.put("id", "doc").put("pk", "p").put("name", "plain").put("_id", "doc"); // _id: as the Mongo face keeps it
        doc.set("oid", ObjectIdNode.ofHex("65a1b2c3d4e5f60718293a4b"));
        doc.set("when", DateTimeNode.ofEpochMillis(1_700_000_000_000L));
        doc.set("fine", DateTimeNode.ofTicks(17_000_000_000_000_001L));
        doc.set("ts", TimestampNode.of(5, 1));
        doc.set("re", RegexNode.of("^a", "i"));
        doc.set("min", MinKeyNode.INSTANCE);
        doc.set("max", MaxKeyNode.INSTANCE);
        doc.set("dec", Decimal128Node.of(new BigDecimal("1.50")));
        doc.putNull("nothing");
        ObjectNode address = doc.putObject("address");
        address.put("city", "Seattle").put("zip", 98101);
        address.putObject("geo").put("lat", 47.6);
        address.set("low", MinKeyNode.INSTANCE);
        doc.putArray("tags").add("a").add("b");
        container.createItem(doc, new PartitionKey("p"), null);

        Vertex v = graph.vertices(Arrays.asList("p", "doc")).next();
        assertEquals(Vertex.DEFAULT_LABEL, v.label());
        assertEquals("plain", v.value("name"));
        assertEquals("65a1b2c3d4e5f60718293a4b", v.value("oid"));
        assertEquals(new Date(1_700_000_000_000L), v.value("when"));
        assertEquals(OffsetDateTime.parse("2023-11-14T22:13:20.0000001Z"), v.value("fine"));
        assertEquals((5L << 32) + 1, (Object) v.value("ts"));
        assertEquals("/^a/i", v.value("re"));
        assertEquals(new BigDecimal("1.50"), v.value("dec"));
        assertFalse(v.property("min").isPresent());
        assertFalse(v.property("max").isPresent());
        assertFalse(v.property("nothing").isPresent());
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("city", "Seattle");
        expected.put("zip", 98101);
        expected.put("geo", Map.of("lat", 47.6));
        assertEquals(expected, v.value("address"));
        assertEquals(List.of("a", "b"), v.value("tags"));
        assertEquals(Set.of("pk", "name", "oid", "when", "fine", "ts", "re", "dec", "address", "tags"), v.keys());
        assertEquals("plain", g.V().hasLabel("vertex").values("name").next());
        assertEquals(Map.of("vertex", 1L), g.V().groupCount().by(T.label).next());

        // written through the graph, a plain field becomes an entry list; the others are left as they were
        g.V(v).property(VertexProperty.Cardinality.list, "tags", "c").iterate();
        g.V(v).property("name", "renamed").iterate();
        assertEquals(Set.of(List.of("a", "b"), "c"), Set.copyOf(g.V(v).values("tags").toList()));
        assertEquals("renamed", g.V(v).values("name").next());
        ObjectNode after = stored("p", "doc");
        assertEquals(ObjectIdNode.ofHex("65a1b2c3d4e5f60718293a4b"), after.get("oid"));
        assertTrue(Layout.isEntries(after.get("tags")), after.get("tags").toString());
        g.V(v).properties("oid").drop().iterate();
        assertNull(stored("p", "doc").get("oid"));
    }
}
