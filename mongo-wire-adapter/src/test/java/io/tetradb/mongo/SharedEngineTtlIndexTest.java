package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.document.CosmosClient;
import io.tetradb.testing.TestTime;
import org.bson.Document;
import io.tetradb.core.ttl.ExpiryRule;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TTL indexes on a shared engine (issue 20): two Mongo-face servers on one shared store (an embedded directory
 * presented as shared, as a Cassandra keyspace is to several servers) and one clock the test moves, the MongoDB Java
 * driver on each. A TTL index created on one server expires documents written through both, on both (hidden at once,
 * purged by the servers' purgers through the contracts); {@code collMod} of its seconds on the other server moves the
 * expiry of stored documents; dropped, documents no longer expire on either server.
 */
class SharedEngineTtlIndexTest {
    @TempDir
    Path dir;
    private final Instant t0 = Instant.parse("2026-05-01T12:00:00Z");
    private final ManualClock clock = new ManualClock(t0);
    private MongoServersOnSharedStore servers;

    @BeforeEach
    void start() {
        servers = new MongoServersOnSharedStore(dir, clock, 2);
    }

    @AfterEach
    void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    private Date at(long seconds) {
        return Date.from(t0.plusSeconds(seconds));
    }

    /** {@code read}'s value once it equals {@code expected}, or its last one after 15 s (another server's catalog). */
    private static <T> T eventually(Supplier<T> read, T expected) {
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(15)).toNanos();
        T last = read.get();
        while (!last.equals(expected) && System.nanoTime() < until) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            last = read.get();
        }
        return last;
    }

    /** Both servers purge now; the total either purged since they opened. */
    private long purged() {
        servers.get(0).store.coreStore().ttlPurger().purgeNow();
        servers.get(1).store.coreStore().ttlPurger().purgeNow();
        return servers.get(0).store.coreStore().ttlPurger().purgedTotal()
                + servers.get(1).store.coreStore().ttlPurger().purgedTotal();
    }

    @Test
    void aTtlIndexMadeOnOneServerExpiresDocumentsOnBothAndFollowsCollModAndDrop() {
        MongoCollection<Document> onA = servers.get(0).coll("ttl", "sessions");
        MongoCollection<Document> onB = servers.get(1).coll("ttl", "sessions");
        for (int i = 0; i < 10; i++) {
            (i % 2 == 0 ? onA : onB).insertOne(new Document("_id", i).append("at", at(i)));
        }
        onB.insertOne(new Document("_id", "text").append("at", "not a date")); // never expires
        onA.createIndex(new Document("at", 1), new IndexOptions().expireAfter(60L, TimeUnit.SECONDS));
        assertEquals(List.of(60), eventually(() -> {
            List<Integer> s = new ArrayList<>();
            onB.listIndexes().forEach(d -> {
                if (d.containsKey("expireAfterSeconds")) {
                    s.add(((Number) d.get("expireAfterSeconds")).intValue());
                }
            });
            return s;
        }, List.of(60)));

        clock.advance(Duration.ofSeconds(65)); // documents 0..5 are past their date + 60 s
        assertEquals(5L, (long) eventually(() -> onB.countDocuments(), 5L), "hidden at once on the other server");
        assertEquals(5L, onA.countDocuments());
        assertEquals(6L, (long) eventually(this::purged, 6L), "purged once, by either server's purger");

        // collMod on the other server: the stored documents' expiry follows the new seconds
        Document reply = servers.get(1).client.getDatabase("ttl").runCommand(new Document("collMod", "sessions")
                .append("index", new Document("name", "at_1").append("expireAfterSeconds", 3600)));
        assertEquals(60, ((Number) reply.get("expireAfterSeconds_old")).intValue());
        // the clock moves only once both servers follow the new seconds: until its catalog check, a server keeps
        // expiring by the rule it has (documented: up to one catalog interval), and its purger would act on it
        for (int i = 0; i < 2; i++) {
            MongoServersOnSharedStore.Server s = servers.get(i);
            assertEquals(List.of(3600L), eventually(() -> s.store.coreStore().container("ttl", "sessions").expiryRule()
                    .dateFields().stream().map(ExpiryRule.DateField::seconds).toList(), List.of(3600L)));
        }
        onA.insertOne(new Document("_id", "new").append("at", at(65)));
        clock.advance(Duration.ofSeconds(600));
        assertEquals(6L, (long) eventually(() -> onA.countDocuments(), 6L), "kept: 3600 s now");
        clock.advance(Duration.ofSeconds(3600));
        assertEquals(1L, (long) eventually(() -> onA.countDocuments(), 1L), "all dated ones past 3600 s");
        // hidden is not yet purged: the drop below would show what the purgers had not removed yet
        assertEquals(11L, (long) eventually(this::purged, 11L), "0..9 and 'new' purged, once each");

        // dropped on one server: once the other's catalog check has seen it, documents expire on neither
        onA.dropIndex("at_1");
        assertEquals(false, eventually(() -> servers.get(1).store.coreStore().container("ttl", "sessions").expiryRule()
                .active(), false));
        onB.insertOne(new Document("_id", "after").append("at", at(0)));
        clock.advance(Duration.ofDays(30));
        assertEquals(2L, onB.countDocuments());
        assertEquals(2L, onA.countDocuments());
    }
}
