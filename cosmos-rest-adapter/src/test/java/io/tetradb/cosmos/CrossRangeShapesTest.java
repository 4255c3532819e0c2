package io.tetradb.cosmos;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The query shapes that need more than a pass-through over several partition key ranges, through azure-cosmos 4.81.0
 * and @azure/cosmos 4.10.1 against a 3-range container ({@code withPhysicalPartitionRanges(true)}), each answer
 * compared with the one-range answer: a second server in the default one-range mode over the same core store.
 * Shapes the SDK cannot merge (Cosmos DB refuses them too) get Cosmos DB's 400 and message.
 */
class CrossRangeShapesTest extends ServerFixture {
    static final ObjectMapper M = new ObjectMapper();
    static final String DB = unique("shapes");
    CosmosHttpServer oneRangeServer;
    CosmosClient oneRangeSdk;
    CosmosContainer three;
    CosmosContainer one;

    @Override
    CosmosRestOptions options() {
        return CosmosRestOptions.defaults().withPhysicalPartitionRanges(true);
    }

    @BeforeAll
    void seed() {
        oneRangeServer = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, core,
                CosmosRestOptions.defaults().withPhysicalPartitionRanges(false));
        oneRangeSdk = new com.azure.cosmos.CosmosClientBuilder()
                .endpoint("http://localhost:" + oneRangeServer.address().getPort()).key(KEY).gatewayMode()
                .buildClient();
        sdk.createDatabaseIfNotExists(DB);
        sdk.getDatabase(DB).createContainer(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(30_000));
        three = sdk.getDatabase(DB).getContainer("c");
        one = oneRangeSdk.getDatabase(DB).getContainer("c");
        for (int i = 0; i < 60; i++) {
            ObjectNode item = M.createObjectNode().put("id", "i" + i).put("pk", "p" + i).put("v", i)
                    .put("g", "g" + (i % 4));
            item.putArray("tags").add("t" + (i % 3)).add("x" + (i % 2));
            three.createItem(item);
        }
        assertEquals(3, three.getFeedRanges().size());
        assertEquals(1, one.getFeedRanges().size());
    }

    @AfterAll
    void stopOneRange() {
        oneRangeSdk.close();
        oneRangeServer.close();
    }

    /** Every page of the query, 7 rows a page. */
    static List<JsonNode> rows(CosmosContainer c, String query) {
        List<JsonNode> out = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems(query, new CosmosQueryRequestOptions(), JsonNode.class)
                .iterableByPage(7)) {
            out.addAll(page.getResults());
        }
        return out;
    }

    /** The rows' text with every number as a double: the SDKs add partial sums as doubles (as against Cosmos DB). */
    static List<String> normal(List<JsonNode> rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(doubles(r).toString()));
        return out;
    }

    static JsonNode doubles(JsonNode n) {
        if (n.isNumber()) {
            return M.getNodeFactory().numberNode(n.asDouble());
        }
        if (n.isObject()) {
            ObjectNode o = M.createObjectNode();
            n.fields().forEachRemaining(e -> o.set(e.getKey(), doubles(e.getValue())));
            return o;
        }
        if (n.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode a = M.createArrayNode();
            n.forEach(e -> a.add(doubles(e)));
            return a;
        }
        return n;
    }

    static List<String> sorted(List<JsonNode> rows) {
        List<String> out = normal(rows);
        out.sort(null);
        return out;
    }

    /** Shapes whose rows come in a defined order: the same list over 3 ranges as over one. */
    static final List<String> ORDERED = List.of(
            "SELECT DISTINCT VALUE c.g FROM c ORDER BY c.g",
            "SELECT DISTINCT c.g AS g FROM c ORDER BY c.g DESC",
            "SELECT DISTINCT VALUE c.g FROM c ORDER BY c.g OFFSET 1 LIMIT 2",
            "SELECT DISTINCT TOP 2 VALUE c.g FROM c ORDER BY c.g DESC",
            "SELECT DISTINCT VALUE c.v FROM c JOIN t IN c.tags WHERE c.v < 10 ORDER BY c.v DESC",
            "SELECT c.id, c.v FROM c JOIN t IN c.tags WHERE t = \"x1\" ORDER BY c.v",
            "SELECT VALUE 1",
            "SELECT 1 + 2 AS three, \"a\" AS s",
            "SELECT VALUE s.v FROM (SELECT c.v FROM c WHERE c.v < 20) s ORDER BY s.v DESC");
    /** Shapes whose order is not defined: the same rows. */
    static final List<String> UNORDERED = List.of(
            "SELECT c.g AS g, COUNT(1) AS n FROM c GROUP BY c.g OFFSET 0 LIMIT 10",
            "SELECT DISTINCT c.g AS g, MAX(c.v) AS hi FROM c GROUP BY c.g",
            "SELECT DISTINCT VALUE c.g FROM c OFFSET 0 LIMIT 100",
            "SELECT VALUE COUNT(1) FROM (SELECT c.v FROM c WHERE c.v < 10) s",
            "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.g FROM c) s",
            "SELECT COUNT(1) AS n FROM (SELECT DISTINCT t FROM c JOIN t IN c.tags WHERE c.v > 5) s",
            "SELECT COUNT(1) FROM (SELECT DISTINCT VALUE c.v % 7 FROM c)",
            "SELECT TOP 1 VALUE COUNT(1) FROM c",
            "SELECT VALUE c.g FROM c GROUP BY c.g",
            "SELECT DISTINCT VALUE c.g FROM c GROUP BY c.g",
            "SELECT VALUE COUNT(1) FROM c GROUP BY c.g",
            "SELECT VALUE AVG(c.v) FROM c WHERE c.v > 3 GROUP BY c.g",
            "SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE c.v < 5",
            "SELECT VALUE s.id FROM (SELECT c.id, c.v FROM c JOIN t IN c.tags WHERE t = \"t1\") s WHERE s.v < 30");
    /** TOP n / OFFSET LIMIT of groups: which groups is not defined; n of the groups, each with its true values. */
    static final Map<String, Integer> GROUP_PAGES = Map.of(
            "SELECT TOP 2 c.g AS g, COUNT(1) AS n, SUM(c.v) AS s FROM c GROUP BY c.g", 2,
            "SELECT c.g AS g, COUNT(1) AS n, SUM(c.v) AS s FROM c GROUP BY c.g OFFSET 1 LIMIT 2", 2);
    static final String ALL_GROUPS = "SELECT c.g AS g, COUNT(1) AS n, SUM(c.v) AS s FROM c GROUP BY c.g";
    /** Shapes the SDK cannot merge over several ranges: Cosmos DB's 400 and message. */
    static final Map<String, String> REFUSED = Map.of(
            "SELECT VALUE COUNT(1) + 1 FROM c", CrossRangeQueries.COMPOSED_AGGREGATES,
            "SELECT VALUE {\"n\": COUNT(1)} FROM c", CrossRangeQueries.COMPOSED_AGGREGATES,
            "SELECT COUNT(1) + 1 AS n FROM c", CrossRangeQueries.COMPOSED_AGGREGATES,
            "SELECT c.g AS g, COUNT(1) AS n FROM c GROUP BY c.g ORDER BY c.g", CrossRangeQueries.ORDER_BY_WITH_GROUP_BY,
            "SELECT * FROM c JOIN t IN c.tags ORDER BY c.v", CrossRangeQueries.STAR_OVER_JOINS,
            "SELECT DISTINCT COUNT(1) AS n FROM c GROUP BY c.g", "keys are not all selected",
            "SELECT VALUE COUNT(1) FROM (SELECT TOP 3 c.v FROM c) s", "subquery source");

    @Test
    void javaServesEachShapeAsOneRangeDoes() {
        for (String q : ORDERED) {
            List<JsonNode> want = rows(one, q);
            assertTrue(!want.isEmpty(), q);
            assertEquals(normal(want), normal(rows(three, q)), q);
        }
        for (String q : UNORDERED) {
            List<JsonNode> want = rows(one, q);
            assertTrue(!want.isEmpty(), q);
            assertEquals(sorted(want), sorted(rows(three, q)), q);
        }
        List<String> groups = sorted(rows(one, ALL_GROUPS));
        assertEquals(4, groups.size());
        assertEquals(groups, sorted(rows(three, ALL_GROUPS)));
        GROUP_PAGES.forEach((q, n) -> {
            List<String> got = sorted(rows(three, q));
            assertEquals(n, got.size(), q + " " + got);
            assertTrue(groups.containsAll(got), q + " " + got);
        });
    }

    @Test
    void javaGetsCosmosRefusalsForShapesTheSdkCannotMerge() {
        REFUSED.forEach((q, message) -> {
            CosmosException e = org.junit.jupiter.api.Assertions.assertThrows(CosmosException.class,
                    () -> rows(three, q), q);
            assertEquals(400, e.getStatusCode(), q);
            assertTrue(e.getMessage().contains(message), q + ": " + e.getMessage());
        });
        // over one range they run whole (the two the core itself refuses excepted)
        assertEquals(List.of(61), rows(one, "SELECT VALUE COUNT(1) + 1 FROM c").stream().map(JsonNode::asInt).toList());
    }

    @Test
    void nodeServesEachShapeAsOneRangeDoes() throws Exception {
        List<String> queries = new ArrayList<>(ORDERED);
        queries.addAll(UNORDERED);
        queries.addAll(REFUSED.keySet());
        Map<String, String> env = new HashMap<>();
        env.put("QUERIES", M.writeValueAsString(queries));
        String out = NodeSdkTest.runScript("cosmos-shapes.mjs", env, endpoint(), KEY, DB, "c");
        assertTrue(out.contains("OK node shapes"), out);
        Map<Integer, String> lines = new HashMap<>();
        for (String line : out.split("\n")) {
            String[] parts = line.split(" ", 3);
            if (parts.length == 3 && (parts[0].equals("ROWS") || parts[0].equals("ERROR"))) {
                lines.put(Integer.parseInt(parts[1]), parts[0] + " " + parts[2]);
            }
        }
        for (int i = 0; i < queries.size(); i++) {
            String q = queries.get(i);
            String got = lines.get(i);
            List<JsonNode> want;
            try {
                want = rows(one, q);
            } catch (CosmosException e) { // the core refuses it over one range too
                assertEquals("ERROR " + e.getStatusCode(), got, q);
                continue;
            }
            assertTrue(got != null && got.startsWith("ROWS "), q + ": " + got);
            List<JsonNode> node = new ArrayList<>();
            M.readTree(got.substring(5)).forEach(node::add);
            if (ORDERED.contains(q)) {
                assertEquals(normal(want), normal(node), q);
            } else {
                assertEquals(sorted(want), sorted(node), q);
            }
        }
    }
}
