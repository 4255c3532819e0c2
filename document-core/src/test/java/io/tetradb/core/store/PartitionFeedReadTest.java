package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.feed.ChangeFeed;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedPolicy;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Space;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A change feed read scoped to one partition key (or a hierarchical key prefix) reads that scope's records only, from
 * the feed's partition index, not the container's whole sequence: the records it looks at, the items it returns and
 * its request charge are the key's alone, with the same pages, order and continuations as before.
 */
class PartitionFeedReadTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    private static PartitionKeyValue key(Object... components) {
        List<com.fasterxml.jackson.databind.JsonNode> c = new ArrayList<>();
        for (Object o : components) {
            c.add(PartitionKeyValue.component(o));
        }
        return PartitionKeyValue.of(c);
    }

    @Test
    void onePartitionKeyReadsItsOwnRecordsAndPaysForItsOwnItems() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            c.changeFeed().setPolicy(new ChangeFeedPolicy(Duration.ofHours(1)));
            PartitionKeyValue a = key("A");
            PartitionKeyValue b = key("B");
            List<String> aIds = new ArrayList<>();
            for (int i = 0; i < 2000; i++) { // A's 40 writes among 1960 of B
                boolean toA = i % 50 == 0;
                String id = "i" + i;
                c.execute(toA ? a : b, ItemOperation.create(M.createObjectNode().put("id", id)
                        .put("pk", toA ? "A" : "B").put("pad", "x".repeat(300))));
                if (toA) {
                    aIds.add(id);
                }
            }
            ChangeFeed feed = c.changeFeed();
            long read0 = feed.recordsRead();
            ChargedChangeFeedPage page = c.readChangeFeed(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null, a,
                    0, 0, 1000), null);
            assertEquals(aIds, ids(page.page()));
            assertEquals(40, feed.recordsRead() - read0, "only A's records are looked at");
            assertTrue(page.page().caughtUp());
            long bytes = 0;
            for (ChangeFeedPage.Change ch : page.page().changes()) {
                bytes += ch.size();
            }
            assertEquals(RequestCharge.feedPage(bytes, 40), page.requestCharge(), 1e-9, "charged for A's items");

            // pages of 7 in feed order, continuations resume exactly; nothing new: caught up at once
            List<String> paged = new ArrayList<>();
            long position = 0;
            while (true) {
                ChangeFeedPage p = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null, a,
                        position, 0, 7));
                paged.addAll(ids(p));
                position = p.continuation();
                if (p.caughtUp()) {
                    break;
                }
            }
            assertEquals(aIds, paged);
            long read1 = feed.recordsRead();
            assertEquals(List.of(), ids(c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null,
                    a, position, 0, 100))));
            assertEquals(read1, feed.recordsRead(), "a caught-up reader of A looks at nothing, however busy B is");

            // all versions and deletes, after the position: A's replace and delete, none of B's changes
            long now = feed.currentPosition();
            c.execute(a, ItemOperation.upsert(M.createObjectNode().put("id", "i0").put("pk", "A").put("v", 2), null));
            c.execute(b, ItemOperation.upsert(M.createObjectNode().put("id", "i1").put("pk", "B").put("v", 2), null));
            c.execute(a, ItemOperation.delete("i50", null));
            ChangeFeedPage all = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES,
                    null, a, now, 0, 100));
            assertEquals(List.of("REPLACE i0", "DELETE i50"), all.changes().stream()
                    .map(ch -> ch.record().operationType() + " " + ch.record().id()).toList());

            // the pruner removes superseded records' partition index keys with them
            s.changeFeeds().pruner().pruneOnce();
            assertEquals(partitionIndexKeys(s, c), records(s, c), "one partition index key per record kept");
        }
    }

    @Test
    void aHierarchicalPrefixReadsItsPartitionsInFeedOrder() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "h", PartitionKeyDefinition.of("/t", "/u"), null, null, null,
                    null);
            List<String> xIds = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                String t = i % 3 == 0 ? "x" : "y";
                String u = "u" + (i % 7);
                ObjectNode item = M.createObjectNode().put("id", "i" + i).put("t", t).put("u", u);
                c.execute(key(t, u), ItemOperation.create(item));
                if (t.equals("x")) {
                    xIds.add("i" + i);
                }
            }
            ChangeFeed feed = c.changeFeed();
            List<String> paged = new ArrayList<>();
            long position = 0;
            long read0 = feed.recordsRead();
            while (true) {
                ChangeFeedPage p = feed.read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null, key("x"),
                        position, 0, 33));
                paged.addAll(ids(p));
                position = p.continuation();
                if (p.caughtUp()) {
                    break;
                }
            }
            assertEquals(xIds, paged, "every item under the prefix once, in feed order across its partitions");
            assertEquals(xIds.size(), feed.recordsRead() - read0, "only the prefix's records are looked at");
            List<String> one = ids(feed.read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null,
                    key("x", "u3"), 0, 0, 1000)));
            assertEquals(xIds.stream().filter(id -> Integer.parseInt(id.substring(1)) % 7 == 3).toList(), one);
        }
    }

    private static List<String> ids(ChangeFeedPage page) {
        return page.changes().stream().map(ch -> ch.record().id()).toList();
    }

    private static long records(CoreStore s, ContainerStore c) {
        return count(s, c, (byte) 'S');
    }

    private static long partitionIndexKeys(CoreStore s, ContainerStore c) {
        return count(s, c, (byte) 'P');
    }

    private static long count(CoreStore s, ContainerStore c, byte kind) {
        byte[] from = Keys.concat(Keys.collId(c.collId()), new byte[]{kind});
        long[] n = {0};
        s.engine().scan(Space.FEED, from, Keys.prefixEnd(from), kv -> ++n[0] > 0);
        return n[0];
    }
}
