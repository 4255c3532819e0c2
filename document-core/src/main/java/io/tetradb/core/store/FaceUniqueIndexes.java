package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.unique.ItemUniqueIndex;
import io.tetradb.core.unique.UniqueIndexDefinition;
import io.tetradb.core.unique.UniqueIndexKind;
import io.tetradb.core.unique.UniqueIndexKinds;
import io.tetradb.core.unique.UniqueIndexViolation;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A container's face-defined unique indexes (a MongoDB unique index: keys per array element, sparse, partial; see
 * {@link ItemUniqueIndex}). Each key an item holds is an entry written in the item's own atomic write and checked in
 * its transaction, so two items never hold one key, not even for a moment:
 * <pre>
 * META 2A · collId(4) · name                                       → the definition (JSON)
 *      2B · collId(4) · len(2) · name · [EPK · pk] · key           → the owner's EPK · pk · id
 * </pre>
 * A per-partition index is checked under the logical partition's lock alone. A container-wide one spans logical
 * partitions, so a transaction that gives an item a new key of it also holds the container's {@link #wideLock}
 * (taken after the partition lock, kept until its write is applied): of two writers of one key in two partitions,
 * the second sees the first's entry.
 */
final class FaceUniqueIndexes {
    static final byte DEFINITION = 0x2A;
    static final byte ENTRY = 0x2B;

    private final StorageEngine engine;
    private final int collId;
    private final UniqueIndexKinds kinds;
    /** The definitions with their entry prefixes; swapped whole under the container's exclusive map lock. */
    private volatile List<Index> indexes;
    private final ReentrantLock wideLock = new ReentrantLock();
    /** Shared engine: a batch's claims sent at once (BatchUniqueClaims); false only to measure against in turn. */
    static volatile boolean claimsAtOnce = true;
    /** Shared-engine hook: owners decided by conditional applies on owner records (SharedUniqueOwners), or null. */
    private final SharedUniqueOwners shared;

    private static final class Index {
        final UniqueIndexDefinition definition;
        final byte[] prefix;
        volatile ItemUniqueIndex keys;

        Index(UniqueIndexDefinition definition, int collId) {
            this.definition = definition;
            byte[] name = definition.name().getBytes(StandardCharsets.UTF_8);
            this.prefix = Keys.concat(new byte[]{ENTRY}, Keys.collId(collId),
                    new byte[]{(byte) (name.length >>> 8), (byte) name.length}, name);
        }
    }

    FaceUniqueIndexes(StorageEngine engine, int collId, UniqueIndexKinds kinds) {
        this(engine, collId, kinds, null);
    }

    /** {@code shared}: on a shared engine, the definitions in the metadata and the owners in owner records. */
    FaceUniqueIndexes(StorageEngine engine, int collId, UniqueIndexKinds kinds, SharedUniqueOwners shared) {
        this.engine = engine;
        this.collId = collId;
        this.kinds = kinds;
        this.shared = shared;
        List<Index> loaded = new ArrayList<>();
        if (shared != null) {
            for (UniqueIndexDefinition d : shared.storedDefinitions()) {
                loaded.add(new Index(d, collId));
            }
        } else {
            byte[] from = Keys.withByte(DEFINITION, Keys.collId(collId));
            engine.scan(Space.META, from, Keys.withByte(DEFINITION, Keys.collId(collId + 1)), kv -> {
                loaded.add(new Index(UniqueIndexDefinition.decode(kv.value()), collId));
                return true;
            });
        }
        this.indexes = List.copyOf(loaded);
    }

    /** Shared engine: takes the definitions another server added or dropped (at a catalog refresh). */
    void follow() {
        if (shared == null) {
            return;
        }
        List<Index> next = new ArrayList<>();
        for (UniqueIndexDefinition d : shared.storedDefinitions()) {
            Index known = null;
            for (Index i : indexes) {
                if (i.definition.equals(d)) {
                    known = i;
                }
            }
            next.add(known != null ? known : new Index(d, collId));
        }
        indexes = List.copyOf(next);
    }

