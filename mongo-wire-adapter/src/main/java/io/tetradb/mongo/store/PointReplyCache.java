package io.tetradb.mongo.store;

import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.StampCheckedCache;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

/**
 * Point finds' whole replies as BSON bytes, each kept with its document's core write stamp read before the read
 * that gave it (mongo-cpu, issue 17): while the stamp is unchanged no write has reached the document, so the bytes
 * are still what a read would give, and a point find answers without RocksDB's memtable/SST search and the
 * TB1 → BSON transcoding (together about half of a point find's Java path), and (mongo-find) without building the
 * reply's envelope around the document again: a hit allocates nothing. The stamp rule and the byte bound are the core's
 * {@link StampCheckedCache}, as for the graph face's caches (the core bumps a stamp after every applied write, TTL
 * purges included); what is the face's: the key, the reply's bytes and charge, and when not to cache. The stamp is
 * the item's ({@code WriteStamps.stamp(pk, id)}, item-stamps, session 29), not the partition's: an unsharded
 * collection is one logical partition, and with the partition's stamp any write to it made every cached reply a miss.
 * <p>Used only where the stamps see every write and nothing changes a read without one: not on a shared engine
 * (another server's writes bump its own stamps), not for a container whose items expire (an item becomes invisible
 * with no write), not in a transaction or a sharded collection (the point find's own rules). A hit pays the
 * partition's throughput budget the read's charge, as the core's read would ({@code payFaceRead}).
 * <p>Bounded by the bytes it holds ({@code -Dtetradb.mongo.pointCacheBytes}; by default a sixteenth of the heap the
 * JVM may grow to, at least 32 MiB — 32 MiB under the server's default 1 GiB memory budget, whose heap is 512 MiB —;
 * 0 turns it off) and keeps no document over {@value #MAX_DOCUMENT_BYTES} bytes; past the bound, arbitrary entries
 * are dropped. The bound grows with the heap because a fixed one made a collection larger than it a cache of random
 * misses: 100k documents of 1 KB need ≈ 125 MiB.
 */
public final class PointReplyCache {
    /** The least default bound, and the bound when the heap has no limit. */
    static final long DEFAULT_BYTES = 32L << 20;
    static final int MAX_DOCUMENT_BYTES = 16 << 10;
    /** What an entry costs beyond its document (key, entry, map node), roughly. */
    private static final int OVERHEAD_BYTES = 120;

    /** A document read from {@code container} under {@code id}: the key of the map. */
    private static final class Key {
        private final ContainerStore container;
        private final String id;
        private final int hash;

        Key(ContainerStore container, String id) {
            this.container = container;
            this.id = id;
            this.hash = 31 * System.identityHashCode(container) + id.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && container == k.container && id.equals(k.id);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * The reply, the namespace it names, the stamp read before the read that gave its document, what that read was
     * charged and the account's read charge factor then (a consistency change makes the entry a miss, so a hit
     * always pays what a read would).
     */
    private static final class Reply extends StampCheckedCache.Entry {
        private final RawBsonDocument reply;
        private final String ns;
        private final double charge;
        private final int chargeFactor;

        Reply(long stamp, int bytes, RawBsonDocument reply, String ns, double charge, int chargeFactor) {
            super(stamp, bytes);
            this.reply = reply;
            this.ns = ns;
            this.charge = charge;
            this.chargeFactor = chargeFactor;
        }
    }

    private final StampCheckedCache<Key, Reply> replies;
    private final boolean sharedEngine;

    PointReplyCache(long maxBytes, boolean sharedEngine) {
        this.replies = new StampCheckedCache<>(maxBytes);
        this.sharedEngine = sharedEngine;
    }

    static PointReplyCache fromSystemProperty(boolean sharedEngine) {
        return new PointReplyCache(Long.getLong("tetradb.mongo.pointCacheBytes",
                defaultBytes(Runtime.getRuntime().maxMemory())), sharedEngine);
    }

    /** The bound when none is set: a sixteenth of {@code maxHeap} ({@code Long.MAX_VALUE}: no limit), at least 32 MiB. */
    static long defaultBytes(long maxHeap) {
        return maxHeap == Long.MAX_VALUE ? DEFAULT_BYTES : Math.max(DEFAULT_BYTES, maxHeap / 16);
    }

