package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The seed scenarios of examples/ load, read back, and survive a close and reopen. */
class PersistenceAndExamplesTest {
    static final ObjectMapper M = new ObjectMapper();

    /** Scenario file → container, partition key path, RU/s, and how its items get an id. */
    record Scenario(String file, String container, String partitionKeyPath, Integer throughput, String idFrom) {
    }

    static final List<Scenario> SCENARIOS = List.of(
            new Scenario("person-embedded.jsonl", "people", "/id", null, "id"),
            new Scenario("blog-bucketed.jsonl", "posts", "/postId", null, "id"),
            new Scenario("portfolio-referenced.jsonl", "portfolio", "/id", null, "id"),
            new Scenario("publisher-books.jsonl", "books", "/pub-id", null, "id"),
            new Scenario("authors-books-hybrid.jsonl", "library", "/tenant", null, "id"),
            new Scenario("devices.jsonl", "coll", "/deviceId", 20000, "id"),
            // Mongo- and Tables-shaped scenarios: their faces map _id / RowKey onto the core id
            new Scenario("students-classes-single-collection.jsonl", "students_classes", "/doc_type", null, "_id"),
            new Scenario("customer-invoices.jsonl", "orders", "/doc_type", null, "_id"),
            new Scenario("customers-table.jsonl", "people_table", "/PartitionKey", null, "RowKey"));

    static Path examples() {
        return io.tetradb.testing.SharedExamples.dir();
    }

    static List<ObjectNode> load(Scenario s) throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(examples().resolve(s.file()))) {
            if (line.isBlank()) {
                continue;
            }
            ObjectNode n = (ObjectNode) M.readTree(line);
            if (!s.idFrom().equals("id")) {
                n.put("id", n.get(s.idFrom()).asText());
            }
            out.add(n);
        }
        return out;
    }

    @Test
    void everyScenarioLoadsReadsBackAndSurvivesReopen(@TempDir Path dir) throws IOException {
        Map<Scenario, List<ObjectNode>> data = new java.util.LinkedHashMap<>();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("examples");
            CosmosDatabase db = client.getDatabase("examples");
            for (Scenario s : SCENARIOS) {
                db.createContainerIfNotExists(new CosmosContainerProperties(s.container(), s.partitionKeyPath()),
                        s.throughput() == null ? null : ThroughputProperties.createManualThroughput(s.throughput()));
                List<ObjectNode> items = load(s);
                assertFalse(items.isEmpty(), s.file());
                for (ObjectNode item : items) {
                    assertEquals(201, db.getContainer(s.container()).createItem(item).getStatusCode());
                }
                data.put(s, items);
            }
            assertEquals(2, db.getContainer("coll").getFeedRanges().size(), "20000 RU/s → 2 physical partitions");
            checkAll(client, data);
        }
        try (CosmosClient reopened = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            checkAll(reopened, data);
            assertEquals(SCENARIOS.size(), reopened.getDatabase("examples").readAllContainers().size());
            assertEquals(2, reopened.getDatabase("examples").getContainer("coll").getFeedRanges().size());
            // the ReadDocument("XMS-001-FE24C", partitionKey "XMS-0001") point read of the devices scenario
            JsonNode device = reopened.getDatabase("examples").getContainer("coll")
                    .readItem("XMS-001-FE24C", new PartitionKey("XMS-0001"), ObjectNode.class).getItem();
            assertEquals(21.5, device.get("temperature").asDouble());
            // a book without pub-id is legal and lives in the "none" logical partition
            JsonNode orphan = reopened.getDatabase("examples").getContainer("books")
                    .readItem("3", PartitionKey.NONE, ObjectNode.class).getItem();
            assertEquals("Taking over the world one JSON doc at a time", orphan.get("name").asText());
        }
    }

    private static void checkAll(CosmosClient client, Map<Scenario, List<ObjectNode>> data) {
        for (Map.Entry<Scenario, List<ObjectNode>> e : data.entrySet()) {
            CosmosContainer c = client.getDatabase("examples").getContainer(e.getKey().container());
            long total = 0;
            for (ObjectNode expected : e.getValue()) {
                JsonNode pkValue = expected.at(e.getKey().partitionKeyPath().replace("\"", ""));
                PartitionKey pk = pkValue.isMissingNode() ? PartitionKey.NONE
                        : new PartitionKey(pkValue.isNumber() ? pkValue.numberValue() : pkValue.asText());
                ObjectNode got = c.readItem(expected.get("id").asText(), pk, ObjectNode.class).getItem();
                ObjectNode stripped = got.deepCopy();
                stripped.remove(List.of("_rid", "_self", "_etag", "_attachments", "_ts"));
                assertEquals(expected, stripped, e.getKey().file());
                total++;
            }
            long counted = c.readPartitionStatistics().physicalPartitions().stream()
                    .mapToLong(p -> p.itemCount()).sum();
            assertEquals(total, counted, "statistics of " + e.getKey().container());
        }
    }

    @Test
    void databasesAndContainersPersistWithTheirDefinitions(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("a");
            client.createDatabase("b");
            CosmosContainerProperties props = new CosmosContainerProperties("c",
                    new PartitionKeyDefinition().setPaths(List.of("/tenant", "/user", "/session")));
            props.setDefaultTimeToLiveInSeconds(3600);
            props.setIndexingPolicy(new IndexingPolicy().setIndexingMode(IndexingMode.NONE).setAutomatic(false)
                    .setIncludedPaths(List.of()).setExcludedPaths(List.of()));
            client.getDatabase("a").createContainer(props, ThroughputProperties.createManualThroughput(35000));
            client.getDatabase("b").createContainer("gone", "/x");
            client.getDatabase("b").getContainer("gone").delete();
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            assertEquals(List.of("a", "b"), client.readAllDatabases().stream().map(CosmosDatabaseProperties::getId).toList());
            assertTrue(client.getDatabase("b").readAllContainers().isEmpty());
            CosmosContainerProperties p = client.getDatabase("a").getContainer("c").read().getProperties();
            assertEquals(List.of("/tenant", "/user", "/session"), p.getPartitionKeyDefinition().getPaths());
            assertEquals(PartitionKind.MULTI_HASH, p.getPartitionKeyDefinition().getKind());
            assertEquals(3600, p.getDefaultTimeToLiveInSeconds());
            assertEquals(IndexingMode.NONE, p.getIndexingPolicy().getIndexingMode());
            assertEquals(4, client.getDatabase("a").getContainer("c").getFeedRanges().size(), "35000 RU/s → 4");
            client.getDatabase("a").delete();
            assertEquals(List.of("b"), client.readAllDatabases().stream().map(CosmosDatabaseProperties::getId).toList());
        }
    }
}
