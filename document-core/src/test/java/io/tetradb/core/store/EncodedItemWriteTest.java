package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.value.TypedValueGenerator;
import io.tetradb.document.CompositePath;
import io.tetradb.document.CompositePathSortOrder;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.document.UniqueKey;
import io.tetradb.document.UniqueKeyPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pre-encoded write ({@link EncodedItem}, issue 17's tree-free write) does what the tree write does: the same
 * random operations (create, upsert, replace, batches; items with missing or non-string ids, another partition
 * key, bad ttls, written-back system properties, typed values, long strings) applied to two identical containers,
 * one with trees and one with encoded items, give the same statuses and messages, the same stored items and
 * consistent index entries of the same count; with the default policy and TTL (the checked fields only are decoded)
 * and with unique keys and composite indexes (the whole item is decoded for them). Half the encoded items are made by
 * {@link EncodedItem#of} (the stream writer's note of top-level system names trusted, mongo-encode), half from bytes.
 */
class EncodedItemWriteTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void encodedWritesEqualTreeWrites(@TempDir Path dir) {
        long seed = Long.getLong("value.seed", new Random().nextLong());
        Random r = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(r);
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            for (String kind : new String[]{"plain", "unique"}) {
                for (String side : new String[]{"tree", "enc"}) {
                    CosmosContainerProperties p = new CosmosContainerProperties(kind + side, "/pk")
                            .setDefaultTimeToLiveInSeconds(-1);
                    if (kind.equals("unique")) {
                        p.setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(List.of(new UniqueKey(List.of("/u")))));
                        p.setIndexingPolicy(new IndexingPolicy().setCompositeIndexes(List.of(List.of(
                                new CompositePath().setPath("/n"),
                                new CompositePath().setPath("/s").setOrder(CompositePathSortOrder.DESCENDING)))));
                    }
                    client.getDatabase("db").createContainer(p);
                }
                ContainerStore tree = client.coreStore().container("db", kind + "tree");
                ContainerStore enc = client.coreStore().container("db", kind + "enc");
                for (int i = 0; i < 1200; i++) {
                    String pk = "p" + r.nextInt(4);
                    PartitionKeyValue key = PartitionKeyValue.of(TextNode.valueOf(pk));
                    int n = r.nextInt(5) == 0 ? 1 + r.nextInt(3) : 1;
                    List<ObjectNode> items = new ArrayList<>();
                    List<Integer> kinds = new ArrayList<>();
                    for (int k = 0; k < n; k++) {
                        items.add(item(r, g, pk));
                        kinds.add(r.nextInt(3));
                    }
                    String a = run(tree, key, items, kinds, false);
                    String b = run(enc, key, items, kinds, true);
                    assertEquals(a, b, "operation " + i + " (seed " + seed + ")");
                }
                List<String> treeItems = new ArrayList<>();
                List<String> encItems = new ArrayList<>();
                tree.scan(io.tetradb.core.partition.EpkRange.FULL, v -> treeItems.add(userView(tree, v)));
                enc.scan(io.tetradb.core.partition.EpkRange.FULL, v -> encItems.add(userView(enc, v)));
                assertEquals(treeItems, encItems, "seed " + seed);
                assertTrue(treeItems.size() > 50, treeItems.size() + " items");
                ContainerStore.IndexCheck t = tree.checkIndexes();
                ContainerStore.IndexCheck e = enc.checkIndexes();
                assertTrue(t.consistent(), t.toString());
                assertTrue(e.consistent(), e + " (seed " + seed + ")");
                assertEquals(t.stored(), e.stored());
            }
        }
    }

    private static String userView(ContainerStore c, byte[] stored) {
        ObjectNode o = c.codec().parse(stored);
        o.remove(List.of("_rid", "_self", "_etag", "_ts")); // _ts: the two sides write a moment apart
        return o.toString();
    }

    private static ObjectNode item(Random r, TypedValueGenerator g, String pk) {
        ObjectNode o = M.createObjectNode();
        int idKind = r.nextInt(40);
        if (idKind == 0) {
            o.put("id", 7); // not a string: 400
        } else if (idKind != 1) { // 1: no id: 400
            o.put("id", "i" + r.nextInt(40));
        }
        o.put("pk", r.nextInt(40) == 0 ? "elsewhere" : pk);
        o.setAll(g.document());
        o.put("n", r.nextInt(5));
        o.put("s", r.nextInt(3) == 0 ? "x".repeat(250 + r.nextInt(20)) : "s" + r.nextInt(4));
        o.put("u", "u" + r.nextInt(60));
        int ttl = r.nextInt(30);
        if (ttl == 0) {
            o.put("ttl", "soon"); // 400
        } else if (ttl == 1) {
            o.put("ttl", 1000);
        }
        if (r.nextInt(10) == 0) { // read back and written again: system properties the store replaces
            o.put("_rid", "abc").put("_ts", 5).put("_etag", "\"e\"").put("_self", "x").put("_attachments", "y");
        }
        return o;
    }

    private static final io.tetradb.core.item.BinaryItemStreamWriter STREAM =
            new io.tetradb.core.item.BinaryItemStreamWriter(256, 128);

    /** The item as a face's stream writer hands it over ({@link EncodedItem#of}). */
    private static EncodedItem streamed(ObjectNode tree) {
        STREAM.reset();
        STREAM.value(tree);
        return EncodedItem.of(STREAM);
    }

    /** The operations as trees or encoded items, as one write or a batch; their outcome as text. */
    private static String run(ContainerStore c, PartitionKeyValue pk, List<ObjectNode> items, List<Integer> kinds,
                              boolean encoded) {
        List<ItemOperation> ops = new ArrayList<>();
        for (int k = 0; k < items.size(); k++) {
            ObjectNode tree = items.get(k).deepCopy();
            // every other item through the stream writer (mongo-encode): the store then trusts the writer's note of
            // top-level system names instead of looking for them, and must drop written-back ones all the same
            EncodedItem e = k % 2 == 0 ? new EncodedItem(BinaryItemWriter.encode(tree)) : streamed(tree);
            JsonNode id = tree.get("id");
            String replaceId = id != null && id.isTextual() ? id.textValue() : "i0";
            ops.add(switch (kinds.get(k)) {
                case 0 -> encoded ? ItemOperation.create(e) : ItemOperation.create(tree);
                case 1 -> encoded ? ItemOperation.upsert(e, null) : ItemOperation.upsert(tree, null);
                default -> encoded ? ItemOperation.replace(replaceId, e, null) : ItemOperation.replace(replaceId, tree, null);
            });
        }
        StringBuilder out = new StringBuilder();
        try {
            if (ops.size() == 1) {
                ItemResult res = c.execute(pk, ops.get(0));
                out.append(res.status()).append(' ').append(res.requestCharge());
            } else {
                for (ItemResult res : c.executeBatch(pk, ops)) {
                    out.append(res.status()).append(' ').append(res.requestCharge()).append(' ')
                            .append(res.error()).append("; ");
                }
            }
        } catch (StoreException ex) {
            out.append(ex.status()).append(' ').append(ex.getMessage());
        }
        return out.toString();
    }
}
