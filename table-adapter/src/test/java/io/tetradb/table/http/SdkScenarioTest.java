package io.tetradb.table.http;

import io.tetradb.testing.SharedExamples;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The seed scenario {@code examples/customers-table.jsonl} and shared access signatures, through the SDK. */
class SdkScenarioTest extends SdkTestBase {
    static final ObjectMapper M = new ObjectMapper();

    /** A line of the file as an SDK entity; typed values are {"@odata.type": t, "value": v}. */
    static TableEntity entity(JsonNode line) {
        TableEntity e = new TableEntity(line.get("PartitionKey").asText(), line.get("RowKey").asText());
        for (Iterator<Map.Entry<String, JsonNode>> it = line.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            if (f.getKey().equals("PartitionKey") || f.getKey().equals("RowKey")) {
                continue;
            }
            if (v.isObject()) {
                String type = v.get("@odata.type").asText();
                String text = v.get("value").asText();
                e.addProperty(f.getKey(), switch (type) {
                    case "Edm.DateTime" -> OffsetDateTime.parse(text);
                    case "Edm.Int64" -> Long.parseLong(text);
                    default -> throw new IllegalArgumentException(type);
                });
            } else if (v.isInt()) {
                e.addProperty(f.getKey(), v.intValue());
            } else {
                e.addProperty(f.getKey(), v.asText());
            }
        }
        return e;
    }

