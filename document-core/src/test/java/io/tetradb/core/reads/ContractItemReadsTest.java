package io.tetradb.core.reads;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.testing.DocumentApiTranscript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core's item reads through the logical-partition contract ({@link ContractItemReads} over the embedded engine's
 * {@code EmbeddedPartitionStore}) give exactly what the embedded fast paths give: the same document-API transcript
 * (CRUD, etag and unique-key conflicts, batches, indexed, id-range and scanned queries, paging, change feeds), the
 * queries served by the same index seeks. (On Cassandra the same transcript runs in cassandra-engine's cluster
 * profile.)
 */
class ContractItemReadsTest {
    @TempDir
    Path embeddedDir;
    @TempDir
    Path contractDir;

    @Test
    void theDocumentApiReadsTheSameThroughTheContract() {
        DocumentApiTranscript embedded;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(embeddedDir).buildClient()) {
            embedded = DocumentApiTranscript.run(client);
        }
        DocumentApiTranscript contract;
        System.setProperty("tetradb.itemReads", "contract");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(contractDir).buildClient()) {
            System.clearProperty("tetradb.itemReads");
            contract = DocumentApiTranscript.run(client);
            assertInstanceOf(ContractItemReads.class, client.coreStore().container("shop", "items").reads());
        } finally {
            System.clearProperty("tetradb.itemReads");
        }
        assertEquals(embedded.lines(), contract.lines());
        DocumentApiTranscript.checkOutcomes(contract);
        assertEquals(embedded.accessPaths(), contract.accessPaths());
        assertTrue(contract.accessPaths().stream().anyMatch(p -> p.contains("c.n = 22") && !p.endsWith("scan")),
                String.join("\n", contract.accessPaths()));
    }
}