    List<UniqueIndexDefinition> definitions() {
        List<UniqueIndexDefinition> out = new ArrayList<>();
        for (Index i : indexes) {
            out.add(i.definition);
        }
        return out;
    }

    /** A transaction's view, or null when the container has no such index (writers then pay nothing). */
    Changes begin(byte[] lpPrefix) {
        return begin(lpPrefix, 0);
    }

    /** As above; {@code version}: the partition version the transaction applies against (a shared engine's claims). */
    Changes begin(byte[] lpPrefix, long version) {
        List<Index> now = indexes;
        if (now.isEmpty()) {
            return null;
        }
        for (Index i : now) {
            resolve(i);
        }
        return new Changes(now, lpPrefix, version);
    }

    private ItemUniqueIndex resolve(Index i) {
        ItemUniqueIndex k = i.keys;
        if (k == null) {
            UniqueIndexKind kind = kinds.get(i.definition.kind());
            if (kind == null) {
                // its keys cannot be computed here: writing would let the stored entries go stale
                throw new StoreException(Status.INTERNAL_SERVER_ERROR, "the unique index '" + i.definition.name()
                        + "' is kept by the '" + i.definition.kind() + "' face, which is not running in this "
                        + "process; writes to this container need it");
            }
            k = kind.open(i.definition);
            i.keys = k;
        }
        return k;
    }

    private static byte[] entry(Index index, byte[] lpPrefix, byte[] key) {
        return index.definition.perPartition()
                ? Keys.concat(index.prefix, Arrays.copyOfRange(lpPrefix, 4, lpPrefix.length), key)
                : Keys.concat(index.prefix, key);
    }

    /**
     * Adds an index, building the entries of every stored item in one write; writers are held off by the caller
     * (the container's exclusive map lock). A key two items hold fails it with a {@link UniqueIndexViolation} and
     * nothing is written. False if an index of that name exists already.
     */
    boolean add(ContainerStore container, UniqueIndexDefinition definition) {
        if (shared != null) {
            return addShared(definition);
        }
        for (Index i : indexes) {
            if (i.definition.name().equals(definition.name())) {
                return false;
            }
        }
        Index index = new Index(definition, collId);
        ItemUniqueIndex keys = resolve(index);
        Map<ByteBuffer, byte[]> entries = new HashMap<>();
        byte[] coll = Keys.collId(collId);
        engine.scan(Space.DOCS, coll, Keys.prefixEnd(coll), kv -> {
            ObjectNode item = container.codec().parse(kv.value());
            byte[] lp = container.logicalPartitionOf(kv.key());
            byte[] owner = Arrays.copyOfRange(kv.key(), 4, kv.key().length);
            for (byte[] key : keys.keys(item)) {
                byte[] had = entries.putIfAbsent(ByteBuffer.wrap(entry(index, lp, key)), owner);
                if (had != null && !Arrays.equals(had, owner)) {
                    throw new UniqueIndexViolation(definition.name(), key, item);
                }
            }
            return true;
        });
        WriteSet ws = new WriteSet();
        ws.put(Space.META, Keys.concat(Keys.withByte(DEFINITION, coll), Keys.utf8(definition.name())),
                definition.encode());
        for (Map.Entry<ByteBuffer, byte[]> e : entries.entrySet()) {
            ws.put(Space.META, e.getKey().array(), e.getValue());
        }
        engine.apply(ws);
        List<Index> next = new ArrayList<>(indexes);
        next.add(index);
        indexes = List.copyOf(next);
        return true;
    }

