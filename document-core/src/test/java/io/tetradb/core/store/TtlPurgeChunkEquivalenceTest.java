package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.feed.ChangeFeedPolicy;
import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lean TTL purge ({@link TtlPurgeChunk}) against the general delete transaction: two stores get the same random
 * items and writes, one purges through the fast path, the other through the general transaction, and every key space
 * must end byte for byte equal (change records too, but for their commit time), as must the partition statistics.
 */
class TtlPurgeChunkEquivalenceTest {
    static final ObjectMapper M = new ObjectMapper();
    static final HexFormat HEX = HexFormat.of();
    @TempDir
    Path dirFast;
    @TempDir
    Path dirGeneral;

    @Test
    void fastPurgeWritesExactlyWhatTheGeneralDeleteWrites() throws Exception {
        for (boolean withUniqueKeys : new boolean[]{true, false}) {
            Path f = dirFast.resolve("u" + withUniqueKeys);
            Path g = dirGeneral.resolve("u" + withUniqueKeys);
            ManualClock clockF = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
            ManualClock clockG = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
            try (CoreStore fast = CoreStore.open(StoreConfig.defaults(f).withClock(clockF));
                 CoreStore general = CoreStore.open(StoreConfig.defaults(g).withClock(clockG))) {
                fast.ttlPurger().stop(); // purged below in the test's thread: the same order in both stores
                general.ttlPurger().stop();
                general.ttlPurger().fastPath(false);
                ContainerStore cf = setUp(fast, withUniqueKeys);
                ContainerStore cg = setUp(general, withUniqueKeys);
                Random rnd = new Random(withUniqueKeys ? 15 : 16);
                long purged = 0;
                for (int step = 0; step < 4; step++) {
                    long seed = rnd.nextLong();
                    write(cf, new Random(seed), step);
                    write(cg, new Random(seed), step);
                    if (step == 1) { // entries that point at no item or at the wrong time (as a crash of an older
                        staleEntries(fast, cf, clockF.millis()); // version could leave): both purges drop them
                        staleEntries(general, cg, clockG.millis());
                    }
                    Duration by = Duration.ofSeconds(2 + rnd.nextInt(6));
                    clockF.advance(by);
                    clockG.advance(by);
                    long fastPurged0 = fast.ttlPurger().fastPurged();
                    long nf = fast.ttlPurger().purgeNow();
                    long ng = general.ttlPurger().purgeNow();
                    assertEquals(ng, nf, "items purged at step " + step);
                    assertEquals(nf, fast.ttlPurger().fastPurged() - fastPurged0, "every purge took the fast path");
                    assertEquals(0, general.ttlPurger().fastPurged());
                    purged += nf;
                    assertSameKeySpaces(fast, general);
                    assertEquals(statistics(cg), statistics(cf));
                }
                assertTrue(purged > 300, "the test purged something: " + purged);
                assertTrue(cf.checkIndexes().consistent());
            }
        }
    }

    private static void staleEntries(CoreStore s, ContainerStore c, long now) {
        io.tetradb.core.storage.WriteSet ws = new io.tetradb.core.storage.WriteSet();
        for (int p = 0; p < 7; p++) {
            PartitionKeyValue pk = PartitionKeyValue.of(M.getNodeFactory().textNode("p" + p));
            for (String id : List.of("i" + (p * 13), "none" + p)) {
                byte[] docKey = Keys.concat(Keys.collId(c.collId()), pk.epk(), pk.encoded(), Keys.utf8(id));
                ws.put(Space.META, ExpiryIndex.key(docKey, now - 500), new byte[0]);
            }
        }
        s.engine().apply(ws);
    }

