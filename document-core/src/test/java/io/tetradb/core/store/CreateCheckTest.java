package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.Status;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core-batch (issue 17): a transaction reads its items' stored versions without a multi-get where it can (an empty
 * partition: no read; ids close together: one key range, {@link CreateCheck}). A create of an id that exists is still
 * 409 wherever the id lies in the range (its smallest, its largest, between), within a batch too, against items
 * written before a reopen; replaces and upserts in such batches still see the stored version.
 */
class CreateCheckTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(List.of(PartitionKeyValue.component(v)));
    }

    static ItemOperation create(String id, String p) {
        return ItemOperation.create(M.createObjectNode().put("id", id).put("pk", p).put("v", 1));
    }

    private static List<ItemOperation> creates(String p, String... ids) {
        List<ItemOperation> ops = new ArrayList<>();
        for (String id : ids) {
            ops.add(create(id, p));
        }
        return ops;
    }

    private static String[] ids(String prefix, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = prefix + String.format("%03d", i);
        }
        return out;
    }

    /** The batch failed at {@code at} with 409, the others 424, and the partition holds {@code items} items. */
    private static void conflictAt(ContainerStore c, String p, List<ItemOperation> ops, int at, long items) {
        List<ItemResult> r = c.executeBatch(pk(p), ops);
        for (int i = 0; i < r.size(); i++) {
            assertEquals(i == at ? Status.CONFLICT : Status.FAILED_DEPENDENCY, r.get(i).status(), "operation " + i);
        }
        assertTrue(r.get(at).error().contains("already exists"), r.get(at).error());
        assertEquals(items, count(c, p), "nothing of the failed batch written");
    }

    private static long count(ContainerStore c, String p) {
        long n = 0;
        for (String prefix : List.of("a", "b", "x", "y")) {
            for (int i = 0; i < 600; i++) {
                if (exists(c, p, prefix + String.format("%03d", i))) {
                    n++;
                }
            }
        }
        return n;
    }

    private static boolean exists(ContainerStore c, String p, String id) {
        try {
            return c.read(pk(p), id, null).isSuccess();
        } catch (io.tetradb.core.StoreException e) {
            assertEquals(Status.NOT_FOUND, e.status());
            return false;
        }
    }

    @Test
    void aCreateOfAStoredIdIs409WhereverItLiesInTheRange() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            // an empty partition: nothing read; a repeated id within the batch is still refused
            List<ItemOperation> repeated = creates("E", ids("a", 20));
            repeated.add(create("a007", "E"));
            conflictAt(c, "E", repeated, 20, 0);
            assertTrue(c.executeBatch(pk("E"), creates("E", ids("a", 20))).stream().allMatch(ItemResult::isSuccess));
            // the same ids again: every one exists, the first fails
            conflictAt(c, "E", creates("E", ids("a", 20)), 0, 20);

            // a partition holding a few items: the range read meets them
            String[] b = ids("b", 30);
            for (String id : new String[]{b[0], b[13], b[29]}) {
                assertTrue(c.execute(pk("F"), create(id, "F")).isSuccess());
            }
            List<String> free = new ArrayList<>();
            for (String id : b) {
                if (!id.equals(b[0]) && !id.equals(b[13]) && !id.equals(b[29])) {
                    free.add(id);
                }
            }
            conflictAt(c, "F", creates("F", b), 0, 3); // the smallest id exists
            List<String> tail = new ArrayList<>(free.subList(0, 20));
            tail.add(b[29]);
            conflictAt(c, "F", creates("F", tail.toArray(String[]::new)), 20, 3); // the largest
            List<String> middle = new ArrayList<>(free.subList(0, 10));
            middle.add(b[13]);
            middle.addAll(free.subList(10, 15));
            conflictAt(c, "F", creates("F", middle.toArray(String[]::new)), 10, 3); // between
            assertTrue(c.executeBatch(pk("F"), creates("F", free.toArray(String[]::new))).stream()
                    .allMatch(ItemResult::isSuccess));
            assertEquals(30, count(c, "F"));
        }
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) { // the stored items after a reopen
            ContainerStore c = s.container("db", "c");
            conflictAt(c, "F", creates("F", "b005", "b030", "b031", "b032", "b033", "b034", "b035", "b036", "b037"), 0,
                    30);
            conflictAt(c, "E", creates("E", "a020", "a021", "a022", "a023", "a024", "a025", "a026", "a027", "a019"), 8,
                    20);
        }
    }

    @Test
    void idsSpreadOverABigPartitionAreReadOneByOneAndStillChecked() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            List<ItemOperation> load = creates("G", ids("x", 500));
            for (int from = 0; from < 500; from += 100) {
                assertTrue(c.executeBatch(pk("G"), load.subList(from, from + 100)).stream()
                        .allMatch(ItemResult::isSuccess));
            }
            // ten ids between x000 and x450: the range holds 450 stored keys, more than the range read takes
            List<String> spread = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                spread.add("x" + String.format("%03d", i * 50) + "z");
            }
            spread.add(5, "x250");
            conflictAt(c, "G", creates("G", spread.toArray(String[]::new)), 5, 500);
            spread.remove(5);
            assertTrue(c.executeBatch(pk("G"), creates("G", spread.toArray(String[]::new))).stream()
                    .allMatch(ItemResult::isSuccess));
        }
    }

    @Test
    void replacesAndUpsertsInARangeReadBatchSeeTheStoredVersions() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            assertTrue(c.executeBatch(pk("H"), creates("H", ids("y", 12))).stream().allMatch(ItemResult::isSuccess));
            String etag5 = c.read(pk("H"), "y005", null).etag();
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                String id = "y" + String.format("%03d", i);
                var item = M.createObjectNode().put("id", id).put("pk", "H").put("v", 2);
                ops.add(i == 5 ? ItemOperation.replace(id, item, etag5) : ItemOperation.upsert(item, null));
            }
            ops.add(ItemOperation.upsert(M.createObjectNode().put("id", "y012").put("pk", "H").put("v", 2), null));
            List<ItemResult> r = c.executeBatch(pk("H"), ops);
            for (int i = 0; i < 12; i++) {
                assertEquals(Status.OK, r.get(i).status(), "an upsert or replace of a stored item: 200");
            }
            assertEquals(Status.CREATED, r.get(12).status(), "an upsert of a new id: 201");
            List<ItemOperation> stale = new ArrayList<>(creates("H", "y100", "y101", "y102", "y103", "y104", "y105",
                    "y106", "y107"));
            stale.add(ItemOperation.replace("y005", M.createObjectNode().put("id", "y005").put("pk", "H"), etag5));
            List<ItemResult> refused = c.executeBatch(pk("H"), stale);
            assertEquals(Status.PRECONDITION_FAILED, refused.get(8).status(), "the stored version's etag moved on");
            assertTrue(!exists(c, "H", "y100"), "nothing of the refused batch written");
        }
    }
}
