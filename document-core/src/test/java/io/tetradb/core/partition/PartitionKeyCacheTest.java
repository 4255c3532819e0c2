package io.tetradb.core.partition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * One-level string keys come from {@link PartitionKeyCache} once hashed: the cached value must be exactly the value
 * computed afresh (encoding, EPK, equality), whatever strings collide in its sets.
 */
class PartitionKeyCacheTest {

    /** The value the uncached path computes: a second level forces the general path; its first EPK level is ours. */
    private static byte[] freshEpk(String s) {
        return java.util.Arrays.copyOf(EffectivePartitionKey.hash(List.of(TextNode.valueOf(s), TextNode.valueOf("x"))),
                EffectivePartitionKey.LEVEL_BYTES);
    }

    @Test
    void cachedValuesEqualFreshOnesForManyKeysAndStayExact() {
        SplittableRandom random = new SplittableRandom(7);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) { // more keys than the table holds: sets overflow and evict
            int len = random.nextInt(0, 70);
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < len; j++) {
                int kind = random.nextInt(10);
                sb.append(kind < 8 ? (char) random.nextInt(0x20, 0x7F) : kind == 8 ? 'é' : '日');
            }
            keys.add(sb.toString());
        }
        for (int round = 0; round < 2; round++) {
            for (String k : keys) {
                PartitionKeyValue v = PartitionKeyValue.of(TextNode.valueOf(new String(k))); // never the same instance
                assertEquals(k, v.components().get(0).textValue());
                assertArrayEquals(freshEpk(k), v.epk(), k);
                PartitionKeyValue general = PartitionKeyValue.of(TextNode.valueOf(k), TextNode.valueOf("x"));
                byte[] first = java.util.Arrays.copyOf(general.encoded(), v.encoded().length);
                assertArrayEquals(first, v.encoded(), k);
                assertEquals(PartitionKeyValue.decode(v.encoded(), 0, v.encoded().length), v);
            }
        }
    }

    @Test
    void aHotKeyIsHashedOnceAndItsValueIsShared() {
        PartitionKeyValue a = PartitionKeyValue.of(TextNode.valueOf("device-" + 42));
        PartitionKeyValue b = PartitionKeyValue.of(TextNode.valueOf("device-" + 42));
        assertSame(a, b);
        // other shapes of the same key are still equal values
        List<JsonNode> list = new ArrayList<>(List.of(TextNode.valueOf("device-42")));
        assertEquals(a, PartitionKeyValue.of(list));
        list.set(0, TextNode.valueOf("changed")); // the caller's list is not kept
        assertEquals("device-42", a.components().get(0).textValue());
        // a long key is not kept in the table, but is the same value
        String longKey = "k".repeat(PartitionKeyCache.MAX_CACHED_LENGTH + 1);
        PartitionKeyValue l1 = PartitionKeyValue.of(TextNode.valueOf(longKey));
        PartitionKeyValue l2 = PartitionKeyValue.of(TextNode.valueOf(longKey));
        assertNotSame(l1, l2);
        assertEquals(l1, l2);
        assertArrayEquals(freshEpk(longKey), l1.epk());
    }

    @Test
    void invalidKeysAreRefusedEveryTimeAndNeverCached() {
        for (int i = 0; i < 2; i++) {
            assertThrows(io.tetradb.core.StoreException.class,
                    () -> PartitionKeyValue.of(TextNode.valueOf("a\uD800b")));
        }
    }

    @Test
    void theNonePartitionIsOneValuePerLevelCount() {
        assertSame(PartitionKeyValue.none(1), PartitionKeyValue.none(1));
        assertEquals(PartitionKeyValue.of(com.fasterxml.jackson.databind.node.MissingNode.getInstance(),
                com.fasterxml.jackson.databind.node.MissingNode.getInstance()), PartitionKeyValue.none(2));
        assertEquals(5, PartitionKeyValue.none(5).levels());
        assertArrayEquals(EffectivePartitionKey.fromHex("11622DAA78F835834610ABE56EFF5CB5"), PartitionKeyValue.none(1).epk());
    }
}