    private static ContainerStore setUp(CoreStore s, boolean withUniqueKeys) throws Exception {
        s.createDatabase("db", null);
        JsonNode policy = M.readTree("{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],"
                + "\"compositeIndexes\":[[{\"path\":\"/n\",\"order\":\"ascending\"},"
                + "{\"path\":\"/s\",\"order\":\"descending\"}]]}");
        JsonNode unique = withUniqueKeys ? M.readTree("{\"uniqueKeys\":[{\"paths\":[\"/email\"]},"
                + "{\"paths\":[\"/first\",\"/last\"]}]}") : null;
        ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), policy, 10, null, unique);
        c.changeFeed().setPolicy(new ChangeFeedPolicy(Duration.ofHours(1))); // all versions: records keep images
        c.setDateFieldExpiry("at_1", List.of("at"), 3L); // a MongoDB-style TTL index beside the default TTL
        return c;
    }

    /** Random items in a few partitions: creates, replaces (their expiry moves), deletes, items that never expire. */
    private static void write(ContainerStore c, Random rnd, int step) {
        for (int i = 0; i < 300; i++) {
            String p = "p" + rnd.nextInt(7);
            PartitionKeyValue pk = PartitionKeyValue.of(M.getNodeFactory().textNode(p));
            String id = "i" + rnd.nextInt(400);
            int op = rnd.nextInt(10);
            try {
                if (op == 0) {
                    c.execute(pk, ItemOperation.delete(id, null));
                } else {
                    c.execute(pk, ItemOperation.upsert(item(id, p, rnd, step), null));
                }
            } catch (io.tetradb.core.StoreException e) {
                // 404 on a delete, 409 on a unique value another item holds: the same in both stores
            }
        }
    }

    private static ObjectNode item(String id, String pk, Random rnd, int step) {
        ObjectNode o = M.createObjectNode().put("id", id).put("pk", pk).put("n", rnd.nextInt(50));
        o.put("s", rnd.nextBoolean() ? "short" + rnd.nextInt(9) : "L".repeat(250 + rnd.nextInt(30)) + rnd.nextInt(9));
        switch (rnd.nextInt(4)) {
            case 0 -> o.put("ttl", -1); // never expires
            case 1 -> o.put("ttl", 1 + rnd.nextInt(8));
            default -> { } // the container's default
        }
        if (rnd.nextInt(3) == 0) {
            o.putObject("at").put("$date", Instant.parse("2026-03-01T00:00:00Z").toEpochMilli()
                    + 1000L * (step * 3 + rnd.nextInt(6)));
        }
        ArrayNode tags = o.putArray("tags");
        for (int t = rnd.nextInt(4); t > 0; t--) {
            tags.add("t" + rnd.nextInt(3)); // repeated values repeat their entry
        }
        o.putObject("nested").put("x", rnd.nextDouble()).putNull("z").put("b", rnd.nextBoolean());
        if (rnd.nextBoolean()) {
            o.put("email", "e" + rnd.nextInt(2000) + "@x");
        }
        o.put("first", "f" + rnd.nextInt(40)).put("last", "l" + rnd.nextInt(40));
        return o;
    }

    private static void assertSameKeySpaces(CoreStore fast, CoreStore general) {
        for (Space space : List.of(Space.DOCS, Space.INDEX, Space.META, Space.ADJACENCY, Space.FEED)) {
            List<String> f = dump(fast, space, space == Space.FEED);
            List<String> g = dump(general, space, space == Space.FEED);
            List<String> onlyFast = new ArrayList<>(f);
            onlyFast.removeAll(g);
            List<String> onlyGeneral = new ArrayList<>(g);
            onlyGeneral.removeAll(f);
            assertEquals(List.of(), onlyFast.subList(0, Math.min(5, onlyFast.size())), "space " + space
                    + ": keys only the fast purge left; only the general one: "
                    + onlyGeneral.subList(0, Math.min(5, onlyGeneral.size())));
            assertEquals(List.of(), onlyGeneral.subList(0, Math.min(5, onlyGeneral.size())), "space " + space);
            assertEquals(g, f, "space " + space);
        }
    }

    /** Every key and value of a space as hex lines; change records decoded without their commit time. */
    private static List<String> dump(CoreStore s, Space space, boolean records) {
        List<String> out = new ArrayList<>();
        s.engine().scan(space, new byte[0], new byte[]{(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
                kv -> {
                    byte[] k = kv.key();
                    if (space == Space.META && (k[0] == 0x01 || k[0] == 0x02)) {
                        return true; // database and container definitions: their _ts is the wall clock's at creation
                    }
                    if (records && k.length == 13 && k[4] == 'S') {
                        ChangeRecord r = ChangeRecord.decode(ByteBuffer.wrap(k, 5, 8).getLong(), kv.value());
                        out.add(HEX.formatHex(k) + " " + r.operationType() + " lsn=" + r.lsn() + " prev="
                                + r.previousLsn() + " ttl=" + r.ttlExpired() + " lp=" + HEX.formatHex(r.logicalPartition())
                                + " id=" + r.id() + " cur=" + (r.current() == null ? "-" : HEX.formatHex(r.current()))
                                + " old=" + (r.previous() == null ? "-" : HEX.formatHex(r.previous())));
                    } else {
                        out.add(HEX.formatHex(k) + " -> " + HEX.formatHex(kv.value()));
                    }
                    return true;
                });
        return out;
    }

    private static List<String> statistics(ContainerStore c) {
        List<String> out = new ArrayList<>();
        for (PartitionStatistics.Physical p : c.statistics().physicalPartitions()) {
            out.add(p.id() + " " + p.bytes() + " " + p.itemCount() + " " + p.logicalPartitionCount() + " " + p.largestLogicalPartitions());
        }
        return out;
    }
}
