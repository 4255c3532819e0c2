package io.tetradb.core.feed;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link FeedCursor} as a bounded token for a face's wire format (the Cosmos REST face's change-feed etag, the Mongo
 * face's resume token), valid on every server of a shared keyspace and after restarts.
 *
 * <p>A cursor grows with the logical partitions of its scope that had changes (about 30 bytes each), and a REST etag
 * travels in HTTP headers (servers and proxies refuse headers of 8 KB and more). So a cursor of up to
 * {@link #INLINE_MAX_BYTES} is carried inline ({@code 0x01 · cursor}); a larger one is stored in the metadata contract
 * under its content's hash ({@code 0x02 · id}, 17 bytes whatever the scope): META {@code 3D · id} = {@code expiresAt(8)
 * · cursor}. Why content-addressed rather than a fresh id per page: every server storing the same cursor writes the
 * same key and bytes (an unconditional put, no race to settle), and a caught-up reader that is handed the same cursor
 * page after page costs no write (a stored id is written again only when half its lifetime has passed). Why stored at
 * all rather than a compacted cursor: nothing orders the partitions' commits (one Paxos round each), so no summary
 * smaller than an lsn per changed partition resumes exactly (FeedCursor). A stored cursor lives
 * {@code -Dtetradb.feed.storedCursorHours} (168: Cosmos DB's longest all-versions retention), renewed whenever it
 * is handed out again; a reader away longer gets {@link Expired} and starts again (as a Mongo reader past its oplog
 * window). Expired entries are swept by the feed pruner ({@link #sweep}).
 */
public final class FeedCursorTokens {
    /** Cursor bytes carried inline: 1,536 bytes are 2,048 characters of base64 (4,096 of hex). */
    public static final int INLINE_MAX_BYTES = 1536;
    static final byte META_PREFIX = 0x3D;
    private static final byte INLINE = 0x01;
    private static final byte STORED = 0x02;
    private static final int ID_BYTES = 16;
    private static final int CACHED = 4096;

    private final MetadataStore metadata;
    private final long lifetimeMillis;
    /** Stored cursors this server wrote or read, by id: their expiry (immutable content, so a cache never goes stale). */
    private final Map<String, Known> known = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Known> e) {
            return size() > CACHED;
        }
    };

    private record Known(long expiresAt, byte[] cursor) {
    }

    /** A stored cursor that is gone (expired and swept, or never written here): the reader must start again. */
    public static final class Expired extends StoreException {
        Expired() {
            super(410, "the change feed position was kept for "
                    + lifetimeHours() + " hours after it was last handed out and has expired; start the feed again");
        }
    }

    public FeedCursorTokens(MetadataStore metadata) {
        this(metadata, lifetimeHours() * 3_600_000L);
    }

    FeedCursorTokens(MetadataStore metadata, long lifetimeMillis) {
        this.metadata = metadata;
        this.lifetimeMillis = lifetimeMillis;
    }

    private static long lifetimeHours() {
        return Long.getLong("tetradb.feed.storedCursorHours", 168);
    }

    /** The token of {@code cursor}: inline when small, else an id of a stored copy (written or renewed as needed). */
    public byte[] encode(FeedCursor cursor) {
        return encode(cursor, System.currentTimeMillis());
    }

    byte[] encode(FeedCursor cursor, long now) {
        byte[] bytes = cursor.encode();
        if (bytes.length <= INLINE_MAX_BYTES) {
            byte[] out = new byte[1 + bytes.length];
            out[0] = INLINE;
            System.arraycopy(bytes, 0, out, 1, bytes.length);
            return out;
        }
        byte[] id = Arrays.copyOf(sha256(bytes), ID_BYTES);
        String name = java.util.HexFormat.of().formatHex(id);
        Known k;
        synchronized (known) {
            k = known.get(name);
        }
        if (k == null || k.expiresAt() - now < lifetimeMillis / 2) {
            long expiresAt = now + lifetimeMillis;
            metadata.apply(new MetaWrite().put(key(id),
                    ByteBuffer.allocate(8 + bytes.length).putLong(expiresAt).put(bytes).array()));
            synchronized (known) {
                known.put(name, new Known(expiresAt, bytes));
            }
        }
        byte[] out = new byte[1 + ID_BYTES];
        out[0] = STORED;
        System.arraycopy(id, 0, out, 1, ID_BYTES);
        return out;
    }

    /**
     * The cursor of a token {@link #encode} made (on any server); IllegalArgumentException for anything else,
     * {@link Expired} for a stored cursor that is gone.
     */
    public FeedCursor decode(byte[] token) {
        return decode(token, System.currentTimeMillis());
    }

    FeedCursor decode(byte[] token, long now) {
        if (token.length < 1) {
            throw new IllegalArgumentException("an empty change feed token");
        }
        if (token[0] == INLINE) {
            return FeedCursor.decode(Arrays.copyOfRange(token, 1, token.length));
        }
        if (token[0] != STORED || token.length != 1 + ID_BYTES) {
            throw new IllegalArgumentException("not a change feed token");
        }
        byte[] id = Arrays.copyOfRange(token, 1, token.length);
        String name = java.util.HexFormat.of().formatHex(id);
        Known k;
        synchronized (known) {
            k = known.get(name);
        }
        if (k == null || k.expiresAt() <= now) {
            MetaEntry e = metadata.get(key(id));
            if (e == null) {
                throw new Expired();
            }
            ByteBuffer b = ByteBuffer.wrap(e.value());
            long expiresAt = b.getLong();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            if (expiresAt <= now) {
                throw new Expired();
            }
            k = new Known(expiresAt, bytes);
            synchronized (known) {
                known.put(name, k);
            }
        }
        return FeedCursor.decode(k.cursor());
    }

    /** Removes stored cursors whose lifetime ended before {@code now}; returns how many. */
    public int sweep(long now) {
        int removed = 0;
        for (MetaEntry e : metadata.list(new byte[]{META_PREFIX})) {
            if (ByteBuffer.wrap(e.value()).getLong() <= now) {
                metadata.apply(new MetaWrite().delete(e.key())); // a renewal meanwhile rewrites it on its next use
                removed++;
            }
        }
        return removed;
    }

    private static byte[] key(byte[] id) {
        return ByteBuffer.allocate(1 + id.length).put(META_PREFIX).put(id).array();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
