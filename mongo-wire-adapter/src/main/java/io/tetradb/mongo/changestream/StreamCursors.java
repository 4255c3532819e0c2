package io.tetradb.mongo.changestream;

import io.tetradb.core.feed.FeedCursor;
import io.tetradb.core.feed.FeedCursorTokens;
import io.tetradb.core.feed.Varints;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a change stream on a shared engine stands: one {@link FeedCursor} per watched collection (the lsn read
 * through per logical partition, positions every server of the keyspace agrees on), and the resume tokens made from
 * them, valid on any server and after restarts.
 *
 * <p>A token is {@code base · delta}: the base is the cursors at the start of the batch, combined into one cursor
 * (keys {@code collId · 0 · partition}, and {@code collId · 1 · partition} marking a collection's resume point) and
 * made bounded by the core's {@link FeedCursorTokens} (inline up to 1.5 KB, else a stored copy's 17-byte id: the
 * same base for every event of a batch, so stored at most once per batch); the delta is the (collection,
 * partition, lsn) of the batch's events up to the token's own, one entry per partition. Resuming applies the delta
 * to the base: the events after the token's come again, none before it. A token therefore grows with the distinct
 * partitions of its batch, not with the collection ({@link #MAX_BATCH} bounds a batch on a shared engine).
 */
final class StreamCursors {
    /** Events per batch on a shared engine: bounds a token's delta (MongoDB does not promise full batches). */
    static final int MAX_BATCH = 100;
    private static final byte LSN = 0;
    private static final byte RESUME = 1;

    private final FeedCursorTokens tokens;
    private final Map<Integer, FeedCursor> cursors = new HashMap<>();
    /** The base of this batch's tokens (encoded when first asked). */
    private byte[] base;
    /** The batch's events so far: combined key → lsn. */
    private final TreeMap<byte[], Long> delta = new TreeMap<>(Arrays::compareUnsigned);

    StreamCursors(FeedCursorTokens tokens) {
        this.tokens = tokens;
    }

    /** The cursors a token holds; IllegalArgumentException for a malformed one, FeedCursorTokens.Expired if gone. */
    static StreamCursors decode(FeedCursorTokens tokens, byte[] payload) {
        ByteBuffer b = ByteBuffer.wrap(payload);
        StreamCursors s = new StreamCursors(tokens);
        byte[] baseToken = new byte[(int) Varints.read(b, "a resume token")];
        b.get(baseToken);
        FeedCursor combined = tokens.decode(baseToken);
        long n = Varints.read(b, "a resume token");
        for (long i = 0; i < n; i++) {
            byte[] key = new byte[(int) Varints.read(b, "a resume token")];
            b.get(key);
            combined.advance(key, Varints.read(b, "a resume token"));
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("trailing bytes in a resume token");
        }
        for (Map.Entry<byte[], Long> e : combined.entries().entrySet()) {
            byte[] k = e.getKey();
            int collId = ByteBuffer.wrap(k).getInt();
            byte[] partition = Arrays.copyOfRange(k, 5, k.length);
            FeedCursor c = s.cursors.computeIfAbsent(collId, id -> FeedCursor.beginning());
            if (k[4] == RESUME) {
                c.resumeAt(partition);
            } else {
                c.advance(partition, e.getValue());
            }
        }
        return s;
    }

    boolean has(int collId) {
        return cursors.containsKey(collId);
    }

    FeedCursor get(int collId) {
        return cursors.get(collId);
    }

    void put(int collId, FeedCursor cursor) {
        cursors.put(collId, cursor);
        base = null;
    }

    /** A new batch: its tokens' base is the cursors as they are now. */
    void startBatch() {
        base = null;
        delta.clear();
    }

    /** The token payload just after an event of {@code collId}'s {@code partition} at {@code lsn} in this batch. */
    byte[] after(int collId, byte[] partition, long lsn) {
        delta.merge(key(collId, LSN, partition), lsn, Math::max);
        return payload(delta);
    }

    /** The token payload of the cursors as they are (a postBatchResumeToken, a drop). */
    byte[] now() {
        return payload(Map.of());
    }

    private byte[] payload(Map<byte[], Long> d) {
        if (base == null) {
            FeedCursor combined = FeedCursor.beginning();
            for (Map.Entry<Integer, FeedCursor> c : cursors.entrySet()) {
                for (Map.Entry<byte[], Long> e : c.getValue().entries().entrySet()) {
                    combined.advance(key(c.getKey(), LSN, e.getKey()), e.getValue());
                }
                byte[] resume = c.getValue().resume();
                if (resume != null) {
                    combined.advance(key(c.getKey(), RESUME, resume), 1);
                }
            }
            base = tokens.encode(combined);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(base.length + 8 + d.size() * 32);
        Varints.write(out, base.length);
        out.writeBytes(base);
        Varints.write(out, d.size());
        for (Map.Entry<byte[], Long> e : d.entrySet()) {
            Varints.write(out, e.getKey().length);
            out.writeBytes(e.getKey());
            Varints.write(out, e.getValue());
        }
        return out.toByteArray();
    }

    private static byte[] key(int collId, byte kind, byte[] partition) {
        return ByteBuffer.allocate(5 + partition.length).putInt(collId).put(kind).put(partition).array();
    }

}