    @Test
    void customersTable() throws Exception {
        TableClient people = freshTable("people");
        List<TableEntity> seed = new ArrayList<>();
        for (String line : Files.readAllLines(SharedExamples.dir().resolve("customers-table.jsonl"))) {
            if (!line.isBlank()) {
                seed.add(entity(M.readTree(line)));
            }
        }
        seed.forEach(people::createEntity);

        // retrieve("Smith", "Ben")
        TableEntity ben = people.getEntity("Smith", "Ben");
        assertEquals("ben@contoso.com", ben.getProperty("Email"));
        assertEquals(42, ben.getProperty("Age"));
        assertEquals(OffsetDateTime.parse("2016-03-01T09:30:00.1234567Z"), ben.getProperty("Joined"));
        assertEquals(9007199254740993L, people.getEntity("Jones", "Ben").getProperty("Balance"));

        // PartitionKey eq 'Smith' and RowKey ge 'B': Alice is before B
        List<String> smiths = people.listEntities(new ListEntitiesOptions()
                        .setFilter("PartitionKey eq 'Smith' and RowKey ge 'B'"), null, null).stream()
                .map(TableEntity::getRowKey).collect(Collectors.toList());
        assertEquals(List.of("Ben", "Jeff"), smiths);

        // a $batch of inserts in one PartitionKey is atomic
        List<TableTransactionAction> failing = List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Smith", "Carol").addProperty("Age", 31)),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Smith", "Ben")));
        TableTransactionFailedException f = assertThrows(TableTransactionFailedException.class,
                () -> people.submitTransaction(failing));
        assertEquals(1, f.getFailedTransactionActionIndex());
        assertThrows(TableServiceException.class, () -> people.getEntity("Smith", "Carol"));
        people.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Smith", "Carol").addProperty("Age", 31)),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("Smith", "Dave").addProperty("Age", 33))));
        assertEquals(5, people.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'Smith'"), null, null)
                .stream().count());

        // the same data is a container to the document face: one item per entity, a DateTime shown as its JSON view
        ObjectNode item = cosmos.getDatabase("devstoreaccount1").getContainer("people")
                .readItem("Ben", new PartitionKey("Smith"), ObjectNode.class).getItem();
        assertEquals(42, item.get("Age").intValue());
        assertEquals("2016-03-01T09:30:00.1234567Z", item.get("Joined").asText());

        // and what the document face writes, the table face reads (types from JSON)
        cosmos.getDatabase("devstoreaccount1").getContainer("people").createItem(M.createObjectNode()
                .put("id", "Zed").put("PartitionKey", "Smith").put("Age", 77).put("Score", 1.5).put("Big", 1L << 40));
        TableEntity zed = people.getEntity("Smith", "Zed");
        assertEquals(77, zed.getProperty("Age"));
        assertEquals(1.5, zed.getProperty("Score"));
        assertEquals(1L << 40, zed.getProperty("Big"));
        assertEquals(List.of("Zed"), people.listEntities(new ListEntitiesOptions().setFilter("Age gt 70"), null, null)
                .stream().map(TableEntity::getRowKey).collect(Collectors.toList()));
        // each version another face writes has its own ETag (even within one second), so a stale one is refused
        cosmos.getDatabase("devstoreaccount1").getContainer("people").upsertItem(M.createObjectNode()
                .put("id", "Zed").put("PartitionKey", "Smith").put("Age", 78));
        TableEntity zed2 = people.getEntity("Smith", "Zed");
        assertTrue(!zed.getETag().equals(zed2.getETag()), zed.getETag());
        TableEntity stale = new TableEntity("Smith", "Zed").addProperty("Age", 79);
        stale.getProperties().put("odata.etag", zed.getETag());
        assertEquals(412, assertThrows(TableServiceException.class, () -> people.updateEntityWithResponse(stale,
                TableEntityUpdateMode.MERGE, true, null, null)).getResponse().getStatusCode());
        TableEntity current = new TableEntity("Smith", "Zed").addProperty("Age", 79);
        current.getProperties().put("odata.etag", zed2.getETag());
        people.updateEntityWithResponse(current, TableEntityUpdateMode.MERGE, true, null, null);
        assertEquals(79, people.getEntity("Smith", "Zed").getProperty("Age"));
    }

    @Test
    void serviceSas() {
        TableClient owner = freshTable("sastable");
        owner.createEntity(new TableEntity("p", "r").addProperty("V", 1));
        String readOnly = owner.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("r")));
        TableClient reader = new TableClientBuilder().endpoint(endpoint()).tableName("sastable").sasToken(readOnly)
                .buildClient();
        assertEquals(1, reader.getEntity("p", "r").getProperty("V"));
        assertEquals(1, reader.listEntities().stream().count());
        TableServiceException write = assertThrows(TableServiceException.class,
                () -> reader.createEntity(new TableEntity("p", "x")));
        assertEquals(403, write.getResponse().getStatusCode());

        String expired = owner.generateSas(new TableSasSignatureValues(OffsetDateTime.now().minusMinutes(1),
                TableSasPermission.parse("raud")));
        TableClient late = new TableClientBuilder().endpoint(endpoint()).tableName("sastable").sasToken(expired)
                .buildClient();
        assertEquals(403, assertThrows(TableServiceException.class, () -> late.getEntity("p", "r"))
                .getResponse().getStatusCode());

        String tampered = readOnly.replace("sp=r", "sp=raud");
        assertTrue(!tampered.equals(readOnly), readOnly);
        TableClient forger = new TableClientBuilder().endpoint(endpoint()).tableName("sastable").sasToken(tampered)
                .buildClient();
        TableServiceException forged = assertThrows(TableServiceException.class,
                () -> forger.createEntity(new TableEntity("p", "y")));
        assertEquals(403, forged.getResponse().getStatusCode());
        assertEquals("AuthenticationFailed", forged.getValue().getErrorCode().toString());

        String all = owner.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("raud")));
        TableClient writer = new TableClientBuilder().endpoint(endpoint()).tableName("sastable").sasToken(all)
                .buildClient();
        writer.createEntity(new TableEntity("p", "w"));
        writer.deleteEntity("p", "w");
        writer.submitTransaction(List.of(new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "t"))));
        assertEquals(2, owner.listEntities().stream().count());

        // the same SAS does not open another table, not even through a batch
        TableClient other = freshTable("othertable");
        TableClient sneaky = new TableClientBuilder().endpoint(endpoint()).tableName("othertable").sasToken(all)
                .buildClient();
        assertEquals(403, assertThrows(TableServiceException.class, () -> sneaky.getEntity("p", "r"))
                .getResponse().getStatusCode());
        assertThrows(RuntimeException.class, () -> sneaky.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "x")))));
        assertEquals(0, other.listEntities().stream().count());
    }

    @Test
    void accountSas() {
        freshTable("acctsas").createEntity(new TableEntity("p", "r").addProperty("V", 1));
        String listAndRead = service.generateAccountSas(new TableAccountSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableAccountSasPermission.parse("rl"),
                new TableAccountSasService().setTableAccess(true),
                new TableAccountSasResourceType().setContainer(true).setObject(true)));
        var reader = new TableServiceClientBuilder().endpoint(endpoint()).sasToken(listAndRead).buildClient();
        assertTrue(reader.listTables().stream().anyMatch(t -> t.getName().equals("acctsas")));
        assertEquals(1, reader.getTableClient("acctsas").getEntity("p", "r").getProperty("V"));
        assertEquals(403, assertThrows(TableServiceException.class, () -> reader.createTable("notallowed"))
                .getResponse().getStatusCode());
        assertEquals(403, assertThrows(TableServiceException.class,
                () -> reader.getTableClient("acctsas").createEntity(new TableEntity("p", "x")))
                .getResponse().getStatusCode());

        String all = service.generateAccountSas(new TableAccountSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableAccountSasPermission.parse("rwdlacu"),
                new TableAccountSasService().setTableAccess(true),
                new TableAccountSasResourceType().setContainer(true).setObject(true)));
        var admin = new TableServiceClientBuilder().endpoint(endpoint()).sasToken(all).buildClient();
        admin.createTable("bysas");
        admin.getTableClient("bysas").createEntity(new TableEntity("p", "r"));
        admin.deleteTable("bysas");
        assertTrue(service.listTables().stream().noneMatch(t -> t.getName().equals("bysas")));
    }
}
