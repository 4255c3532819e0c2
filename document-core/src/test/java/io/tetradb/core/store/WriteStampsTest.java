package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The grains of {@link WriteStamps}: a partition's stamp moves with every write to it, an item's and an adjacency
 * list's with their own writes and with writes that name nothing.
 */
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
    void anAdjacencyListsStampMovesWithItsEntriesAndWithEveryWriteThatNamesNothing() {
        WriteStamps stamps = new WriteStamps();
        int seattleOut = 11;
        int vancouverIn = 22;
        long out = stamps.adjacencyStamp(seattleOut);
        long in = stamps.adjacencyStamp(vancouverIn);

        stamps.bump(USA, List.of("I5"), new int[]{seattleOut, 99}, 1); // only the first 1 of the array counts
        assertNotEquals(out, stamps.adjacencyStamp(seattleOut));
        assertEquals(in, stamps.adjacencyStamp(vancouverIn), "another list's entry");
        assertEquals(stamps.adjacencyStamp(99), stamps.adjacencyStamp(99));

        long inNow = stamps.adjacencyStamp(vancouverIn);
        stamps.bump(PartitionKeyValue.of(TextNode.valueOf("MEX"))); // a purge in any partition: in-entries anywhere
        assertNotEquals(inNow, stamps.adjacencyStamp(vancouverIn));
        inNow = stamps.adjacencyStamp(vancouverIn);
        long item = stamps.stamp(USA, "Seattle");
        stamps.bumpAll(); // an adjacency rebuild
        assertNotEquals(inNow, stamps.adjacencyStamp(vancouverIn));
        assertEquals(item, stamps.stamp(USA, "Seattle"), "items were not written");
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
