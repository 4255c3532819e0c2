package io.tetradb.table.http;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.rest.PagedResponse;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The official Azure Tables Java SDK against the running endpoint. */
class SdkEntityTest extends SdkTestBase {

    @Test
    void tableCrudAndListing() {
        service.createTable("alpha1");
        service.createTable("Beta1");
        service.createTable("gamma1");
        TableServiceException dup = assertThrows(TableServiceException.class, () -> service.createTable("ALPHA1"));
        assertEquals(409, dup.getResponse().getStatusCode());
        assertEquals("TableAlreadyExists", dup.getValue().getErrorCode().toString());
        List<String> names = service.listTables().stream().map(TableItem::getName).collect(Collectors.toList());
        assertTrue(names.containsAll(List.of("alpha1", "Beta1", "gamma1")), names.toString());
        List<String> filtered = service.listTables(new ListTablesOptions().setFilter("TableName eq 'Beta1'"), null, null)
                .stream().map(TableItem::getName).collect(Collectors.toList());
        assertEquals(List.of("Beta1"), filtered);
        List<String> paged = new ArrayList<>();
        service.listTables(new ListTablesOptions().setTop(1), null, null).iterableByPage()
                .forEach(p -> {
                    assertTrue(p.getValue().size() <= 1);
                    p.getValue().forEach(t -> paged.add(t.getName()));
                });
        assertEquals(names, paged, "NextTableName continuation walks every table");
        service.deleteTable("gamma1");
        assertTrue(service.listTables().stream().noneMatch(t -> t.getName().equals("gamma1")));
        TableServiceException bad = assertThrows(TableServiceException.class, () -> service.createTable("1bad"));
        assertEquals(400, bad.getResponse().getStatusCode());
    }

    @Test
    void everyEdmTypeRoundTrips() {
        TableClient t = freshTable("types");
        UUID guid = UUID.randomUUID();
        OffsetDateTime when = OffsetDateTime.parse("2016-03-01T09:30:00.1234567Z");
        byte[] bytes = {0, 1, 2, (byte) 0xff};
        TableEntity e = new TableEntity("p", "r")
                .addProperty("S", "text with 'quotes'")
                .addProperty("I", 42)
                .addProperty("L", 9007199254740993L)
                .addProperty("D", 2.5)
                .addProperty("Whole", 3.0)
                .addProperty("B", true)
                .addProperty("T", when)
                .addProperty("G", guid)
                .addProperty("Bin", bytes)
                .addProperty("N", "NaN").addProperty("N@odata.type", "Edm.Double");
        t.createEntity(e);
        TableEntity back = t.getEntity("p", "r");
        assertEquals("text with 'quotes'", back.getProperty("S"));
        assertEquals(42, back.getProperty("I"));
        assertEquals(9007199254740993L, back.getProperty("L"));
        assertEquals(2.5, back.getProperty("D"));
        assertEquals(3.0, back.getProperty("Whole"));
        assertEquals(true, back.getProperty("B"));
        assertEquals(when, back.getProperty("T"), "DateTime keeps all seven fractional digits");
        assertEquals(guid, back.getProperty("G"));
        assertArrayEquals(bytes, (byte[]) back.getProperty("Bin"));
        assertTrue(Double.isNaN((Double) back.getProperty("N")));
        assertNotNull(back.getETag());
        assertNotNull(back.getTimestamp());

        TableEntity selected = t.getEntityWithResponse("p", "r", List.of("I", "L"), null, null).getValue();
        assertEquals(42, selected.getProperty("I"));
        assertEquals(null, selected.getProperty("S"), "$select leaves other properties out");
    }

    @Test
    void keysWithSpecialCharactersAndEmptyRowKey() {
        TableClient t = freshTable("oddkeys");
        for (String rk : List.of("", "a b", "it's", "x+y", "ünï€ode", "%41", "a&b=c")) {
            t.createEntity(new TableEntity("pk'1", rk).addProperty("V", rk));
            assertEquals(rk, t.getEntity("pk'1", rk).getProperty("V"), rk);
        }
        List<String> order = t.listEntities().stream().map(TableEntity::getRowKey).collect(Collectors.toList());
        List<String> sorted = new ArrayList<>(order);
        sorted.sort(null);
        assertEquals(sorted, order);
        assertEquals("", order.get(0));
        TableServiceException bad = assertThrows(TableServiceException.class,
                () -> t.createEntity(new TableEntity("p", "a#b")));
        assertEquals(400, bad.getResponse().getStatusCode());
    }

