package io.tetradb.table.http;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A quick single-client throughput probe through the official SDK (not a test, not the {@code bench} module's
 * benchmark): {@code java -cp ... io.tetradb.table.http.TableThroughputProbe [entities]}. Prints one line per
 * operation.
 */
public final class TableThroughputProbe {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        Path dir = Files.createTempDirectory("tables-probe");
        try (CosmosClient cosmos = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             TableHttpServer server = TableHttpServer.start(InetAddress.getLoopbackAddress(), 0, cosmos)) {
            String cs = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + SharedKeyAuth.DEV_KEY
                    + ";TableEndpoint=http://127.0.0.1:" + server.address().getPort() + "/devstoreaccount1;";
            var service = new TableServiceClientBuilder().connectionString(cs).buildClient();
            service.createTable("probe");
            TableClient t = service.getTableClient("probe");
            for (int i = 0; i < 200; i++) { // warm-up
                t.upsertEntity(new TableEntity("w", "w" + i).addProperty("V", i));
                t.getEntity("w", "w" + i);
            }
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                t.createEntity(new TableEntity("p" + (i % 100), String.format("r%06d", i))
                        .addProperty("V", i).addProperty("Name", "name" + i).addProperty("Category", "c" + (i % 50)));
            }
            report("insert", n, start);
            start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                t.getEntity("p" + (i % 100), String.format("r%06d", i));
            }
            report("point-read", n, start);
            start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                t.upsertEntityWithResponse(new TableEntity("p" + (i % 100), String.format("r%06d", i))
                        .addProperty("W", i), TableEntityUpdateMode.MERGE, null, null);
            }
            report("upsert-merge", n, start);
            int queries = 200;
            start = System.nanoTime();
            long rows = 0;
            for (int i = 0; i < queries; i++) {
                rows += t.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'p" + (i % 100)
                        + "' and RowKey ge 'r000500' and RowKey lt 'r002500'"), null, null).stream().count();
            }
            report("pk+rk-range-query (" + rows / queries + " rows)", queries, start);
            start = System.nanoTime();
            rows = 0;
            for (int i = 0; i < queries; i++) {
                rows += t.listEntities(new ListEntitiesOptions().setFilter("Category eq 'c" + (i % 50) + "'"), null, null)
                        .stream().count();
            }
            report("non-key-filter (" + rows / queries + " rows)", queries, start);
        }
    }

    private static void report(String op, int count, long startNanos) {
        double secs = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf("PROBE %-40s %8.0f ops/s (%d in %.2f s)%n", op, count / secs, count, secs);
    }
}
