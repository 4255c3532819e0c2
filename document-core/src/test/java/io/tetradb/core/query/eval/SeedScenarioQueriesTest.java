package io.tetradb.core.query.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.tetradb.core.query.eval.EvalTestSupport.M;
import static io.tetradb.core.query.eval.EvalTestSupport.assertResults;
import static io.tetradb.core.query.eval.EvalTestSupport.json;
import static io.tetradb.core.query.eval.EvalTestSupport.query;

/** The seed scenarios' queries (examples/), run in memory over each scenario's items. */
class SeedScenarioQueriesTest {

    static Path examples() {
        return io.tetradb.testing.SharedExamples.dir();
    }

    /** The items of one scenario file; {@code idFrom} is copied to {@code id} as the Mongo face maps {@code _id}. */
    static List<ObjectNode> load(String file, String idFrom) throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(examples().resolve(file))) {
            if (line.isBlank()) {
                continue;
            }
            ObjectNode n = (ObjectNode) M.readTree(line);
            if (!idFrom.equals("id")) {
                n.put("id", n.get(idFrom).asText());
            }
            out.add(n);
        }
        return out;
    }

    @Test
    void booksOfOnePublisher() throws IOException {
        List<ObjectNode> books = load("publisher-books.jsonl", "id");
        // the publisher document itself also carries "pub-id": "mspress" (it lives in that partition)
        assertResults("[\"mspress\",\"1\",\"2\",\"100\",\"1000\"]",
                query("SELECT VALUE c.id FROM c WHERE c[\"pub-id\"] = 'mspress'", books));
        List<?> all = query("SELECT * FROM c WHERE c[\"pub-id\"] = 'mspress'", books);
        org.junit.jupiter.api.Assertions.assertEquals(5, all.size());
        // the books only: 1, 2, 100, 1000
        assertResults("[\"1\",\"2\",\"100\",\"1000\"]",
                query("SELECT VALUE c.id FROM c WHERE c[\"pub-id\"] = 'mspress' AND NOT IS_DEFINED(c.type)", books));
        assertResults("[\"1\",\"2\",\"100\",\"1000\"]",
                query("SELECT VALUE c.id FROM c WHERE c[\"pub-id\"] = @pub AND (c.type ?? 'book') = 'book'", books,
                        Map.of("@pub", json("\"mspress\""))));
        // a book without pub-id is legal and never matches an equality on it
        assertResults("[\"3\"]", query("SELECT VALUE c.id FROM c WHERE NOT IS_DEFINED(c[\"pub-id\"])", books));
    }

    @Test
    void stocksInAPortfolio() throws IOException {
        List<ObjectNode> portfolio = load("portfolio-referenced.jsonl", "id");
        assertResults("[\"zaza\",\"xcxc\"]",
                query("SELECT VALUE c.symbol FROM c WHERE c.id IN ('s1','s2')", portfolio));
        org.junit.jupiter.api.Assertions.assertEquals(2,
                query("SELECT * FROM c WHERE c.id IN ('s1','s2')", portfolio).size());
        // the ids come from the person's holdings
        assertResults("[\"s1\",\"s2\"]",
                query("SELECT VALUE h.stockId FROM c JOIN h IN c.holdings WHERE c.id = '1'", portfolio));
    }

    @Test
    void linksOfAStudent() throws IOException {
        List<ObjectNode> school = load("students-classes-single-collection.jsonl", "_id");
        assertResults("[\"CS101-001\",\"MATH201-002\",\"S12345\",\"CS101-001\",\"S10023\"]",
                query("SELECT VALUE l.target FROM c JOIN l IN c.links WHERE c.doc_type = 'student'", school));
        assertResults("[\"CS101-001\",\"MATH201-002\",\"S12345\"]",
                query("SELECT VALUE l.target FROM c JOIN l IN c.links WHERE c.id = 'S12345'", school));
        // every document linking to a class: EXISTS, JOIN and ARRAY_CONTAINS agree
        assertResults("[\"CS101-001\",\"S12345\",\"S10023\"]", query("SELECT VALUE c.id FROM c "
                + "WHERE EXISTS(SELECT VALUE l FROM l IN c.links WHERE l.target = 'CS101-001')", school));
        assertResults("[\"CS101-001\",\"S12345\",\"S10023\"]", query("SELECT VALUE c.id FROM c JOIN l IN c.links "
                + "WHERE l.target = 'CS101-001'", school));
        assertResults("[\"CS101-001\",\"S12345\",\"S10023\"]", query("SELECT VALUE c.id FROM c "
                + "WHERE ARRAY_CONTAINS(c.links, {\"target\":\"CS101-001\"}, true)", school));
        // Mongo's find({"doc_type":"student","links.target":"CS101-001"})
        assertResults("[\"S12345\",\"S10023\"]", query("SELECT VALUE c.id FROM c WHERE c.doc_type = 'student' "
                + "AND EXISTS(SELECT VALUE l FROM l IN c.links WHERE l.target = 'CS101-001')", school));
        // find({"links.target":"S12345"}): the student and its classes
        assertResults("[\"CS101-001\",\"MATH201-002\",\"S12345\"]", query("SELECT VALUE c.id FROM c "
                + "WHERE EXISTS(SELECT VALUE l FROM l IN c.links WHERE l.target = 'S12345')", school));
    }

    @Test
    void commentsOfAPost() throws IOException {
        List<ObjectNode> posts = load("blog-bucketed.jsonl", "id");
        assertResults("[4,5,99]", query("SELECT VALUE m.id FROM c JOIN m IN c.comments "
                + "WHERE c.postId = '1' AND c.bucket = 1", posts));
        assertResults("[199,100,99]", query("SELECT TOP 3 VALUE m.id FROM c JOIN m IN c.comments "
                + "WHERE c.postId = '1' ORDER BY m.id DESC", posts));
        assertResults("[{\"bucket\":1,\"n\":3},{\"bucket\":2,\"n\":2}]", query("SELECT c.bucket, "
                + "ARRAY_LENGTH(c.comments) AS n FROM c WHERE c.type = 'comments' ORDER BY c.bucket", posts));
    }
}
