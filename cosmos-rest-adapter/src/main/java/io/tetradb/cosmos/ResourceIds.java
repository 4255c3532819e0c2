package io.tetradb.cosmos;

import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.DatabaseDefinition;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Cosmos DB resource ids ({@code _rid}) in the layout the Java SDK parses (docs/cosmos-rest.md §3.2): a database is
 * 4 bytes (the core's database number), a container 8 (database + the core's container number with the top bit
 * set, which marks a collection rather than a user), a container's child 16 (container + 8 bytes whose last byte's
 * high nibble names the kind), an offer 3. All derive from the core's numbers, so they survive restarts.
 */
final class ResourceIds {
    static final int KIND_PKRANGE = 0x5;
    static final int KIND_UDF = 0x6;
    static final int KIND_TRIGGER = 0x7;
    static final int KIND_SPROC = 0x8;

    private ResourceIds() {
    }

    static byte[] decode(String rid) {
        try {
            return Base64.getDecoder().decode(rid.replace('-', '/'));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String encode(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes).replace('/', '-');
    }

    /** Whether a path segment is a database RID (Java's test for a RID-addressed path). */
    static boolean isDatabaseRid(String segment) {
        if (segment.length() != 8) {
            return false;
        }
        byte[] b = decode(segment);
        return b != null && b.length == 4;
    }

    static boolean isContainerRid(String segment) {
        if (segment.length() != 12) {
            return false;
        }
        byte[] b = decode(segment);
        return b != null && b.length == 8 && (b[4] & 0x80) != 0;
    }

    static String database(DatabaseDefinition db) {
        return db.rid();
    }

    static String container(ContainerDefinition c) {
        byte[] b = decode(c.rid());
        if (b == null || b.length != 8) {
            throw new IllegalStateException("unexpected core container rid " + c.rid());
        }
        b[4] |= (byte) 0x80;
        return encode(b);
    }

    /** A child of a container: the container's RID, then a hash of the child's name, the kind in the last nibble. */
    static String child(String containerRid, int kind, String name) {
        byte[] coll = decode(containerRid);
        byte[] out = Arrays.copyOf(coll, 16);
        long h = fnv(name.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 8; i++) {
            out[8 + i] = (byte) (h >>> (56 - 8 * i));
        }
        out[8] = (byte) ((out[8] & 0x7F) | 0x01);
        out[15] = (byte) ((kind << 4) | (out[15] & 0x0F));
        return encode(out);
    }

    static String pkrange(String containerRid) {
        return pkrange(containerRid, 0);
    }

    /** The RID of the container's partition key range {@code id} (range 0 keeps the single range's RID). */
    static String pkrange(String containerRid, int id) {
        byte[] coll = decode(containerRid);
        byte[] out = Arrays.copyOf(coll, 16);
        int n = id + 1;
        out[8] = (byte) n;
        out[9] = (byte) (n >>> 8);
        out[10] = (byte) (n >>> 16);
        out[11] = (byte) (n >>> 24);
        out[15] = (byte) (KIND_PKRANGE << 4);
        return encode(out);
    }

    /** Offers: 3 bytes; the top bit tells a database's offer from a container's. */
    static String containerOffer(ContainerDefinition c) {
        int n = c.collId() & 0x7FFFFF;
        return encode(new byte[]{(byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    }

    static String databaseOffer(DatabaseDefinition d) {
        int n = (d.dbId() & 0x7FFFFF) | 0x800000;
        return encode(new byte[]{(byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    }

    /** A user: the database's 4 bytes, then 4 from the user's name with the top bit clear (a user, not a container). */
    static String user(String databaseRid, byte[] name) {
        byte[] out = Arrays.copyOf(decode(databaseRid), 8);
        long h = fnv(name);
        for (int i = 0; i < 4; i++) {
            out[4 + i] = (byte) (h >>> (24 - 8 * i));
        }
        out[4] = (byte) ((out[4] & 0x7F) | 0x01);
        return encode(out);
    }

    /** A permission: its user's 8 bytes, then 8 from the permission's name. */
    static String permission(String userRid, String name) {
        byte[] out = Arrays.copyOf(decode(userRid), 16);
        long h = fnv(name.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 8; i++) {
            out[8 + i] = (byte) (h >>> (56 - 8 * i));
        }
        out[8] = (byte) ((out[8] & 0x7F) | 0x01);
        return encode(out);
    }

    /** The database named by a RID, or null. */
    static DatabaseDefinition findDatabase(CoreStore store, String rid) {
        for (DatabaseDefinition d : store.listDatabases()) {
            if (d.rid().equals(rid)) {
                return d;
            }
        }
        return null;
    }

    /** The container named by a RID inside {@code database}, or null. */
    static ContainerDefinition findContainer(CoreStore store, String database, String rid) {
        for (ContainerDefinition c : store.listContainers(database)) {
            if (container(c).equals(rid)) {
                return c;
            }
        }
        return null;
    }

    private static long fnv(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
