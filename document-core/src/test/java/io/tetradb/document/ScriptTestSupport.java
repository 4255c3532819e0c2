package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.testing.SharedExamples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Shared pieces of the server-side script tests: the library example and its addBook procedure. */
final class ScriptTestSupport {
    static final ObjectMapper M = new ObjectMapper();

    private ScriptTestSupport() {
    }

    /** The addBook stored procedure exactly as examples/README.md shows it. */
    static String addBookFromReadme() throws IOException {
        String readme = Files.readString(SharedExamples.dir().resolve("README.md"));
        int at = readme.indexOf("```javascript\nfunction addBook");
        if (at < 0) {
            throw new IllegalStateException("examples/README.md has no addBook procedure");
        }
        int start = readme.indexOf('\n', at) + 1;
        return readme.substring(start, readme.indexOf("```", start));
    }

    /** A container "library" keyed on /tenant holding examples/authors-books-hybrid.jsonl. */
    static CosmosContainer library(CosmosClient client) throws IOException {
        client.createDatabaseIfNotExists("db");
        client.getDatabase("db").createContainerIfNotExists(new CosmosContainerProperties("library", "/tenant"));
        CosmosContainer c = client.getDatabase("db").getContainer("library");
        Path file = SharedExamples.dir().resolve("authors-books-hybrid.jsonl");
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                c.upsertItem((ObjectNode) M.readTree(line));
            }
        }
        return c;
    }

    static ObjectNode read(CosmosContainer c, String id) {
        return c.readItem(id, new PartitionKey("t1"), ObjectNode.class).getItem();
    }

    static boolean exists(CosmosContainer c, String id) {
        try {
            c.readItem(id, new PartitionKey("t1"), ObjectNode.class);
            return true;
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    static CosmosStoredProcedureRequestOptions inT1() {
        return new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("t1"));
    }
}
