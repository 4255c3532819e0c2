package io.tetradb.core.unique;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.tetradb.core.unique.TagsUniqueIndex.TAGS;
import static io.tetradb.core.unique.TagsUniqueIndex.item;
import static io.tetradb.core.unique.TagsUniqueIndex.pk;
import static io.tetradb.core.unique.TagsUniqueIndex.tags;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Face-defined unique indexes (the core's side of MongoDB unique indexes): keys per array element, container-wide
 * across logical partitions, the build refusing duplicates, races with exactly one winner, restarts.
 */
class FaceUniqueIndexTest {
    @TempDir
    Path dir;
    CosmosClient client;
    ContainerStore c;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.coreStore().uniqueIndexKinds().register("tags", TAGS);
        client.createDatabase("db");
        client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk"));
        c = client.coreStore().container("db", "c");
    }

    @AfterEach
    void close() {
        client.close();
    }

    private ItemResult create(ObjectNode item) {
        return c.execute(PartitionKeyValue.of(item.get("pk")), ItemOperation.create(item));
    }

    @Test
    void containerWideKeysPerArrayElementAcrossLogicalPartitions() {
        assertTrue(c.addUniqueIndex(tags(false)));
        assertFalse(c.addUniqueIndex(tags(false)));
        create(item("a", "p1", "x", "y", "y")); // an item may repeat its own key
        UniqueIndexViolation v = assertThrows(UniqueIndexViolation.class, () -> create(item("b", "p2", "z", "y")));
        assertEquals(409, v.status());
        assertEquals("tags_1", v.index());
        assertArrayEquals("\"y\"".getBytes(StandardCharsets.UTF_8), v.key());
        assertEquals("b", v.item().get("id").asText());
        create(item("b", "p2", "z")); // nothing of the refused write was kept
        // a replace giving "a" another's key is refused; one dropping "y" frees it
        assertThrows(UniqueIndexViolation.class, () -> c.execute(pk("p1"),
                ItemOperation.replace("a", item("a", "p1", "x", "z"), null)));
        c.execute(pk("p1"), ItemOperation.replace("a", item("a", "p1", "x"), null));
        create(item("c", "p3", "y"));
        // a delete frees its keys; a batch may take a key its earlier operation freed
        c.execute(pk("p3"), ItemOperation.delete("c", null));
        List<ItemResult> batch = c.executeBatch(pk("p1"), List.of(
                ItemOperation.replace("a", item("a", "p1"), null), ItemOperation.create(item("d", "p1", "x", "y"))));
        assertTrue(batch.stream().allMatch(ItemResult::isSuccess));
        List<ItemResult> refused = c.executeBatch(pk("p1"), List.of(
                ItemOperation.create(item("e", "p1", "q")), ItemOperation.create(item("f", "p1", "z"))));
        assertEquals(424, refused.get(0).status());
        assertEquals(409, refused.get(1).status());
        create(item("g", "p9", "q")); // the failed batch kept nothing
    }

    @Test
    void perPartitionKeysRepeatAcrossPartitions() {
        c.addUniqueIndex(tags(true));
        create(item("a", "p1", "x"));
        create(item("b", "p2", "x"));
        assertThrows(UniqueIndexViolation.class, () -> create(item("c", "p1", "x")));
    }

    @Test
    void aBuildOverDuplicatesFailsAndLeavesNothing() {
        create(item("a", "p1", "x"));
        create(item("b", "p2", "y", "x"));
        UniqueIndexViolation v = assertThrows(UniqueIndexViolation.class, () -> c.addUniqueIndex(tags(false)));
        assertArrayEquals("\"x\"".getBytes(StandardCharsets.UTF_8), v.key());
        assertTrue(c.uniqueIndexes().isEmpty());
        create(item("c", "p3", "x")); // not enforced
        c.execute(pk("p2"), ItemOperation.delete("b", null));
        c.execute(pk("p3"), ItemOperation.delete("c", null));
        assertTrue(c.addUniqueIndex(tags(false)));
        assertThrows(UniqueIndexViolation.class, () -> create(item("d", "p4", "x")));
        assertTrue(c.dropUniqueIndex("tags_1"));
        create(item("d", "p4", "x"));
    }

    @Test
    void concurrentWritersInManyPartitionsHaveExactlyOneWinner() throws Exception {
        c.addUniqueIndex(tags(false));
        int writers = 12;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 20; round++) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    String id = "r" + round + "w" + w;
                    String value = "v" + round;
                    outcomes.add(pool.submit(() -> {
                        go.await();
                        try {
                            create(item(id, "p" + id, value));
                            return true;
                        } catch (UniqueIndexViolation e) {
                            return false;
                        }
                    }));
                }
                go.countDown();
                int won = 0;
                for (Future<Boolean> f : outcomes) {
                    won += f.get() ? 1 : 0;
                }
                assertEquals(1, won, "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theIndexSurvivesARestartAndNeedsItsKindToWrite() {
        c.addUniqueIndex(tags(false));
        create(item("a", "p1", "x"));
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        c = client.coreStore().container("db", "c");
        // the kind is not registered in this process yet: a write cannot keep the keys, so it is refused
        StoreException e = assertThrows(StoreException.class, () -> create(item("b", "p2", "y")));
        assertEquals(500, e.status());
        // reads still work
        assertEquals("a", client.getDatabase("db").getContainer("c")
                .readItem("a", new PartitionKey("p1"), ObjectNode.class).getItem().get("id").asText());
        client.coreStore().uniqueIndexKinds().register("tags", TAGS);
        assertEquals(List.of(tags(false)).get(0).name(), c.uniqueIndexes().get(0).name());
        assertThrows(UniqueIndexViolation.class, () -> create(item("b", "p2", "x")));
        create(item("b", "p2", "y"));
        // deleting the container takes its index along
        client.getDatabase("db").getContainer("c").delete();
        client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk"));
        c = client.coreStore().container("db", "c");
        assertTrue(c.uniqueIndexes().isEmpty());
        create(item("a", "p1", "x"));
        create(item("b", "p1", "x"));
        assertThrows(CosmosException.class, () -> client.getDatabase("db").getContainer("c")
                .createItem(item("a", "p1")));
    }
}
