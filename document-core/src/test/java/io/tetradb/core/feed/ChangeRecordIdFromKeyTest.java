package io.tetradb.core.feed;

import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * pw-next: a point write's change record takes its id's bytes from the item key ({@code collId · EPK · pk · id})
 * instead of encoding the id again, and is encoded without a numbered copy; the stored value must stay byte for byte
 * {@link ChangeRecord#encode()}'s, for ids whose UTF-8 is longer than their chars and partition keys of any length
 * (the id's offset in the key moves with them).
 */
class ChangeRecordIdFromKeyTest extends ManualPrunerStores {
    private static final String[] PARTS = {"a", "~n12", "é", "日本", "\uD83D\uDE00", "x-y"};

    @Test
    void theValueFromTheKeysIdBytesIsTheRecordsOwnEncoding() {
        Random random = new Random(29);
        ChangeRecord.OperationType[] types = ChangeRecord.OperationType.values();
        for (int round = 0; round < 500; round++) {
            byte[] lp = new byte[1 + random.nextInt(60)];
            random.nextBytes(lp);
            String id = id(random);
            byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
            byte[] key = ByteBuffer.allocate(4 + lp.length + idBytes.length).putInt(random.nextInt()).put(lp)
                    .put(idBytes).array();
            ChangeRecord r = new ChangeRecord(0, types[random.nextInt(types.length)], random.nextLong(),
                    random.nextLong(), 0, random.nextBoolean(), lp, id,
                    random.nextBoolean() ? null : new byte[random.nextInt(300)], null, random.nextInt(3) * 8);
            long crts = random.nextLong();
            assertArrayEquals(r.numbered(7, crts).encode(),
                    r.encode(crts, key, 4 + lp.length, idBytes.length), "round " + round + ", id " + id);
        }
    }

    @Test
    void pointWritesStoreRecordsThatDecodeToTheirIdsAndEncodeBackToTheSameBytes() {
        ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
        for (boolean allVersions : new boolean[]{false, true}) {
            try (CoreStore s = openCore("core-" + allVersions, clock)) {
                s.createDatabase("db", null);
                ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null,
                        null);
                if (allVersions) {
                    c.changeFeed().setPolicy(new ChangeFeedPolicy(java.time.Duration.ofMinutes(1)));
                }
                Random random = new Random(allVersions ? 3 : 4);
                List<String> ids = new ArrayList<>();
                List<String> pks = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    String id = id(random) + i;
                    String pk = "p" + "日".repeat(random.nextInt(5)) + "x".repeat(random.nextInt(40));
                    PartitionKeyValue v = PartitionKeyValue.of(M.getNodeFactory().textNode(pk));
                    // a create, a replace, and every third item a delete: one record each, one point write each
                    c.execute(v, ItemOperation.create(M.createObjectNode().put("id", id).put("pk", pk).put("n", i)));
                    c.execute(v, ItemOperation.upsert(M.createObjectNode().put("id", id).put("pk", pk).put("n", -i),
                            null));
                    ids.add(id);
                    ids.add(id);
                    pks.add(pk);
                    pks.add(pk);
                    if (i % 3 == 0) {
                        c.execute(v, ItemOperation.delete(id, null));
                        ids.add(id);
                        pks.add(pk);
                    }
                }
                List<byte[]> values = FeedImagesTest.recordValues(s, c);
                assertEquals(ids.size(), values.size());
                for (int i = 0; i < values.size(); i++) {
                    ChangeRecord r = ChangeRecord.decode(i, values.get(i));
                    assertEquals(ids.get(i), r.id(), "record " + i);
                    assertArrayEquals(FeedImagesTest.lp(PartitionKeyValue.of(M.getNodeFactory().textNode(pks.get(i)))),
                            r.logicalPartition(), "record " + i);
                    assertArrayEquals(values.get(i), r.encode(), "record " + i);
                }
            }
        }
    }

    /** Ids with multi-byte UTF-8 (their byte length differs from their char length) and surrogate pairs. */
    private static String id(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(6); i >= 0; i--) {
            sb.append(PARTS[random.nextInt(PARTS.length)]);
        }
        return sb.toString();
    }
}
