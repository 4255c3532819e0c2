package io.tetradb.mongo;

import io.tetradb.testing.SharedExamples;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Mongo scenarios of examples/ (see its README): the documents load unchanged, and the finds the README
 * names return the right documents through index seeks, not scans.
 */
class SeedScenarioTest extends MongoServerTestBase {

    static List<Document> load(String file) throws IOException {
        List<Document> docs = new ArrayList<>();
        for (String line : Files.readAllLines(SharedExamples.dir().resolve(file))) {
            if (!line.isBlank()) {
                docs.add(Document.parse(line));
            }
        }
        return docs;
    }

    static List<String> ids(MongoCollection<Document> c, Bson filter) {
        List<String> out = new ArrayList<>();
        c.find(filter).forEach(d -> out.add(d.getString("_id")));
        out.sort(null);
        return out;
    }

    static Document explain(String db, String coll, Document filter) {
        return client.getDatabase(db).runCommand(new Document("explain", new Document("find", coll)
                .append("filter", filter)));
    }

    static Document indexScan(Document explain) {
        Document plan = explain.get("queryPlanner", Document.class).get("winningPlan", Document.class);
        assertEquals("FETCH", plan.getString("stage"), explain.toJson());
        Document ixscan = plan.get("inputStage", Document.class);
        assertEquals("IXSCAN", ixscan.getString("stage"), explain.toJson());
        return ixscan;
    }

    @Test
    void studentsAndClassesInOneCollection() throws IOException {
        MongoCollection<Document> c = client.getDatabase("school").getCollection("students_classes");
        c.drop();
        List<Document> docs = load("students-classes-single-collection.jsonl");
        c.insertMany(docs);
        assertEquals(docs.size(), c.countDocuments());
        assertEquals(docs.get(0), c.find(Filters.eq("_id", docs.get(0).get("_id"))).first(), "stored unchanged");
        String index = c.createIndex(new Document("links.target", 1).append("links.doc_type", 1));
        assertEquals("links.target_1_links.doc_type_1", index);

        assertEquals(List.of("CS101-001", "MATH201-002", "S12345"), ids(c, Filters.eq("links.target", "S12345")),
                "the student and its classes");
        Document ix = indexScan(explain("school", "students_classes", new Document("links.target", "S12345")));
        assertEquals("links.target_1_links.doc_type_1", ix.getString("indexName"));

        Document both = new Document("doc_type", "student").append("links.target", "CS101-001");
        assertEquals(List.of("S10023", "S12345"), ids(c, both));
        Document e = explain("school", "students_classes", both);
        indexScan(e);
        long examined = ((Number) e.get("executionStats", Document.class).get("totalDocsExamined")).longValue();
        assertTrue(examined <= 3, "a seek reads at most the documents linking to CS101-001: " + e.toJson());
    }

    @Test
    void customerInvoicesByIdPrefix() throws IOException {
        MongoCollection<Document> c = client.getDatabase("shop").getCollection("orders");
        c.drop();
        c.insertMany(load("customer-invoices.jsonl"));
        Bson prefix = Filters.regex("_id", Pattern.compile("^C12345-I34562"));
        assertEquals(List.of("C12345-I34562", "C12345-I34562-L0001", "C12345-I34562-L0002"), ids(c, prefix));
        Document e = explain("shop", "orders", new Document("_id", Pattern.compile("^C12345-I34562")));
        Document ix = indexScan(e);
        assertEquals("_id_", ix.getString("indexName"));
        Document stats = e.get("executionStats", Document.class);
        assertEquals(3L, ((Number) stats.get("totalDocsExamined")).longValue(), "an ordered _id range, not a scan");
        assertEquals(3L, ((Number) stats.get("nReturned")).longValue());
    }
}
