package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.unique.UniqueKeyCollision;
import io.tetradb.core.unique.UniqueKeyPolicy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the unique-key entries of a container whose data directory was written before the core enforced unique keys
 * (the policy was stored, no entries were): once, when the container is first loaded, before any writer can reach it.
 * A container created since carries the marker {@code META 22 · collId(4)} from its creation and is skipped.
 *
 * <p>Items that already collide are <b>reported, not refused</b>: refusing to open would lock the user out of their
 * data. The first item in key order keeps the values; each other one is a {@link UniqueKeyCollision} (logged and
 * listed by {@link ContainerStore#uniqueKeyCollisions()}); it stays readable, queryable, writable and deletable (a
 * write that leaves its values as they are is not checked again, as for any item), so the user resolves the
 * collision; the holder's entry stays the holder's. Expired items hold nothing and are skipped.
 */
final class UniqueKeyBackfill {
    private static final System.Logger LOG = System.getLogger(UniqueKeyBackfill.class.getName());
    private static final byte[] BUILT = {1};
    private static final int CHUNK_ITEMS = 1000;

    private UniqueKeyBackfill() {
    }

    /** The key that says the container's unique-key entries are complete (written at creation or by a build). */
    static byte[] marker(int collId) {
        return Keys.withByte(UniqueKeyIndex.UNIQUE, Keys.collId(collId));
    }

    static void markBuilt(WriteSet ws, int collId) {
        ws.put(Space.META, marker(collId), BUILT);
    }

    /** Builds the entries unless the marker is there; returns the collisions found (empty when none or built). */
    static List<UniqueKeyCollision> ensure(ContainerStore c, StorageEngine engine, UniqueKeyPolicy policy) {
        int collId = c.definition().collId();
        if (policy.isEmpty() || engine.get(Space.META, marker(collId)) != null) {
            return List.of();
        }
        List<UniqueKeyCollision> collisions = new ArrayList<>();
        Map<ByteBuffer, String> pending = new HashMap<>();
        WriteSet[] ws = {new WriteSet()};
        int[] inChunk = {0};
        int levels = c.definition().partitionKey().levels();
        byte[] from = Keys.collId(collId);
        byte[] to = Keys.collId(collId + 1);
        engine.scan(Space.DOCS, from, to, kv -> {
            if (c.isExpired(kv.value())) {
                return true;
            }
            byte[] lp = c.logicalPartitionOf(kv.key());
            String id = new String(kv.key(), lp.length, kv.key().length - lp.length, StandardCharsets.UTF_8);
            JsonNode item = c.codec().parse(kv.value());
            List<ByteBuffer> terms = UniqueKeyIndex.terms(policy, lp, item);
            for (int k = 0; k < terms.size(); k++) {
                ByteBuffer t = terms.get(k);
                String holder = pending.get(t);
                if (holder == null) {
                    byte[] stored = engine.get(Space.META, t.array());
                    holder = stored == null ? null : new String(stored, StandardCharsets.UTF_8);
                }
                if (holder != null && !holder.equals(id)) {
                    PartitionKeyValue pk = PartitionKeyValue.decode(lp, from.length + 16 * levels, lp.length);
                    collisions.add(new UniqueKeyCollision(pk.toString(), id, holder, k));
                    continue;
                }
                pending.put(t, id);
                ws[0].put(Space.META, t.array(), id.getBytes(StandardCharsets.UTF_8));
            }
            if (++inChunk[0] >= CHUNK_ITEMS) { // bounded memory: written entries are found by a read from here on
                engine.apply(ws[0]);
                ws[0] = new WriteSet();
                pending.clear();
                inChunk[0] = 0;
            }
            return true;
        });
        markBuilt(ws[0], collId);
        engine.apply(ws[0]);
        for (UniqueKeyCollision x : collisions) {
            LOG.log(System.Logger.Level.WARNING, "container " + c.definition().id() + ": item " + x.id()
                    + " in partition " + x.partitionKey() + " holds the values of unique key " + x.keyNo()
                    + " that item " + x.holder() + " holds too (written before unique keys were enforced); "
                    + x.holder() + " keeps them, writes of " + x.id() + " that keep them are refused with 409");
        }
        return collisions;
    }
}
