package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.item.BinaryItemStreamWriter;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.item.StoredItems;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * insert-frame (issue 17): an item a face hands over as {@link EncodedItem#of} is copied out of the writer once, into
 * the frame the store keeps, and finished in place — the stored array is that frame — with the bytes the body path
 * stored ({@code StoredItems.finish} of the user's TB1 fields, with the write's lsn, rid, self prefix, etag and
 * {@code _ts}), through point creates, upserts and replaces, batches and open transactions; the same item written
 * again (a retry, a second write) is copied and leaves the first stored array as it was; written-back system
 * properties are dropped; with {@code -Dtetradb.itemFormat=json} the store keeps the tree path's JSON text.
 */
class EncodedItemFrameTest {
    private final BinaryItemStreamWriter stream = new BinaryItemStreamWriter(256, 128);

    @Test
    void anEncodedItemsFrameIsTheStoredArrayWithTheBodyPathsBytes(@TempDir Path dir) {
        run(dir, false);
    }

    @Test
    void theJsonTextFormatStoresTheTreePathsJsonText(@TempDir Path dir) {
        StoredItemBytesTest.inJsonTextFormat(() -> run(dir, true));
    }

    private void run(Path dir, boolean json) {
        StoredItemBytesTest.withSeededContainer(dir, json, (seed, r, g, c) -> {
            int inPlace = 0;
            int rewritten = 0;
            for (int i = 0; i < 1200; i++) {
                String pk = "p" + r.nextInt(4);
                PartitionKeyValue key = PartitionKeyValue.of(TextNode.valueOf(pk));
                try {
                    List<ObjectNode> items = new ArrayList<>();
                    List<EncodedItem> encoded = new ArrayList<>();
                    List<ItemOperation> ops = new ArrayList<>();
                    int kind = r.nextInt(6);
                    java.util.Set<String> ids = new java.util.HashSet<>();
                    for (int k = kind < 3 ? 1 : 1 + r.nextInt(4); k > 0; k--) {
                        ObjectNode item = StoredItemBytesTest.item(r, g, pk, json);
                        if (!ids.add(item.get("id").textValue())) {
                            continue; // one write per id: each result is then the stored version
                        }
                        EncodedItem e = streamed(item);
                        items.add(item);
                        encoded.add(e);
                        String id = item.get("id").textValue();
                        ops.add(switch (kind) {
                            case 0 -> ItemOperation.create(e);
                            case 2 -> ItemOperation.replace(id, e, null);
                            default -> ItemOperation.upsert(e, null);
                        });
                    }
                    List<ItemResult> results = new ArrayList<>();
                    if (kind < 3) {
                        try {
                            results.add(c.execute(key, ops.get(0)));
                        } catch (StoreException ex) {
                            continue; // 409 for a stored id, 404 for a replace of none
                        }
                    } else if (kind < 5) {
                        results.addAll(c.executeBatch(key, ops));
                    } else {
                        results.addAll(StoredItemBytesTest.inOpenTransaction(c, key, ops));
                    }
                    for (int k = 0; k < items.size(); k++) {
                        byte[] stored = results.get(k).stored();
                        check(c, results.get(k), items.get(k), json);
                        boolean own = items.get(k).has("_ts"); // written back: the store drops it, from the tree
                        if (!json && !own) {
                            assertTrue(encoded.get(k).isFrame(stored), "the stored array is the item's frame");
                            inPlace++;
                        } else {
                            assertFalse(encoded.get(k).isFrame(stored));
                            rewritten++;
                        }
                    }
                    if (r.nextInt(4) == 0) { // the same item written again: a copy; the first stored array untouched
                        byte[] first = results.get(0).stored();
                        byte[] was = first.clone();
                        ItemResult again = c.execute(key, ItemOperation.upsert(encoded.get(0), null));
                        assertNotSame(first, again.stored());
                        assertArrayEquals(was, first, "the first write's stored array changed");
                        assertFalse(encoded.get(0).isFrame(again.stored()));
                        check(c, again, items.get(0), json);
                    }
                } catch (AssertionError | RuntimeException e) {
                    fail("seed " + seed + ", operation " + i + ": " + e, e);
                }
            }
            if (json) {
                assertTrue(rewritten > 600, rewritten + " items written as JSON text");
            } else {
                assertTrue(inPlace > 600, inPlace + " frames stored in place");
            }
            ContainerStore.IndexCheck check = c.checkIndexes();
            assertTrue(check.consistent(), check + " (seed " + seed + ")");
        });
    }

    /** The stored bytes of {@code res} are the body path's (TB1) or the tree path's (JSON text), and a read's. */
    private static void check(ContainerStore c, ItemResult res, ObjectNode item, boolean json) {
        byte[] stored = res.stored();
        PartitionKeyValue key = PartitionKeyValue.of(item.get("pk"));
        assertArrayEquals(c.read(key, item.get("id").textValue(), null).stored(), stored);
        long lsn = ItemCodec.lsn(stored);
        assertEquals(c.etag(lsn), res.etag());
        ObjectNode back = c.codec().parse(stored);
        String rid = back.get("_rid").textValue();
        String self = back.get("_self").textValue();
        byte[] selfPrefix = self.substring(0, self.length() - rid.length() - 1).getBytes(StandardCharsets.UTF_8);
        ObjectNode user = StoredItemBytesTest.user(item);
        byte[] body = json ? c.codec().body(user) : BinaryItemWriter.encode(user);
        byte[] expected = ItemCodec.finish(body, lsn, rid.getBytes(StandardCharsets.UTF_8), selfPrefix, res.etag(),
                back.get("_ts").longValue());
        assertArrayEquals(expected, stored);
        assertEquals(json ? 0x01 : StoredItems.FORMAT, stored[0]);
    }

    private EncodedItem streamed(ObjectNode tree) {
        stream.reset();
        stream.value(tree);
        return EncodedItem.of(stream);
    }
}
