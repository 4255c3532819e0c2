package io.tetradb.core.feed;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * mongo-insert: a run's members are written in place into the run's one array (no array per record first); the value
 * must stay byte for byte the documented layout {@code 02 · n(4) · n × (seq(8) · length(4) · record)} with each
 * record as {@link ChangeRecord#encode()} writes it alone, since stored directories hold it.
 */
class ChangeRunsEncodingTest {
    @Test
    void aRunIsItsMembersStandaloneEncodingsInTheDocumentedLayoutAndDecodesBack() {
        Random random = new Random(17);
        ChangeRecord.OperationType[] types = ChangeRecord.OperationType.values();
        for (int round = 0; round < 300; round++) {
            List<ChangeRecord> members = new ArrayList<>();
            long seq = random.nextInt(1_000_000);
            for (int i = 1 + random.nextInt(12); i > 0; i--) {
                seq += 1;
                members.add(new ChangeRecord(seq, types[random.nextInt(types.length)], random.nextLong(),
                        random.nextLong(), random.nextLong(), random.nextBoolean(), bytes(random, 1 + random.nextInt(40)),
                        id(random), random.nextInt(4) == 0 ? null : bytes(random, random.nextInt(3000)),
                        random.nextInt(3) == 0 ? bytes(random, random.nextInt(200)) : null));
            }
            byte[] run = ChangeRuns.encode(members);
            // the layout spelled out from the standalone encodings
            int n = 5;
            for (ChangeRecord m : members) {
                n += 12 + m.encode().length;
            }
            ByteBuffer expected = ByteBuffer.allocate(n).put(ChangeRuns.RUN).putInt(members.size());
            for (ChangeRecord m : members) {
                byte[] one = m.encode();
                expected.putLong(m.seq()).putInt(one.length).put(one);
            }
            assertArrayEquals(expected.array(), run, "round " + round);
            List<ChangeRecord> back = ChangeRuns.decode(seq, run);
            assertEquals(members.size(), back.size());
            for (int i = 0; i < members.size(); i++) {
                assertArrayEquals(members.get(i).encode(), back.get(i).encode(), "round " + round + " member " + i);
                assertEquals(members.get(i).seq(), back.get(i).seq());
                assertEquals(members.get(i).id(), back.get(i).id());
            }
        }
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Ids with multi-byte UTF-8 (their byte length differs from their char length) and surrogate pairs. */
    private static String id(Random random) {
        String[] parts = {"a", "~n12", "é", "日本", "\uD83D\uDE00", "x/y", ""};
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(6); i >= 0; i--) {
            sb.append(parts[random.nextInt(parts.length)]);
        }
        return sb.toString();
    }
}
