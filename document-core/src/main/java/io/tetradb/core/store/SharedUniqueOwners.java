package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.storage.partition.StoredItem;
import io.tetradb.core.unique.ItemUniqueIndex;
import io.tetradb.core.unique.UniqueIndexDefinition;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Face-defined unique indexes on a shared engine (issue 20; {@link FaceUniqueIndexes} keeps them in the embedded
 * engine otherwise). A unique key of an unsharded Mongo collection is container-wide: two writers of one value may be
 * in two logical partitions on two servers, and a conditional apply reaches one partition only. So every entry
 * ({@code 2B · collId · len · name · [EPK · pk] · key}) is its own logical partition of the owner container
 * {@link #ownerContainer(int)} (never a container's number), holding one item, the <b>owner record</b>, decided by a
 * conditional apply on that partition's version — any server, any engine, never a lock of one process:
 * <ol>
 *   <li>a writer that gives an item a new key <i>claims</i> it before its own partition's apply: the record names the
 *       item and the version {@code pa} its partition is applied against. Two claimants race on the owner
 *       partition's version: exactly one wins, the other reads the winner's record and decides again;</li>
 *   <li>a record's owner is <b>live</b> when its item holds the key; <b>dead</b> when not and its partition is past
 *       {@code pa} (versions only grow, so the claimant's apply can never happen: the version is read before the item,
 *       so an apply between the two reads shows in the item); <b>pending</b> when its partition is still at {@code pa}.
 *       Live → the writer is refused ({@link io.tetradb.core.unique.UniqueIndexViolation}, Mongo 11000); dead → taken
 *       over; pending → waited for (a claimant applies within milliseconds), and after {@link #PENDING_WAIT_MILLIS}
 *       (a crashed claimant) <i>fenced</i>: one conditional apply on the claimant's partition moves it past
 *       {@code pa}, so its write can never apply, and the record is dead;</li>
 *   <li>a key a transaction frees is released after its apply (the record deleted at the version read, if still the
 *       item's); a failed transaction releases its claims. A crash between leaves a dead record, taken over later.</li>
 * </ol>
 * A claim that replaces a record its own transaction makes stale (a key freed earlier in the same batch, or a
 * racing claim at the same partition version, which cannot both apply) keeps the replaced owner as {@code prev}, and
 * a record is live while either holds the key: a failed transaction never leaves a record pointing away from a
 * holder. Definitions live in the metadata (META {@code 2A · collId · name}, catalog changes), followed by every
 * server at its catalog check; a build claims the stored items' keys after two catalog checks (every server's writers
 * claim by then).
 */
final class SharedUniqueOwners {
    /** How long a claim whose item is not yet written is waited for before its partition is fenced. */
    static final long PENDING_WAIT_MILLIS = 2_000;
    private static final String RECORD = "o";
    private static final int MAX_ROUNDS = 1_000;

    private final CoreStore store;
    private final ContainerStore container;
    private final PartitionStore partitions;
    private final int collId;

    SharedUniqueOwners(CoreStore store, ContainerStore container, int collId) {
        this.store = store;
        this.container = container;
        this.partitions = store.partitions();
        this.collId = collId;
    }

    /** The owner records' container: negative, so never a container's number nor listed with its partitions. */
    static int ownerContainer(int collId) {
        return -collId - 1;
    }

    // ---- definitions, in the metadata ------------------------------------------------------------------------

    private byte[] definitionKey(String name) {
        return Keys.concat(Keys.withByte(FaceUniqueIndexes.DEFINITION, Keys.collId(collId)), Keys.utf8(name));
    }

    List<UniqueIndexDefinition> storedDefinitions() {
        List<UniqueIndexDefinition> out = new ArrayList<>();
        for (MetaEntry e : store.metadata().list(Keys.withByte(FaceUniqueIndexes.DEFINITION, Keys.collId(collId)))) {
            out.add(UniqueIndexDefinition.decode(e.value()));
        }
        return out;
    }

    /** Writes the definition if no index of that name exists; false otherwise. A catalog change: servers follow. */
    boolean createDefinition(UniqueIndexDefinition d) {
        return store.applyMeta(new MetaWrite().create(definitionKey(d.name()), d.encode()).catalogChange());
    }

    void deleteDefinition(String name) {
        store.applyMeta(new MetaWrite().delete(definitionKey(name)).catalogChange());
    }

    /** Waits until every server has seen a new definition: its writers claim keys from then on. */
    void awaitOtherServers() {
        try {
            Thread.sleep(2 * store.catalogCheckMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(Status.INTERNAL_SERVER_ERROR, "interrupted while building a unique index");
        }
    }

    /** Every stored item of the container, one logical partition at a time (a build's input). */
    interface ItemVisitor {
        void visit(byte[] lpPrefix, long version, String id, ObjectNode item);
    }

    void forEachItem(ItemVisitor visitor) {
        for (PartitionVersion pv : partitions.partitions(collId, null, null)) {
            LogicalPartition p = pv.partition();
            String after = null;
            while (true) {
                long version = partitions.version(p); // before the items: see the class comment
                List<StoredItem> chunk = partitions.scan(p, after == null ? null : after + '\u0000', null, 256);
                for (StoredItem s : chunk) {
                    visitor.visit(p.prefix(), version, s.id(), container.codec().parse(s.value()));
                }
                if (chunk.size() < 256) {
                    break;
                }
                after = chunk.get(chunk.size() - 1).id();
            }
        }
    }

    /** Every owner record of an index (its entries' prefix), released: the index is dropped. */
    void releaseAll(byte[] entryPrefix) {
        for (PartitionVersion pv : partitions.partitions(ownerContainer(collId), entryPrefix,
                Keys.prefixEnd(entryPrefix))) {
            LogicalPartition o = pv.partition();
            long v = pv.stats().version();
            partitions.apply(PartitionWrite.builder(o, v, v + 1).delete(RECORD)
                    .stats(new PartitionStats(0, 0, v + 1)).build()); // refused: a claim meanwhile, left to it
        }
    }

    // ---- owner records ----------------------------------------------------------------------------------------

    /** A record: the claimant ({@code EPK · pk · id}, its partition's version {@code pa}) and an optional prev. */
    record Owner(byte[] address, long pa) {
        boolean is(byte[] self) {
            return Arrays.equals(address, self);
        }
    }

    /**
     * {@code age}: the claiming transaction's ({@link UniqueClaimant}), for wait-die. Encoded {@code AGED · age ·}
     * owner {@code · [prev]}; a record from before ages (it starts with {@code pa}'s high byte, 0 for any version
     * below 2^56) decodes as {@link UniqueClaimant#OLDEST}, waited for as before.
     */
    record Record(Owner owner, Owner prev, long age) {
        private static final byte AGED = (byte) 0xA9;

        byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(29 + owner.address.length + (prev == null ? 0 : prev.address.length));
            b.put(AGED).putLong(age);
            put(b, owner);
            if (prev != null) {
                put(b, prev);
            }
            return Arrays.copyOf(b.array(), b.position());
        }

        private static void put(ByteBuffer b, Owner o) {
            b.putLong(o.pa).putShort((short) o.address.length).put(o.address);
        }

        static Record decode(byte[] v) {
            ByteBuffer b = ByteBuffer.wrap(v);
            long age = UniqueClaimant.OLDEST;
            if (v.length > 0 && v[0] == AGED) {
                b.get();
                age = b.getLong();
            }
            Owner owner = take(b);
            return new Record(owner, b.hasRemaining() ? take(b) : null, age);
        }

        private static Owner take(ByteBuffer b) {
            long pa = b.getLong();
            byte[] a = new byte[b.getShort() & 0xFFFF];
            b.get(a);
            return new Owner(a, pa);
        }
    }

    private enum State { LIVE, DEAD, PENDING }

    /** The claimant's logical partition ({@code collId · EPK · pk}) of an owner address. */
    private byte[] lpPrefixOf(byte[] address) {
        return container.logicalPartitionOf(Keys.concat(Keys.collId(collId), address));
    }

    /** Is {@code o} the key's holder (see the class comment)? The version is read before the item. */
    private State state(Owner o, ItemUniqueIndex keys, byte[] key) {
        byte[] lp = lpPrefixOf(o.address);
        LogicalPartition p = LogicalPartition.ofPrefix(lp);
        String id = new String(o.address, lp.length - 4, o.address.length - (lp.length - 4), StandardCharsets.UTF_8);
        long version = partitions.version(p);
        byte[] bytes = partitions.read(p, id);
        if (bytes != null && holds(keys, container.codec().parse(bytes), key)) {
            return State.LIVE;
        }
        return version > o.pa ? State.DEAD : State.PENDING;
    }

    private static boolean holds(ItemUniqueIndex keys, ObjectNode item, byte[] key) {
        for (byte[] k : keys.keys(item)) {
            if (Arrays.equals(k, key)) {
                return true;
            }
        }
        return false;
    }

    /** Waits (at most the lease) while {@code o}'s claim is pending: a claimant that gave way to it retries after. */
    private void awaitSettled(Owner o, ItemUniqueIndex keys, byte[] key) {
        long since = System.nanoTime();
        for (int round = 0; (System.nanoTime() - since) / 1_000_000L < PENDING_WAIT_MILLIS; round++) {
            if (state(o, keys, key) != State.PENDING) {
                return;
            }
            pause(round);
        }
    }

    /** Moves the pending claimant's partition past its {@code pa}: its apply can never happen after this. */
    private void fence(Owner o) {
        LogicalPartition p = LogicalPartition.ofPrefix(lpPrefixOf(o.address));
        PartitionStats s = partitions.stats(p);
        if (s.version() == o.pa) {
            partitions.apply(PartitionWrite.builder(p, o.pa, o.pa + 1)
                    .stats(new PartitionStats(s.bytes(), s.items(), o.pa + 1)).build()); // refused: it moved anyway
        }
    }

    /** What a claimant is told about the key: taken by a live holder, or claimed for it. */
    interface Refusal {
        RuntimeException taken();
    }

    /**
     * Claims {@code entry} (an index entry key) for the item at {@code self}, whose partition
     * ({@code selfLp}: {@code collId · EPK · pk}) applies at {@code pa}; {@code keys}/{@code key}: the index's key
     * function and the key, to tell whether a record's owner holds it; {@code freedHere}: this transaction freed the
     * key (an item of its partition held it before); {@code claimant}: the transaction, its age and its other claims
     * (wait-die, {@link UniqueClaimant}). Returns the record written (to release on failure), or throws
     * {@code refusal.taken()} when a live holder has it, {@link UniqueClaimYielded} when the transaction gives its
     * claims up to an older one's pending claim.
     */
    Record claim(byte[] entry, byte[] self, byte[] selfLp, long pa, ItemUniqueIndex keys, byte[] key,
                 boolean freedHere, Refusal refusal, UniqueClaimant claimant) {
        LogicalPartition o = new LogicalPartition(ownerContainer(collId), entry);
        long waitedSince = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            if (claimant.yielded()) {
                throw new UniqueClaimYielded(claimant); // another claim of this transaction gave up: so does this one
            }
            long v = partitions.version(o);
            byte[] stored = v == 0 ? null : partitions.read(o, RECORD);
            Owner prev = null;
            if (stored != null) {
                Record r = Record.decode(stored);
                if (r.owner.is(self) && r.owner.pa == pa) {
                    claimant.won();
                    return r; // claimed already (a second key of one item, a retried operation)
                }
                State state = State.DEAD;
                boolean ownPartition = false;
                for (Owner holder : r.prev == null ? List.of(r.owner) : List.of(r.owner, r.prev)) {
                    if (holder.is(self)) {
                        continue; // our own earlier claim: this write decides for the item now
                    }
                    if (freedHere && Arrays.equals(lpPrefixOf(holder.address), selfLp)) {
                        ownPartition = true; // freed by this transaction, held until it applies: kept as prev
                        prev = holder;
                        continue;
                    }
                    State s = state(holder, keys, key);
                    if (s == State.LIVE) {
                        throw refusal.taken();
                    }
                    if (s == State.PENDING && Arrays.equals(lpPrefixOf(holder.address), selfLp)) {
                        // our partition at our version: that write and ours cannot both apply; keep it as prev
                        ownPartition = true;
                        prev = holder;
                    } else if (s == State.PENDING) {
                        if (claimant.mustYieldTo(r.age, self, holder.address)) {
                            claimant.gaveWayTo(() -> awaitSettled(holder, keys, key));
                            throw new UniqueClaimYielded(claimant); // wait-die: the younger gives up; its claims go
                        }
                        state = State.PENDING; // older (or holding nothing yet): wait, bounded by the lease
                        if (waitedSince == 0) {
                            waitedSince = System.nanoTime();
                        }
                        if ((System.nanoTime() - waitedSince) / 1_000_000L >= PENDING_WAIT_MILLIS) {
                            fence(holder); // a claimant that does not apply (crashed): its write never will
                        }
                    }
                }
                if (state == State.PENDING) {
                    pause(round);
                    continue;
                }
                if (!ownPartition && r.owner.is(self) && r.prev != null) {
                    prev = r.prev; // our own earlier claim kept a prev: keep it
                }
            }
            Record mine = new Record(new Owner(self, pa), prev, claimant.age());
            byte[] value = mine.encode();
            ApplyResult a = partitions.apply(PartitionWrite.builder(o, v, v + 1).put(RECORD, value)
                    .stats(new PartitionStats(value.length, 1, v + 1)).build());
            if (a.applied()) {
                claimant.won();
                return mine;
            }
            pause(round); // another claimant won the record: read it and decide again
        }
        throw new StoreException(449, "the unique key's owner record kept changing; retry");
    }

    /**
     * Gives up a record this item wrote ({@code mine}) or holds: deleted — or put back to its prev, which may still
     * hold the key — at the version read, only while it is still {@code self}'s.
     */
    void release(byte[] entry, byte[] self, Record mine) {
        LogicalPartition o = new LogicalPartition(ownerContainer(collId), entry);
        for (int round = 0; round < 8; round++) {
            long v = partitions.version(o);
            byte[] stored = v == 0 ? null : partitions.read(o, RECORD);
            if (stored == null) {
                return;
            }
            Record r = Record.decode(stored);
            if (!r.owner.is(self) || mine != null && r.owner.pa != mine.owner.pa) {
                return; // another's now (or a later claim of this item's)
            }
            PartitionWrite.Builder w = PartitionWrite.builder(o, v, v + 1);
            if (r.prev == null) {
                w.delete(RECORD).stats(new PartitionStats(0, 0, v + 1));
            } else {
                byte[] back = new Record(r.prev, null, r.age).encode();
                w.put(RECORD, back).stats(new PartitionStats(back.length, 1, v + 1));
            }
            if (partitions.apply(w.build()).applied()) {
                return;
            }
        }
    }

    private static void pause(int round) {
        try {
            Thread.sleep(Math.min(50, 1 + round));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(Status.INTERNAL_SERVER_ERROR, "interrupted while claiming a unique key");
        }
    }
}
