package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The two grains of {@link WriteStamps}: a partition's stamp moves with every write to it, an item's with its own. */
class WriteStampsTest {
    private static final PartitionKeyValue USA = PartitionKeyValue.of(TextNode.valueOf("USA"));

    @Test
    void anItemsStampMovesWithItsWritesAndWithWritesThatNameNoItem() {
        WriteStamps stamps = new WriteStamps();
        long seattle = stamps.stamp(USA, "Seattle");
        long portland = stamps.stamp(USA, "Portland");
        long partition = stamps.stamp(USA);
        long any = stamps.any();

        stamps.bump(USA, List.of("Portland"));
        assertEquals(seattle, stamps.stamp(USA, "Seattle"), "another item's write");
        assertNotEquals(portland, stamps.stamp(USA, "Portland"));
        assertNotEquals(partition, stamps.stamp(USA), "the partition's stamp moves with every write to it");
        assertNotEquals(any, stamps.any());

        long portlandNow = stamps.stamp(USA, "Portland");
        stamps.bump(USA); // a TTL purge or a bulk load's chunk: which items it wrote is not said
        assertNotEquals(seattle, stamps.stamp(USA, "Seattle"));
        assertNotEquals(portlandNow, stamps.stamp(USA, "Portland"));
    }

    @Test
    void writesBeforeTheFirstItemStampAreNotLostAndMoveNothingAfter() {
        WriteStamps stamps = new WriteStamps();
        stamps.bump(USA, List.of("Seattle")); // no item-grain reader yet: nothing to invalidate
        long seattle = stamps.stamp(USA, "Seattle");
        assertEquals(seattle, stamps.stamp(USA, "Seattle"));
        stamps.bump(USA, List.of("Seattle"));
        assertNotEquals(seattle, stamps.stamp(USA, "Seattle"));
    }
}
