package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.feed.ChangeFeed;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedPolicy;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A change feed read scoped to a feed range that is part of its container (one of its physical partitions) reads
 * the range's logical partitions from the feed's partition index, not the container's whole sequence: the records it
 * looks at, the items it returns and its request charge are the range's, in feed order, with the same pages and
 * continuations. A caught-up reader of a range with more partitions than new records scans the sequence instead.
 */
class RangeFeedReadTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void aFeedRangeReadsItsOwnPartitionsRecordsInFeedOrder() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 40_000,
                    null); // four physical partitions: four feed ranges
            c.changeFeed().setPolicy(new ChangeFeedPolicy(Duration.ofHours(1)));
            List<EpkRange> ranges = c.partitionMap().partitions().stream().map(p -> p.range()).toList();
            assertEquals(4, ranges.size());
            EpkRange range = ranges.get(1);
            List<String> inRange = new ArrayList<>();
            int written = 2000;
            for (int i = 0; i < written; i++) { // 40 logical partitions, about 10 per range
                PartitionKeyValue pk = PartitionKeyValue.of(List.of(PartitionKeyValue.component("p" + (i % 40))));
                String id = "i" + i;
                c.execute(pk, ItemOperation.create(M.createObjectNode().put("id", id).put("pk", "p" + (i % 40))
                        .put("pad", "x".repeat(200))));
                if (range.contains(pk.epk())) {
                    inRange.add(id);
                }
            }
            assertTrue(inRange.size() > 100 && inRange.size() < written / 2, "the range holds part of the items");
            ChangeFeed feed = c.changeFeed();

            long read0 = feed.recordsRead();
            ChargedChangeFeedPage page = c.readChangeFeed(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, range,
                    null, 0, 0, 5000), null);
            assertEquals(inRange, ids(page.page()), "the range's items, in feed order across its partitions");
            assertEquals(inRange.size(), feed.recordsRead() - read0, "only the range's records are looked at");
            assertTrue(page.page().caughtUp());
            long bytes = 0;
            for (ChangeFeedPage.Change ch : page.page().changes()) {
                bytes += ch.size();
            }
            assertEquals(RequestCharge.feedPage(bytes, inRange.size()), page.requestCharge(), 1e-9,
                    "charged for the range's items");

            // pages of 7: the same changes, each once, continuations resume exactly
            List<String> paged = new ArrayList<>();
            long position = 0;
            long read1 = feed.recordsRead();
            while (true) {
                ChangeFeedPage p = feed.read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, range, null,
                        position, 0, 7));
                paged.addAll(ids(p));
                position = p.continuation();
                if (p.caughtUp()) {
                    break;
                }
            }
            assertEquals(inRange, paged);
            // the last pages, with fewer new records than 16 per partition of the range, scan the sequence
            assertTrue(feed.recordsRead() - read1 < inRange.size() + 16 * 12, "the range's records, plus at most the "
                    + "sequence's last few: " + (feed.recordsRead() - read1));

            // the whole container's range scans its sequence (the index cannot read less there)
            long read2 = feed.recordsRead();
            assertEquals(written, feed.read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, EpkRange.FULL, null,
                    0, 0, 5000)).changes().size());
            assertEquals(written, feed.recordsRead() - read2);

            // a caught-up reader: three new changes elsewhere, about ten partitions in the range: the sequence is
            // cheaper than ten seeks, so it scans those three records
            for (int i = 0; i < 3; i++) {
                String pkText = outside(range);
                c.execute(PartitionKeyValue.of(List.of(PartitionKeyValue.component(pkText))), ItemOperation.create(
                        M.createObjectNode().put("id", "late" + i).put("pk", pkText)));
            }
            long read3 = feed.recordsRead();
            ChangeFeedPage late = feed.read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, range, null,
                    position, 0, 100));
            assertEquals(List.of(), ids(late));
            assertTrue(late.caughtUp());
            assertEquals(3, feed.recordsRead() - read3, "the three new records of the sequence, no partition seek");

            // all versions and deletes through the index: the range's replace and delete only
            long now = feed.currentPosition();
            String a = inRange.get(0);
            String b = inRange.get(1);
            String other = firstOutside(c, range, written);
            c.execute(pkOf(a), ItemOperation.upsert(M.createObjectNode().put("id", a).put("pk", pkText(a))
                    .put("v", 2), null));
            c.execute(pkOf(other), ItemOperation.upsert(M.createObjectNode().put("id", other).put("pk", pkText(other))
                    .put("v", 2), null));
            c.execute(pkOf(b), ItemOperation.delete(b, null));
            long read4 = feed.recordsRead();
            ChangeFeedPage all = feed.read(new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES, range, null,
                    now, 0, 100));
            assertEquals(List.of("REPLACE " + a, "DELETE " + b), all.changes().stream()
                    .map(ch -> ch.record().operationType() + " " + ch.record().id()).toList());
            assertTrue(feed.recordsRead() - read4 <= 3);
        }
    }

    private static String pkText(String id) {
        return "p" + (Integer.parseInt(id.substring(1)) % 40);
    }

    private static PartitionKeyValue pkOf(String id) {
        return PartitionKeyValue.of(List.of(PartitionKeyValue.component(pkText(id))));
    }

    private static String firstOutside(ContainerStore c, EpkRange range, int written) {
        for (int i = 0; i < written; i++) {
            if (!range.contains(pkOf("i" + i).epk())) {
                return "i" + i;
            }
        }
        throw new AssertionError("every item in the range");
    }

    private static String outside(EpkRange range) {
        for (int i = 0; ; i++) {
            String pk = "q" + i;
            if (!range.contains(PartitionKeyValue.of(List.of(PartitionKeyValue.component(pk))).epk())) {
                return pk;
            }
        }
    }

    private static List<String> ids(ChangeFeedPage page) {
        return page.changes().stream().map(ch -> ch.record().id()).toList();
    }
}
