package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.ttl.ExpiryRule;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The expiry index: the items that will expire, ordered by when. Kept in META beside the item in the same atomic
 * write, so the purger finds what has expired with one range seek instead of a scan.
 * <pre>
 * META 20 · collId(4) · expiresAt(8, epoch ms) · EPK · pk · id   → nothing
 *      21 · collId(4) · name                                     → a date-field expiry (a MongoDB TTL index)
 * </pre>
 */
final class ExpiryIndex {
    static final byte EXPIRY = 0x20;
    static final byte DATE_FIELD = 0x21;
    private static final byte[] NOTHING = new byte[0];
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExpiryIndex() {
    }

    /** The entry of the item stored under {@code docKey} ({@code collId · EPK · pk · id}). */
    static byte[] key(byte[] docKey, long expiresAt) {
        byte[] out = new byte[1 + docKey.length + 8];
        out[0] = EXPIRY;
        System.arraycopy(docKey, 0, out, 1, 4);
        long at = Math.max(0, expiresAt); // dates before 1970 are long past: first in line
        for (int i = 0; i < 8; i++) {
            out[5 + i] = (byte) (at >>> (56 - 8 * i));
        }
        System.arraycopy(docKey, 4, out, 13, docKey.length - 4);
        return out;
    }

    static byte[] docKeyOf(byte[] entry) {
        byte[] docKey = new byte[entry.length - 9];
        System.arraycopy(entry, 1, docKey, 0, 4);
        System.arraycopy(entry, 13, docKey, 4, entry.length - 13);
        return docKey;
    }

    static long expiresAtOf(byte[] entry) {
        return Keys.readLong(entry, 5);
    }

    static byte[] prefix(int collId) {
        return Keys.withByte(EXPIRY, Keys.collId(collId));
    }

    /** The end (exclusive) of the entries expired at {@code nowMillis}. */
    static byte[] expiredEnd(int collId, long nowMillis) {
        return Keys.withLong(prefix(collId), nowMillis + 1);
    }

    /** Moves an item's entry from {@code was} to {@code is} (either may be {@link ExpiryRule#NEVER}: no entry). */
    static void move(WriteSet ws, byte[] docKey, long was, long is) {
        if (was == is) {
            return;
        }
        if (was != ExpiryRule.NEVER) {
            ws.delete(Space.META, key(docKey, was));
        }
        if (is != ExpiryRule.NEVER) {
            ws.put(Space.META, key(docKey, is), NOTHING);
        }
    }

    /** Removes every entry and date field of a container (it is being deleted). */
    static void dropAll(WriteSet ws, int collId) {
        ws.deleteRange(Space.META, prefix(collId), prefix(collId + 1));
        ws.deleteRange(Space.META, dateFieldPrefix(collId), dateFieldPrefix(collId + 1));
    }

    // ---- the rule ------------------------------------------------------------------------------------------------

    static byte[] dateFieldPrefix(int collId) {
        return Keys.withByte(DATE_FIELD, Keys.collId(collId));
    }

    static byte[] dateFieldKey(int collId, String name) {
        return Keys.concat(dateFieldPrefix(collId), Keys.utf8(name));
    }

    static byte[] encode(ExpiryRule.DateField f) {
        ObjectNode n = JSON.createObjectNode();
        n.put("name", f.name());
        n.put("seconds", f.seconds());
        f.path().forEach(n.putArray("path")::add);
        return n.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The container's rule: its definition's default TTL and the date fields stored for it. */
    static ExpiryRule load(StorageEngine engine, ContainerDefinition def) {
        List<ExpiryRule.DateField> fields = new ArrayList<>();
        byte[] prefix = dateFieldPrefix(def.collId());
        engine.scan(Space.META, prefix, Keys.prefixEnd(prefix), kv -> {
            try {
                JsonNode n = JSON.readTree(kv.value());
                List<String> path = new ArrayList<>();
                n.path("path").forEach(p -> path.add(p.asText()));
                fields.add(new ExpiryRule.DateField(n.path("name").asText(), path, n.path("seconds").asLong()));
            } catch (IOException e) {
                throw new IllegalStateException("corrupt date-field expiry", e);
            }
            return true;
        });
        return new ExpiryRule(def.defaultTimeToLive(), fields);
    }

    /**
     * Adds to {@code ws} the container's whole index recomputed under {@code rule} (the rule changed): the old entries
     * go, one entry per item that can expire comes. Run with writers of the container held off.
     */
    static void rebuild(ContainerStore c, ExpiryRule rule, WriteSet ws) {
        int collId = c.definition().collId();
        ws.deleteRange(Space.META, prefix(collId), prefix(collId + 1));
        if (!rule.active()) {
            return;
        }
        byte[] coll = Keys.collId(collId);
        c.engine().scan(Space.DOCS, coll, Keys.prefixEnd(coll), kv -> {
            long at = rule.expiresAt(c.codec().parse(kv.value()));
            if (at != ExpiryRule.NEVER) {
                ws.put(Space.META, key(kv.key(), at), NOTHING);
            }
            return true;
        });
    }

    /** Up to {@code max} entries of the container expired at {@code nowMillis}, earliest first, from {@code from} (null: the start). */
    static List<byte[]> expired(StorageEngine engine, int collId, byte[] from, long nowMillis, int max) {
        List<byte[]> out = new ArrayList<>();
        byte[] end = expiredEnd(collId, nowMillis);
        byte[] start = from == null ? prefix(collId) : from;
        if (Arrays.compareUnsigned(start, end) >= 0) {
            return out;
        }
        engine.scan(Space.META, start, end, kv -> {
            out.add(kv.key());
            return out.size() < max;
        });
        return out;
    }

    /**
     * {@link #expired(StorageEngine, int, byte[], long, int)} through the storage contracts (items on another engine):
     * the entries are side writes of the items' partitions, found across them by expiry time
     * ({@code PartitionStore.seekDerived}).
     */
    static List<byte[]> expired(io.tetradb.core.reads.ItemReads reads, int collId, byte[] from, long nowMillis,
                                int max) {
        List<byte[]> out = new ArrayList<>();
        byte[] end = expiredEnd(collId, nowMillis);
        byte[] start = from == null ? prefix(collId) : from;
        if (Arrays.compareUnsigned(start, end) >= 0) {
            return out;
        }
        reads.scanContainerDerived(collId, Space.META, start, end, kv -> {
            out.add(kv.key());
            return out.size() < max;
        });
        return out;
    }

    static boolean sameDoc(byte[] entry, byte[] docKey) {
        return Arrays.equals(docKeyOf(entry), docKey);
    }
}
