package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The purger against the store itself: flagged change records, index consistency, and purging under write load. */
class TtlPurgeTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

    private CoreStore open() {
        return CoreStore.open(StoreConfig.defaults(dir).withClock(clock));
    }

    private static ObjectNode item(String id, String pk) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("v", id.hashCode());
    }

    static long expiryEntries(CoreStore s, ContainerStore c) { // also OpenTransactionUndoTest
        long[] n = {0};
        byte[] p = ExpiryIndex.prefix(c.collId());
        s.engine().scan(Space.META, p, Keys.prefixEnd(p), kv -> ++n[0] > 0);
        return n[0];
    }

    @Test
    void purgedDeletesAreFlaggedInTheChangeFeedAndLeaveNoIndexBehind() throws InterruptedException {
        try (CoreStore s = open()) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, 5, null, null);
            c.changeFeed().setPolicy(new io.tetradb.core.feed.ChangeFeedPolicy(Duration.ofHours(1)));
            PartitionKeyValue pk = PartitionKeyValue.of(M.getNodeFactory().textNode("a"));
            c.execute(pk, ItemOperation.create(item("x", "a")));
            c.execute(pk, ItemOperation.create(item("y", "a")));
            c.execute(pk, ItemOperation.delete("y", null));
            assertEquals(1, expiryEntries(s, c));
            clock.advance(Duration.ofSeconds(5));
            s.ttlPurger().purgeNow();
            assertEquals(1, s.ttlPurger().awaitPurgedTotal(1, TestTime.patience(Duration.ofSeconds(30))));
            assertEquals(0, expiryEntries(s, c));
            assertTrue(c.checkIndexes().consistent());
            byte[] coll = Keys.collId(c.collId());
            List<io.tetradb.core.feed.ChangeRecord> deletes = new ArrayList<>();
            for (io.tetradb.core.feed.ChangeFeedPage.Change ch : c.changeFeed().read(
                    new io.tetradb.core.feed.ChangeFeedRequest(io.tetradb.core.feed.ChangeFeedMode.ALL_VERSIONS_AND_DELETES,
                            null, null, 0, 0, 100)).changes()) {
                if (ch.record().operationType() == io.tetradb.core.feed.ChangeRecord.OperationType.DELETE) {
                    deletes.add(ch.record());
                }
            }
            assertEquals(2, deletes.size(), "one tombstone per deleted item");
            int flagged = 0;
            for (io.tetradb.core.feed.ChangeRecord r : deletes) {
                flagged += r.ttlExpired() ? 1 : 0;
            }
            assertEquals(1, flagged, "only the purger's delete says timeToLiveExpired");
            assertNull(s.engine().get(Space.DOCS, Keys.concat(coll, pk.epk(), pk.encoded(), Keys.utf8("x"))));
        }
    }

    @Test
    void theBackgroundPurgerKeepsUpWhileWritersWrite() throws Exception {
        int expired = 20_000;
        try (CoreStore s = open()) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, 60, null, null);
            for (int b = 0; b < expired / 100; b++) {
                String p = "p" + (b % 50);
                PartitionKeyValue pk = PartitionKeyValue.of(M.getNodeFactory().textNode(p));
                List<ItemOperation> ops = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    ops.add(ItemOperation.create(item("old" + b + "-" + i, p)));
                }
                c.executeBatch(pk, ops);
            }
            clock.advance(Duration.ofSeconds(61)); // every item above has expired; the writers' items live 60 s more
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong written = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; !stop.get(); i++) {
                            String p = "p" + (i % 50);
                            c.execute(PartitionKeyValue.of(M.getNodeFactory().textNode(p)),
                                    ItemOperation.create(item("new" + writer + "-" + i, p)));
                            written.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
                t.start();
                writers.add(t);
            }
            s.ttlPurger().awaitPurgedTotal(expired, TestTime.patience(Duration.ofSeconds(120)));
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            assertNull(failure.get());
            assertEquals(expired, s.ttlPurger().purgedTotal(), "every expired item purged, nothing else");
            assertTrue(written.get() > 0);
            long left = c.query(io.tetradb.core.query.sql.SqlParser.parse("SELECT VALUE COUNT(1) FROM c"), null, null,
                    java.util.Map.of()).results().get(0).asLong();
            assertEquals(written.get(), left, "the writers' items all stay");
            assertEquals(written.get(), expiryEntries(s, c));
            assertTrue(c.checkIndexes().consistent());
        }
    }

    @Test
    void withoutIndexingThePurgeTrustsTheExpiryEntryAndSparesRewrittenItems() throws Exception {
        try (CoreStore s = open()) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"),
                    M.readTree("{\"indexingMode\": \"none\", \"automatic\": false}"), 10, null, null);
            for (int b = 0; b < 30; b++) {
                String p = "p" + (b % 7);
                List<ItemOperation> ops = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    ops.add(ItemOperation.create(item("i" + b + "-" + i, p)));
                }
                c.executeBatch(PartitionKeyValue.of(M.getNodeFactory().textNode(p)), ops);
            }
            clock.advance(Duration.ofSeconds(8));
            // rewritten items start their time to live again: their expiry entries move in their own write
            for (int i = 0; i < 100; i++) {
                c.execute(PartitionKeyValue.of(M.getNodeFactory().textNode("p0")),
                        ItemOperation.upsert(item("i0-" + i, "p0"), null));
            }
            clock.advance(Duration.ofSeconds(3));
            s.ttlPurger().purgeNow(); // the background purger may take part of them meanwhile: count both
            assertEquals(2900, s.ttlPurger().awaitPurgedTotal(2900, TestTime.patience(Duration.ofSeconds(30))));
            assertEquals(100, expiryEntries(s, c));
            assertEquals(100, c.query(io.tetradb.core.query.sql.SqlParser.parse("SELECT VALUE COUNT(1) FROM c"),
                    null, null, java.util.Map.of()).results().get(0).asLong());
            clock.advance(Duration.ofSeconds(10));
            s.ttlPurger().purgeNow();
            assertEquals(3000, s.ttlPurger().awaitPurgedTotal(3000, TestTime.patience(Duration.ofSeconds(30))));
            assertEquals(0, expiryEntries(s, c));
            assertTrue(c.checkIndexes().consistent());
        }
    }
}