    /**
     * The stamp to read before reading the document {@code id} of {@code container}'s partition {@code pk}, or -1 when
     * nothing is cached for it.
     */
    long stampBeforeRead(ContainerStore container, PartitionKeyValue pk, String id) {
        if (!replies.enabled() || sharedEngine || container.expiryRule().active()) {
            return -1;
        }
        return container.writeStamps().stamp(pk, id);
    }

    /**
     * The cached reply to a point find of {@code id} in {@code ns} if its stamp is still {@code stamp} (from
     * {@link #stampBeforeRead}), its read's charge paid to the partition's budget; else null.
     */
    RawBsonDocument get(ContainerStore container, PartitionKeyValue pk, String id, String ns, long stamp,
                        double[] charge) {
        if (stamp < 0) {
            return null;
        }
        Reply r = replies.get(new Key(container, id), stamp);
        if (r == null || r.chargeFactor != container.accountReadChargeFactor() || !r.ns.equals(ns)) {
            return null;
        }
        container.payFaceRead(pk, r.charge); // admitted (429 when spent) and settled as the core's read
        charge[0] += r.charge;
        return r.reply;
    }

    /**
     * Keeps {@code reply}, a point find's reply in {@code ns} built from a document read after {@code stamp} was read,
     * at the read's {@code charge}.
     */
    void put(ContainerStore container, PartitionKeyValue pk, String id, String ns, long stamp, RawBsonDocument reply,
             double charge) {
        int size = reply.getByteBuffer().remaining();
        if (stamp < 0 || size > MAX_DOCUMENT_BYTES) {
            return;
        }
        replies.putIfCurrent(new Key(container, id), new Reply(stamp, size + OVERHEAD_BYTES + 2 * id.length(),
                reply, ns, charge, container.accountReadChargeFactor()), container.writeStamps().stamp(pk, id));
    }

    /**
     * insert-replies (issue 17): keeps an inserted document's own bytes as its point find's reply, so the first find of
     * a document just inserted is a hit (before, every document's first find missed: in a full {@code bench/run mongo}
     * about half of the median round's finds). Only for a document whose item a read gives back as exactly these bytes
     * ({@code asIsId}: its core id, from {@code RawBsonItems.lastReadsBackAsIs}). {@code before}, the item's stamp
     * read before the write, and the stamp now must differ by exactly the write's own bump: any other write of the
     * item (or one naming none of the partition's items, or another item of the same stripe) in between makes the
     * difference larger and nothing is kept. The charge kept is what {@link ContainerStore#read} of the stored version
     * ({@code written.stored()}) charges.
     */
    void putInserted(ContainerStore container, PartitionKeyValue pk, String asIsId, String ns, long before,
                     BsonDocument doc, io.tetradb.core.store.ItemResult written) {
        if (before < 0 || !(doc instanceof RawBsonDocument raw) || !written.isSuccess() || written.stored() == null
                || !asIsId.equals(written.id()) || raw.getByteBuffer().remaining() > MAX_DOCUMENT_BYTES) {
            return;
        }
        long now = container.writeStamps().stamp(pk, asIsId);
        if (now != before + 1) {
            return; // another write came between (or shares the stripe): a read will fill it
        }
        RawBsonDocument reply = (RawBsonDocument) io.tetradb.mongo.command.Replies.singleBatch(ns, raw); // a copy
        int size = reply.getByteBuffer().remaining();
        replies.putIfCurrent(new Key(container, asIsId), new Reply(now, size + OVERHEAD_BYTES + 2 * asIsId.length(),
                        reply, ns, container.readCharge(pk, asIsId, written.stored().length),
                        container.accountReadChargeFactor()), now);
    }

    /**
     * The stamps before a batch of inserts, {@code docs[from, from + n)}, for those {@code asIs} names (see
     * {@link #putInserted}); null when there are none or nothing is cached for this container.
     */
    long[] stampsBeforeInserts(ContainerStore container, PartitionKeyValue pk, int from, int n,
                               java.util.function.IntFunction<String> asIs) {
        long[] before = null;
        for (int k = 0; k < n; k++) {
            String id = asIs.apply(from + k);
            if (id != null) {
                long stamp = stampBeforeRead(container, pk, id);
                if (stamp < 0) {
                    return null; // not cached here at all
                }
                if (before == null) {
                    before = new long[n];
                    java.util.Arrays.fill(before, -1);
                }
                before[k] = stamp;
            }
        }
        return before;
    }

    /** Documents held now (tests). */
    int size() {
        return replies.size();
    }
}
