package io.tetradb.core.feed;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * feed-images (docs/feed-images.md §2.1): a record refers to its images by two flag bits instead of holding them, in
 * the same format byte; old records (images inline) decode as before; the version-image key a record owns is read
 * from its value at fixed offsets and from a run's removed members.
 */
class ChangeRecordImageRefsTest {
    static final byte[] LP = {3, 1, 4, 1, 5, 9, 2, 6, 'p', 'k'};

    static ChangeRecord record(ChangeRecord.OperationType type, byte[] current, byte[] previous, int refs) {
        return new ChangeRecord(42, type, 7, 6, 1_700_000_000_000L, false, LP, "doc-é", current, previous, refs);
    }

    @Test
    void referencesAreTwoFlagBitsWithNoImageBytes() {
        int both = ChangeRecord.CURRENT_AT_LSN | ChangeRecord.PREVIOUS_AT_LSN;
        ChangeRecord r = record(ChangeRecord.OperationType.REPLACE, null, null, both);
        byte[] value = r.encode();
        int idLength = "doc-é".getBytes(StandardCharsets.UTF_8).length;
        assertEquals(3 + 8 * 3 + 2 + LP.length + 2 + idLength, value.length, "header + lp + id, no image bytes");
        assertEquals(1, value[0], "format byte unchanged");
        assertEquals(both, value[2], "the flags byte carries the two bits");
        ChangeRecord back = ChangeRecord.decode(42, value);
        assertTrue(back.currentAtLsn());
        assertTrue(back.previousAtLsn());
        assertNull(back.current());
        assertNull(back.previous());
        assertEquals(both, back.imageRefs());
        assertEquals(7, back.lsn());
        assertEquals(6, back.previousLsn());
        assertArrayEquals(LP, back.logicalPartition());

        ChangeRecord create = ChangeRecord.decode(1, record(ChangeRecord.OperationType.CREATE, null, null,
                ChangeRecord.CURRENT_AT_LSN).encode());
        assertTrue(create.currentAtLsn());
        assertFalse(create.previousAtLsn());
    }

    @Test
    void anOldRecordWithInlineImagesDecodesAsBefore() {
        byte[] current = "{\"id\":\"doc\",\"v\":2}".getBytes(StandardCharsets.UTF_8);
        byte[] previous = "{\"id\":\"doc\",\"v\":1}".getBytes(StandardCharsets.UTF_8);
        // the old layout spelled out: flags HAS_CURRENT | HAS_PREVIOUS, both images after the id
        byte[] id = "doc-é".getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(3 + 24 + 2 + LP.length + 2 + id.length + 4 + current.length + 4
                + previous.length);
        b.put((byte) 1).put((byte) 'R').put((byte) (2 | 4)).putLong(7).putLong(6).putLong(1_700_000_000_000L);
        b.putShort((short) LP.length).put(LP).putShort((short) id.length).put(id);
        b.putInt(current.length).put(current).putInt(previous.length).put(previous);
        ChangeRecord back = ChangeRecord.decode(42, b.array());
        assertEquals(0, back.imageRefs());
        assertArrayEquals(current, back.current());
        assertArrayEquals(previous, back.previous());
        assertArrayEquals(b.array(), back.encode(), "re-encoded byte for byte");
        assertArrayEquals(b.array(), record(ChangeRecord.OperationType.REPLACE, current, previous, 0).encode());
        assertNull(ChangeRecord.versionImageKeyOf(9, b.array()), "an inline record owns no version key");
    }

    @Test
    void aRecordWithAnImageBothInlineAndByReferenceIsRefused() {
        byte[] value = record(ChangeRecord.OperationType.CREATE, new byte[]{'{', '}'}, null, 0).encode();
        value[2] |= ChangeRecord.CURRENT_AT_LSN;
        assertThrows(IllegalStateException.class, () -> ChangeRecord.decode(1, value));
        byte[] previous = record(ChangeRecord.OperationType.DELETE, null, new byte[]{'{', '}'}, 0).encode();
        previous[2] |= ChangeRecord.PREVIOUS_AT_LSN;
        assertThrows(IllegalStateException.class, () -> ChangeRecord.decode(1, previous));
    }