    /**
     * Shared engine: the definition in the metadata (every server's writers claim its keys after their next catalog
     * check), then, two checks later, the stored items' keys claimed one by one; a key a live other item holds
     * fails it: definition and the build's claims removed, {@link UniqueIndexViolation}. True also when the same
     * definition is there already (another server's request).
     */
    private boolean addShared(UniqueIndexDefinition definition) {
        if (!shared.createDefinition(definition)) {
            follow();
            for (Index i : indexes) {
                if (i.definition.equals(definition)) {
                    return true;
                }
            }
            return false;
        }
        Index index = new Index(definition, collId);
        ItemUniqueIndex keys = resolve(index);
        List<Index> next = new ArrayList<>(indexes);
        next.add(index);
        indexes = List.copyOf(next);
        List<Object[]> claimed = new ArrayList<>();
        UniqueClaimant build = UniqueClaimant.oldest(); // never gives up: its records are stored items' (live)
        try {
            shared.awaitOtherServers();
            shared.forEachItem((lp, version, id, item) -> {
                byte[] self = Keys.concat(Arrays.copyOfRange(lp, 4, lp.length), Keys.utf8(id));
                for (byte[] key : keys.keys(item)) {
                    byte[] entry = entry(index, lp, key);
                    SharedUniqueOwners.Record r = shared.claim(entry, self, lp, version, keys, key, false,
                            () -> new UniqueIndexViolation(definition.name(), key, item), build);
                    claimed.add(new Object[]{entry, self, r});
                }
            });
        } catch (RuntimeException e) {
            shared.deleteDefinition(definition.name());
            follow();
            for (Object[] c : claimed) {
                shared.release((byte[]) c[0], (byte[]) c[1], (SharedUniqueOwners.Record) c[2]);
            }
            throw e;
        }
        return true;
    }

    /** Removes an index and its entries (under the exclusive map lock); false if there is none of that name. */
    boolean drop(String name) {
        if (shared != null) { // shared engine: the definition from the metadata, then its owner records
            follow();
            Index found = null;
            for (Index i : indexes) {
                if (i.definition.name().equals(name)) {
                    found = i;
                }
            }
            if (found == null) {
                return false;
            }
            shared.deleteDefinition(name);
            follow();
            shared.releaseAll(found.prefix);
            return true;
        }
        List<Index> next = new ArrayList<>(indexes);
        Index found = null;
        for (Index i : next) {
            if (i.definition.name().equals(name)) {
                found = i;
            }
        }
        if (found == null) {
            return false;
        }
        next.remove(found);
        byte[] coll = Keys.collId(collId);
        engine.apply(new WriteSet()
                .delete(Space.META, Keys.concat(Keys.withByte(DEFINITION, coll), Keys.utf8(name)))
                .deleteRange(Space.META, found.prefix, Keys.prefixEnd(found.prefix)));
        indexes = List.copyOf(next);
        return true;
    }

    /** Removes every definition and entry of a container (it is being deleted). */
    static void dropAll(WriteSet ws, int collId) {
        for (byte tag : new byte[]{DEFINITION, ENTRY}) {
            ws.deleteRange(Space.META, Keys.withByte(tag, Keys.collId(collId)),
                    Keys.withByte(tag, Keys.collId(collId + 1)));
        }
    }

    /**
     * One transaction's changes: per item its entries after the transaction, per entry its owner after it (null:
     * removed). {@link #check} refuses a key another item holds without changing anything; {@link #record} then
     * takes the item's new entries; {@link #addTo} writes them.
     */
    final class Changes {
        private final List<Index> indexes;
        private final byte[] lpPrefix;
        private final Map<ByteBuffer, byte[]> owners = new HashMap<>();
        private final Map<String, List<ByteBuffer>> after = new HashMap<>();
        private boolean wideHeld;
        /** Shared engine: the partition version this transaction applies against, its claims, whether it applied. */
        private final long version;
        private final Map<ByteBuffer, SharedUniqueOwners.Record> claims = new HashMap<>();
        private final Map<ByteBuffer, List<String>> freedBy = new HashMap<>();
        private boolean applied;
        /** Shared engine, in a batch: claims sent at once (null: each claim made where it is checked). */
        private BatchUniqueClaims atOnce;
        private int operation;
        /** Shared engine: this transaction as a claimant, aged from its start (wait-die between claimants). */
        private final UniqueClaimant claimant = UniqueClaimant.startingNow();

