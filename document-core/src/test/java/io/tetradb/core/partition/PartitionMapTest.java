package io.tetradb.core.partition;

import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartitionMapTest {
    @Test
    void initialRangesTileTheSpaceAndSpreadHashes() {
        for (int n = 1; n <= 8; n++) {
            EpkRange[] ranges = EpkRange.initialRanges(n);
            List<PhysicalPartition> parts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                parts.add(new PhysicalPartition(i, ranges[i], -1));
            }
            PartitionMap map = new PartitionMap(parts, 0);
            int[] hits = new int[n];
            for (int k = 0; k < 8000; k++) {
                byte[] epk = PartitionKeyValue.of(TextNode.valueOf("device-" + k)).epk();
                PhysicalPartition p = map.route(epk);
                assertTrue(p.range().contains(epk));
                hits[p.id()]++;
            }
            for (int h : hits) {
                assertTrue(h > 8000 / n * 0.8 && h < 8000 / n * 1.2, "uneven spread " + java.util.Arrays.toString(hits));
            }
        }
        assertEquals("1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF".length(), EpkRange.initialRanges(2)[0].maxHex().length());
        assertEquals("20000000000000000000000000000000", EpkRange.initialRanges(2)[0].maxHex());
    }

    @Test
    void splitReplacesOnePartitionAndKeepsTiling() {
        PhysicalPartition root = new PhysicalPartition(0, EpkRange.FULL, -1);
        PartitionMap map = new PartitionMap(List.of(root), 0);
        byte[] mid = EffectivePartitionKey.fromHex("1A");
        PartitionMap next = map.split(root, new PhysicalPartition(1, new EpkRange(EpkRange.MIN, mid), 0),
                new PhysicalPartition(2, new EpkRange(mid, EpkRange.MAX), 0));
        assertEquals(1, next.epoch());
        assertEquals(1, next.route(EffectivePartitionKey.fromHex("19FF")).id());
        assertEquals(2, next.route(mid).id());
        assertEquals(3, next.nextPartitionId());
        assertThrows(IllegalStateException.class, () -> new PartitionMap(List.of(
                new PhysicalPartition(0, new EpkRange(EpkRange.MIN, mid), -1)), 0), "a gap is refused");
    }

    @Test
    void partitionKeyEncodingRoundTrips() {
        PartitionKeyValue v = PartitionKeyValue.of(TextNode.valueOf("héllo"), PartitionKeyValue.component(5),
                PartitionKeyValue.component(null));
        byte[] enc = v.encoded();
        PartitionKeyValue back = PartitionKeyValue.decode(enc, 0, enc.length);
        assertEquals(v, back);
        assertArrayEquals(v.epk(), back.epk());
        assertEquals(enc.length, PartitionKeyValue.encodedLength(enc, 0, 3));
        assertEquals("[\"héllo\",5.0,null]", v.toString());
        // no encoding is a prefix of another one, so a logical partition is exactly a key prefix
        byte[] a = PartitionKeyValue.of(TextNode.valueOf("ab")).encoded();
        byte[] b = PartitionKeyValue.of(TextNode.valueOf("abc")).encoded();
        assertTrue(!java.util.Arrays.equals(a, java.util.Arrays.copyOf(b, a.length)));
    }
}
