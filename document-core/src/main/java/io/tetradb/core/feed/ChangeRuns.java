package io.tetradb.core.feed;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A transaction's change records of one logical partition folded into one FEED value (core-keys, issue 17), under
 * the key of the last one's number, {@code collId · 'S' · lastSeq}: one memtable insert for the run instead of one
 * per record. The key of the last number is what a seek for any of them finds first (runs are consecutive numbers
 * and keys are in number order), so a reader resuming inside a run seeks to it and skips what it has read.
 * <pre>
 * 02 · n(4) · n × (seq(8) · length(4) · {@link ChangeRecord#encode()})
 * </pre>
 * Each member keeps its own number, so the pruner can take some out (it rewrites the value; writers never touch an
 * old record key again) and deletes the key with the last one left. A single record is stored as before
 * ({@link ChangeRecord#encode()}, first byte 01), so a point write's record is byte for byte the old layout and
 * directories written before runs read unchanged.
 */
public final class ChangeRuns {
    static final byte RUN = 2;

    private ChangeRuns() {
    }

    /** The value of a run: its members (numbered, ascending), each written in place (one array for the run). */
    static byte[] encode(List<ChangeRecord> members) {
        byte[][] ids = new byte[members.size()][];
        int[] lengths = new int[ids.length];
        int n = 5;
        for (int i = 0; i < ids.length; i++) {
            ids[i] = members.get(i).idBytes();
            lengths[i] = members.get(i).encodedLength(ids[i]);
            n += 12 + lengths[i];
        }
        ByteBuffer b = ByteBuffer.allocate(n).put(RUN).putInt(ids.length);
        for (int i = 0; i < ids.length; i++) {
            ChangeRecord m = members.get(i);
            b.putLong(m.seq()).putInt(lengths[i]);
            m.encodeInto(b, ids[i]);
        }
        return b.array();
    }

    /** Whether a FEED record value is a folded run rather than one record. */
    public static boolean isRun(byte[] value) {
        return value != null && value.length > 0 && value[0] == RUN;
    }

    /** The records of the FEED record key numbered {@code keySeq}: its run's members, or the one record. */
    public static List<ChangeRecord> decode(long keySeq, byte[] value) {
        List<ChangeRecord> out = new ArrayList<>(isRun(value) ? ByteBuffer.wrap(value, 1, 4).getInt() : 1);
        decode(keySeq, value, Long.MIN_VALUE, Long.MAX_VALUE, out);
        return out;
    }

    /** Adds the records numbered in {@code (after, upTo]} of the record key numbered {@code keySeq} to {@code out}. */
    public static void decode(long keySeq, byte[] value, long after, long upTo, List<ChangeRecord> out) {
        if (!isRun(value)) {
            if (keySeq > after && keySeq <= upTo) {
                out.add(ChangeRecord.decode(keySeq, value));
            }
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        b.get();
        int n = b.getInt();
        for (int i = 0; i < n; i++) {
            long seq = b.getLong();
            int length = b.getInt();
            if (seq > after && seq <= upTo) {
                byte[] record = new byte[length];
                b.get(record);
                out.add(ChangeRecord.decode(seq, record));
            } else {
                b.position(b.position() + length);
            }
        }
    }

    /** The numbers of a run's members (or the one record's), without decoding them. */
    static long[] seqs(long keySeq, byte[] value) {
        if (!isRun(value)) {
            return new long[]{keySeq};
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        b.get();
        long[] out = new long[b.getInt()];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getLong();
            int length = b.getInt();
            b.position(b.position() + length);
        }
        return out;
    }

    /** The run's value without the members numbered in {@code gone}; null when none is left. */
    static byte[] without(long keySeq, byte[] value, java.util.Set<Long> gone) {
        return without(keySeq, value, gone, 0, null);
    }

    /**
     * As {@link #without(long, byte[], java.util.Set)}, adding to {@code versionKeys} (if not null) the version-image
     * keys of container {@code collId} the removed members own ({@link ChangeRecord#PREVIOUS_AT_LSN}): they go in
     * the same write as their owner (feed-images).
     */
    static byte[] without(long keySeq, byte[] value, java.util.Set<Long> gone, int collId, List<byte[]> versionKeys) {
        List<ChangeRecord> kept = new ArrayList<>();
        for (ChangeRecord r : decode(keySeq, value)) {
            if (!gone.contains(r.seq())) {
                kept.add(r);
            } else if (versionKeys != null && r.previousAtLsn()) {
                versionKeys.add(r.ownedVersionImageKey(collId));
            }
        }
        return kept.isEmpty() ? null : kept.size() == 1 && kept.get(0).seq() == keySeq ? kept.get(0).encode()
                : encode(kept);
    }
}
