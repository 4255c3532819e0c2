package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ScriptDefinitions;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * feed-images (docs/feed-images.md §7): an all-versions container's records refer to images the store holds — the
 * item while it is at the record's lsn, then the version-image key {@code collId · 'V' · EPK · pk · lsn} the
 * superseding transaction wrote — and every read scope shows what the records showed when they carried copies; the
 * pruner deletes a version key with the record that owns it.
 */
class FeedImagesTest extends ManualPrunerStores {
    static final Duration RETENTION = Duration.ofMinutes(1);
    static final String PAD = "x".repeat(1000);
    final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
    /** What the records must show, in feed order: each write's type, id, images (the stored versions) and flags. */
    final List<String> model = new ArrayList<>();

    CoreStore open() {
        return openCore("core", clock);
    }

    static ContainerStore container(CoreStore s, Integer defaultTtl) {
        s.createDatabase("db", null);
        ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, defaultTtl, null, null);
        c.changeFeed().setPolicy(new ChangeFeedPolicy(RETENTION));
        return c;
    }

    static PartitionKeyValue pk(String value) {
        return PartitionKeyValue.of(M.getNodeFactory().textNode(value));
    }

    static ObjectNode item(String id, String pk, int v) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("v", v).put("pad", PAD);
    }

    // ---- the store's keys ----------------------------------------------------------------------------------------

    static byte[] lp(PartitionKeyValue pk) {
        byte[] out = Arrays.copyOf(pk.epk(), pk.epk().length + pk.encoded().length);
        System.arraycopy(pk.encoded(), 0, out, pk.epk().length, pk.encoded().length);
        return out;
    }

    static byte[] docKey(ContainerStore c, PartitionKeyValue pk, String id) {
        byte[] lp = lp(pk);
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + lp.length + idBytes.length).putInt(c.changeFeed().collId()).put(lp).put(idBytes).array();
    }

    static byte[] stored(CoreStore s, ContainerStore c, PartitionKeyValue pk, String id) {
        return s.changeFeeds().engine().get(Space.DOCS, docKey(c, pk, id));
    }

    /** The container's version-image keys (hex of lp · lsn) and values. */
    static Map<String, byte[]> versionKeys(CoreStore s, ContainerStore c) {
        Map<String, byte[]> out = new TreeMap<>();
        try (KeyCursor k = s.changeFeeds().engine().cursor(Space.FEED, FeedKeys.versionImages(c.changeFeed().collId()),
                FeedKeys.versionImagesEnd(c.changeFeed().collId()), false)) {
            while (k.next()) {
                out.put(hex(Arrays.copyOfRange(k.key(), 5, k.key().length)), k.value());
            }
        }
        return out;
    }

    static String versionKey(PartitionKeyValue pk, long lsn) {
        return hex(ByteBuffer.allocate(lp(pk).length + 8).put(lp(pk)).putLong(lsn).array());
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }

    /** The container's record keys' values, in sequence order. */
    static List<byte[]> recordValues(CoreStore s, ContainerStore c) {
        List<byte[]> out = new ArrayList<>();
        try (KeyCursor k = s.changeFeeds().engine().cursor(Space.FEED, FeedKeys.record(c.changeFeed().collId(), 0),
                FeedKeys.record(c.changeFeed().collId(), Long.MAX_VALUE), false)) {
            while (k.next()) {
                out.add(k.value());
            }
        }
        return out;
    }

    static long feedBytes(CoreStore s, ContainerStore c) {
        long n = 0;
        byte[] from = ByteBuffer.allocate(4).putInt(c.changeFeed().collId()).array();
        byte[] to = ByteBuffer.allocate(4).putInt(c.changeFeed().collId() + 1).array();
        try (KeyCursor k = s.changeFeeds().engine().cursor(Space.FEED, from, to, false)) {
            while (k.next()) {
                n += k.key().length + k.value().length;
            }
        }
        return n;
    }

    // ---- the model: what inline copies showed -------------------------------------------------------------------

    static String json(byte[] stored) {
        return stored == null ? "-" : new String(ChangeFeed.imageJson(Arrays.copyOfRange(stored, ItemCodec.HEADER,
                stored.length)), StandardCharsets.UTF_8);
    }

    static String image(byte[] image) {
        return image == null ? "-" : new String(ChangeFeed.imageJson(image), StandardCharsets.UTF_8);
    }

    static String line(ChangeRecord.OperationType type, String id, long previousLsn, String current, String previous,
                       boolean ttl) {
        return type + " " + id + " prevLsn=" + previousLsn + " ttl=" + ttl + " current=" + current + " previous="
                + previous;
    }

    static String line(ChangeRecord r) {
        return line(r.operationType(), r.id(), r.previousLsn(), image(r.current()), image(r.previous()),
                r.ttlExpired());
    }

    /** One write of one item, noted in the model with the versions stored before and after it. */
    void write(CoreStore s, ContainerStore c, PartitionKeyValue pk, String id, ItemOperation op) {
        byte[] before = stored(s, c, pk, id);
        c.execute(pk, op);
        note(s, c, pk, id, before, false);
    }

    void note(CoreStore s, ContainerStore c, PartitionKeyValue pk, String id, byte[] before, boolean ttl) {
        byte[] after = stored(s, c, pk, id);
        ChangeRecord.OperationType type = after == null ? ChangeRecord.OperationType.DELETE
                : before == null ? ChangeRecord.OperationType.CREATE : ChangeRecord.OperationType.REPLACE;
        model.add(line(type, id, before == null ? 0 : ItemCodec.lsn(before), json(after), json(before), ttl));
    }

    /** The model's lines a pruner past the retention keeps: each item's last change, unless a delete. */
    List<String> live() {
        Map<String, String> last = new LinkedHashMap<>();
        for (String l : model) {
            String id = l.split(" ")[1];
            last.remove(id);
            last.put(id, l);
        }
        List<String> out = new ArrayList<>();
        for (String l : model) {
            if (last.containsValue(l) && !l.startsWith("DELETE")) {
                out.add(l);
            }
        }
        return out;
    }

    static ChangeFeedRequest allVersions(EpkRange range, PartitionKeyValue pk, long after, int max) {
        return new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES, range, pk, after, 0, max);
    }

    /** Every all-versions change of a scope from the start, in pages of 7, as model lines (feed order). */
    static List<String> pages(ChangeFeed feed, EpkRange range, PartitionKeyValue pk) {
        List<String> out = new ArrayList<>();
        long position = 0;
        for (int guard = 0; guard < 10_000; guard++) {
            ChangeFeedPage p = feed.read(allVersions(range, pk, position, 7));
            for (ChangeFeedPage.Change ch : p.changes()) {
                out.add(line(ch.record()));
            }
            position = p.continuation();
            if (p.caughtUp()) {
                return out;
            }
        }
        throw new AssertionError("no end of the feed");
    }

    // ---- the cases ------------------------------------------------------------------------------------------------

    @Test
    void aCreateRecordHoldsNoImageAndItsCurrentIsTheItem() {
        try (CoreStore s = open()) {
            ContainerStore c = container(s, null);
            PartitionKeyValue a = pk("A");
            write(s, c, a, "i1", ItemOperation.create(item("i1", "A", 1)));
            List<byte[]> values = recordValues(s, c);
            assertEquals(1, values.size());
            int keyBytes = lp(a).length;
            assertTrue(values.get(0).length < 100 + 2 + keyBytes, "the record holds no copy of the 1 KB item: "
                    + values.get(0).length + " bytes");
            ChangeRecord r = ChangeRecord.decode(1, values.get(0));
            assertTrue(r.currentAtLsn());
            assertNull(r.current());
            assertEquals(Map.of(), versionKeys(s, c), "a create supersedes nothing");
            assertEquals(model, pages(c.changeFeed(), EpkRange.FULL, null), "current is the stored item");
            assertEquals(model, pages(c.changeFeed(), EpkRange.FULL, a));
            assertTrue(c.changeFeed().checkImages().clean());
        }
    }

    @Test
    void aReplaceWritesTheOldVersionOnceUnderItsVersionKey() {
        try (CoreStore s = open()) {
            ContainerStore c = container(s, null);
            PartitionKeyValue a = pk("A");
            write(s, c, a, "i1", ItemOperation.create(item("i1", "A", 1)));
            byte[] first = stored(s, c, a, "i1");
            write(s, c, a, "i1", ItemOperation.replace("i1", item("i1", "A", 2), null));
            Map<String, byte[]> keys = versionKeys(s, c);
            assertEquals(List.of(versionKey(a, ItemCodec.lsn(first))), List.copyOf(keys.keySet()),
                    "exactly one version key, of the superseded lsn");
            assertArrayEquals(first, keys.values().iterator().next(), "the superseded DOCS value, byte for byte");
            List<byte[]> values = recordValues(s, c);
            ChangeRecord replace = ChangeRecord.decode(2, values.get(values.size() - 1));
            assertEquals(ChangeRecord.OperationType.REPLACE, replace.operationType());
            assertNull(replace.current());
            assertNull(replace.previous());
            assertTrue(replace.currentAtLsn() && replace.previousAtLsn());
            assertTrue(values.get(values.size() - 1).length < 100 + 2 + lp(a).length, "no image in the replace record");
            // the create's current now comes from the version key, the replace's current from the item
            assertEquals(model, pages(c.changeFeed(), EpkRange.FULL, null));
            assertEquals(model, pages(c.changeFeed(), EpkRange.FULL, a));
            assertTrue(c.changeFeed().checkImages().clean());
        }
    }

    @Test
    void aDeleteAndATtlPurgeKeepThePreImageUnderTheVersionKey() throws InterruptedException {
        try (CoreStore s = open()) {
            ContainerStore c = container(s, 5);
            PartitionKeyValue a = pk("A");
            write(s, c, a, "x", ItemOperation.create(item("x", "A", 1)));
            write(s, c, a, "y", ItemOperation.create(item("y", "A", 2)));
            write(s, c, a, "y", ItemOperation.delete("y", null));
            byte[] x = stored(s, c, a, "x");
            clock.advance(Duration.ofSeconds(5));
            s.ttlPurger().purgeNow();
            assertEquals(1, s.ttlPurger().awaitPurgedTotal(1, TestTime.patience(Duration.ofSeconds(30))));
            note(s, c, a, "x", x, true);
            assertEquals(2, versionKeys(s, c).size(), "one version key per tombstone");
            List<String> shown = pages(c.changeFeed(), EpkRange.FULL, null);
            assertEquals(model, shown);
            assertTrue(shown.get(3).startsWith("DELETE x") && shown.get(3).contains("ttl=true"));
            assertTrue(c.changeFeed().checkImages().clean());
        }
    }

    @Test
    void aBatchAndAStoredProcedureWriteOneVersionKeyPerSupersededItem() {
        try (CoreStore s = open()) {
            ContainerStore c = container(s, null);
            PartitionKeyValue a = pk("A");
            for (int i = 0; i < 6; i++) {
                write(s, c, a, "b" + i, ItemOperation.create(item("b" + i, "A", i)));
            }
            Map<String, byte[]> stored = new HashMap<>();
            for (int i = 0; i < 6; i++) {
                stored.put("b" + i, stored(s, c, a, "b" + i));
            }
            // one batch: a new id touched three times, an existing one twice
            c.executeBatch(a, List.of(ItemOperation.create(item("n", "A", 1)), ItemOperation.upsert(item("n", "A", 2), null),
                    ItemOperation.upsert(item("n", "A", 3), null), ItemOperation.upsert(item("b0", "A", 10), null),
                    ItemOperation.upsert(item("b0", "A", 11), null)));
            note(s, c, a, "n", null, false);
            note(s, c, a, "b0", stored.get("b0"), false);
            assertEquals(List.of(versionKey(a, ItemCodec.lsn(stored.get("b0")))), List.copyOf(versionKeys(s, c).keySet()),
                    "only the version stored before the batch, none of its intermediate versions");
            // a stored procedure replacing five items twice each: the five versions stored before it
            c.scripts().create(ScriptDefinitions.Kind.STORED_PROCEDURE, M.createObjectNode().put("id", "bump")
                    .put("body", "function bump(ids) { var c = getContext().getCollection();"
                            + " ids.forEach(function (id) {"
                            + " c.upsertDocument(c.getSelfLink(), {id: id, pk: 'A', v: 100});"
                            + " c.upsertDocument(c.getSelfLink(), {id: id, pk: 'A', v: 200}); });"
                            + " getContext().getResponse().setBody(ids.length); }"));
            byte[] b0 = stored(s, c, a, "b0");
            c.scripts().executeStoredProcedure("bump", a, "[[\"b1\",\"b2\",\"b3\",\"b4\",\"b0\"]]");
            List<String> expected = new ArrayList<>(List.of(versionKey(a, ItemCodec.lsn(stored.get("b0")))));
            expected.add(versionKey(a, ItemCodec.lsn(b0)));
            for (int i = 1; i <= 4; i++) {
                expected.add(versionKey(a, ItemCodec.lsn(stored.get("b" + i))));
            }
            expected.sort(Comparator.naturalOrder());
            assertEquals(expected, List.copyOf(versionKeys(s, c).keySet()));
            for (String id : List.of("b1", "b2", "b3", "b4", "b0")) {
                note(s, c, a, id, id.equals("b0") ? b0 : stored.get(id), false);
            }
            assertEquals(model, pages(c.changeFeed(), EpkRange.FULL, null));
            assertTrue(c.changeFeed().checkImages().clean());
        }
    }

    @Test
    void thePrunerDeletesAVersionKeyWithTheRecordThatOwnsIt() {
        try (CoreStore s = open()) {
            ContainerStore c = container(s, null);
            PartitionKeyValue a = pk("A");
            PartitionKeyValue b = pk("B");
            write(s, c, a, "i1", ItemOperation.create(item("i1", "A", 1)));
            byte[] i1 = stored(s, c, a, "i1");
            write(s, c, a, "i1", ItemOperation.replace("i1", item("i1", "A", 2), null)); // live, owns V(i1 v1)
            write(s, c, b, "i2", ItemOperation.create(item("i2", "B", 1)));
            write(s, c, b, "i2", ItemOperation.replace("i2", item("i2", "B", 2), null)); // pruned: owns V(i2 v1)
            byte[] i2 = stored(s, c, b, "i2");
            write(s, c, b, "i2", ItemOperation.replace("i2", item("i2", "B", 3), null)); // live, owns V(i2 v2)
            write(s, c, a, "i3", ItemOperation.create(item("i3", "A", 1)));
            write(s, c, a, "i3", ItemOperation.delete("i3", null)); // pruned with its V
            // a folded run of three replaces (one transaction, one partition), two of them superseded later: the
            // pruner takes those two out of the run and their V keys with them; the third keeps its own
            for (String id : List.of("r1", "r2", "r3")) {
                write(s, c, b, id, ItemOperation.create(item(id, "B", 0)));
            }
            byte[] r3 = stored(s, c, b, "r3");
            Map<String, byte[]> was = new HashMap<>();
            for (String id : List.of("r1", "r2", "r3")) {
                was.put(id, stored(s, c, b, id));
            }
            c.executeBatch(b, List.of(ItemOperation.upsert(item("r1", "B", 1), null),
                    ItemOperation.upsert(item("r2", "B", 1), null), ItemOperation.upsert(item("r3", "B", 1), null)));
            for (String id : List.of("r1", "r2", "r3")) {
                note(s, c, b, id, was.get(id), false);
            }
            byte[] r1 = stored(s, c, b, "r1");
            byte[] r2 = stored(s, c, b, "r2");
            write(s, c, b, "r1", ItemOperation.upsert(item("r1", "B", 2), null));
            write(s, c, b, "r2", ItemOperation.upsert(item("r2", "B", 2), null));
            assertEquals(4 + 3 + 2, versionKeys(s, c).size());
            long removed = s.changeFeeds().pruner().pruneOnce(System.currentTimeMillis() + 2 * RETENTION.toMillis());
            assertEquals(5 + 3 + 2, removed, "i1's create, i2's create and first replace, i3's create and tombstone, "
                    + "the r's creates, r1's and r2's replaces in the run");
            assertEquals(List.of(versionKey(a, ItemCodec.lsn(i1)), versionKey(b, ItemCodec.lsn(i2)),
                    versionKey(b, ItemCodec.lsn(r3)), versionKey(b, ItemCodec.lsn(r1)), versionKey(b, ItemCodec.lsn(r2)))
                    .stream().sorted().toList(), List.copyOf(versionKeys(s, c).keySet()),
                    "the live replaces keep their previous; the pruned ones' went with them, in and out of runs");
            assertEquals(live(), pages(c.changeFeed(), EpkRange.FULL, null));
            ChangeFeed.ImageCheck check = c.changeFeed().checkImages();
            assertEquals(new ChangeFeed.ImageCheck(0, 0, 0), check);
        }
    }

    @Test
    void aPageReadingARecordThePrunerRemovesMeanwhileDropsIt() {
        try (CoreStore s = open()) {
            ContainerStore c = container(s, null);
            PartitionKeyValue a = pk("A");
            write(s, c, a, "gone", ItemOperation.create(item("gone", "A", 1)));
            write(s, c, a, "gone", ItemOperation.replace("gone", item("gone", "A", 2), null));
            write(s, c, a, "gone", ItemOperation.delete("gone", null));
            write(s, c, a, "kept", ItemOperation.create(item("kept", "A", 1)));
            ChangeFeed feed = c.changeFeed();
            int[] passes = {0};
            feed.beforeVersionImageReads = () -> { // the pruner passes between the page's item and version reads
                if (passes[0]++ == 0) {
                    assertEquals(3, s.changeFeeds().pruner().pruneOnce(System.currentTimeMillis()
                            + 2 * RETENTION.toMillis()));
                }
            };
            try {
                ChangeFeedPage page = feed.read(allVersions(EpkRange.FULL, null, 0, 100));
                List<String> shown = page.changes().stream().map(ch -> line(ch.record())).toList();
                assertEquals(List.of(model.get(3)), shown, "the pruned records are dropped, never shown imageless");
                assertEquals(1, passes[0]);
            } finally {
                feed.beforeVersionImageReads = null;
            }
            assertTrue(feed.checkImages().clean());
        }
    }

    @Test
    void aVersionSupersededUnderLatestOnlyShowsWithoutCurrent() {
        try (CoreStore s = open()) {
            ContainerStore c = container(s, null);
            PartitionKeyValue a = pk("A");
            write(s, c, a, "i1", ItemOperation.create(item("i1", "A", 1)));
            c.changeFeed().setPolicy(ChangeFeedPolicy.LATEST_VERSION_ONLY);
            c.execute(a, ItemOperation.replace("i1", item("i1", "A", 2), null));
            assertEquals(Map.of(), versionKeys(s, c), "latest version only: no version keys");
            c.changeFeed().setPolicy(new ChangeFeedPolicy(RETENTION)); // back within a prune interval (§3.3.1)
            List<String> shown = pages(c.changeFeed(), EpkRange.FULL, null);
            assertEquals(2, shown.size());
            assertTrue(shown.get(0).startsWith("CREATE i1") && shown.get(0).contains("current=- previous=-"),
                    "its version is gone from the item and has no key: shown without current, " + shown.get(0));
            assertTrue(shown.get(1).contains("current=- previous=-"), "written imageless, as today");
            assertEquals(new ChangeFeed.ImageCheck(0, 1, 0), c.changeFeed().checkImages(), "counted, documented");
        }
    }

    @Test
    void inlineAndDeferredRecordsReadAndPruneTogether() {
        PartitionKeyValue[] pks = {pk("A"), pk("B"), pk("C")};
        System.setProperty("tetradb.feed.versionImages", "false");
        long inlineBytes;
        try (CoreStore s = open()) {
            ContainerStore c = container(s, null);
            for (int i = 0; i < 10; i++) {
                write(s, c, pks[i % 3], "i" + i, ItemOperation.create(item("i" + i, "ABC".substring(i % 3, i % 3 + 1), i)));
            }
            for (int i = 0; i < 5; i++) {
                write(s, c, pks[i % 3], "i" + i, ItemOperation.upsert(item("i" + i, "ABC".substring(i % 3, i % 3 + 1),
                        10 + i), null));
            }
            write(s, c, pks[0], "i9", ItemOperation.delete("i9", null));
            assertEquals(Map.of(), versionKeys(s, c), "the switch writes today's layout");
            inlineBytes = feedBytes(s, c);
            assertTrue(inlineBytes > 10 * 2 * 1000, "images inline: " + inlineBytes);
        }
        System.clearProperty("tetradb.feed.versionImages");
        try (CoreStore s = open()) {
            ContainerStore c = s.container("db", "c");
            for (int i : new int[]{0, 1, 2, 5, 6}) {
                write(s, c, pks[i % 3], "i" + i, ItemOperation.upsert(item("i" + i, "ABC".substring(i % 3, i % 3 + 1),
                        20 + i), null));
            }
            write(s, c, pks[2], "i8", ItemOperation.delete("i8", null));
            write(s, c, pks[1], "i10", ItemOperation.create(item("i10", "B", 10)));
            assertEquals(6, versionKeys(s, c).size(), "a version key per superseded version, inline creates or not");
            assertScopesShow(c, model, pks);
            assertTrue(c.changeFeed().checkImages().clean());
            s.changeFeeds().pruner().pruneOnce(System.currentTimeMillis() + 2 * RETENTION.toMillis());
            assertScopesShow(c, live(), pks);
            assertTrue(c.changeFeed().checkImages().clean(), "no orphan: each key went with its owner");
            assertEquals(5, versionKeys(s, c).size(), "i0 i1 i2 i5 i6's live replaces keep theirs; i8's went");
        }
    }

    void assertScopesShow(ContainerStore c, List<String> expected, PartitionKeyValue... pks) {
        ChangeFeed feed = c.changeFeed();
        assertEquals(expected, pages(feed, EpkRange.FULL, null), "the container");
        for (PartitionKeyValue p : pks) {
            String v = p.toString();
            List<String> one = pages(feed, EpkRange.FULL, p);
            assertEquals(filter(expected, one), one, "partition " + v);
        }
        List<String> union = new ArrayList<>();
        for (EpkRange r : EpkRange.initialRanges(4)) {
            union.addAll(pages(feed, r, null));
        }
        union.sort(Comparator.comparingInt(expected::indexOf));
        assertEquals(expected, union, "the feed ranges together");
    }

    /** {@code expected}'s lines whose ids {@code shown} has: a scope's part of the container, in feed order. */
    static List<String> filter(List<String> expected, List<String> shown) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        shown.forEach(l -> ids.add(l.split(" ")[1]));
        return expected.stream().filter(l -> ids.contains(l.split(" ")[1])).toList();
    }

    @Test
    void everyScopeAndTheContractReadResolveAlike() {
        List<String> byCursor;
        List<String> embedded;
        List<String> xPrefix;
        try (CoreStore s = open()) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "h", PartitionKeyDefinition.of("/t", "/u"), null, null, null,
                    null);
            c.changeFeed().setPolicy(new ChangeFeedPolicy(RETENTION));
            for (int i = 0; i < 60; i++) {
                int n = i % 12; // each id in one logical partition: five changes each
                String t = n % 3 == 0 ? "x" : "y";
                String u = "u" + (n % 4);
                PartitionKeyValue k = key(t, u);
                String id = "i" + n;
                byte[] before = stored(s, c, k, id);
                ObjectNode doc = M.createObjectNode().put("id", id).put("t", t).put("u", u).put("v", i).put("pad", PAD);
                write(s, c, k, id, i % 7 == 6 && before != null ? ItemOperation.delete(id, null)
                        : ItemOperation.upsert(doc, null));
            }
            ChangeFeed feed = c.changeFeed();
            embedded = pages(feed, EpkRange.FULL, null);
            assertEquals(model, embedded, "the container: each change with the versions it made and superseded");
            assertTrue(versionKeys(s, c).size() >= 40, "replaces and deletes: " + versionKeys(s, c).size());
            // each key, the hierarchical prefix, and the feed ranges show their part of the container's changes
            List<String> union = new ArrayList<>();
            for (String t : List.of("x", "y")) {
                for (int u = 0; u < 4; u++) {
                    union.addAll(pages(feed, EpkRange.FULL, key(t, "u" + u)));
                }
            }
            union.sort(Comparator.comparingInt(embedded::indexOf));
            assertEquals(embedded, union, "the partition keys together");
            xPrefix = pages(feed, EpkRange.FULL, key("x"));
            assertEquals(embedded.stream().filter(l -> l.contains("\"t\":\"x\"")).toList(), xPrefix,
                    "the hierarchical prefix x");
            List<String> ranges = new ArrayList<>();
            for (EpkRange r : EpkRange.initialRanges(3)) {
                ranges.addAll(pages(feed, r, null));
            }
            ranges.sort(Comparator.comparingInt(embedded::indexOf));
            assertEquals(embedded, ranges, "the feed ranges together");
            assertTrue(feed.checkImages().clean());
        }
        System.setProperty("tetradb.itemReads", "contract");
        try (CoreStore s = open()) {
            ContainerStore c = s.container("db", "h");
            ChangeFeed feed = c.changeFeed();
            assertTrue(feed.readsPerPartition(), "reads through the logical-partition contract");
            assertEquals(embedded, pages(feed, EpkRange.FULL, null), "the sequence scan through the contract");
            byCursor = new ArrayList<>();
            FeedCursor cursor = FeedCursor.beginning();
            for (int guard = 0; guard < 1000; guard++) {
                ChangeFeedPage p = feed.read(new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES,
                        EpkRange.FULL, null, 0, 0, 7, cursor));
                p.changes().forEach(ch -> byCursor.add(line(ch.record())));
                cursor = p.cursor();
                if (p.changes().isEmpty()) {
                    break;
                }
            }
        }
        List<String> sorted = new ArrayList<>(byCursor);
        sorted.sort(Comparator.comparingInt(embedded::indexOf));
        assertFalse(sorted.contains(null));
        assertEquals(embedded, sorted, "the contract's per-partition read shows the same changes");
        assertNotNull(xPrefix);
    }

    static PartitionKeyValue key(String... components) {
        List<com.fasterxml.jackson.databind.JsonNode> c = new ArrayList<>();
        for (String s : components) {
            c.add(PartitionKeyValue.component(s));
        }
        return PartitionKeyValue.of(c);
    }
}
