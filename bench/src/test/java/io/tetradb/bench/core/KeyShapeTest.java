package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The raw side must use the keys the core uses, and values of the same size. */
class KeyShapeTest {
    @TempDir
    Path dir;

    @Test
    void rawKeysAndValuesMatchWhatTheCoreStores() throws Exception {
        Items items;
        ObjectNode item;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient()) {
            client.createDatabaseIfNotExists("bench");
            client.getDatabase("bench").createContainerIfNotExists(new CosmosContainerProperties("items", "/deviceId"));
            var container = client.getDatabase("bench").getContainer("items");
            items = new Items(client.coreStore().container("bench", "items").definition().collId(), 50);
            item = items.item(Items.id("i", 42), 7, 42);
            assertEquals(Items.ITEM_BYTES, Items.json(item).length);
            assertEquals(201, container.createItem(item).getStatusCode());
            assertEquals(item.get("payload"), container.readItem(Items.id("i", 42), new PartitionKey("dev-00007"),
                    ObjectNode.class).getItem().get("payload"));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
             RocksDB db = RocksDB.openReadOnly(options, dir.toString(), List.of(
                     new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                     new ColumnFamilyDescriptor("docs".getBytes(StandardCharsets.UTF_8)),
                     new ColumnFamilyDescriptor("meta".getBytes(StandardCharsets.UTF_8)),
                     new ColumnFamilyDescriptor("feed".getBytes(StandardCharsets.UTF_8))), handles)) {
            byte[] stored = db.get(handles.get(1), items.key(7, Items.id("i", 42)));
            assertNotNull(stored, "the raw key is the core's key");
            byte[] rawValue = items.rawValue(item, 1);
            assertTrue(Math.abs(stored.length - rawValue.length) <= 8,
                    "core stores " + stored.length + " bytes, raw " + rawValue.length);
            assertEquals(stored[0], rawValue[0]);
            handles.forEach(ColumnFamilyHandle::close);
        }
    }
}
