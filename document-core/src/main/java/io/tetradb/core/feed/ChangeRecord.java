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
 * </ul>
 */
public record ChangeRecord(long seq, OperationType operationType, long lsn, long previousLsn, long crtsMillis,
                           boolean ttlExpired, byte[] logicalPartition, String id, byte[] current, byte[] previous) {
    private static final byte FORMAT = 1;
    private static final int TTL_EXPIRED = 1;
    private static final int HAS_CURRENT = 2;
    private static final int HAS_PREVIOUS = 4;

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
        ByteBuffer b = ByteBuffer.allocate(encodedLength(idBytes));
        encodeInto(b, idBytes);
        return b.array();
    }

    /** The id as {@link #encode()} writes it. */
    byte[] idBytes() {
        return id.getBytes(StandardCharsets.UTF_8);
    }

    /** The length of {@link #encode()}'s bytes, given {@link #idBytes()}. */
    int encodedLength(byte[] idBytes) {
        return 3 + 8 * 3 + 2 + logicalPartition.length + 2 + idBytes.length
                + (current != null ? 4 + current.length : 0) + (previous != null ? 4 + previous.length : 0);
    }

    /** Puts {@link #encode()}'s bytes into {@code b} (a run writes its members in place: no array per record). */
    void encodeInto(ByteBuffer b, byte[] idBytes) {
        int flags = (ttlExpired ? TTL_EXPIRED : 0) | (current != null ? HAS_CURRENT : 0)
                | (previous != null ? HAS_PREVIOUS : 0);
        b.put(FORMAT).put(operationType.code).put((byte) flags).putLong(lsn).putLong(previousLsn).putLong(crtsMillis);
        b.putShort((short) logicalPartition.length).put(logicalPartition);
        b.putShort((short) idBytes.length).put(idBytes);
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
                new String(idBytes, StandardCharsets.UTF_8), current, previous);
    }

    /** The commit time in epoch seconds, Cosmos DB's {@code crts}. */
    public long crts() {
        return crtsMillis / 1000;
    }
}
