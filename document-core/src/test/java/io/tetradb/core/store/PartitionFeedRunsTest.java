package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.feed.ChangeRuns;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core-batch (issue 17): the feed's partition index holds one key per run of a transaction's records (a batch of n
 * items: one key standing for its n records, not n keys). Feed reads per partition key and per feed range see every
 * record of a run, continuations inside a run resume exactly, the pruner removes a run's key with its last record,
 * and a directory written one key per record (the layout before runs) reads the same.
 */
class PartitionFeedRunsTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    private static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(List.of(PartitionKeyValue.component(v)));
    }

    /** Batches of 10–37 creates in six partitions, with single creates in between; returns each key's ids in order. */
    private static Map<String, List<String>> write(ContainerStore c) {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        int n = 0;
        for (int round = 0; round < 30; round++) {
            String p = "p" + (round % 6);
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < 10 + round; i++) {
                String id = "r" + round + "-" + i;
                ops.add(ItemOperation.create(M.createObjectNode().put("id", id).put("pk", p)));
                ids.computeIfAbsent(p, k -> new ArrayList<>()).add(id);
            }
            List<ItemResult> r = c.executeBatch(pk(p), ops);
            assertTrue(r.stream().allMatch(ItemResult::isSuccess), r.toString());
            String q = "q" + (round % 5);
            String single = "s" + n++;
            assertTrue(c.execute(pk(q), ItemOperation.create(M.createObjectNode().put("id", single).put("pk", q)))
                    .isSuccess());
            ids.computeIfAbsent(q, k -> new ArrayList<>()).add(single);
        }
        return ids;
    }

    private static List<String> readAll(ContainerStore c, EpkRange range, PartitionKeyValue key, int pageSize) {
        List<String> out = new ArrayList<>();
        long position = 0;
        while (true) {
            ChangeFeedPage p = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, range, key,
                    position, 0, pageSize));
            p.changes().forEach(ch -> out.add(ch.record().id()));
            position = p.continuation();
            if (p.caughtUp()) {
                return out;
            }
        }
    }

    /** Every scope read in pages of 7 (so continuations fall inside runs) and of 1000. */
    private static Map<String, List<String>> readEveryScope(ContainerStore c, Map<String, List<String>> ids) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String p : ids.keySet()) {
            List<String> paged = readAll(c, null, pk(p), 7);
            assertEquals(paged, readAll(c, null, pk(p), 1000), p + ": pages of 7 equal one page");
            out.put(p, paged);
        }
        for (EpkRange range : c.partitionMap().partitions().stream().map(x -> x.range()).toList()) {
            List<String> paged = readAll(c, range, null, 5);
            assertEquals(paged, readAll(c, range, null, 1000), range + ": pages of 5 equal one page");
            out.put(range.toString(), paged);
        }
        return out;
    }

    private static List<KeyValue> keys(CoreStore s, ContainerStore c, byte kind) {
        byte[] from = Keys.concat(Keys.collId(c.collId()), new byte[]{kind});
        List<KeyValue> out = new ArrayList<>();
        s.engine().scan(Space.FEED, from, Keys.prefixEnd(from), kv -> out.add(kv));
        return out;
    }

    @Test
    void aBatchWritesOneKeyForItsRecordsAndEveryScopeReadsThemAll() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 40_000, null);
            Map<String, List<String>> ids = write(c);
            assertEquals(60, keys(s, c, (byte) 'P').size(), "one partition index key per transaction (30 batches, "
                    + "30 single creates)");
            assertEquals(60, keys(s, c, (byte) 'S').size(), "core-keys: one record key per transaction too");
            int records = ids.values().stream().mapToInt(List::size).sum();
            assertEquals(records, keys(s, c, (byte) 'S').stream().mapToInt(kv -> ChangeRuns.decode(
                    ByteBuffer.wrap(kv.key(), 5, 8).getLong(), kv.value()).size()).sum(), "holding every record");

            Map<String, List<String>> read = readEveryScope(c, ids);
            for (String p : ids.keySet()) {
                assertEquals(ids.get(p), read.get(p), p + ": every item of the key once, in feed order");
            }
            List<String> all = readAll(c, null, null, 1000); // the sequence scan, the index's reference
            List<String> ranges = new ArrayList<>();
            for (EpkRange range : c.partitionMap().partitions().stream().map(x -> x.range()).toList()) {
                List<String> inRange = read.get(range.toString());
                ranges.addAll(inRange);
                assertEquals(all.stream().filter(inRange::contains).toList(), inRange, range + " in feed order");
            }
            assertEquals(all.size(), ranges.size(), "the ranges hold every item once");
            assertTrue(ranges.containsAll(all));
        }
    }

    @Test
    void aDirectoryWithOneKeyPerRecordReadsTheSame() {
        Map<String, List<String>> ids;
        Map<String, List<String>> before;
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 40_000, null);
            ids = write(c);
            before = readEveryScope(c, ids);
            // the layout before runs: each run key replaced by one key without a value per record, and each folded
            // record run by one record key per record
            WriteSet ws = new WriteSet();
            unfold(s, c, ws);
            for (KeyValue kv : keys(s, c, (byte) 'P')) {
                int count = kv.value().length == 0 ? 1 : ByteBuffer.wrap(kv.value()).getInt();
                long last = ByteBuffer.wrap(kv.key(), kv.key().length - 8, 8).getLong();
                ws.delete(Space.FEED, kv.key());
                for (long seq = last - count + 1; seq <= last; seq++) {
                    byte[] k = Arrays.copyOf(kv.key(), kv.key().length);
                    ByteBuffer.wrap(k, k.length - 8, 8).putLong(seq);
                    ws.put(Space.FEED, k, new byte[0]);
                }
            }
            s.engine().apply(ws);
        }
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = s.container("db", "c");
            assertEquals(keys(s, c, (byte) 'S').size(), keys(s, c, (byte) 'P').size(), "one key per record");
            assertEquals(before, readEveryScope(c, ids), "the same pages from either layout");
            // new writes add runs next to the old keys; both read
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                ops.add(ItemOperation.create(M.createObjectNode().put("id", "new" + i).put("pk", "p1")));
                ids.get("p1").add("new" + i);
            }
            assertTrue(c.executeBatch(pk("p1"), ops).stream().allMatch(ItemResult::isSuccess));
            assertEquals(ids.get("p1"), readEveryScope(c, ids).get("p1"));
        }
    }

    /** Rewrites every folded run of records ({@link ChangeRuns}) as one record key per record. */
    static void unfold(CoreStore s, ContainerStore c, WriteSet ws) {
        for (KeyValue kv : keys(s, c, (byte) 'S')) {
            if (ChangeRuns.isRun(kv.value())) {
                ws.delete(Space.FEED, kv.key());
                for (ChangeRecord r : ChangeRuns.decode(ByteBuffer.wrap(kv.key(), 5, 8).getLong(), kv.value())) {
                    byte[] k = Arrays.copyOf(kv.key(), kv.key().length);
                    ByteBuffer.wrap(k, 5, 8).putLong(r.seq());
                    ws.put(Space.FEED, k, r.encode());
                }
            }
        }
    }

    @Test
    void thePrunerRemovesARunsKeyWithItsLastRecord() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                ops.add(ItemOperation.create(M.createObjectNode().put("id", "a" + i).put("pk", "A")));
            }
            assertTrue(c.executeBatch(pk("A"), ops).stream().allMatch(ItemResult::isSuccess));
            assertEquals(1, keys(s, c, (byte) 'P').size());
            for (int i = 0; i < 49; i++) { // every item of the run but a0 replaced: 49 records superseded
                assertTrue(c.execute(pk("A"), ItemOperation.upsert(M.createObjectNode().put("id", "a" + i)
                        .put("pk", "A").put("v", 2), null)).isSuccess());
            }
            s.changeFeeds().pruner().pruneOnce();
            assertEquals(50, keys(s, c, (byte) 'S').size(), "the latest record of each item stays");
            assertEquals(50, keys(s, c, (byte) 'P').size(), "49 replaces' keys and the run's, kept for a49");
            List<String> expected = new ArrayList<>(List.of("a49"));
            for (int i = 0; i < 49; i++) {
                expected.add("a" + i);
            }
            assertEquals(expected, readAll(c, null, pk("A"), 7), "each item once at its latest record");
            assertEquals(expected, readAll(c, null, null, 7));

            assertTrue(c.execute(pk("A"), ItemOperation.delete("a49", null)).isSuccess());
            s.changeFeeds().pruner().pruneOnce();
            assertEquals(49, keys(s, c, (byte) 'S').size());
            assertEquals(49, keys(s, c, (byte) 'P').size(), "the run's key went with its last record");
            assertEquals(expected.subList(1, 50), readAll(c, null, pk("A"), 7));
        }
    }
}
