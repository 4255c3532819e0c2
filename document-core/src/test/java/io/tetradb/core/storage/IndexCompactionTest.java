package io.tetradb.core.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosQueryRequestOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code index} family's universal compaction ({@link IndexCompaction}) on data directories written with the
 * leveled style before it: the directory opens as it is, every index seek returns what a full scan returns (before
 * and after more writes, replaces and deletes, and after RocksDB compacted the runs), the index check finds nothing
 * missing, and the directory still opens with {@code -Dtetradb.rocks.indexCompaction=level} afterwards.
 */
class IndexCompactionTest {
    static final ObjectMapper M = new ObjectMapper();
    static final List<String> SEEKS = List.of(
            "SELECT VALUE c.id FROM c WHERE c.n = 7",
            "SELECT VALUE c.id FROM c WHERE c.n > 90 ORDER BY c.n",
            "SELECT VALUE c.id FROM c WHERE c.s = 's3'",
            "SELECT VALUE c.id FROM c WHERE STARTSWITH(c.s, 's1')",
            "SELECT VALUE c.id FROM c WHERE c.f BETWEEN 10 AND 20",
            "SELECT VALUE c.id FROM c WHERE ARRAY_CONTAINS(c.tags, 't2')");

    @AfterEach
    void clear() {
        System.clearProperty("tetradb.rocks.indexCompaction");
    }

    private static CosmosClient open(Path dir, String style) {
        System.setProperty("tetradb.rocks.indexCompaction", style);
        return new CosmosClientBuilder().dataDirectory(dir).buildClient();
    }

    static ObjectNode item(int i, int version) {
        SplittableRandom r = new SplittableRandom(i * 31L + version);
        ObjectNode o = M.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 13).put("n", r.nextInt(100))
                .put("f", r.nextDouble() * 100).put("s", "s" + r.nextInt(40)).put("pad", "x".repeat(r.nextInt(200)));
        o.putArray("tags").add("t" + r.nextInt(5)).add(r.nextInt(9));
        return o;
    }

    /** Every seek's ids equal a scan's: the same filter on the documents themselves. */
    static void seeksEqualScans(CosmosContainer c) {
        for (String q : SEEKS) {
            List<String> seek = ids(c, q);
            String scan = q.replace("FROM c WHERE", "FROM c WHERE IS_DEFINED(c.id) AND")
                    .replace("c.n > 90", "(c.n + 0) > 90").replace("c.n = 7", "(c.n + 0) = 7")
                    .replace("c.s = 's3'", "CONCAT(c.s, '') = 's3'")
                    .replace("STARTSWITH(c.s, 's1')", "STARTSWITH(CONCAT(c.s, ''), 's1')")
                    .replace("c.f BETWEEN", "(c.f + 0) BETWEEN")
                    .replace("ARRAY_CONTAINS(c.tags, 't2')", "ARRAY_CONTAINS(ARRAY_CONCAT(c.tags, []), 't2')");
            List<String> expected = ids(c, scan);
            // as sets: an ordered read and an in-memory sort may order equal values' items differently
            seek = new ArrayList<>(new TreeSet<>(seek));
            expected = new ArrayList<>(new TreeSet<>(expected));
            assertTrue(accessPath(c, q).contains("index"), q + ": " + accessPath(c, q));
            assertTrue(!accessPath(c, scan).contains("index"), scan + ": " + accessPath(c, scan));
            assertEquals(expected, seek, q);
            assertTrue(!seek.isEmpty(), q + " found nothing: the comparison would prove nothing");
        }
    }

    private static List<String> ids(CosmosContainer c, String q) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : c.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class)) {
            out.add(n.asText());
        }
        return out;
    }

    private static String accessPath(CosmosContainer c, String q) {
        return c.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(null, 1000)
                .iterator().next().getAccessPath();
    }

    /**
     * Compacts the {@code index} family with the given style (a whole-range compaction), outside the store; returns
     * the L0 files left.
     */
    private static int compactIndex(Path dir, String style) throws Exception {
        System.setProperty("tetradb.rocks.indexCompaction", style);
        return RawIndexFamily.look(dir, (rocks, index) -> {
            rocks.compactRange(index);
            return RawIndexFamily.l0Files(rocks, index);
        });
    }

    @Test
    void aLeveledIndexOpensWithUniversalCompactionAndSeeksStayExact(@TempDir Path dir) throws Exception {
        int items = 1500;
        try (CosmosClient client = open(dir, "level")) {
            client.createDatabase("d");
            client.getDatabase("d").createContainer(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            for (int i = 0; i < items; i++) {
                c.createItem(item(i, 0));
            }
            seeksEqualScans(c);
        }
        // the leveled index pushed down to its last level, as an old directory holds it
        assertEquals(0, compactIndex(dir, "level"));
        try (CosmosClient client = open(dir, "universal")) {
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            seeksEqualScans(c);
            for (int i = 0; i < items; i += 3) {
                c.upsertItem(item(i, 1));
            }
            for (int i = 1; i < items; i += 7) {
                c.deleteItem("i" + i, new io.tetradb.document.PartitionKey("p" + i % 13), null);
            }
            for (int i = items; i < items + 500; i++) {
                c.createItem(item(i, 0));
            }
            seeksEqualScans(c);
            assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
        }
        // universal runs merged by RocksDB, then reopened under the store again
        compactIndex(dir, "universal");
        try (CosmosClient client = open(dir, "universal")) {
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            seeksEqualScans(c);
            assertTrue(client.coreStore().container("d", "c").checkIndexes().consistent());
        }
        // and back: the leveled style opens what universal compaction wrote
        try (CosmosClient client = open(dir, "level")) {
            CosmosContainer c = client.getDatabase("d").getContainer("c");
            seeksEqualScans(c);
            c.upsertItem(item(5, 2));
            seeksEqualScans(c);
        }
    }
}
