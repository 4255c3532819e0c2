package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.storage.partition.StoredItem;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosItemRequestOptions;
import io.tetradb.document.CosmosPatchOperations;
import io.tetradb.document.CosmosStoredProcedureProperties;
import io.tetradb.document.CosmosStoredProcedureRequestOptions;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core's item transactions go through the logical-partition contract: every write path applies one
 * {@link PartitionWrite} against the version it read, what it writes is what the contract reads back, and a write
 * whose partition moved on meanwhile (another server's commit) is refused whole.
 */
class CorePartitionContractTest {
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    /** Records the core's applies; when armed, commits a write of its own first, as another server would. */
    static final class Recording implements PartitionStore {
        final PartitionStore inner;
        final List<PartitionWrite> applied = new ArrayList<>();
        final List<PartitionWrite> refused = new ArrayList<>();
        volatile boolean intrude;

        Recording(PartitionStore inner) {
            this.inner = inner;
        }

        @Override
        public synchronized ApplyResult apply(PartitionWrite w) {
            if (intrude) {
                intrude = false;
                PartitionStats s = inner.stats(w.partition());
                assertTrue(inner.apply(PartitionWrite.builder(w.partition(), w.expected(), w.expected() + 1)
                        .stats(new PartitionStats(s.bytes(), s.items(), w.expected() + 1)).build()).applied());
            }
            ApplyResult r = inner.apply(w);
            (r.applied() ? applied : refused).add(w);
            return r;
        }

        @Override
        public void awaitDurable(long ticket) {
            inner.awaitDurable(ticket);
        }

        @Override
        public PartitionStats stats(LogicalPartition p) {
            return inner.stats(p);
        }

        @Override
        public byte[] read(LogicalPartition p, String id) {
            return inner.read(p, id);
        }

        @Override
        public List<StoredItem> scan(LogicalPartition p, String from, String to, int limit) {
            return inner.scan(p, from, to, limit);
        }

        @Override
        public byte[] readDerived(LogicalPartition p, io.tetradb.core.storage.Space space, byte[] key) {
            return inner.readDerived(p, space, key);
        }

        public List<io.tetradb.core.storage.KeyValue> scanDerived(LogicalPartition p, io.tetradb.core.storage.Space space,
                                                                  byte[] from, byte[] to, int limit) {
            return inner.scanDerived(p, space, from, to, limit);
        }

        public List<io.tetradb.core.storage.KeyValue> seekDerived(int container, io.tetradb.core.storage.Space space,
                                                                  byte[] from, byte[] to, int limit) {
            return inner.seekDerived(container, space, from, to, limit);
        }

        @Override
        public List<byte[]> seek(int container, byte[] fromTerm, byte[] toTerm, int limit) {
            return inner.seek(container, fromTerm, toTerm, limit);
        }

        @Override
        public List<ChangeRecord> changes(LogicalPartition p, long afterLsn, int limit) {
            return inner.changes(p, afterLsn, limit);
        }

        @Override
        public List<PartitionVersion> partitions(int container, byte[] fromKey, byte[] toKey) {
            return inner.partitions(container, fromKey, toKey);
        }

        @Override
        public void close() {
        }
    }

    private static ObjectNode item(String id, String pk, int n) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("n", n).put("name", "item " + id);
    }

    private static LogicalPartition lp(ContainerStore store, String pk) {
        PartitionKeyValue v = PartitionKeyValue.of(PartitionKeyValue.component(pk));
        return new LogicalPartition(store.definition().collId(), Keys.concat(v.epk(), v.encoded()));
    }

    @Test
    void everyWritePathAppliesOnePartitionWriteAgainstTheVersionItRead() throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("db");
            client.getDatabase("db").createContainerIfNotExists("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            ContainerStore store = client.coreStore().container("db", "c");
            Recording rec = new Recording(client.coreStore().partitions());
            client.coreStore().usePartitions(rec);
            c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("put",
                    "function put(doc) { getContext().getCollection().createDocument("
                            + "getContext().getCollection().getSelfLink(), doc, function (e) { if (e) throw e; }); }"));

            c.createItem(item("a", "P", 1));
            c.upsertItem(item("b", "P", 2));
            c.replaceItem(item("a", "P", 3), "a", new PartitionKey("P"), new CosmosItemRequestOptions());
            c.patchItem("b", new PartitionKey("P"), CosmosPatchOperations.create().set("/n", 4), ObjectNode.class);
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("P"));
            batch.createItemOperation(item("c", "P", 5));
            batch.deleteItemOperation("b");
            assertTrue(c.executeCosmosBatch(batch).isSuccessStatusCode());
            c.getScripts().getStoredProcedure("put").execute(List.of(item("d", "P", 6)),
                    new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("P")));
            c.deleteItem("c", new PartitionKey("P"), new CosmosItemRequestOptions());
            c.createItem(item("x", "Q", 7));

            LogicalPartition p = lp(store, "P");
            List<PartitionWrite> ofP = rec.applied.stream().filter(w -> w.partition().equals(p)).toList();
            assertEquals(7, ofP.size(), "create, upsert, replace, patch, batch, stored procedure, delete");
            assertEquals(0, ofP.get(0).expected());
            for (int i = 1; i < ofP.size(); i++) {
                assertEquals(ofP.get(i - 1).next(), ofP.get(i).expected(), "each write read its predecessor's version");
                assertTrue(ofP.get(i).next() > ofP.get(i).expected());
            }
            PartitionStore ps = client.coreStore().partitions();
            assertEquals(ofP.get(ofP.size() - 1).next(), ps.version(p));
            assertEquals(List.of(), rec.refused);
            // the batch: one write holding both items, their terms and their change records
            PartitionWrite b = ofP.get(4);
            assertEquals(List.of("c", "b"), b.items().stream().map(m -> m.id()).toList());
            assertEquals(2, b.changes().size());
            assertTrue(b.terms().stream().anyMatch(t -> t.id().equals("c") && t.added()));
            assertTrue(b.terms().stream().anyMatch(t -> t.id().equals("b") && !t.added()));
            assertEquals(List.of(), b.sideWrites());

            // what the core wrote, read through the contract
            assertEquals(List.of("a", "d"), ps.scan(p, null, null, 10).stream().map(StoredItem::id).toList());
            ObjectNode a = c.readItem("a", new PartitionKey("P"), ObjectNode.class).getItem();
            assertEquals(a.path("n").asInt(), client.coreStore().codec().parse(ps.read(p, "a")).path("n").asInt());
            assertNull(ps.read(p, "c"));
            assertEquals(new PartitionStats(ps.stats(p).bytes(), 2, ps.version(p)), ps.stats(p));
            List<PartitionVersion> parts = ps.partitions(store.definition().collId(), null, null);
            assertEquals(2, parts.size());
            // every index entry of the container is found by a seek across its partitions
            List<byte[]> entries = ps.seek(store.definition().collId(), new byte[0], null, 10_000);
            assertEquals(store.checkIndexes().stored(), entries.size());
            byte[] q = lp(store, "Q").key();
            assertTrue(entries.stream().anyMatch(e -> endsWith(e, Keys.concat(q, "x".getBytes(StandardCharsets.UTF_8)))));
            // change records of the partition, in lsn order
            List<ChangeRecord> changes = ps.changes(p, 0, 100);
            assertFalse(changes.isEmpty());
            for (int i = 1; i < changes.size(); i++) {
                assertTrue(changes.get(i - 1).lsn() < changes.get(i).lsn());
            }
            assertEquals("c", changes.get(changes.size() - 1).id());
            assertEquals(ChangeRecord.OperationType.DELETE, changes.get(changes.size() - 1).operationType());
        }
    }

    @Test
    void aWriteWhosePartitionMovedOnMeanwhileIsRefusedWholeAndCanBeRetried() throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("db");
            client.getDatabase("db").createContainerIfNotExists("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            ContainerStore store = client.coreStore().container("db", "c");
            Recording rec = new Recording(client.coreStore().partitions());
            client.coreStore().usePartitions(rec);
            c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("put",
                    "function put(doc) { getContext().getCollection().createDocument("
                            + "getContext().getCollection().getSelfLink(), doc, function (e) { if (e) throw e; }); }"));
            c.createItem(item("a", "P", 1));
            LogicalPartition p = lp(store, "P");
            long feedBefore = client.coreStore().partitions().changes(p, 0, 100).size();

            rec.intrude = true;
            CosmosException e = assertThrows(CosmosException.class, () -> c.createItem(item("b", "P", 2)));
            assertEquals(PartitionCommit.RETRY_WITH, e.getStatusCode());
            rec.intrude = true;
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("P"));
            batch.createItemOperation(item("c", "P", 3));
            batch.replaceItemOperation("a", item("a", "P", 9));
            e = assertThrows(CosmosException.class, () -> c.executeCosmosBatch(batch));
            assertEquals(PartitionCommit.RETRY_WITH, e.getStatusCode());
            rec.intrude = true;
            e = assertThrows(CosmosException.class, () -> c.getScripts().getStoredProcedure("put")
                    .execute(List.of(item("d", "P", 4)),
                            new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("P"))));
            assertEquals(PartitionCommit.RETRY_WITH, e.getStatusCode());

            assertEquals(3, rec.refused.size());
            PartitionStore ps = client.coreStore().partitions();
            assertEquals(List.of("a"), ps.scan(p, null, null, 10).stream().map(StoredItem::id).toList());
            assertEquals(1, c.readItem("a", new PartitionKey("P"), ObjectNode.class).getItem().path("n").asInt());
            assertEquals(feedBefore, ps.changes(p, 0, 100).size(), "no change record of a refused write");
            assertTrue(store.checkIndexes().consistent());
            assertEquals(1, ps.stats(p).items());

            // the retry reads the new version and applies
            c.createItem(item("b", "P", 2));
            PartitionWrite last = rec.applied.get(rec.applied.size() - 1);
            assertEquals(ps.version(p), last.next());
            assertEquals(List.of("a", "b"), ps.scan(p, null, null, 10).stream().map(StoredItem::id).toList());
            assertTrue(store.checkIndexes().consistent());
        }
    }

    private static boolean endsWith(byte[] a, byte[] suffix) {
        return a.length >= suffix.length && Arrays.equals(a, a.length - suffix.length, a.length, suffix, 0, suffix.length);
    }
}
