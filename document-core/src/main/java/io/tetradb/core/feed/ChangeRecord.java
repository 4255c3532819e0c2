package io.tetradb.core.feed;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One change of one item, as the change feed stores it: {@code collId · 'S' · seq → record}.
 *
 * <ul>
 *   <li>{@code seq}: the store-wide feed sequence (monotonic, gaps allowed); the continuation currency, so a position
 *       is valid on every EPK range and survives splits.</li>
 *   <li>{@code lsn}: the item's logical-partition lsn after the change (the etag's and the item's {@code _lsn});
 *       {@code previousLsn}: the lsn of the version it replaced or deleted (0: none).</li>
 *   <li>{@code crtsMillis}: the commit time; {@code ttlExpired}: a delete made by the TTL purge.</li>
 *   <li>{@code logicalPartition}: {@code EPK · pk} (without the container id), {@code id}: the item id.</li>
 *   <li>{@code current} / {@code previous}: the item after / before the change, as stored after the header (JSON
 *       text, or a binary item's TB1 object and system-property trailer: {@link ChangeFeed#imageJson} gives either as
 *       JSON), kept only for containers with an all-versions-and-deletes retention ({@link ChangeFeedPolicy});
 *       latest-version readers read the item itself.</li>
 *   <li>{@code imageRefs} (feed-images, {@code docs/feed-images.md}): {@link #CURRENT_AT_LSN} and/or
 *       {@link #PREVIOUS_AT_LSN} — the record holds no copy of that image: it is the item's version at {@code lsn}
 *       (the item while it is at that lsn, then its version-image key) / at {@code previousLsn} (the version-image
 *       key this record's own transaction wrote, {@link FeedKeys#versionImage}). Readers fill the images in
 *       ({@code VersionImages}) and keep the bits, so a resolved record has both; it encodes as inline then.</li>
 * </ul>
 */
public record ChangeRecord(long seq, OperationType operationType, long lsn, long previousLsn, long crtsMillis,
                           boolean ttlExpired, byte[] logicalPartition, String id, byte[] current, byte[] previous,
                           int imageRefs) {
    private static final byte FORMAT = 1;
    private static final int TTL_EXPIRED = 1;
    private static final int HAS_CURRENT = 2;
    private static final int HAS_PREVIOUS = 4;
    /** {@code current} is the item's version at {@code lsn}: in the item while it is there, else its version key. */
    public static final int CURRENT_AT_LSN = 8;
    /** {@code previous} is the version at {@code previousLsn}, under the version key this record's transaction wrote. */
    public static final int PREVIOUS_AT_LSN = 16;
    /** Offset of the flags byte, and of {@code previousLsn}, in a record's value. */
    private static final int FLAGS_AT = 2;
    private static final int PREVIOUS_LSN_AT = 3 + 8;
    private static final int LP_AT = 3 + 8 * 3;

    /** A record whose images, if any, are inline (every record before feed-images, and the contract's). */
    public ChangeRecord(long seq, OperationType operationType, long lsn, long previousLsn, long crtsMillis,
                        boolean ttlExpired, byte[] logicalPartition, String id, byte[] current, byte[] previous) {
        this(seq, operationType, lsn, previousLsn, crtsMillis, ttlExpired, logicalPartition, id, current, previous, 0);
    }

    /** Whether the current image is the item's version at {@link #lsn()} rather than inline. */
    public boolean currentAtLsn() {
        return (imageRefs & CURRENT_AT_LSN) != 0;
    }

    /** Whether the previous image is under the version key of {@link #previousLsn()} rather than inline. */
    public boolean previousAtLsn() {
        return (imageRefs & PREVIOUS_AT_LSN) != 0;
    }

    /** This record with its images filled in (the references kept: they say where the images came from). */
    ChangeRecord withImages(byte[] current, byte[] previous) {
        return new ChangeRecord(seq, operationType, lsn, previousLsn, crtsMillis, ttlExpired, logicalPartition, id,
                current, previous, imageRefs);
    }

    /** This record numbered {@code seq} at commit time {@code crtsMillis} (the writer numbers its records last). */
    ChangeRecord numbered(long seq, long crtsMillis) {
        return new ChangeRecord(seq, operationType, lsn, previousLsn, crtsMillis, ttlExpired, logicalPartition, id,
                current, previous, imageRefs);
    }

    /**
     * The version-image key a lone record's value ({@link #encode()}) owns ({@link #PREVIOUS_AT_LSN}), or null: read
     * at fixed offsets, without decoding the record (the pruner deletes it with the record).
     */
    static byte[] versionImageKeyOf(int collId, byte[] value) {
        if (value.length <= LP_AT + 2 || value[0] != FORMAT || (value[FLAGS_AT] & PREVIOUS_AT_LSN) == 0) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        long previousLsn = b.getLong(PREVIOUS_LSN_AT);
        int lpLength = b.getShort(LP_AT) & 0xFFFF;
        return FeedKeys.versionImage(collId, value, LP_AT + 2, lpLength, previousLsn);
    }

    /** The version-image key this record owns ({@link #PREVIOUS_AT_LSN}), or null. */
    byte[] ownedVersionImageKey(int collId) {
        return previousAtLsn() ? FeedKeys.versionImage(collId, logicalPartition, previousLsn) : null;
    }

    /** Cosmos DB's operation types of the all-versions-and-deletes feed. */
    public enum OperationType {
        CREATE('C', "create"), REPLACE('R', "replace"), DELETE('D', "delete");

        private final byte code;
        private final String cosmosName;

        OperationType(char code, String cosmosName) {
            this.code = (byte) code;
            this.cosmosName = cosmosName;
        }

        /** The name in {@code metadata.operationType}. */
        public String cosmosName() {
            return cosmosName;
        }

        static OperationType of(byte code) {
            for (OperationType t : values()) {
                if (t.code == code) {
                    return t;
                }
            }
            throw new IllegalStateException("unknown change record kind " + code);
        }
    }

    /** The record's value bytes (the seq is in the key). */
    public byte[] encode() {
        byte[] idBytes = idBytes();
        return encode(crtsMillis, idBytes, 0, idBytes.length);
    }

    /**
     * pw-next: {@link #encode()}'s bytes of this record numbered at {@code crtsMillis}, its id's UTF-8 bytes read from
     * {@code idSource[idFrom, idFrom + idLength)} (a writer's item key ends with them): no numbered copy of the record
     * and no second encoding of the id.
     */
    byte[] encode(long crtsMillis, byte[] idSource, int idFrom, int idLength) {
        byte[] out = new byte[encodedLength(idLength)];
        encodeInto(ByteBuffer.wrap(out), crtsMillis, idSource, idFrom, idLength);
        return out;
    }

    /** The id as {@link #encode()} writes it. */
    byte[] idBytes() {
        return id.getBytes(StandardCharsets.UTF_8);
    }

    /** The length of {@link #encode()}'s bytes, given {@link #idBytes()}. */
    int encodedLength(byte[] idBytes) {
        return encodedLength(idBytes.length);
    }

    private int encodedLength(int idLength) {
        return 3 + 8 * 3 + 2 + logicalPartition.length + 2 + idLength
                + (current != null ? 4 + current.length : 0) + (previous != null ? 4 + previous.length : 0);
    }

    /** Puts {@link #encode()}'s bytes into {@code b} (a run writes its members in place: no array per record). */
    void encodeInto(ByteBuffer b, byte[] idBytes) {
        encodeInto(b, crtsMillis, idBytes, 0, idBytes.length);
    }

    private void encodeInto(ByteBuffer b, long crtsMillis, byte[] idSource, int idFrom, int idLength) {
        // an image at hand is written inline (a resolved record encoded again: the contract's rows); else its reference
        int flags = (ttlExpired ? TTL_EXPIRED : 0) | (current != null ? HAS_CURRENT : imageRefs & CURRENT_AT_LSN)
                | (previous != null ? HAS_PREVIOUS : imageRefs & PREVIOUS_AT_LSN);
        b.put(FORMAT).put(operationType.code).put((byte) flags).putLong(lsn).putLong(previousLsn).putLong(crtsMillis);
        b.putShort((short) logicalPartition.length).put(logicalPartition);
        b.putShort((short) idLength).put(idSource, idFrom, idLength);
        if (current != null) {
            b.putInt(current.length).put(current);
        }
        if (previous != null) {
            b.putInt(previous.length).put(previous);
        }
    }

    public static ChangeRecord decode(long seq, byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        if (b.get() != FORMAT) {
            throw new IllegalStateException("unknown change record format " + value[0]);
        }
        OperationType type = OperationType.of(b.get());
        int flags = b.get();
        if ((flags & HAS_CURRENT) != 0 && (flags & CURRENT_AT_LSN) != 0
                || (flags & HAS_PREVIOUS) != 0 && (flags & PREVIOUS_AT_LSN) != 0) {
            throw new IllegalStateException("change record " + seq + " has an image both inline and by reference");
        }
        long lsn = b.getLong();
        long previousLsn = b.getLong();
        long crts = b.getLong();
        byte[] lp = new byte[b.getShort() & 0xFFFF];
        b.get(lp);
        byte[] idBytes = new byte[b.getShort() & 0xFFFF];
        b.get(idBytes);
        byte[] current = null;
        byte[] previous = null;
        if ((flags & HAS_CURRENT) != 0) {
            current = new byte[b.getInt()];
            b.get(current);
        }
        if ((flags & HAS_PREVIOUS) != 0) {
            previous = new byte[b.getInt()];
            b.get(previous);
        }
        return new ChangeRecord(seq, type, lsn, previousLsn, crts, (flags & TTL_EXPIRED) != 0, lp,
                new String(idBytes, StandardCharsets.UTF_8), current, previous,
                flags & (CURRENT_AT_LSN | PREVIOUS_AT_LSN));
    }

    /** The commit time in epoch seconds, Cosmos DB's {@code crts}. */
    public long crts() {
        return crtsMillis / 1000;
    }
}
