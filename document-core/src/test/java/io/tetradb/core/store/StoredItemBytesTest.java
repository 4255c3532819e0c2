package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.patch.PatchOperation;
import io.tetradb.core.value.TypedValueGenerator;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * item-copies (issue 17): what the store keeps for a caller's tree, now written as a frame and finished in place, is
 * byte for byte what the body path stored — {@code StoredItems.finish} of {@code BinaryItemWriter.encode} of the
 * user's fields, with the write's lsn, rid, self prefix, etag and {@code _ts} — for random typed items through point
 * creates, upserts and replaces, batches, open transactions and patches (a patch's body is not a frame), with written-back
 * system properties dropped; the index entries stay consistent; and with {@code -Dtetradb.itemFormat=json} the same
 * operations store JSON text.
 */
class StoredItemBytesTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void storedItemsAreTheBodyPathsBytes(@TempDir Path dir) {
        run(dir, false);
    }

    @Test
    void theJsonTextFormatStillStoresJsonText(@TempDir Path dir) {
        inJsonTextFormat(() -> run(dir, true));
    }

    /** Runs {@code test} with {@code -Dtetradb.itemFormat=json} (read by each store opened meanwhile). */
    static void inJsonTextFormat(Runnable test) {
        System.setProperty("tetradb.itemFormat", "json");
        try {
            test.run();
        } finally {
            System.clearProperty("tetradb.itemFormat");
        }
    }

    /** A seeded random run's body over a fresh container {@code db/c} (partition key {@code /pk}). */
    interface SeededRun {
        void run(long seed, Random r, TypedValueGenerator g, ContainerStore c);
    }

    /**
     * Opens a store in {@code dir} with container {@code db/c}, checks it writes the format {@code json} says, and runs
     * {@code body} with a seeded random ({@code -Dvalue.seed} repeats a run) and a typed-value generator over it.
     */
    static void withSeededContainer(Path dir, boolean json, SeededRun body) {
        long seed = Long.getLong("value.seed", new Random().nextLong());
        Random r = new Random(seed);
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk"));
            ContainerStore c = client.coreStore().container("db", "c");
            assertEquals(!json, c.codec().writesBinary());
            body.run(seed, r, new TypedValueGenerator(r), c);
        }
    }

    private static void run(Path dir, boolean json) {
        withSeededContainer(dir, json, (seed, r, g, c) -> {
            Map<String, ObjectNode> latest = new HashMap<>(); // pk/id → the user's fields last written
            int checked = 0;
            for (int i = 0; i < 1500; i++) {
                String pk = "p" + r.nextInt(5);
                PartitionKeyValue key = PartitionKeyValue.of(TextNode.valueOf(pk));
                int kind = r.nextInt(10);
                try {
                    if (kind < 6) { // one write
                        ObjectNode item = item(r, g, pk, json);
                        String id = item.get("id").textValue();
                        ItemOperation op = switch (kind % 3) {
                            case 0 -> ItemOperation.create(item.deepCopy());
                            case 1 -> ItemOperation.upsert(item.deepCopy(), null);
                            default -> ItemOperation.replace(id, item.deepCopy(), null);
                        };
                        ItemResult res;
                        try {
                            res = c.execute(key, op);
                        } catch (StoreException e) {
                            continue; // 409 for a stored id, 404 for a replace of none
                        }
                        checked += check(c, key, res, item, json);
                        latest.put(pk + "/" + id, user(item));
                    } else if (kind < 8) { // a batch of upserts, or steps of an open transaction
                        List<ObjectNode> items = new ArrayList<>();
                        List<ItemOperation> ops = new ArrayList<>();
                        for (int k = 1 + r.nextInt(5); k > 0; k--) {
                            ObjectNode item = item(r, g, pk, json);
                            items.add(item);
                            ops.add(ItemOperation.upsert(item.deepCopy(), null));
                        }
                        List<ItemResult> results = new ArrayList<>();
                        if (kind == 6) {
                            results.addAll(c.executeBatch(key, ops));
                        } else {
                            results.addAll(inOpenTransaction(c, key, ops));
                        }
                        for (int k = 0; k < items.size(); k++) {
                            latest.put(pk + "/" + items.get(k).get("id").textValue(), user(items.get(k)));
                        }
                        for (int k = 0; k < items.size(); k++) { // a repeated id: the last write is the stored one
                            ItemResult res = results.get(k);
                            ObjectNode item = items.get(k);
                            if (lastWith(items, k)) {
                                checked += check(c, key, res, item, json);
                            }
                        }
                    } else { // a patch of a stored item: its body is written afresh, not as a frame
                        String id = "i" + r.nextInt(30);
                        if (latest.get(pk + "/" + id) == null) {
                            continue;
                        }
                        ItemResult res = c.execute(key, ItemOperation.patch(id, List.of(new PatchOperation(
                                PatchOperation.Type.SET, "/patched", null, TextNode.valueOf("x" + i))), null));
                        ObjectNode patched = latest.get(pk + "/" + id).deepCopy().put("patched", "x" + i);
                        checked += check(c, key, res, patched, json);
                        latest.put(pk + "/" + id, patched);
                    }
                } catch (AssertionError | RuntimeException e) {
                    fail("seed " + seed + ", operation " + i + ": " + e, e);
                }
            }
            assertTrue(checked > 800, checked + " stored items checked");
            ContainerStore.IndexCheck check = c.checkIndexes();
            assertTrue(check.consistent(), check + " (seed " + seed + ")");
        });
    }

    /** The results of {@code ops} applied one at a time in an open transaction, committed. */
    static List<ItemResult> inOpenTransaction(ContainerStore c, PartitionKeyValue key, List<ItemOperation> ops) {
        List<ItemResult> results = new ArrayList<>();
        try (OpenTransaction tx = c.begin(key)) {
            for (ItemOperation op : ops) {
                results.add(tx.apply(op));
            }
            tx.commit();
        }
        return results;
    }

    private static boolean lastWith(List<ObjectNode> items, int k) {
        for (int j = k + 1; j < items.size(); j++) {
            if (items.get(j).get("id").equals(items.get(k).get("id"))) {
                return false;
            }
        }
        return true;
    }

    /** The stored bytes of {@code res} are the body path's for {@code item}, and what a read gives. */
    private static int check(ContainerStore c, PartitionKeyValue key, ItemResult res, ObjectNode item, boolean json) {
        byte[] stored = res.stored();
        assertNotNull(stored, res.toString());
        assertArrayEquals(c.read(key, item.get("id").textValue(), null).stored(), stored);
        long lsn = ItemCodec.lsn(stored);
        assertEquals(c.etag(lsn), res.etag());
        ObjectNode back = c.codec().parse(stored);
        assertEquals(res.etag(), back.get("_etag").textValue().replace("\"", ""));
        if (json) {
            assertEquals(0x01, stored[0]);
            ObjectNode fields = back.deepCopy();
            fields.remove(List.of("_rid", "_self", "_etag", "_attachments", "_ts"));
            assertEquals(user(item), fields);
            return 1;
        }
        StoredItems.Trailer t = StoredItems.trailer(stored);
        assertEquals(res.etag(), t.etag());
        byte[] expected = StoredItems.finish(BinaryItemWriter.encode(user(item)), lsn,
                t.rid().getBytes(StandardCharsets.UTF_8), t.selfPrefix().getBytes(StandardCharsets.UTF_8), t.etag(),
                t.ts());
        assertArrayEquals(expected, stored);
        assertEquals(back.get("_rid").textValue(), t.rid());
        return 1;
    }

    /** The item without system properties (a write drops written-back ones). */
    static ObjectNode user(ObjectNode item) { // insert-frame: EncodedItemFrameTest's too
        ObjectNode u = item.deepCopy();
        u.remove(List.of("_rid", "_self", "_etag", "_attachments", "_ts"));
        return u;
    }

    static ObjectNode item(Random r, TypedValueGenerator g, String pk, boolean json) {
        ObjectNode o = json ? M.createObjectNode() : g.document();
        o.put("id", "i" + r.nextInt(30));
        o.put("pk", pk);
        if (json) {
            o.put("n", r.nextInt(1000)).put("s", "\u00e9t\u00e9 " + "x".repeat(r.nextInt(40)) + "\ud83d\ude00");
        }
        o.put("filler", "f".repeat(r.nextInt(1200)));
        if (r.nextInt(8) == 0) { // read back and written again: system properties the store replaces
            o.put("_rid", "abc").put("_ts", 5).put("_etag", "\"e\"").put("_self", "x").put("_attachments", "y");
        }
        return o;
    }
}
