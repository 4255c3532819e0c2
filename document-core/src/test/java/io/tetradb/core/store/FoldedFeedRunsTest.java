package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedPolicy;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.feed.ChangeRuns;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core-keys (issue 17): a transaction's change records of one logical partition are one FEED key (a folded run,
 * {@link ChangeRuns}). Every scope and mode reads them as before, continuations resume inside a run, the pruner takes
 * members out of a run and deletes it with its last, and a directory written with a key per record reads the same.
 */
class FoldedFeedRunsTest {
    static final ObjectMapper M = new ObjectMapper();
    static final List<String> PARTITIONS = List.of("a", "b", "c", "d", "e");
    @TempDir
    Path dir;

    private static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(List.of(PartitionKeyValue.component(v)));
    }

    private static List<KeyValue> recordKeys(CoreStore s, ContainerStore c) {
        byte[] from = Keys.concat(Keys.collId(c.collId()), new byte[]{'S'});
        List<KeyValue> out = new ArrayList<>();
        s.engine().scan(Space.FEED, from, Keys.prefixEnd(from), out::add);
        return out;
    }

    private static int recordsHeld(CoreStore s, ContainerStore c) {
        return recordKeys(s, c).stream().mapToInt(kv -> ChangeRuns.decode(ByteBuffer.wrap(kv.key(), 5, 8).getLong(),
                kv.value()).size()).sum();
    }

    /**
     * 60 transactions of 1–40 creates, replaces and deletes in five partitions (seeded); returns the changes in commit
     * order as "partition op id", and leaves {@code live} holding each partition's live ids.
     */
    private static List<String> write(ContainerStore c, Map<String, Set<String>> live, long seed) {
        Random rnd = new Random(seed);
        List<String> log = new ArrayList<>();
        int next = 0;
        for (int t = 0; t < 60; t++) {
            String p = PARTITIONS.get(rnd.nextInt(PARTITIONS.size()));
            Set<String> ids = live.computeIfAbsent(p, k -> new LinkedHashSet<>());
            List<ItemOperation> ops = new ArrayList<>();
            Set<String> touched = new LinkedHashSet<>();
            int n = t % 7 == 0 ? 1 : 1 + rnd.nextInt(40);
            for (int i = 0; i < n; i++) {
                List<String> existing = ids.stream().filter(id -> !touched.contains(id)).toList();
                int kind = existing.isEmpty() ? 0 : rnd.nextInt(3);
                if (kind == 0) {
                    String id = "i" + next++;
                    ops.add(ItemOperation.create(M.createObjectNode().put("id", id).put("pk", p).put("v", t)));
                    touched.add(id);
                    log.add(p + " create " + id);
                } else {
                    String id = existing.get(rnd.nextInt(existing.size()));
                    touched.add(id);
                    if (kind == 1) {
                        ops.add(ItemOperation.upsert(M.createObjectNode().put("id", id).put("pk", p).put("v", t), null));
                        log.add(p + " replace " + id);
                    } else {
                        ops.add(ItemOperation.delete(id, null));
                        log.add(p + " delete " + id);
                    }
                }
            }
            List<ItemResult> r = n == 1 ? List.of(c.execute(pk(p), ops.get(0))) : c.executeBatch(pk(p), ops);
            assertTrue(r.stream().allMatch(ItemResult::isSuccess), r.toString());
            for (String line : log.subList(log.size() - n, log.size())) {
                String[] f = line.split(" ");
                if (f[1].equals("delete")) {
                    ids.remove(f[2]);
                } else {
                    ids.add(f[2]);
                }
            }
        }
        return log;
    }

    private static List<String> read(ContainerStore c, ChangeFeedMode mode, EpkRange range, PartitionKeyValue key,
                                     long from, int pageSize) {
        List<String> out = new ArrayList<>();
        long position = from;
        while (true) {
            ChangeFeedPage p = c.changeFeed().read(new ChangeFeedRequest(mode, range, key, position, 0, pageSize));
            for (ChangeFeedPage.Change ch : p.changes()) {
                out.add(ch.record().operationType().cosmosName() + " " + ch.record().id());
            }
            position = p.continuation();
            if (p.caughtUp()) {
                return out;
            }
        }
    }

    /** The container, each partition key and each feed range, in pages of 7 and of 3 (continuations inside runs). */
    private static Map<String, List<String>> readEveryScope(ContainerStore c, ChangeFeedMode mode, long from) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (int pageSize : new int[]{7, 3}) {
            out.put("all/" + pageSize, read(c, mode, null, null, from, pageSize));
            for (String p : PARTITIONS) {
                out.put(p + "/" + pageSize, read(c, mode, null, pk(p), from, pageSize));
            }
            int i = 0;
            for (EpkRange range : c.partitionMap().partitions().stream().map(x -> x.range()).toList()) {
                out.put("range" + i++ + "/" + pageSize, read(c, mode, range, null, from, pageSize));
            }
        }
        return out;
    }

    private static List<String> ofPartition(List<String> log, String p) {
        return log.stream().filter(l -> l.startsWith(p + " ")).map(l -> l.substring(p.length() + 1)).toList();
    }

    @Test
    void aBatchIsOneRecordKeyAndAllVersionsReadTheSameInEveryScope() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 40_000, null);
            c.changeFeed().setPolicy(new ChangeFeedPolicy(Duration.ofHours(1)));
            long start = c.changeFeed().currentPosition();
            Map<String, Set<String>> live = new LinkedHashMap<>();
            List<String> log = write(c, live, 17);
            assertEquals(60, recordKeys(s, c).size(), "one record key per transaction");
            assertEquals(log.size(), recordsHeld(s, c), "holding every change");

            Map<String, List<String>> scopes = readEveryScope(c, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, start);
            List<String> all = log.stream().map(l -> l.substring(2)).toList();
            assertEquals(all, scopes.get("all/7"), "every change once, in commit order");
            assertEquals(all, scopes.get("all/3"));
            for (String p : PARTITIONS) {
                assertEquals(ofPartition(log, p), scopes.get(p + "/7"), p);
                assertEquals(ofPartition(log, p), scopes.get(p + "/3"), p);
            }
            List<String> ranges = new ArrayList<>();
            for (Map.Entry<String, List<String>> e : scopes.entrySet()) {
                if (e.getKey().startsWith("range") && e.getKey().endsWith("/7")) {
                    assertEquals(all.stream().filter(e.getValue()::contains).toList(), e.getValue(), e.getKey());
                    assertEquals(scopes.get(e.getKey().replace("/7", "/3")), e.getValue(), e.getKey());
                    ranges.addAll(e.getValue());
                }
            }
            assertEquals(all.size(), ranges.size(), "the feed ranges hold every change once");

            // a 100-item batch adds one record key holding its run; a point write one record key of the old layout
            int keys = recordKeys(s, c).size();
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                ops.add(ItemOperation.create(M.createObjectNode().put("id", "big" + i).put("pk", "a")));
            }
            assertTrue(c.executeBatch(pk("a"), ops).stream().allMatch(ItemResult::isSuccess));
            List<KeyValue> after = recordKeys(s, c);
            assertEquals(keys + 1, after.size());
            assertTrue(ChangeRuns.isRun(after.get(after.size() - 1).value()));
            assertTrue(c.execute(pk("b"), ItemOperation.create(M.createObjectNode().put("id", "one").put("pk", "b")))
                    .isSuccess());
            after = recordKeys(s, c);
            assertEquals(keys + 2, after.size());
            assertEquals(1, after.get(after.size() - 1).value()[0], "a single record as before runs");
        }
    }

    @Test
    void thePrunerTakesMembersOutOfRunsAndTheLatestFeedStaysExact() {
        Map<String, List<String>> before;
        Map<String, Set<String>> live = new LinkedHashMap<>();
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 40_000, null);
            write(c, live, 5);
            before = readEveryScope(c, ChangeFeedMode.LATEST_VERSION, 0);
            s.changeFeeds().pruner().pruneOnce();
            int liveItems = live.values().stream().mapToInt(Set::size).sum();
            assertEquals(liveItems, recordsHeld(s, c), "one record per live item left (superseded ones and "
                    + "tombstones pruned out of their runs)");
            assertEquals(before, readEveryScope(c, ChangeFeedMode.LATEST_VERSION, 0), "the same pages after pruning");
            for (String p : PARTITIONS) {
                List<String> expected = live.getOrDefault(p, Set.of()).stream().toList();
                List<String> ids = before.get(p + "/7").stream().map(l -> l.split(" ")[1]).toList();
                assertEquals(Set.copyOf(expected), Set.copyOf(ids), p + ": each live item once");
                assertEquals(expected.size(), ids.size());
            }
            // every partition index key still stands for at least one record left
            byte[] from = Keys.concat(Keys.collId(c.collId()), new byte[]{'P'});
            List<KeyValue> index = new ArrayList<>();
            s.engine().scan(Space.FEED, from, Keys.prefixEnd(from), index::add);
            Set<Long> held = new java.util.HashSet<>();
            for (KeyValue kv : recordKeys(s, c)) {
                ChangeRuns.decode(ByteBuffer.wrap(kv.key(), 5, 8).getLong(), kv.value()).forEach(r -> held.add(r.seq()));
            }
            for (KeyValue kv : index) {
                long last = ByteBuffer.wrap(kv.key(), kv.key().length - 8, 8).getLong();
                int count = kv.value().length == 0 ? 1 : ByteBuffer.wrap(kv.value()).getInt();
                boolean any = false;
                for (long seq = last - count + 1; seq <= last; seq++) {
                    any |= held.contains(seq);
                }
                assertTrue(any, "index key of run ending at " + last + " has no record left");
            }
        }
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) { // reopened: the sequence continues
            ContainerStore c = s.container("db", "c");
            assertEquals(before, readEveryScope(c, ChangeFeedMode.LATEST_VERSION, 0));
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ops.add(ItemOperation.create(M.createObjectNode().put("id", "late" + i).put("pk", "c")));
            }
            assertTrue(c.executeBatch(pk("c"), ops).stream().allMatch(ItemResult::isSuccess));
            List<String> c7 = readEveryScope(c, ChangeFeedMode.LATEST_VERSION, 0).get("c/7");
            assertEquals(List.of("create late0", "create late1", "create late2", "create late3", "create late4"),
                    c7.subList(c7.size() - 5, c7.size()));
        }
    }

    @Test
    void aDirectoryWithARecordKeyPerRecordReadsTheSameAndPrunes() {
        Map<String, List<String>> folded;
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 40_000, null);
            c.changeFeed().setPolicy(new ChangeFeedPolicy(Duration.ofHours(1)));
            write(c, new LinkedHashMap<>(), 23);
            folded = readEveryScope(c, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, 0);
            int held = recordsHeld(s, c);
            WriteSet ws = new WriteSet();
            PartitionFeedRunsTest.unfold(s, c, ws); // core-batch's layout
            s.engine().apply(ws);
            assertEquals(held, recordKeys(s, c).size(), "a record key per record");
        }
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = s.container("db", "c");
            assertEquals(folded, readEveryScope(c, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, 0));
            Map<String, List<String>> latest = readEveryScope(c, ChangeFeedMode.LATEST_VERSION, 0);
            c.changeFeed().setPolicy(ChangeFeedPolicy.LATEST_VERSION_ONLY);
            s.changeFeeds().pruner().pruneOnce();
            assertEquals(latest, readEveryScope(c, ChangeFeedMode.LATEST_VERSION, 0), "pruned, the same pages");
        }
    }
}