        private Changes(List<Index> indexes, byte[] lpPrefix, long version) {
            this.indexes = indexes;
            this.lpPrefix = lpPrefix;
            this.version = version;
        }

        private List<ByteBuffer> entriesOf(ObjectNode item) {
            if (item == null) {
                return List.of();
            }
            List<ByteBuffer> out = new ArrayList<>();
            for (Index i : indexes) {
                for (byte[] key : i.keys.keys(item)) {
                    out.add(ByteBuffer.wrap(entry(i, lpPrefix, key)));
                }
            }
            return out;
        }

        private List<ByteBuffer> current(String id, Supplier<ObjectNode> stored) {
            List<ByteBuffer> e = after.get(id);
            return e != null ? e : entriesOf(stored.get());
        }

        /**
         * The entries {@code item} (the new version of the item at {@code docKey}) will hold; a
         * {@link UniqueIndexViolation} if another item holds one. Changes nothing.
         */
        List<ByteBuffer> check(String id, byte[] docKey, Supplier<ObjectNode> stored, ObjectNode item) {
            List<ByteBuffer> was = current(id, stored);
            List<ByteBuffer> is = entriesOf(item);
            byte[] self = Arrays.copyOfRange(docKey, 4, docKey.length);
            for (ByteBuffer t : is) {
                if (was.contains(t)) {
                    continue;
                }
                Index index = indexOf(t);
                if (!index.definition.perPartition() && !wideHeld) {
                    wideLock.lock(); // released by release(), once the write set is applied
                    wideHeld = true;
                }
                int skip = index.prefix.length + (index.definition.perPartition() ? lpPrefix.length - 4 : 0);
                byte[] key = Arrays.copyOfRange(t.array(), skip, t.array().length);
                if (shared != null) { // shared-engine hook: a conditional claim of the owner record
                    byte[] local = owners.get(t);
                    if (local != null && !Arrays.equals(local, self)) {
                        throw new UniqueIndexViolation(index.definition.name(), key, item);
                    }
                    boolean freedHere = owners.containsKey(t);
                    Supplier<SharedUniqueOwners.Record> claim = () -> shared.claim(t.array(), self, lpPrefix, version,
                            index.keys, key, freedHere, () -> new UniqueIndexViolation(index.definition.name(), key,
                                    item), claimant);
                    if (atOnce != null) {
                        atOnce.send(t, operation, claim); // settled with the batch's others (settleClaims)
                    } else {
                        claims.put(t, claim.get());
                    }
                    continue;
                }
                byte[] owner = owners.containsKey(t) ? owners.get(t) : engine.get(Space.META, t.array());
                if (owner != null && !Arrays.equals(owner, self)) {
                    throw new UniqueIndexViolation(index.definition.name(), key, item);
                }
            }
            return is;
        }

        /**
         * Shared engine: operation {@code index} of a batch is next; its claims (and the batch's others) are sent at
         * once and settled by {@link #settleClaims} before the batch's write set is built.
         */
        void claimAtOnce(int index) {
            if (shared != null && claimsAtOnce) {
                if (atOnce == null) {
                    atOnce = new BatchUniqueClaims();
                }
                operation = index;
            }
        }

        /** Waits for the batch's claims; the earliest operation's failure (a violation), or null when all were won. */
        BatchUniqueClaims.Failure settleClaims() {
            return atOnce == null ? null : atOnce.settleInto(claims);
        }

        private Index indexOf(ByteBuffer entry) {
            byte[] e = entry.array();
            for (Index i : indexes) {
                if (e.length >= i.prefix.length && Arrays.equals(e, 0, i.prefix.length, i.prefix, 0, i.prefix.length)) {
                    return i;
                }
            }
            throw new IllegalStateException("an entry of no index");
        }

