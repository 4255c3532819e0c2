package io.tetradb.table;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded Java API in the Azure SDK's shape. */
class TableClientApiTest {

    @Test
    void crudTypesQueriesAndTransactions(@TempDir Path dir) {
        try (TableServiceClient service = new TableServiceClientBuilder().dataDirectory(dir).buildClient()) {
            TableClient t = service.createTable("Customers");
            assertEquals(List.of("Customers"), service.listTables().stream().map(TableItem::getName).toList());
            assertEquals(409, assertThrows(TableServiceException.class, () -> service.createTable("customers"))
                    .getStatusCode());
            service.createTableIfNotExists("customers");
            assertEquals(1, service.listTables().size(), "createTableIfNotExists found the table in another case");

            UUID g = UUID.randomUUID();
            OffsetDateTime when = OffsetDateTime.parse("2016-03-01T09:30:00.1234567Z");
            t.createEntity(new TableEntity("Smith", "Ben").addProperty("Age", 42).addProperty("Big", 9007199254740993L)
                    .addProperty("When", when).addProperty("G", g).addProperty("Bin", new byte[]{1, 2})
                    .addProperty("D", Double.POSITIVE_INFINITY).addProperty("Ok", true));
            TableEntity ben = t.getEntity("Smith", "Ben");
            assertEquals(42, ben.getProperty("Age"));
            assertEquals(9007199254740993L, ben.getProperty("Big"));
            assertEquals(when, ben.getProperty("When"));
            assertEquals(g, ben.getProperty("G"));
            assertArrayEquals(new byte[]{1, 2}, (byte[]) ben.getProperty("Bin"));
            assertEquals(Double.POSITIVE_INFINITY, ben.getProperty("D"));
            assertTrue(ben.getTimestamp() != null && ben.getETag() != null);
            assertEquals(List.of("Age"), new ArrayList<>(t.getEntity("Smith", "Ben", List.of("Age")).getProperties().keySet()));

            TableServiceException dup = assertThrows(TableServiceException.class,
                    () -> t.createEntity(new TableEntity("Smith", "Ben")));
            assertEquals("EntityAlreadyExists", dup.getErrorCode());

            t.updateEntity(new TableEntity("Smith", "Ben").addProperty("Email", "ben@contoso.com"));
            TableEntity merged = t.getEntity("Smith", "Ben");
            assertEquals(42, merged.getProperty("Age"));
            assertEquals("ben@contoso.com", merged.getProperty("Email"));
            assertNotEquals(ben.getETag(), merged.getETag());

            TableServiceException stale = assertThrows(TableServiceException.class,
                    () -> t.updateEntity(ben, TableEntityUpdateMode.REPLACE, true));
            assertEquals(412, stale.getStatusCode());
            assertEquals("UpdateConditionNotSatisfied", stale.getErrorCode());
            t.updateEntity(merged.addProperty("Age", 43), TableEntityUpdateMode.REPLACE, true);
            assertEquals(43, t.getEntity("Smith", "Ben").getProperty("Age"));

            t.upsertEntity(new TableEntity("Smith", "Jeff").addProperty("Age", 35));
            t.upsertEntity(new TableEntity("Jones", "Ann").addProperty("Age", 29), TableEntityUpdateMode.REPLACE);
            assertEquals(List.of("Jones/Ann", "Smith/Ben", "Smith/Jeff"), keys(t.listEntities()));
            assertEquals(List.of("Smith/Ben", "Smith/Jeff"),
                    keys(t.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'Smith' and RowKey ge 'B'"))));
            assertEquals(List.of("Smith/Ben"), keys(t.listEntities(new ListEntitiesOptions().setFilter("Big eq 9007199254740993L"))));
            assertEquals(400, assertThrows(TableServiceException.class,
                    () -> t.listEntities(new ListEntitiesOptions().setFilter("Age eq"))).getStatusCode());

            TableTransactionFailedException failed = assertThrows(TableTransactionFailedException.class,
                    () -> t.submitTransaction(List.of(
                            new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Smith", "Carol")),
                            new TableTransactionAction(TableTransactionActionType.UPDATE_MERGE, new TableEntity("Smith", "Nobody")))));
            assertEquals(1, failed.getFailedTransactionActionIndex());
            assertEquals(404, failed.getStatusCode());
            assertEquals(404, assertThrows(TableServiceException.class, () -> t.getEntity("Smith", "Carol")).getStatusCode());
            t.submitTransaction(List.of(
                    new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Smith", "Carol")),
                    new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("Smith", "Jeff"))));
            assertEquals(List.of("Smith/Ben", "Smith/Carol"),
                    keys(t.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'Smith'"))));

            TableEntity carol = t.getEntity("Smith", "Carol");
            t.updateEntity(new TableEntity("Smith", "Carol").addProperty("X", 1));
            assertEquals(412, assertThrows(TableServiceException.class, () -> t.deleteEntity(carol, true)).getStatusCode());
            t.deleteEntity("Smith", "Carol");
            assertNull(t.listEntities(new ListEntitiesOptions().setFilter("RowKey eq 'Carol'")).stream().findFirst().orElse(null));
            service.deleteTable("CUSTOMERS");
            assertEquals(404, assertThrows(TableServiceException.class, () -> t.getEntity("Smith", "Ben")).getStatusCode());
        }
    }

    @Test
    void pagesWithContinuationOverASharedCosmosClient(@TempDir Path dir) {
        try (CosmosClient cosmos = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            TableServiceClient service = new TableServiceClientBuilder().cosmosClient(cosmos).buildClient();
            TableClient t = service.createTable("paged");
            for (int i = 0; i < 120; i++) {
                t.createEntity(new TableEntity("p" + (i % 4), String.format("%03d", i)));
            }
            List<Integer> sizes = new ArrayList<>();
            List<String> all = new ArrayList<>();
            for (TablePagedIterable.Page page : t.listEntities(new ListEntitiesOptions().setTop(50)).iterableByPage()) {
                sizes.add(page.getValue().size());
                page.getValue().forEach(e -> all.add(e.getPartitionKey() + "/" + e.getRowKey()));
            }
            assertEquals(List.of(50, 50, 20), sizes);
            List<String> sorted = new ArrayList<>(all);
            sorted.sort(null);
            assertEquals(sorted, all);
            service.close();
            assertEquals(120, cosmos.getDatabase("devstoreaccount1").getContainer("paged")
                    .queryItems("SELECT VALUE COUNT(1) FROM c", null, Integer.class).stream().findFirst().orElse(0),
                    "closing a service over a shared client leaves the client open");
        }
    }

    @Test
    void tablesAndEntitiesSurviveAReopen(@TempDir Path dir) {
        try (TableServiceClient service = new TableServiceClientBuilder().dataDirectory(dir).buildClient()) {
            service.createTable("Durable").createEntity(new TableEntity("p", "r").addProperty("V", 9007199254740993L));
        }
        try (TableServiceClient service = new TableServiceClientBuilder().dataDirectory(dir).buildClient()) {
            assertEquals(List.of("Durable"), service.listTables().stream().map(TableItem::getName).toList());
            assertEquals(9007199254740993L, service.getTableClient("durable").getEntity("p", "r").getProperty("V"));
        }
    }

    private static List<String> keys(TablePagedIterable it) {
        return it.stream().map(e -> e.getPartitionKey() + "/" + e.getRowKey()).collect(Collectors.toList());
    }
}
