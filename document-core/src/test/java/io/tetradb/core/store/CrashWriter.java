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
    static final String WRITE_BATCH = """
            function writeBatch(round, b, pk) {
              var coll = getContext().getCollection();
              for (var i = 0; i < 10; i++) {
                coll.createDocument(coll.getSelfLink(), {id: round + "-" + b + "-" + i, pk: pk, batch: round + "-" + b,
                    fill: "f".repeat(300)}, function (err) { if (err) throw err; });
              }
              coll.patchDocument(coll.getAltLink() + "/docs/counter", [{op: "incr", path: "/v", value: 1}],
                  function (err) { if (err) throw err; });
            }""";

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
                    c.getScripts().getStoredProcedure("writeBatch").execute(List.of(round, b, pk),
                            new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey(pk)));
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
}
