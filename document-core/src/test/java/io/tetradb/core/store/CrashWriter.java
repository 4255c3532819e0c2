package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosBatchResponse;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosPatchOperations;
import io.tetradb.document.CosmosStoredProcedureProperties;
import io.tetradb.document.CosmosStoredProcedureRequestOptions;
import io.tetradb.document.PartitionKey;

import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link CrashTest}: writes batches forever and prints {@code ACK round batch} after each one
 * is acknowledged, until it is killed. Each batch creates {@value #ITEMS} items and increments its partition's
 * counter item, so a half-applied batch would show as a short group or a counter that disagrees.
 */
public final class CrashWriter {
    static final int ITEMS = 10;
    static final int PARTITIONS = 7;
    static final long SPLIT_THRESHOLD = 48 * 1024;
    /** What the script throws when an operation was not accepted (nothing of the batch is written). */
    static final String NOT_ACCEPTED = "batch operation not accepted: run it again";
    /**
     * The stored procedure's batch. A collection operation past the script's bounds (80 % of its 5 s, or its operation
     * count) is not accepted: it returns false and does nothing, and a script that goes on commits what it did
     * (Cosmos DB's bounded execution). So the script throws when one is refused, and everything it did is rolled
     * back; the writer runs the batch again. Without that check a child slowed past 4 s (most likely CrashTest's one
     * "acknowledged batch of 10 found with 2 items", seed 1589592915276690881, load ≈ 18) acknowledged the items written
     * before the refusal as the whole batch ({@code CrashWriterScriptTest}).
     */
    static final String WRITE_BATCH = """
            function writeBatch(round, b, pk) {
              var coll = getContext().getCollection();
              for (var i = 0; i < 10; i++) {
                if (!coll.createDocument(coll.getSelfLink(), {id: round + "-" + b + "-" + i, pk: pk,
                    batch: round + "-" + b, fill: "f".repeat(300)}, function (err) { if (err) throw err; })) {
                  throw new Error(NOT_ACCEPTED);
                }
              }
              if (!coll.patchDocument(coll.getAltLink() + "/docs/counter", [{op: "incr", path: "/v", value: 1}],
                  function (err) { if (err) throw err; })) {
                throw new Error(NOT_ACCEPTED);
              }
            }""".replace("NOT_ACCEPTED", "\"" + CrashWriter.NOT_ACCEPTED + "\"");
    /** How often the writer runs a stored procedure batch that was refused or timed out (408) before it gives up. */
    static final int SCRIPT_ATTEMPTS = 20;

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int round = Integer.parseInt(args[1]);
        ObjectMapper m = new ObjectMapper();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).splitThresholdBytes(SPLIT_THRESHOLD)
                .buildClient()) {
            client.createDatabaseIfNotExists("crash");
            client.getDatabase("crash").createContainerIfNotExists("c", "/pk");
            CosmosContainer c = client.getDatabase("crash").getContainer("c");
            for (int p = 0; p < PARTITIONS; p++) {
                try {
                    c.createItem(m.createObjectNode().put("id", "counter").put("pk", "p" + p).put("v", 0));
                } catch (CosmosException exists) {
                    // created in an earlier round
                }
            }
            try {
                c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("writeBatch", WRITE_BATCH));
            } catch (CosmosException exists) {
                // created in an earlier round
            }
            System.out.println("READY");
            System.out.flush();
            for (int b = 0; ; b++) {
                String pk = "p" + (b % PARTITIONS);
                if (b % 2 == 1) {
                    executeWriteBatch(c, round, b, pk);
                    System.out.println("ACK " + round + " " + b);
                    System.out.flush();
                    continue;
                }
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
                for (int i = 0; i < ITEMS; i++) {
                    ObjectNode item = m.createObjectNode().put("id", round + "-" + b + "-" + i).put("pk", pk)
                            .put("batch", round + "-" + b).put("fill", "f".repeat(300));
                    batch.createItemOperation(item);
                }
                batch.patchItemOperation("counter", CosmosPatchOperations.create().increment("/v", 1));
                CosmosBatchResponse r = c.executeCosmosBatch(batch);
                if (!r.isSuccessStatusCode()) {
                    System.out.println("FAILED " + r.getStatusCode() + " " + r.getErrorMessage());
                    System.exit(3);
                }
                System.out.println("ACK " + round + " " + b);
                System.out.flush();
            }
        }
    }

    /** Runs the stored procedure batch until it commits: a refused or timed-out run wrote nothing. */
    static void executeWriteBatch(CosmosContainer c, int round, int b, String pk) {
        for (int attempt = 1; ; attempt++) {
            try {
                c.getScripts().getStoredProcedure("writeBatch").execute(List.of(round, b, pk),
                        new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey(pk)));
                return;
            } catch (CosmosException e) {
                boolean rolledBack = e.getStatusCode() == 408 || String.valueOf(e.getMessage()).contains(NOT_ACCEPTED);
                if (!rolledBack || attempt >= SCRIPT_ATTEMPTS) {
                    throw e;
                }
                System.out.println("RETRY " + round + " " + b + " " + e.getStatusCode());
                System.out.flush();
            }
        }
    }
}