    @Test
    void aResolvedRecordEncodesItsImagesInline() {
        ChangeRecord resolved = record(ChangeRecord.OperationType.REPLACE, null, null,
                ChangeRecord.CURRENT_AT_LSN | ChangeRecord.PREVIOUS_AT_LSN).withImages(new byte[]{'{', '}'}, null);
        ChangeRecord back = ChangeRecord.decode(42, resolved.encode());
        assertArrayEquals(new byte[]{'{', '}'}, back.current());
        assertFalse(back.currentAtLsn(), "the image at hand went inline");
        assertTrue(back.previousAtLsn(), "the missing one stays a reference");
    }

    @Test
    void theOwnedVersionKeyOfALoneRecordIsReadAtFixedOffsets() {
        ChangeRecord r = record(ChangeRecord.OperationType.DELETE, null, null, ChangeRecord.PREVIOUS_AT_LSN);
        assertArrayEquals(FeedKeys.versionImage(9, LP, 6), ChangeRecord.versionImageKeyOf(9, r.encode()));
        assertArrayEquals(FeedKeys.versionImage(9, LP, 6), r.ownedVersionImageKey(9));
        ChangeRecord create = record(ChangeRecord.OperationType.CREATE, null, null, ChangeRecord.CURRENT_AT_LSN);
        assertNull(ChangeRecord.versionImageKeyOf(9, create.encode()), "a create owns none");
        byte[] key = FeedKeys.versionImage(9, LP, 6);
        assertEquals(9, ByteBuffer.wrap(key).getInt());
        assertEquals('V', key[4]);
        assertEquals(6, FeedKeys.lsnOfVersionImage(key));
    }

    /** 300 seeded runs with random references: they round-trip, and a run's removed members give their owned keys. */
    @Test
    void runsKeepTheReferencesAndGiveTheRemovedMembersVersionKeys() {
        Random random = new Random(1717);
        ChangeRecord.OperationType[] types = ChangeRecord.OperationType.values();
        for (int round = 0; round < 300; round++) {
            List<ChangeRecord> members = new ArrayList<>();
            long seq = random.nextInt(1_000_000);
            for (int i = 1 + random.nextInt(12); i > 0; i--) {
                seq++;
                int refs = random.nextInt(4) * ChangeRecord.CURRENT_AT_LSN;
                byte[] lp = new byte[1 + random.nextInt(30)];
                random.nextBytes(lp);
                members.add(new ChangeRecord(seq, types[random.nextInt(types.length)], random.nextLong(),
                        random.nextLong(), random.nextLong(), random.nextBoolean(), lp, "i" + random.nextInt(99),
                        (refs & ChangeRecord.CURRENT_AT_LSN) == 0 && random.nextBoolean() ? new byte[]{'{', '}'} : null,
                        null, refs));
            }
            byte[] run = members.size() == 1 ? members.get(0).encode() : ChangeRuns.encode(members);
            List<ChangeRecord> back = ChangeRuns.decode(seq, run);
            Set<Long> gone = new HashSet<>();
            List<byte[]> expected = new ArrayList<>();
            for (int i = 0; i < members.size(); i++) {
                ChangeRecord m = members.get(i);
                assertEquals(m.imageRefs(), back.get(i).imageRefs(), "round " + round);
                assertArrayEquals(m.encode(), back.get(i).encode(), "round " + round);
                if (random.nextBoolean()) {
                    gone.add(m.seq());
                    if (m.previousAtLsn()) {
                        expected.add(FeedKeys.versionImage(5, m.logicalPartition(), m.previousLsn()));
                    }
                }
            }
            List<byte[]> keys = new ArrayList<>();
            ChangeRuns.without(seq, run, gone, 5, keys);
            assertEquals(expected.size(), keys.size(), "round " + round);
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(expected.get(i), keys.get(i), "round " + round);
            }
        }
    }
}
