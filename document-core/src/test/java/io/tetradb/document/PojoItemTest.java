package io.tetradb.document;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** Items as plain Java objects, mapped by Jackson as the Cosmos SDK maps them. */
class PojoItemTest {
    public static class Family {
        public String id;
        public String lastName;
        public Address address;
        public List<String> children;
        public boolean registered;

        public Family() {
        }

        Family(String id, String lastName, String city, List<String> children) {
            this.id = id;
            this.lastName = lastName;
            this.address = new Address();
            this.address.city = city;
            this.children = children;
        }
    }

    public static class Address {
        public String city;
    }

    public static class Order {
        public String id;
        public String pk;
        public String placed;
        public String ref;
        public java.math.BigDecimal total;
    }

    /** Typed values another face stored read into a POJO as their JSON view, as the Cosmos SDK would see them. */
    @Test
    void typedValuesReadIntoPojosAsTheirJsonView(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("orders", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("orders");
            ObjectNode typed = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
                    .put("id", "o1").put("pk", "p");
            typed.set("placed", io.tetradb.core.value.DateTimeNode.ofEpochMillis(1_000));
            typed.set("ref", io.tetradb.core.value.ObjectIdNode.ofHex("65a1b2c3d4e5f60718293a4b"));
            typed.set("total", io.tetradb.core.value.Decimal128Node.of(new java.math.BigDecimal("19.90")));
            c.createItem(typed);
            Order o = c.readItem("o1", new PartitionKey("p"), Order.class).getItem();
            assertEquals("1970-01-01T00:00:01.0000000Z", o.placed);
            assertEquals("65a1b2c3d4e5f60718293a4b", o.ref);
            assertEquals(new java.math.BigDecimal("19.90"), o.total);
        }
    }

    @Test
    void pojosRoundTripAndSystemPropertiesAreIgnoredOnTheWayIn(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).contentResponseOnWriteEnabled(true)
                .buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("families", "/lastName");
            CosmosContainer c = client.getDatabase("db").getContainer("families");
            CosmosItemResponse<Family> created = c.createItem(new Family("AndersenFamily", "Andersen", "Seattle",
                    List.of("Henriette", "Jesper")));
            assertEquals(201, created.getStatusCode());
            assertEquals("Seattle", created.getItem().address.city, "content response on write, set on the builder");

            Family read = c.readItem("AndersenFamily", new PartitionKey("Andersen"), Family.class).getItem();
            assertEquals(List.of("Henriette", "Jesper"), read.children);
            read.registered = true;
            c.replaceItem(read, read.id, new PartitionKey(read.lastName), null);

            // the stored item carries system properties; a POJO without them still reads, and writing a JSON
            // tree that carries old system properties back does not store them twice
            ObjectNode tree = c.readItem("AndersenFamily", new PartitionKey("Andersen"), ObjectNode.class).getItem();
            assertNotNull(tree.get("_etag"));
            assertEquals(true, tree.get("registered").asBoolean());
            tree.put("_etag", "\"stale\"").put("_ts", 1);
            c.upsertItem(tree);
            ObjectNode again = c.readItem("AndersenFamily", new PartitionKey("Andersen"), ObjectNode.class).getItem();
            assertEquals(1, again.findValues("_etag").size());
            assertEquals(false, again.get("_etag").asText().contains("stale"));
            assertEquals(204, c.deleteItem(read, null).getStatusCode());
        }
    }
}