    @Test
    void updatesMergesDeletesAndConditions() {
        TableClient t = freshTable("updates");
        t.createEntity(new TableEntity("p", "r").addProperty("A", 1).addProperty("B", "b"));
        TableServiceException exists = assertThrows(TableServiceException.class,
                () -> t.createEntity(new TableEntity("p", "r")));
        assertEquals(409, exists.getResponse().getStatusCode());
        assertEquals("EntityAlreadyExists", exists.getValue().getErrorCode().toString());

        TableEntity v1 = t.getEntity("p", "r");
        t.updateEntity(new TableEntity("p", "r").addProperty("C", 3), TableEntityUpdateMode.MERGE);
        TableEntity merged = t.getEntity("p", "r");
        assertEquals(1, merged.getProperty("A"));
        assertEquals(3, merged.getProperty("C"));
        assertNotEquals(v1.getETag(), merged.getETag());

        // a stale ETag: 412
        TableEntity stale = new TableEntity("p", "r").addProperty("X", 1);
        stale.getProperties().put("odata.etag", v1.getETag());
        TableServiceException conflict = assertThrows(TableServiceException.class,
                () -> t.updateEntityWithResponse(stale, TableEntityUpdateMode.REPLACE, true, null, null));
        assertEquals(412, conflict.getResponse().getStatusCode());
        assertEquals("UpdateConditionNotSatisfied", conflict.getValue().getErrorCode().toString());

        TableEntity current = t.getEntity("p", "r");
        TableEntity replacement = new TableEntity("p", "r").addProperty("Only", "this");
        replacement.getProperties().put("odata.etag", current.getETag());
        t.updateEntityWithResponse(replacement, TableEntityUpdateMode.REPLACE, true, null, null);
        TableEntity replaced = t.getEntity("p", "r");
        assertEquals("this", replaced.getProperty("Only"));
        assertEquals(null, replaced.getProperty("A"), "replace drops the other properties");

        t.upsertEntity(new TableEntity("p", "new").addProperty("U", 1));
        t.upsertEntityWithResponse(new TableEntity("p", "new").addProperty("W", 2), TableEntityUpdateMode.MERGE, null, null);
        TableEntity upserted = t.getEntity("p", "new");
        assertEquals(1, upserted.getProperty("U"));
        assertEquals(2, upserted.getProperty("W"));

        TableServiceException missing = assertThrows(TableServiceException.class,
                () -> t.updateEntity(new TableEntity("p", "nothing"), TableEntityUpdateMode.MERGE));
        assertEquals(404, missing.getResponse().getStatusCode());

        TableEntity old = t.getEntity("p", "new");
        t.upsertEntityWithResponse(new TableEntity("p", "new").addProperty("Z", 0), TableEntityUpdateMode.MERGE, null, null);
        TableServiceException staleDelete = assertThrows(TableServiceException.class,
                () -> t.deleteEntityWithResponse(old, true, null, null));
        assertEquals(412, staleDelete.getResponse().getStatusCode());
        t.deleteEntity("p", "new");
        TableServiceException gone = assertThrows(TableServiceException.class, () -> t.getEntity("p", "new"));
        assertEquals(404, gone.getResponse().getStatusCode());
        assertEquals("ResourceNotFound", gone.getValue().getErrorCode().toString());

        TableServiceException noTable = assertThrows(TableServiceException.class,
                () -> service.getTableClient("nosuchtable").getEntity("p", "r"));
        assertEquals(404, noTable.getResponse().getStatusCode());
    }

    @Test
    void filtersOnKeysAndOtherProperties() {
        TableClient t = freshTable("filters");
        List<TableTransactionAction> batch = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            for (int i = 0; i < 50; i++) {
                t.createEntity(new TableEntity("P" + p, String.format("R%03d", i))
                        .addProperty("N", i).addProperty("Big", 9007199254740000L + i)
                        .addProperty("Name", "n" + i).addProperty("Even", i % 2 == 0)
                        .addProperty("When", OffsetDateTime.parse("2020-01-01T00:00:00Z").plusSeconds(i)));
            }
        }
        assertEquals(List.of("P1/R007"), keys(t, "PartitionKey eq 'P1' and RowKey eq 'R007'"));
        assertEquals(List.of("P0/R048", "P0/R049"), keys(t, "PartitionKey eq 'P0' and RowKey ge 'R048'"));
        assertEquals(List.of("P0/R010", "P1/R010", "P2/R010"), keys(t, "Name eq 'n10'"));
        assertEquals(List.of("P2/R049"), keys(t, "Big gt 9007199254740048L and PartitionKey eq 'P2'"));
        assertEquals(List.of("P0/R010", "P1/R010", "P2/R010"), keys(t, "N eq 10L"),
                "Int32 property vs Int64 literal: compared by value (OData's numeric promotion)");
        assertEquals(List.of(), keys(t, "N eq '10'"), "Int32 property vs String literal: no match");
        assertEquals(3, keys(t, "When eq datetime'2020-01-01T00:00:05Z'").size());
        assertEquals(3 * 25, keys(t, "Even eq true").size());
        assertEquals(List.of("P0/R001", "P1/R001"), keys(t, "(N eq 1) and not (PartitionKey eq 'P2')"));
        // and binds tighter than or: 6 (N < 2) + 1 (P0/R049) + 3 (R020)
        assertEquals(10, keys(t, "N lt 2 or N gt 48 and PartitionKey eq 'P0' or RowKey eq 'R020' and N ge 20").size());

