package io.tetradb.server.faces;

import io.tetradb.testing.NodeClients;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import io.tetradb.testing.SharedExamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mongosh} (npm, the version pinned as {@code mongosh.version} in the root pom), unchanged, against the
 * server's Mongo endpoint: it connects, writes, queries, updates, aggregates and sees MongoDB's error codes.
 * Installed into {@code target/mongosh} on the first run (about 150 MB, 30 s here).
 */
class MongoShellTest {
    private static final long MONGOSH_TIMEOUT_SECONDS = 120;
    /** The invoice and its line items: what {@code {_id: /^C12345-I34562/}} must return. */
    private static final String INVOICE_C12345_I34562 =
            "[\"C12345-I34562\",\"C12345-I34562-L0001\",\"C12345-I34562-L0002\"]";

    @Test
    void mongoshRunsASessionUnchanged(@TempDir Path dataDir) throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("mongosh.dir", "target/mongosh"));
        NodeClients.install(dir, "mongosh", System.getProperty("mongosh.version", "2.12.0"));
        try (InputStream script = getClass().getResourceAsStream("/mongo/mongosh-session.js")) {
            Files.copy(script, dir.resolve("mongosh-session.js"), StandardCopyOption.REPLACE_EXISTING);
        }

        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withMongoPort(0)).start()) {
            String out = NodeClients.run(dir, MONGOSH_TIMEOUT_SECONDS, "node", "node_modules/mongosh/bin/mongosh.js",
                    server.endpoint("mongo").url(), "--quiet", "--file", "mongosh-session.js");
            JsonNode r = new ObjectMapper().readTree(out.strip().lines().reduce((a, b) -> b).orElseThrow());

            assertEquals("7.0.0", r.get("version").asText());
            assertEquals(2, r.get("count").asInt());
            assertEquals("[\"C12345-I1\",\"C12345-I2\"]", r.get("prefix").toString());
            assertEquals(10, r.get("updated").get("total").asInt());
            assertEquals("[{\"sku\":\"c\",\"qty\":3}]", r.get("updated").get("items").toString());
            assertEquals("[\"C99-I1\"]", r.get("byElement").toString());
            assertEquals("[{\"_id\":\"C12345\",\"total\":42.5},{\"_id\":\"C99\",\"total\":10}]",
                    r.get("totals").toString());
            assertEquals("customer_1", r.get("index").asText());
            assertEquals("[\"_id_\",\"customer_1\"]", r.get("indexes").toString());
            assertEquals(11000, r.get("duplicate").asInt());
            assertEquals(59, r.get("unknown").asInt());
            assertEquals("[\"orders\"]", r.get("collections").toString());
            // the collection is a core container: the document API reads what mongosh wrote
            assertEquals(3, server.client().getDatabase("shop").getContainer("orders")
                    .queryItems("SELECT VALUE COUNT(1) FROM c", null, Integer.class).stream().findFirst().orElseThrow());
        }
    }

    /** mongosh's {@code db.coll.watch()}: a change stream cursor that returns the events of later writes. */
    @Test
    void mongoshWatchesACollection(@TempDir Path dataDir) throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("mongosh.dir", "target/mongosh"));
        NodeClients.install(dir, "mongosh", System.getProperty("mongosh.version", "2.12.0"));
        String script = "const cs = db.getSiblingDB('watched').events.watch([], {fullDocument: 'updateLookup'});"
                + "db.getSiblingDB('watched').events.insertOne({_id: 1, n: 1});"
                + "db.getSiblingDB('watched').events.updateOne({_id: 1}, {$inc: {n: 1}});"
                + "const a = cs.next(); const b = cs.next(); cs.close();"
                + "print(JSON.stringify({ops: [a.operationType, b.operationType], n: b.fullDocument.n,"
                + " updated: b.updateDescription.updatedFields}));";
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withMongoPort(0)).start()) {
            String out = NodeClients.run(dir, MONGOSH_TIMEOUT_SECONDS, "node", "node_modules/mongosh/bin/mongosh.js",
                    server.endpoint("mongo").url(), "--quiet", "--eval", script);
            JsonNode r = new ObjectMapper().readTree(out.strip().lines().reduce((a, b) -> b).orElseThrow());
            assertEquals("[\"insert\",\"update\"]", r.get("ops").toString());
            assertEquals(2, r.get("n").asInt());
            assertEquals("{\"n\":2}", r.get("updated").toString());
        }
    }

    /**
     * The scripted session over the seed files {@code students-classes-single-collection.jsonl} and
     * {@code customer-invoices.jsonl}: insert, {@code createIndex}, the finds of examples/README.md (index
     * seeks, shown by explain), {@code show dbs}, {@code show collections}, {@code stats()}, an aggregate.
     */
    @Test
    void mongoshRunsTheSeedScenarios(@TempDir Path dataDir) throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("mongosh.dir", "target/mongosh"));
        NodeClients.install(dir, "mongosh", System.getProperty("mongosh.version", "2.12.0"));
        try (InputStream script = getClass().getResourceAsStream("/mongo/mongosh-seed-scenarios.js")) {
            Files.copy(script, dir.resolve("mongosh-seed-scenarios.js"), StandardCopyOption.REPLACE_EXISTING);
        }
        Map<String, String> env = Map.of(
                "STUDENTS", Files.readString(SharedExamples.dir().resolve("students-classes-single-collection.jsonl")),
                "INVOICES", Files.readString(SharedExamples.dir().resolve("customer-invoices.jsonl")));

        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withMongoPort(0)).start()) {
            String out = NodeClients.run(dir, env, MONGOSH_TIMEOUT_SECONDS, "node",
                    "node_modules/mongosh/bin/mongosh.js", server.endpoint("mongo").url(), "--quiet",
                    "--file", "mongosh-seed-scenarios.js");
            List<String> printed = out.strip().lines().toList();
            JsonNode r = new ObjectMapper().readTree(printed.get(printed.size() - 1));

            assertEquals(4, r.get("studentsInserted").asInt());
            assertEquals("links.target_1_links.doc_type_1", r.get("studentsIndex").asText());
            // the student S12345 and its classes (every document whose links name S12345)
            assertEquals("[\"CS101-001\",\"MATH201-002\",\"S12345\"]", r.get("ofStudent").toString());
            assertEquals("[\"S10023\",\"S12345\"]", r.get("studentsOfClass").toString());
            assertTrue(r.get("studentsPlan").asText().contains("IXSCAN"), r.get("studentsPlan").asText());
            assertTrue(r.get("studentsPlan").asText().contains("links.target_1_links.doc_type_1"));
            assertEquals("[{\"_id\":\"class\",\"n\":2},{\"_id\":\"student\",\"n\":2}]", r.get("byType").toString());

            assertEquals(7, r.get("invoicesInserted").asInt());
            assertEquals(INVOICE_C12345_I34562, r.get("invoice").toString());
            assertTrue(r.get("invoicePlan").asText().contains("IXSCAN"), r.get("invoicePlan").asText());
            assertEquals(r.get("invoice").size(), r.get("invoiceDocsExamined").asInt(), "the _id range reads only matches");
            assertEquals("shop.orders", r.get("stats").get("ns").asText());
            assertEquals(7, r.get("stats").get("count").asInt());

            List<String> shown = printed.subList(printed.indexOf("SHOW DBS"), printed.size() - 1);
            assertTrue(shown.contains("db school") && shown.contains("db shop"), shown.toString());
            assertEquals(List.of("collection students_classes"),
                    shown.subList(shown.indexOf("SHOW COLLECTIONS") + 1, shown.size()));
        }
    }
}
