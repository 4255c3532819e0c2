package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.unique.UniqueKeyPolicy;
import io.tetradb.core.value.IndexKeyEncoding;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The unique-key index of a container: per logical partition, per unique key, the values an item holds → that item's
 * id. Written in the same atomic write as the item; checked under the logical partition's lock, so of two concurrent
 * writers of the same values exactly one wins.
 * <pre>
 * META 22 · collId(4) · EPK · pk · keyNo(1) · enc(v1)…enc(vn)   → id
 * </pre>
 */
final class UniqueKeyIndex {
    static final byte UNIQUE = 0x22;
    /** Cosmos DB's message for a write that would duplicate a unique key (409). */
    static final String VIOLATION = "Unique index constraint violation.";

    private UniqueKeyIndex() {
    }

    /** The entries of one version of an item in logical partition {@code lpPrefix} ({@code collId · EPK · pk}). */
    static List<ByteBuffer> terms(UniqueKeyPolicy policy, byte[] lpPrefix, JsonNode item) {
        List<ByteBuffer> out = new ArrayList<>(policy.keys().size());
        for (int k = 0; k < policy.keys().size(); k++) {
            List<JsonNode> values = policy.values(k, item);
            byte[] enc = IndexKeyEncoding.encodeComposite(values, new boolean[values.size()]);
            byte[] key = new byte[1 + lpPrefix.length + 1 + enc.length];
            key[0] = UNIQUE;
            System.arraycopy(lpPrefix, 0, key, 1, lpPrefix.length);
            key[1 + lpPrefix.length] = (byte) k;
            System.arraycopy(enc, 0, key, 2 + lpPrefix.length, enc.length);
            out.add(ByteBuffer.wrap(key));
        }
        return out;
    }

    static void dropAll(WriteSet ws, int collId) {
        byte[] from = Keys.withByte(UNIQUE, Keys.collId(collId));
        byte[] to = Keys.withByte(UNIQUE, Keys.collId(collId + 1));
        ws.deleteRange(Space.META, from, to);
    }

    /**
     * One transaction's view of the index: its own changes over the stored entries. {@link #replace} checks and
     * records one item's change; {@link #addTo} writes them all.
     */
    static final class Changes {
        /** The stored entry's owner bytes by key (the partition's own derived keys: ItemReads.derived). */
        private final java.util.function.Function<byte[], byte[]> storedEntry;
        /** Whether a stored owner no longer holds its values: gone or expired (Cosmos: an expired item is gone). */
        private final java.util.function.Predicate<String> ownerGone;
        /** Entry → owner id after the transaction; null: removed. */
        private final Map<ByteBuffer, String> changed = new HashMap<>();

        Changes(java.util.function.Function<byte[], byte[]> storedEntry, java.util.function.Predicate<String> ownerGone) {
            this.storedEntry = storedEntry;
            this.ownerGone = ownerGone;
        }

        /**
         * The item {@code id}'s entries go from {@code was} to {@code is}; 409 if another live item holds one of
         * them. An entry whose stored owner has expired (not yet purged) is taken over. Only entries {@code id} still
         * owns are removed: one an expired item left behind may already belong to its successor.
         */
        void replace(String id, List<ByteBuffer> was, List<ByteBuffer> is) {
            for (ByteBuffer t : is) {
                if (was.contains(t)) {
                    continue;
                }
                String owner = changed.containsKey(t) ? changed.get(t) : stored(t);
                if (owner != null && !owner.equals(id) && (changed.containsKey(t) || !ownerGone.test(owner))) {
                    throw new StoreException(Status.CONFLICT, VIOLATION);
                }
            }
            for (ByteBuffer t : was) {
                if (!is.contains(t) && id.equals(changed.containsKey(t) ? changed.get(t) : stored(t))) {
                    changed.put(t, null);
                }
            }
            for (ByteBuffer t : is) {
                changed.put(t, id);
            }
        }

        private String stored(ByteBuffer t) {
            byte[] v = storedEntry.apply(t.array());
            return v == null ? null : new String(v, StandardCharsets.UTF_8);
        }

        Map<ByteBuffer, String> snapshot() {
            return new HashMap<>(changed);
        }

        void restore(Map<ByteBuffer, String> snapshot) {
            changed.clear();
            changed.putAll(snapshot);
        }

        void addTo(WriteSet ws) {
            for (Map.Entry<ByteBuffer, String> e : changed.entrySet()) {
                if (e.getValue() == null) {
                    ws.delete(Space.META, e.getKey().array());
                } else {
                    ws.put(Space.META, e.getKey().array(), e.getValue().getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }
}
