package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.document.ChangeFeedPolicy;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.ThroughputProperties;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * feed-images (docs/feed-images.md §7): two stores in one JVM driven in lockstep by the same seeded random steps —
 * A opened with {@code -Dtetradb.feed.versionImages=false} (images inline in the records, the layout before), B with
 * version images (records refer to the item or to a version-image key). Point creates, replaces, upserts and deletes,
 * transactional batches touching one id several times, TTL purges, pruner passes at a time between two steps' commit
 * times, and close + reopen (the pruner's progress and notes lost). After every step the all-versions pages of every
 * scope (container, each partition key, each feed range) from position 0 and from random positions, in pages of 7,
 * are equal between A and B as JSON without the commit time (the only thing the two stores' clocks decide: both
 * share a manual clock for {@code _ts} and TTL); the latest-version pages too; B's {@code checkImages()} is clean and
 * B's FEED bytes are at most A's; A's records hold their images and no version-image key, B's hold none.
 * Seeds are printed; {@code -Dtetradb.test.feedImages.seeds=N} and {@code .steps=N} run more
 * ({@code -Dtetradb.test.feedImages.firstSeed=S} replays one).
 */
class FeedImagesPropertyTest extends ManualPrunerStores {
    static final Duration RETENTION = Duration.ofHours(1);
    static final int SEEDS = Integer.getInteger("tetradb.test.feedImages.seeds", 3);
    static final int STEPS = Integer.getInteger("tetradb.test.feedImages.steps", 120);
    static final long FIRST_SEED = Long.getLong("tetradb.test.feedImages.firstSeed", 1);
    static final List<String> KEYS = List.of("p0", "p1", "p2", "p3", "p4");
    static final int IDS = 6;
    /** Items with a TTL are written to this partition only: one purge is one transaction, in both stores alike. */
    static final String TTL_KEY = "p0";
    static final PartitionKeyDefinition DEFINITION = PartitionKeyDefinition.of("/pk");

    /** One of the two stores: its own directory, the layout chosen at each open, a manual clock for _ts and TTL. */
    final class Side {
        final String name;
        final boolean inline;
        final ManualClock clock = new ManualClock(Instant.parse("2026-11-27T00:00:00Z"));
        CosmosClient client;
        CosmosContainer container;
        /** Each step's records' commit times: {first, last}, or null for a step that wrote none. */
        final List<long[]> stepCrts = new ArrayList<>();
        long readUpTo;

        Side(String name, boolean inline) {
            this.name = name;
            this.inline = inline;
        }

        void open(boolean create) {
            if (inline) {
                System.setProperty("tetradb.feed.versionImages", "false");
            } else {
                System.clearProperty("tetradb.feed.versionImages");
            }
            try {
                client = new CosmosClientBuilder().dataDirectory(dir.resolve(name)).clock(clock).buildClient();
                clients.add(client);
                if (create) {
                    client.createDatabaseIfNotExists("db");
                    CosmosContainerProperties p = new CosmosContainerProperties("c", "/pk")
                            .setDefaultTimeToLiveInSeconds(-1); // TTL on, items without a ttl never expire
                    p.setChangeFeedPolicy(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(RETENTION));
                    // four physical partitions: four feed ranges
                    client.getDatabase("db").createContainer(p, ThroughputProperties.createManualThroughput(40_000));
                }
                container = client.getDatabase("db").getContainer("c");
                store().changeFeed(); // the container and its feed opened while the switch is set (read per open)
            } finally {
                System.clearProperty("tetradb.feed.versionImages");
            }
        }

        void crash() {
            clients.remove(client);
            client.close();
            open(false);
        }

        ContainerStore store() {
            return client.coreStore().container("db", "c");
        }

        ChangeFeed feed() {
            return store().changeFeed();
        }

        FeedPruner pruner() {
            return client.coreStore().changeFeeds().pruner();
        }

        /** Notes the commit times of the records the last step wrote. */
        void noteStep() {
            long first = -1;
            long last = -1;
            long at = readUpTo;
            while (true) {
                ChangeFeedPage p = feed().read(new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null,
                        null, at, 0, 1000));
                for (ChangeFeedPage.Change ch : p.changes()) {
                    long crts = ch.record().crtsMillis();
                    first = first < 0 ? crts : Math.min(first, crts);
                    last = Math.max(last, crts);
                }
                at = p.continuation();
                if (p.caughtUp()) {
                    break;
                }
            }
            readUpTo = at;
            stepCrts.add(first < 0 ? null : new long[]{first, last});
        }

        /** The last commit time of steps up to {@code step}, if every later step committed strictly after it. */
        long cutAfter(int step) {
            long before = Long.MIN_VALUE;
            for (int s = 0; s <= step; s++) {
                if (stepCrts.get(s) != null) {
                    before = Math.max(before, stepCrts.get(s)[1]);
                }
            }
            for (int s = step + 1; s < stepCrts.size(); s++) {
                if (stepCrts.get(s) != null && stepCrts.get(s)[0] <= before) {
                    return Long.MIN_VALUE; // the two steps' records share a millisecond: no time lies between
                }
            }
            return before;
        }

        /** The bytes of the container's FEED keys and values (records, partition index, version images, policy). */
        long feedBytes() {
            long n = 0;
            int collId = feed().collId();
            try (KeyCursor c = client.coreStore().changeFeeds().engine().cursor(Space.FEED,
                    java.nio.ByteBuffer.allocate(4).putInt(collId).array(),
                    java.nio.ByteBuffer.allocate(4).putInt(collId + 1).array(), false)) {
                while (c.next()) {
                    n += c.key().length + c.value().length;
                }
            }
            return n;
        }

        long versionImageKeys() {
            long n = 0;
            int collId = feed().collId();
            try (KeyCursor c = client.coreStore().changeFeeds().engine().cursor(Space.FEED,
                    FeedKeys.versionImages(collId), FeedKeys.versionImagesEnd(collId), false)) {
                while (c.next()) {
                    n++;
                }
            }
            return n;
        }

        /** The stored records as written (images not resolved). */
        List<ChangeRecord> rawRecords() {
            List<ChangeRecord> out = new ArrayList<>();
            int collId = feed().collId();
            try (KeyCursor c = client.coreStore().changeFeeds().engine().cursor(Space.FEED,
                    FeedKeys.record(collId, 0), FeedKeys.record(collId, Long.MAX_VALUE), false)) {
                while (c.next()) {
                    out.addAll(ChangeRuns.decode(FeedKeys.seqOf(c.key()), c.value()));
                }
            }
            return out;
        }
    }

    /** One random step, applied alike to both stores. */
    interface Step {
        void apply(Side side);
    }

    static ObjectNode item(String id, String pk, int v, Integer ttl) {
        ObjectNode n = M.createObjectNode().put("id", id).put("pk", pk).put("v", v).put("fill", "f".repeat(v % 240));
        if (ttl != null) {
            n.put("ttl", ttl);
        }
        return n;
    }

    @Test
    void versionImagesReadAsInlineImagesInEveryScopeThroughWritesPurgesPrunesAndReopens() {
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
            System.out.println("FeedImagesPropertyTest seed " + seed + " (" + STEPS + " steps)");
            run(seed);
        }
    }

    void run(long seed) {
        clients.forEach(CosmosClient::close);
        clients.clear();
        Side a = new Side("inline-" + seed, true);
        Side b = new Side("images-" + seed, false);
        a.open(true);
        b.open(true);
        Random random = new Random(seed);
        int lastCut = -1;
        int creates = 0;
        int supersedes = 0;
        int pruned = 0;
        int purges = 0;
        int reopens = 0;
        for (int step = 0; step < STEPS; step++) {
            String at = "seed " + seed + " step " + step;
            int kind = random.nextInt(40);
            String pk = KEYS.get(random.nextInt(KEYS.size()));
            String id = "i" + random.nextInt(IDS);
            int v = random.nextInt(1000);
            Integer ttl = pk.equals(TTL_KEY) && random.nextBoolean() ? 1 + random.nextInt(20) : null;
            String what;
            if (kind < 6) {
                what = "create " + pk + "/" + id;
                apply(a, b, s -> s.container.createItem(item(id, pk, v, ttl)));
            } else if (kind < 13) {
                what = "upsert " + pk + "/" + id;
                apply(a, b, s -> s.container.upsertItem(item(id, pk, v, ttl)));
            } else if (kind < 17) {
                what = "replace " + pk + "/" + id;
                apply(a, b, s -> s.container.replaceItem(item(id, pk, v, ttl), id, new PartitionKey(pk), null));
            } else if (kind < 22) {
                what = "delete " + pk + "/" + id;
                apply(a, b, s -> s.container.deleteItem(id, new PartitionKey(pk), null));
            } else if (kind < 31) {
                // a transactional batch over three ids of one partition, each touched up to several times
                int n = 2 + random.nextInt(5);
                List<String> ops = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ops.add(random.nextInt(4) + " i" + random.nextInt(3) + " " + random.nextInt(1000));
                }
                what = "batch " + pk + " " + ops;
                apply(a, b, s -> {
                    CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
                    for (String op : ops) {
                        String[] f = op.split(" ");
                        int value = Integer.parseInt(f[2]);
                        Integer itemTtl = pk.equals(TTL_KEY) && value % 3 == 0 ? 1 + value % 20 : null;
                        switch (f[0]) {
                            case "0" -> batch.createItemOperation(item(f[1], pk, value, itemTtl));
                            case "1" -> batch.upsertItemOperation(item(f[1], pk, value, itemTtl));
                            case "2" -> batch.replaceItemOperation(f[1], item(f[1], pk, value, itemTtl));
                            default -> batch.deleteItemOperation(f[1]);
                        }
                    }
                    s.container.executeCosmosBatch(batch); // fails as a whole in both stores alike
                });
            } else if (kind < 34) {
                what = "ttl purge";
                for (Side s : List.of(a, b)) {
                    s.clock.advance(Duration.ofSeconds(8));
                    s.client.coreStore().ttlPurger().purgeNow();
                }
                purges++;
            } else if (kind < 39) {
                // a pass at a time between two steps' commit times in both stores: out of the retention up to the cut
                int cut = -1;
                for (int tries = 0; tries < 5 && cut < 0 && step > lastCut + 1; tries++) {
                    int candidate = lastCut + 1 + random.nextInt(step - lastCut - 1);
                    if (a.cutAfter(candidate) != Long.MIN_VALUE && b.cutAfter(candidate) != Long.MIN_VALUE) {
                        cut = candidate;
                    }
                }
                if (cut < 0) {
                    what = "prune skipped (no time between two steps in both stores)";
                } else {
                    long removedA = a.pruner().pruneOnce(a.cutAfter(cut) + 1 + RETENTION.toMillis());
                    long removedB = b.pruner().pruneOnce(b.cutAfter(cut) + 1 + RETENTION.toMillis());
                    what = "prune after step " + cut + ": " + removedA + " / " + removedB;
                    assertEquals(removedA, removedB, at + ": the pruner removes the same records from both layouts");
                    lastCut = cut;
                    pruned += (int) removedA;
                }
            } else {
                what = "reopen";
                a.crash();
                b.crash();
                reopens++;
            }
            a.noteStep();
            b.noteStep();
            check(a, b, random, at + " (" + what + ")");
        }
        for (ChangeRecord r : b.rawRecords()) {
            creates += r.operationType() == ChangeRecord.OperationType.CREATE ? 1 : 0;
            supersedes += r.previousAtLsn() ? 1 : 0;
        }
        System.out.println("FeedImagesPropertyTest seed " + seed + ": " + pruned + " records pruned, " + purges
                + " purges, " + reopens + " reopens; at the end " + creates + " create records, " + supersedes
                + " with a version image, FEED bytes " + a.feedBytes() + " inline / " + b.feedBytes() + " images");
        assertTrue(pruned > 0 && supersedes > 0, "seed " + seed + ": the run pruned and kept version images");
    }

    static void apply(Side a, Side b, Step step) {
        RuntimeException failedA = null;
        RuntimeException failedB = null;
        try {
            step.apply(a);
        } catch (RuntimeException e) {
            failedA = e; // 404, 409, 412: the same in both stores
        }
        try {
            step.apply(b);
        } catch (RuntimeException e) {
            failedB = e;
        }
        assertEquals(failedA == null ? null : failedA.getClass().getSimpleName() + " " + status(failedA),
                failedB == null ? null : failedB.getClass().getSimpleName() + " " + status(failedB),
                "the step fails alike in both stores");
    }

    static String status(RuntimeException e) {
        return e instanceof io.tetradb.document.CosmosException c ? Integer.toString(c.getStatusCode()) : e.getMessage();
    }

    void check(Side a, Side b, Random random, String at) {
        assertEquals(a.feed().currentPosition(), b.feed().currentPosition(), at + ": the same feed positions");
        long end = a.feed().currentPosition();
        List<EpkRange> ranges = a.store().partitionMap().partitions().stream().map(p -> p.range()).toList();
        assertEquals(ranges, b.store().partitionMap().partitions().stream().map(p -> p.range()).toList(), at);
        List<Long> starts = new ArrayList<>(List.of(0L));
        for (int i = 0; i < 3; i++) {
            starts.add(end == 0 ? 0 : (long) random.nextInt((int) end + 1));
        }
        for (long from : starts) {
            assertEquals(pages(a, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, null, from),
                    pages(b, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, null, from),
                    at + ": all versions of the container from " + from);
            assertEquals(pages(a, ChangeFeedMode.LATEST_VERSION, null, null, from),
                    pages(b, ChangeFeedMode.LATEST_VERSION, null, null, from),
                    at + ": latest versions of the container from " + from);
        }
        long from = starts.get(1 + random.nextInt(3));
        for (String pk : KEYS) {
            PartitionKeyValue key = PartitionKeyValue.of(List.of(PartitionKeyValue.component(pk)));
            for (long f : List.of(0L, from)) {
                assertEquals(pages(a, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, key, f),
                        pages(b, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, key, f),
                        at + ": all versions of " + pk + " from " + f);
            }
        }
        for (EpkRange range : ranges) {
            for (long f : List.of(0L, from)) {
                assertEquals(pages(a, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, range, null, f),
                        pages(b, ChangeFeedMode.ALL_VERSIONS_AND_DELETES, range, null, f),
                        at + ": all versions of " + range + " from " + f);
            }
        }
        ChangeFeed.ImageCheck images = b.feed().checkImages();
        assertTrue(images.clean(), at + ": " + images);
        assertTrue(a.feed().checkImages().clean(), at + ": inline " + a.feed().checkImages());
        long bytesA = a.feedBytes();
        long bytesB = b.feedBytes();
        assertTrue(bytesB <= bytesA, at + ": FEED bytes with version images " + bytesB + " > inline " + bytesA);
        // the two stores really differ: A's records carry their images, B's refer to them
        assertEquals(0, a.versionImageKeys(), at + ": the inline store wrote a version image");
        for (ChangeRecord r : a.rawRecords()) {
            assertTrue(!r.currentAtLsn() && !r.previousAtLsn(), at + ": inline " + r);
            if (r.operationType() != ChangeRecord.OperationType.DELETE) {
                assertNotNull(r.current(), at + ": inline record without its image " + r);
            }
        }
        for (ChangeRecord r : b.rawRecords()) {
            assertNull(r.current(), at + ": an image in a record of the version-image store " + r);
            assertNull(r.previous(), at + ": an image in a record of the version-image store " + r);
            assertEquals(r.operationType() != ChangeRecord.OperationType.DELETE, r.currentAtLsn(), at + " " + r);
            assertEquals(r.operationType() != ChangeRecord.OperationType.CREATE, r.previousAtLsn(), at + " " + r);
        }
    }

    /** Every page of 7 from {@code from} until caught up: its changes as JSON without the commit time, then its end. */
    static List<String> pages(Side side, ChangeFeedMode mode, EpkRange range, PartitionKeyValue key, long from) {
        List<String> out = new ArrayList<>();
        long position = from;
        for (int n = 0; ; n++) {
            ChangeFeedPage p = side.feed().read(new ChangeFeedRequest(mode, range, key, position, 0, 7));
            for (ChangeFeedPage.Change ch : p.changes()) {
                ObjectNode json = mode == ChangeFeedMode.LATEST_VERSION ? ChangeFeedJson.latestVersion(M, ch)
                        : ChangeFeedJson.allVersions(M, ch, DEFINITION);
                if (json.get("metadata") instanceof ObjectNode meta) {
                    meta.remove("crts"); // the two stores' wall clocks
                }
                out.add(json.toString());
            }
            out.add("-- page " + n + " ends at " + p.continuation());
            position = p.continuation();
            if (p.caughtUp()) {
                return out;
            }
        }
    }
}
