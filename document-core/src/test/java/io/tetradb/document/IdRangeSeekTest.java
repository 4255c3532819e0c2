package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Range comparisons of {@code c.id} inside one logical partition read only that key range of the documents, and
 * return exactly what SQL's string order (UTF-16 units) says, also for ids and bounds with chars the key order
 * (UTF-8 bytes) sorts differently.
 */
class IdRangeSeekTest {
    private static final ObjectMapper M = new ObjectMapper();
    /** Chars whose UTF-8 and UTF-16 orders differ among themselves: U+E000.. sorts above a surrogate pair in UTF-16. */
    private static final String[] PIECES = {"a", "b", "c", "m", "z", "A", "0", "~", "\u0000", "\u00e9", "\u07ff",
            "\u0800", "\ud7ff", "\ue000", "\uffff", "\ud83d\ude00", "\ud800\udc00"};

    private static String randomString(Random r, int maxPieces) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(maxPieces);
        for (int i = 0; i < n; i++) {
            b.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return b.toString();
    }

    /** A container shaped like a table's: partition key /pk, every path indexed, composite (pk, id). */
    private static CosmosContainer container(CosmosClient client) {
        client.createDatabase("db");
        ObjectNode policy = M.createObjectNode();
        policy.put("indexingMode", "consistent");
        policy.putArray("includedPaths").addObject().put("path", "/*");
        var composite = policy.putArray("compositeIndexes").addArray();
        composite.addObject().put("path", "/pk").put("order", "ascending");
        composite.addObject().put("path", "/id").put("order", "ascending");
        client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk")
                .setIndexingPolicy(IndexingPolicy.fromJson(policy)));
        return client.getDatabase("db").getContainer("c");
    }

    private static List<JsonNode> all(CosmosContainer c, SqlQuerySpec q, int pageSize, List<FeedResponse<JsonNode>> pages) {
        List<JsonNode> out = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class)
                .iterableByPage(null, pageSize)) {
            pages.add(page);
            out.addAll(page.getResults());
        }
        return out;
    }

    private static boolean safe(String s) {
        return s.chars().allMatch(ch -> ch < 0xD800);
    }

    @Test
    void randomIdRangesReturnExactlyWhatSqlOrderSays(@TempDir Path dir) {
        Random r = new Random(2026);
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client);
            Set<String> inP1 = new LinkedHashSet<>();
            for (int i = 0; i < 400; i++) {
                String id = randomString(r, 3);
                String pk = "p" + i % 3;
                if (pk.equals("p1") && !inP1.add(id)) {
                    continue;
                }
                try {
                    c.createItem(M.createObjectNode().put("id", id).put("pk", pk).put("n", i));
                } catch (CosmosException conflict) {
                    assertEquals(409, conflict.getStatusCode()); // the same random id twice in p0 or p2
                }
            }
            String[] ops = {">", ">=", "<", "<="};
            int ranged = 0;
            for (int q = 0; q < 300; q++) {
                List<String> where = new ArrayList<>(List.of("c.pk = 'p1'"));
                List<SqlParameter> params = new ArrayList<>();
                List<Predicate<String>> oracle = new ArrayList<>();
                boolean anySafe = false;
                int conditions = 1 + r.nextInt(3);
                for (int k = 0; k < conditions; k++) {
                    String op = ops[r.nextInt(ops.length)];
                    // bounds near ids, new strings, and an empty or inverted range now and then
                    String bound = r.nextInt(3) == 0 ? new ArrayList<>(inP1).get(r.nextInt(inP1.size()))
                            : randomString(r, 2);
                    anySafe |= safe(bound);
                    String name = "@b" + k;
                    boolean idLeft = r.nextBoolean();
                    where.add(idLeft ? "c.id " + op + " " + name : name + " " + op + " c.id");
                    params.add(new SqlParameter(name, bound));
                    int sign = idLeft ? 1 : -1;
                    oracle.add(id -> {
                        int cmp = sign * id.compareTo(bound);
                        return switch (op) {
                            case ">" -> cmp > 0;
                            case ">=" -> cmp >= 0;
                            case "<" -> cmp < 0;
                            default -> cmp <= 0;
                        };
                    });
                }
                boolean ordered = r.nextBoolean();
                String sql = "SELECT VALUE c.id FROM c WHERE " + String.join(" AND ", where)
                        + (ordered ? " ORDER BY c.id" : "");
                List<String> expected = inP1.stream().filter(id -> oracle.stream().allMatch(p -> p.test(id)))
                        .sorted(Comparator.naturalOrder()).toList();
                List<FeedResponse<JsonNode>> pages = new ArrayList<>();
                List<String> got = all(c, new SqlQuerySpec(sql, params), 1 + r.nextInt(40), pages).stream()
                        .map(JsonNode::textValue).toList();
                if (ordered) {
                    assertEquals(expected, got, sql + " " + params.stream().map(p -> p.getValue(Object.class)).toList());
                } else {
                    assertEquals(expected, got.stream().sorted().toList(), sql);
                }
                String access = pages.get(0).getAccessPath();
                assertEquals(anySafe, access.startsWith("primary key range"), sql + " -> " + access);
                ranged += anySafe ? 1 : 0;
            }
            assertTrue(ranged > 100, "most random queries had a bound the seek could use: " + ranged);
        }
    }

    @Test
    void aNarrowRangeReadsOnlyItsDocumentsAndPagesInOrder(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client);
            for (int i = 0; i < 600; i++) {
                c.createItem(M.createObjectNode().put("id", String.format("r%04d", i)).put("pk", "p" + i % 2));
            }
            SqlQuerySpec narrow = new SqlQuerySpec("SELECT * FROM c WHERE c.pk = 'p0' AND c.id >= @a AND c.id < @b "
                    + "ORDER BY c.id", new SqlParameter("@a", "r0100"), new SqlParameter("@b", "r0200"));
            List<FeedResponse<JsonNode>> pages = new ArrayList<>();
            List<String> ids = all(c, narrow, 7, pages).stream().map(j -> j.get("id").textValue()).toList();
            List<String> expected = new ArrayList<>();
            for (int i = 100; i < 200; i += 2) {
                expected.add(String.format("r%04d", i));
            }
            assertEquals(expected, ids, "every page in id order, continued exactly");
            assertEquals(8, pages.size());
            assertEquals("primary key range (c.id >= @a AND c.id < @b), 1 logical partition(s)",
                    pages.get(0).getAccessPath());
            assertEquals(50, pages.get(0).getDocumentsLoaded(), "the 50 documents of the range, no others");

            // a range holding most of a large partition: the composite index's ordered read, which stops per page
            FeedResponse<JsonNode> wide = c.queryItems(new SqlQuerySpec("SELECT * FROM c WHERE c.pk = 'p0' "
                    + "AND c.id >= 'r' ORDER BY c.id"), new CosmosQueryRequestOptions(), JsonNode.class)
                    .iterableByPage(null, 10).iterator().next();
            assertTrue(wide.getAccessPath().startsWith("composite index read"), wide.getAccessPath());
            assertEquals(10, wide.getResults().size());

            // empty and inverted ranges read nothing
            for (String where : List.of("c.id > 'r0100' AND c.id < 'r0100'", "c.id >= 'r0300' AND c.id <= 'r0200'",
                    "c.id > 'r0598' AND c.id <= 'r0598'")) {
                FeedResponse<JsonNode> none = c.queryItems("SELECT * FROM c WHERE c.pk = 'p0' AND " + where,
                        new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(null, 10).iterator().next();
                assertTrue(none.getResults().isEmpty(), where);
                assertEquals(0, none.getDocumentsLoaded(), where);
            }
            // inclusive upper bound, exclusive lower bound
            List<String> edge = all(c, new SqlQuerySpec("SELECT VALUE c.id FROM c WHERE c.pk = 'p0' AND c.id > 'r0100' "
                    + "AND c.id <= 'r0106'"), 100, new ArrayList<>()).stream().map(JsonNode::textValue).toList();
            assertEquals(List.of("r0102", "r0104", "r0106"), edge);
        }
    }

    @Test
    void explainShowsThePrimaryKeyRange(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client);
            for (int i = 0; i < 50; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p"));
            }
            FeedResponse<JsonNode> page = c.queryItems("SELECT * FROM c WHERE c.pk = 'p' AND c.id >= 'i1' AND "
                    + "c.id < 'i2' ORDER BY c.id", new CosmosQueryRequestOptions().setExplain(true), JsonNode.class)
                    .iterableByPage(null, 100).iterator().next();
            ObjectNode explain = page.getExplain();
            assertEquals("primary key range (c.id >= 'i1' AND c.id < 'i2')", explain.get("accessPath").asText(),
                    explain.toString());
            List<String> uses = new ArrayList<>();
            explain.get("predicates").forEach(p -> uses.add(p.get("predicate").asText() + ": " + p.get("use").asText()));
            assertTrue(uses.contains("c.id >= 'i1': primary key range"), uses.toString());
            assertTrue(uses.contains("c.id < 'i2': primary key range"), uses.toString());
            assertEquals("sorted in memory", explain.get("orderBy").asText());
            assertEquals(11, page.getResults().size());
            assertFalse(page.getResults().isEmpty());
        }
    }
}
