package io.tetradb.table.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.PartitionKey;
import io.tetradb.table.filter.FilterParser;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.TableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The data model over the core: typed round trips, keys, limits, filters as seeks, order and continuation. */
class TableStoreTest {
    @TempDir
    Path dir;
    CosmosClient client;
    TableService service;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        service = new TableService(client, "devstoreaccount1");
    }

    @AfterEach
    void close() {
        client.close();
    }

    static Entity entity(String pk, String rk, Object... kv) {
        Map<String, EdmValue> p = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            p.put((String) kv[i], (EdmValue) kv[i + 1]);
        }
        return new Entity(pk, rk, p);
    }

    @Test
    void everyTypeRoundTripsAndIsStoredAsTheCoresTypedValues() {
        Table t = service.createTable("Types");
        UUID g = UUID.randomUUID();
        Instant when = Instant.parse("2016-03-01T09:30:00.1234567Z");
        Entity e = entity("p", "", "S", EdmValue.string("x"), "I", EdmValue.int32(-7),
                "L", EdmValue.int64(9007199254740993L), "D", EdmValue.dbl(2.0), "N", EdmValue.dbl(Double.NaN),
                "Inf", EdmValue.dbl(Double.NEGATIVE_INFINITY), "B", EdmValue.bool(true), "T", EdmValue.dateTime(when),
                "G", EdmValue.guid(g), "Bin", EdmValue.binary(new byte[]{0, 1, (byte) 0xfe}), "id", EdmValue.string("mine"));
        t.insert(e);
        Entity back = t.get("p", "").entity();
        assertEquals(e.properties(), back.properties());
        assertEquals("", back.rowKey());
        assertTrue(back.etag().startsWith("W/\""));

        ObjectNode item = client.coreStore().container("devstoreaccount1", "Types").codec().parse(client.coreStore()
                .container("devstoreaccount1", "Types").read(io.tetradb.core.partition.PartitionKeyValue.of(
                        com.fasterxml.jackson.databind.node.TextNode.valueOf("p")), RowKeys.EMPTY_ID, null).stored());
        assertEquals(com.fasterxml.jackson.databind.node.LongNode.valueOf(9007199254740993L), item.get("L"),
                "Int64 is the core's Int64");
        assertEquals(com.fasterxml.jackson.databind.node.IntNode.valueOf(-7), item.get("I"));
        assertTrue(Double.isNaN(item.get("N").doubleValue()) && item.get("N").isDouble(), "NaN is a Double");
        assertEquals(io.tetradb.core.value.DateTimeNode.of(when), item.get("T"), "DateTime: 100 ns ticks, exact");
        assertEquals(io.tetradb.core.value.UuidNode.of(g), item.get("G"));
        assertEquals(io.tetradb.core.value.BinaryDataNode.of(0, new byte[]{0, 1, (byte) 0xfe}), item.get("Bin"));
        assertTrue(item.get("Timestamp") instanceof io.tetradb.core.value.DateTimeNode);
        assertFalse(item.has("_types"), "no sidecar");
        assertEquals("mine", item.get("~id").textValue(), "a user property named id does not collide");
    }

    @Test
    void filtersAreTypeExactAndSeek() {
        Table t = service.createTable("people");
        for (int i = 0; i < 300; i++) {
            t.insert(entity("p" + (i % 3), String.format("r%03d", i), "N", EdmValue.int32(i),
                    "Big", EdmValue.int64(9007199254740000L + i), "Name", EdmValue.string("n" + i),
                    "Text", EdmValue.string(String.valueOf(i))));
        }
        assertEquals(List.of("r007"), rowKeys(t, "N eq 7"));
        assertEquals(List.of("r007"), rowKeys(t, "N eq 7L"), "numbers compare by value: Int32 vs an Int64 literal");
        assertEquals(List.of("r007"), rowKeys(t, "N eq 7.0"), "Int32 vs a Double literal");
        assertEquals(List.of("r299"), rowKeys(t, "Big gt 9007199254740298"), "Int64 vs an Int64-sized literal");
        assertEquals(List.of("r001"), rowKeys(t, "Big eq 9007199254740001 and N lt 10"), "Int64 exact");
        assertEquals(List.of(), rowKeys(t, "Text eq 7"), "a String never equals a number");
        assertEquals(List.of("r299"), rowKeys(t, "Big gt 9007199254740298L"));
        assertEquals(List.of("r003", "r006"), rowKeys(t, "PartitionKey eq 'p0' and RowKey gt 'r000' and RowKey lt 'r009'"));
        assertEquals(List.of("r000", "r001"), rowKeys(t, "RowKey eq 'r001' or RowKey eq 'r000'"), "p0 before p1");
        assertEquals(300, rowKeys(t, "Timestamp gt datetime'2020-01-01T00:00:00Z'").size(), "Timestamp is server-set");
        assertEquals(List.of(), rowKeys(t, "Timestamp gt '2020'"), "Timestamp compares with DateTimes only");
        Table.Page page = t.query(FilterParser.parse("Name eq 'n42'"), 1000, null);
        assertEquals(1, page.entities().size());
        assertTrue(page.access().contains("/Name"), "a filter on a non-key property is an index seek: " + page.access());
        Table.Page one = t.query(FilterParser.parse("PartitionKey eq 'p1' and RowKey eq 'r004'"), 1000, null);
        assertEquals(1, one.entities().size());
        assertTrue(one.access().contains("id"), "PartitionKey + RowKey is a point lookup: " + one.access());
    }

    @Test
    void resultsComeInPartitionKeyThenRowKeyOrderAcrossPages() {
        Table t = service.createTable("ordered");
        List<String> expected = new ArrayList<>();
        for (int p = 0; p < 25; p++) {
            for (int r = 0; r < 40; r++) {
                t.insert(entity("pk" + (char) ('a' + p), "rk" + (1000 + r), "V", EdmValue.int32(r)));
                expected.add("pk" + (char) ('a' + p) + "/rk" + (1000 + r));
            }
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            Table.Page page = t.query(null, 77, token);
            page.entities().forEach(e -> seen.add(e.partitionKey() + "/" + e.rowKey()));
            token = page.continuation();
            pages++;
        } while (token != null);
        assertEquals(expected, seen);
        assertEquals(13, pages);

        List<String> one = new ArrayList<>();
        token = null;
        do {
            Table.Page page = t.query(FilterParser.parse("PartitionKey eq 'pkc' and V ge 10"), 7, token);
            page.entities().forEach(e -> one.add(e.rowKey()));
            token = page.continuation();
        } while (token != null);
        assertEquals(30, one.size());
        assertEquals("rk1010", one.get(0));
        assertEquals("rk1039", one.get(29));
    }

    @Test
    void rowKeyRangesReadTheirKeyRangeInRowKeyOrderAcrossPages() {
        Table t = service.createTable("rowranges");
        List<String> rowKeys = new ArrayList<>();
        for (int r = 0; r < 300; r++) {
            rowKeys.add("r" + (1000 + r));
        }
        // RowKeys whose UTF-8 order differs from the Tables (UTF-16) order: U+E000 sorts above a surrogate pair there
        rowKeys.addAll(List.of("r1100\uE000", "r1100\uD83D\uDE00", "r1100\uFFFF", "r1100~"));
        for (String rk : rowKeys) {
            t.insert(entity("p", rk, "V", EdmValue.int32(1)));
            t.insert(entity("q", rk, "V", EdmValue.int32(2)));
        }
        String filter = "PartitionKey eq 'p' and RowKey ge 'r1090' and RowKey lt 'r1110'";
        List<String> expected = rowKeys.stream().filter(rk -> rk.compareTo("r1090") >= 0 && rk.compareTo("r1110") < 0)
                .sorted().toList();
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            Table.Page page = t.query(FilterParser.parse(filter), 6, token);
            if (pages == 0) {
                assertTrue(page.access().startsWith("primary key range"), page.access());
            }
            page.entities().forEach(e -> {
                assertEquals("p", e.partitionKey());
                seen.add(e.rowKey());
            });
            token = page.continuation();
            pages++;
        } while (token != null);
        assertEquals(24, expected.size());
        assertEquals(expected, seen, "RowKey order, every page continued exactly");
        assertEquals(4, pages);
        // most of the partition: the composite index's ordered read, page by page
        Table.Page wide = t.query(FilterParser.parse("PartitionKey eq 'p' and RowKey ge 'r'"), 10, null);
        assertTrue(wide.access().startsWith("composite index read"), wide.access());
        assertEquals(rowKeys.stream().sorted().limit(10).toList(), wide.entities().stream().map(e -> e.rowKey()).toList());
    }

    @Test
    void nonKeyFiltersSeekAndSortOrFallBackToTheOrderedRead() {
        Table t = service.createTable("seeksort");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String pk = "p" + (i * 7 % 13);
            String rk = String.format("r%03d", i);
            t.insert(entity(pk, rk, "Cat", EdmValue.string("c" + i % 4), "N", EdmValue.int32(i)));
            if (i % 4 == 1) {
                expected.add(pk + "/" + rk);
            }
        }
        expected.sort(null);
        // at most 5000 matches: sorted by the face, paged by key position — entities inserted meanwhile before the
        // position are not seen, those after it are, and nothing repeats
        List<String> seen = new ArrayList<>();
        String token = null;
        Table.Page first = null;
        do {
            Table.Page page = t.query(FilterParser.parse("Cat eq 'c1'"), 33, token);
            first = first == null ? page : first;
            page.entities().forEach(e -> seen.add(e.partitionKey() + "/" + e.rowKey()));
            token = page.continuation();
            if (seen.size() == 33) {
                t.insert(entity("a", "new", "Cat", EdmValue.string("c1")));
                t.insert(entity("z", "new", "Cat", EdmValue.string("c1")));
            }
        } while (token != null);
        List<String> want = new ArrayList<>(expected);
        want.add("z/new");
        assertEquals(want, seen);
        assertTrue(first.access().contains("sorted by the table face"), first.access());

        // more matches than the limit: the core's plan sorts, with its own continuation
        t.seekSortLimit(10);
        List<String> all = new ArrayList<>();
        token = null;
        do {
            Table.Page page = t.query(FilterParser.parse("Cat eq 'c1'"), 33, token);
            assertFalse(page.access().contains("sorted by the table face"), page.access());
            page.entities().forEach(e -> all.add(e.partitionKey() + "/" + e.rowKey()));
            token = page.continuation();
        } while (token != null);
        want.add(0, "a/new");
        assertEquals(want, all);
    }

    @Test
    void conditionalWritesMergeAndErrors() {
        Table t = service.createTable("cond");
        Entity first = t.insert(entity("p", "r", "A", EdmValue.int32(1))).entity();
        TableException dup = assertThrows(TableException.class, () -> t.insert(entity("p", "r")));
        assertEquals("EntityAlreadyExists", dup.errorCode());
        Entity merged = t.merge(entity("p", "r", "B", EdmValue.string("b")), first.etag(), false).entity();
        assertEquals(Map.of("A", EdmValue.int32(1), "B", EdmValue.string("b")), merged.properties());
        TableException stale = assertThrows(TableException.class,
                () -> t.update(entity("p", "r", "C", EdmValue.bool(true)), first.etag()));
        assertEquals(412, stale.status());
        assertEquals("UpdateConditionNotSatisfied", stale.errorCode());
        t.update(entity("p", "r", "C", EdmValue.bool(true)), "*");
        assertEquals(Map.of("C", EdmValue.bool(true)), t.get("p", "r").entity().properties());
        assertEquals("ResourceNotFound", assertThrows(TableException.class,
                () -> t.merge(entity("p", "zz"), null, false)).errorCode());
        t.merge(entity("p", "zz", "X", EdmValue.int32(5)), null, true);
        assertEquals(EdmValue.int32(5), t.get("p", "zz").entity().get("X"));
        t.delete("p", "zz", "*");
        assertEquals(404, assertThrows(TableException.class, () -> t.get("p", "zz")).status());
        assertEquals(404, assertThrows(TableException.class, () -> t.delete("p", "zz", "*")).status());
    }

    @Test
    void concurrentMergesLoseNothing() throws Exception {
        Table t = service.createTable("merges");
        t.insert(entity("p", "r"));
        int threads = 4;
        int each = 40;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                for (int i = 0; i < each; i++) {
                    t.merge(entity("p", "r", "W" + writer + "_" + i, EdmValue.int32(i)), null, false);
                }
            }));
        }
        for (java.util.concurrent.Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        assertEquals(threads * each, t.get("p", "r").entity().properties().size(),
                "every merge's property survived the others");
    }

    @Test
    void limits() {
        Table t = service.createTable("limits");
        assertEquals("OutOfRangeInput", assertThrows(TableException.class, () -> t.insert(entity("a/b", "r"))).errorCode());
        assertEquals("OutOfRangeInput", assertThrows(TableException.class, () -> t.insert(entity("a", "r\u0001"))).errorCode());
        assertEquals("KeyValueTooLarge", assertThrows(TableException.class, () -> t.insert(entity("a", "r".repeat(256)))).errorCode());
        assertEquals("PropertyNameInvalid", assertThrows(TableException.class,
                () -> t.insert(entity("a", "r", "bad-name", EdmValue.int32(1)))).errorCode());
        assertEquals("PropertyValueTooLarge", assertThrows(TableException.class,
                () -> t.insert(entity("a", "r", "S", EdmValue.string("x".repeat(40_000))))).errorCode());
        Object[] many = new Object[2 * 253];
        for (int i = 0; i < 253; i++) {
            many[2 * i] = "P" + i;
            many[2 * i + 1] = EdmValue.int32(i);
        }
        assertEquals("TooManyProperties", assertThrows(TableException.class, () -> t.insert(entity("a", "r", many))).errorCode());
        Object[] big = new Object[2 * 20];
        for (int i = 0; i < 20; i++) {
            big[2 * i] = "P" + i;
            big[2 * i + 1] = EdmValue.string("y".repeat(30_000));
        }
        assertEquals("EntityTooLarge", assertThrows(TableException.class, () -> t.insert(entity("a", "r", big))).errorCode());
        assertEquals("InvalidResourceName", assertThrows(TableException.class, () -> service.createTable("1abc")).errorCode());
        assertEquals("TableAlreadyExists", assertThrows(TableException.class, () -> service.createTable("LIMITS")).errorCode());
        assertEquals("TableNotFound", assertThrows(TableException.class, () -> service.table("nope")).errorCode());
        assertEquals("limits", service.table("Limits").name(), "names are case-insensitive and keep their case");
    }

    @Test
    void batchIsAtomic() {
        Table t = service.createTable("batch");
        t.insert(entity("p", "exists"));
        Table.BatchFailure f = assertThrows(Table.BatchFailure.class, () -> t.batch(List.of(
                new Table.BatchOperation(Table.BatchOperation.Kind.INSERT, entity("p", "a"), null),
                new Table.BatchOperation(Table.BatchOperation.Kind.INSERT, entity("p", "exists"), null))));
        assertEquals(1, f.index());
        assertEquals("EntityAlreadyExists", f.errorCode());
        assertEquals(404, assertThrows(TableException.class, () -> t.get("p", "a")).status(), "nothing applied");
        t.batch(List.of(
                new Table.BatchOperation(Table.BatchOperation.Kind.INSERT, entity("p", "a"), null),
                new Table.BatchOperation(Table.BatchOperation.Kind.UPSERT_MERGE, entity("p", "exists", "X", EdmValue.int32(1)), null),
                new Table.BatchOperation(Table.BatchOperation.Kind.DELETE, entity("p", "gone"), "*")
        ).subList(0, 2));
        assertEquals(EdmValue.int32(1), t.get("p", "exists").entity().get("X"));
        assertNull(t.get("p", "a").entity().get("X"));
    }

    private static List<String> rowKeys(Table t, String filter) {
        List<String> out = new ArrayList<>();
        String token = null;
        do {
            Table.Page page = t.query(FilterParser.parse(filter), 1000, token);
            page.entities().forEach(e -> out.add(e.rowKey()));
            token = page.continuation();
        } while (token != null);
        return out;
    }
}