        // the SDK's paged listing surfaces its internal JSON error exception, an HttpResponseException
        HttpResponseException bad = assertThrows(HttpResponseException.class,
                () -> t.listEntities(new ListEntitiesOptions().setFilter("N eq"), null, null).stream().count());
        assertEquals(400, bad.getResponse().getStatusCode());
        assertEquals("InvalidInput", bad.getResponse().getHeaderValue("x-ms-error-code"));
    }

    @Test
    void pagesThrough2500EntitiesInKeyOrder() {
        TableClient t = freshTable("paging");
        List<String> expected = new ArrayList<>();
        for (int p = 0; p < 25; p++) {
            List<TableTransactionAction> actions = new ArrayList<>();
            for (int r = 0; r < 100; r++) {
                String pk = String.format("pk%02d", p);
                String rk = String.format("rk%03d", r);
                actions.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                        new TableEntity(pk, rk).addProperty("V", r)));
                expected.add(pk + "/" + rk);
            }
            t.submitTransaction(actions);
        }
        List<String> seen = new ArrayList<>();
        int pages = 0;
        for (PagedResponse<TableEntity> page : t.listEntities(new ListEntitiesOptions().setTop(1000), null, null)
                .iterableByPage()) {
            assertTrue(page.getValue().size() <= 1000);
            page.getValue().forEach(e -> seen.add(e.getPartitionKey() + "/" + e.getRowKey()));
            pages++;
        }
        assertEquals(expected, seen);
        assertEquals(3, pages);
        assertEquals(2500, t.listEntities().stream().count(), "default page size pages too");
        assertEquals(250, t.listEntities(new ListEntitiesOptions().setFilter("V lt 10").setTop(7), null, null)
                .stream().count());
    }

    @Test
    void failingBatchAppliesNothing() {
        TableClient t = freshTable("batches");
        t.createEntity(new TableEntity("p", "taken"));
        List<TableTransactionAction> actions = List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "a")),
                new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE, new TableEntity("p", "b").addProperty("X", 1)),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "taken")));
        TableTransactionFailedException f = assertThrows(TableTransactionFailedException.class,
                () -> t.submitTransaction(actions));
        assertEquals(2, f.getFailedTransactionActionIndex());
        assertEquals("EntityAlreadyExists", f.getValue().getErrorCode().toString());
        assertEquals(1, t.listEntities().stream().count(), "nothing of the failed batch was applied");

        t.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "a")),
                new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE, new TableEntity("p", "taken").addProperty("X", 1)),
                new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE, new TableEntity("p", "b")),
                new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("p", "zzz"))).subList(0, 2));
        assertEquals(1, t.getEntity("p", "taken").getProperty("X"));
        t.submitTransaction(List.of(new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("p", "a"))));
        assertEquals(1, t.listEntities().stream().count());

        List<TableTransactionAction> mixed = List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "c")),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("other", "c")));
        assertThrows(RuntimeException.class, () -> t.submitTransaction(mixed));
        assertEquals(1, t.listEntities().stream().count());
    }

    @Test
    void wrongKeyIsAuthenticationFailed() {
        String wrong = java.util.Base64.getEncoder().encodeToString(new byte[64]);
        var client = new TableServiceClientBuilder().connectionString(connectionString(wrong)).buildClient();
        TableServiceException e = assertThrows(TableServiceException.class, () -> client.createTable("nope"));
        assertEquals(403, e.getResponse().getStatusCode());
        assertEquals("AuthenticationFailed", e.getValue().getErrorCode().toString());
        assertTrue(service.listTables().stream().noneMatch(x -> x.getName().equals("nope")));
    }

    private static List<String> keys(TableClient t, String filter) {
        return t.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
                .map(e -> e.getPartitionKey() + "/" + e.getRowKey()).collect(Collectors.toList());
    }

}
