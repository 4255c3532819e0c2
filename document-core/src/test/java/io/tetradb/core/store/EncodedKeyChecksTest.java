package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.item.BinaryItemStreamWriter;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKeyDefinition;
import io.tetradb.document.PartitionKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * insert-frame (issue 17): the store checks an encoded item's id, partition key and ttl from its bytes (no tree of
 * its key fields) and decides exactly as for the item's tree: over a top-level, a nested and a two-level key, with
 * and without a default ttl, random items whose key values are strings (ASCII, same-length neighbours, non-ASCII,
 * composed and decomposed accents), numbers (5 and 5.0), booleans, null, objects, arrays or absent (a nested path
 * through a non-object), against requests naming such values or none, with missing, non-string and changed ids and
 * valid and invalid ttls: the same status, message and stored item as the tree write of the same item.
 */
class EncodedKeyChecksTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final List<JsonNode> VALUES = List.of(TextNode.valueOf("ab"), TextNode.valueOf("ac"),
            TextNode.valueOf("abc"), TextNode.valueOf("Zo\u00eb"), TextNode.valueOf("Zoe\u0308"),
            TextNode.valueOf("Zo\u00e8"), TextNode.valueOf(""), TextNode.valueOf("\ud83d\ude00"), IntNode.valueOf(5),
            DoubleNode.valueOf(5.0), DoubleNode.valueOf(5.5), BooleanNode.TRUE, NullNode.instance,
            MissingNode.getInstance());

    @Test
    void keyChecksFromTheBytesDecideAsTheTreesDo(@TempDir Path dir) {
        long seed = Long.getLong("value.seed", new Random().nextLong());
        Random r = new Random(seed);
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            List<List<String>> keys = List.of(List.of("/k"), List.of("/a/b"), List.of("/t", "/u/v"));
            int accepted = 0;
            int refused = 0;
            for (int kind = 0; kind < keys.size(); kind++) {
                for (boolean ttl : new boolean[]{false, true}) {
                    String name = "k" + kind + ttl;
                    for (String side : new String[]{"tree", "enc"}) {
                        CosmosContainerProperties p = new CosmosContainerProperties(name + side,
                                new PartitionKeyDefinition().setPaths(keys.get(kind))
                                        .setKind(keys.get(kind).size() > 1 ? PartitionKind.MULTI_HASH : PartitionKind.HASH));
                        if (ttl) {
                            p.setDefaultTimeToLiveInSeconds(-1);
                        }
                        client.getDatabase("db").createContainer(p);
                    }
                    ContainerStore tree = client.coreStore().container("db", name + "tree");
                    ContainerStore enc = client.coreStore().container("db", name + "enc");
                    for (int i = 0; i < 400; i++) {
                        List<JsonNode> request = new ArrayList<>();
                        for (int level = 0; level < keys.get(kind).size(); level++) {
                            request.add(value(r));
                        }
                        PartitionKeyValue pk = PartitionKeyValue.of(request);
                        ObjectNode item = item(r, kind, request);
                        String replaceId = r.nextInt(8) == 0 ? "other" : item.path("id").asText("x");
                        int op = r.nextInt(3);
                        String a = run(tree, pk, op, replaceId, item, false);
                        String b = run(enc, pk, op, replaceId, item, true);
                        assertEquals(a, b, "seed " + seed + ", " + name + ", operation " + i + ": " + item + " in " + pk);
                        if (a.startsWith("20")) {
                            accepted++;
                        } else if (a.startsWith("400")) {
                            refused++;
                        }
                    }
                }
            }
            assertTrue(accepted > 300 && refused > 300, accepted + " accepted, " + refused + " refused");
        }
    }

    private static JsonNode value(Random r) {
        return VALUES.get(r.nextInt(VALUES.size()));
    }

    /** An item whose key fields are mostly the request's (else a random value, an object, an array or nothing). */
    private static ObjectNode item(Random r, int kind, List<JsonNode> request) {
        ObjectNode o = M.createObjectNode();
        int idKind = r.nextInt(12);
        if (idKind == 0) {
            o.put("id", 7);
        } else if (idKind == 1) {
            o.putNull("id");
        } else if (idKind != 2) {
            o.put("id", "i" + r.nextInt(20));
        }
        o.put("n", r.nextInt(100));
        List<JsonNode> values = new ArrayList<>();
        for (JsonNode v : request) {
            int k = r.nextInt(6);
            values.add(k < 3 ? v : k == 3 ? value(r) : k == 4 ? M.createObjectNode().put("x", 1) : M.createArrayNode().add(1));
        }
        switch (kind) {
            case 0 -> put(o, "k", values.get(0));
            case 1 -> {
                int shape = r.nextInt(5);
                if (shape == 0) {
                    o.put("a", "not an object"); // the nested path leads through a string: absent
                } else if (shape != 1) { // 1: no "a" at all
                    put(o.putObject("a").put("c", 1), "b", values.get(0));
                }
            }
            default -> {
                put(o, "t", values.get(0));
                put(o.putObject("u"), "v", values.get(1));
            }
        }
        int ttl = r.nextInt(8);
        if (ttl == 0) {
            o.put("ttl", "soon");
        } else if (ttl == 1) {
            o.put("ttl", 100);
        } else if (ttl == 2) {
            o.put("ttl", 0);
        } else if (ttl == 3) {
            o.put("ttl", -1.0);
        }
        return o;
    }

    private static void put(ObjectNode o, String name, JsonNode v) {
        if (!v.isMissingNode()) {
            o.set(name, v);
        }
    }

    private static final BinaryItemStreamWriter STREAM = new BinaryItemStreamWriter(256, 128);

    /** One create, upsert or replace of {@code item} as a tree or as an encoded item; its outcome as text. */
    private static String run(ContainerStore c, PartitionKeyValue pk, int kind, String replaceId, ObjectNode item,
                              boolean encoded) {
        ObjectNode tree = item.deepCopy();
        STREAM.reset();
        STREAM.value(tree);
        EncodedItem e = EncodedItem.of(STREAM);
        ItemOperation op = switch (kind) {
            case 0 -> encoded ? ItemOperation.create(e) : ItemOperation.create(tree);
            case 1 -> encoded ? ItemOperation.upsert(e, null) : ItemOperation.upsert(tree, null);
            default -> encoded ? ItemOperation.replace(replaceId, e, null) : ItemOperation.replace(replaceId, tree, null);
        };
        try {
            ItemResult res = c.execute(pk, op);
            ObjectNode stored = c.codec().parse(res.stored());
            stored.remove(List.of("_rid", "_self", "_etag", "_ts"));
            return res.status() + " " + res.requestCharge() + " " + stored;
        } catch (StoreException ex) {
            return ex.status() + " " + ex.getMessage();
        }
    }
}
