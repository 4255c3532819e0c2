package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The seed scenarios of {@code examples/} through the Java SDK, as the examples README describes them. */
class ScenariosTest extends ServerFixture {
    CosmosDatabase db;

    @BeforeAll
    void database() {
        sdk.createDatabaseIfNotExists("examples");
        db = sdk.getDatabase("examples");
    }

    static List<ObjectNode> load(String file) throws Exception {
        Path p = Path.of("..", "examples", file);
        List<ObjectNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(p)) {
            if (!line.isBlank()) {
                out.add((ObjectNode) Json.MAPPER.readTree(line));
            }
        }
        return out;
    }

    private CosmosContainer container(String id, String pk, Integer throughput, String file) throws Exception {
        CosmosContainerProperties props = new CosmosContainerProperties(id, pk);
        if (throughput == null) {
            db.createContainer(props);
        } else {
            db.createContainer(props, ThroughputProperties.createManualThroughput(throughput));
        }
        CosmosContainer c = db.getContainer(id);
        for (ObjectNode item : load(file)) {
            c.createItem(item);
        }
        return c;
    }

    @Test
    void devicesAtTwentyThousandRuOnTwoPhysicalPartitions() throws Exception {
        CosmosContainer c = container("coll", "/deviceId", 20000, "devices.jsonl");
        ObjectNode d = c.readItem("XMS-001-FE24C", new PartitionKey("XMS-0001"), ObjectNode.class).getItem();
        assertEquals(21.5, d.get("temperature").asDouble());
        assertEquals(20000, c.readThroughput().getProperties().getManualThroughput());
        // the SDK sees the core's two physical partitions as two partition key ranges (the default)
        assertEquals(2, core.getDatabase("examples").getContainer("coll").getFeedRanges().size());
        assertEquals(2, c.getFeedRanges().size());
        RawClient.Answer coll = new RawClient(endpoint(), KEY).send("GET", "/dbs/examples/colls/coll", null);
        assertEquals("2", coll.header(Containers.PHYSICAL_PARTITIONS));
        assertEquals(List.of(2), c.queryItems("SELECT VALUE COUNT(1) FROM c WHERE c.deviceId = 'XMS-0001'", null,
                Integer.class).stream().toList());
    }

    @Test
    void portfolioReadPlusInQuery() throws Exception {
        CosmosContainer c = container("portfolio", "/id", null, "portfolio-referenced.jsonl");
        ObjectNode person = c.readItem("1", new PartitionKey("1"), ObjectNode.class).getItem();
        List<String> stockIds = new ArrayList<>();
        person.get("holdings").forEach(h -> stockIds.add(h.get("stockId").asText()));
        SqlQuerySpec in = new SqlQuerySpec("SELECT c.id, c.symbol FROM c WHERE ARRAY_CONTAINS(@ids, c.id)",
                List.of(new SqlParameter("@ids", stockIds)));
        assertEquals(2, c.queryItems(in, new CosmosQueryRequestOptions(), ObjectNode.class).stream().count());
        assertEquals(2, c.queryItems("SELECT * FROM c WHERE c.id IN ('s1', 's2')", null, ObjectNode.class).stream()
                .count());
        // updating one stock's price is one write
        c.patchItem("s1", new PartitionKey("s1"), CosmosPatchOperations.create().set("/open", 1.5), ObjectNode.class);
        assertEquals(1.5, c.readItem("s1", new PartitionKey("s1"), ObjectNode.class).getItem().get("open").asDouble());
    }

    @Test
    void booksOfAPublisherInOnePartition() throws Exception {
        CosmosContainer c = container("books", "/pub-id", null, "publisher-books.jsonl");
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("mspress"));
        List<String> names = c.queryItems("SELECT VALUE b.name FROM b WHERE NOT IS_DEFINED(b.type) ORDER BY b.id", o,
                String.class).stream().toList();
        assertEquals(4, names.size());
        // the book without a pub-id lives in the "none" logical partition
        assertEquals("Taking over the world one JSON doc at a time",
                c.readItem("3", PartitionKey.NONE, ObjectNode.class).getItem().get("name").asText());
    }

    @Test
    void commentsOfAPost() throws Exception {
        CosmosContainer c = container("posts", "/postId", null, "blog-bucketed.jsonl");
        ObjectNode post = c.readItem("1", new PartitionKey("1"), ObjectNode.class).getItem();
        assertEquals(3, post.get("recentComments").size());
        ObjectNode page2 = c.readItem("1-c2", new PartitionKey("1"), ObjectNode.class).getItem();
        assertEquals(2, page2.get("bucket").asInt());
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("1"));
        List<Integer> buckets = c.queryItems("SELECT VALUE c.bucket FROM c WHERE c.type = 'comments' ORDER BY "
                + "c.bucket", o, Integer.class).stream().toList();
        assertEquals(List.of(1, 2), buckets);
        assertTrue(c.queryItems("SELECT VALUE COUNT(1) FROM c JOIN k IN c.comments", o, Integer.class).stream()
                .findFirst().orElse(0) == 5);
    }
}