        /** The item's entries go from what it held to {@code is} (null: it is deleted). */
        void record(String id, byte[] docKey, Supplier<ObjectNode> stored, List<ByteBuffer> is) {
            List<ByteBuffer> was = current(id, stored);
            List<ByteBuffer> next = is == null ? List.of() : is;
            for (ByteBuffer t : was) {
                if (!next.contains(t)) {
                    owners.put(t, null);
                    if (shared != null) {
                        freedBy.computeIfAbsent(t, k -> new ArrayList<>()).add(id);
                    }
                }
            }
            byte[] self = Arrays.copyOfRange(docKey, 4, docKey.length);
            for (ByteBuffer t : next) {
                owners.put(t, self);
            }
            after.put(id, next);
        }

        Object snapshot() {
            Map<ByteBuffer, List<String>> freed = new HashMap<>();
            freedBy.forEach((k, v) -> freed.put(k, new ArrayList<>(v)));
            return new Object[]{new HashMap<>(owners), new HashMap<>(after), freed};
        }

        @SuppressWarnings("unchecked")
        void restore(Object snapshot) {
            Object[] s = (Object[]) snapshot;
            owners.clear();
            owners.putAll((Map<ByteBuffer, byte[]>) s[0]);
            after.clear();
            after.putAll((Map<String, List<ByteBuffer>>) s[1]);
            freedBy.clear();
            freedBy.putAll((Map<ByteBuffer, List<String>>) s[2]);
        }

        void addTo(WriteSet ws) {
            if (shared != null) {
                BatchUniqueClaims.Failure f = settleClaims(); // (settled already by a batch's run)
                if (f != null) {
                    throw f.error();
                }
                return; // shared engine: the owners are owner records, claimed before the apply
            }
            for (Map.Entry<ByteBuffer, byte[]> e : owners.entrySet()) {
                if (e.getValue() == null) {
                    ws.delete(Space.META, e.getKey().array());
                } else {
                    ws.put(Space.META, e.getKey().array(), e.getValue());
                }
            }
        }

        /** The transaction's write set was applied (shared engine: its freed keys are released, its claims kept). */
        void applied() {
            applied = true;
        }

        /** Lets other partitions' writers check container-wide keys again; after the write set is applied. */
        void release() {
            if (shared != null) {
                releaseShared();
            }
            if (wideHeld) {
                wideHeld = false;
                wideLock.unlock();
            }
        }

        /**
         * Shared engine: after an apply, the keys the transaction freed are released and claims it made for keys no
         * item kept; after a failure, every claim it made (a failed transaction leaves no record behind).
         */
        private void releaseShared() {
            settleClaims(); // claims still in flight (a batch that failed first) are released with the others
            Map<ByteBuffer, SharedUniqueOwners.Record> mine = new HashMap<>(claims);
            claims.clear();
            if (applied) {
                for (Map.Entry<ByteBuffer, byte[]> e : owners.entrySet()) {
                    if (e.getValue() == null) {
                        releaseFreed(e.getKey(), mine.remove(e.getKey()));
                    } else {
                        mine.remove(e.getKey()); // kept by its item
                    }
                }
            }
            for (Map.Entry<ByteBuffer, SharedUniqueOwners.Record> e : mine.entrySet()) {
                shared.release(e.getKey().array(), e.getValue().owner().address(), e.getValue());
            }
        }

        /** A key no item of the transaction holds any more: the record of whichever of its items had it goes. */
        private void releaseFreed(ByteBuffer entry, SharedUniqueOwners.Record claimed) {
            if (claimed != null) {
                shared.release(entry.array(), claimed.owner().address(), claimed);
                return;
            }
            for (String id : freedBy.getOrDefault(entry, List.of())) {
                shared.release(entry.array(), Keys.concat(Arrays.copyOfRange(lpPrefix, 4, lpPrefix.length),
                        Keys.utf8(id)), null);
            }
        }
    }
}
