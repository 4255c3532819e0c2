package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosBatchOperationResult;
import io.tetradb.document.CosmosBatchResponse;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosItemRequestOptions;
import io.tetradb.document.CosmosItemResponse;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.FeedResponse;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.SqlParameter;
import io.tetradb.document.SqlQuerySpec;

import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.GraphAdjacency;
import io.tetradb.core.store.WriteStamps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The graph's only door to the core: point reads, writes and SQL queries on one container, each charge added to
 * {@link RequestCharges}. Point reads come back without the core's system fields; query results keep them (every
 * reader skips them as reserved names).
 */
public final class GraphStore {
    /** Large pages: a traversal usually wants every result, and each page costs a base charge. */
    private static final int PAGE_SIZE = 1000;
    /** Operations per transactional batch: the core's (and Cosmos DB's) limit. */
    public static final int MAX_BATCH = 100;

    private final CosmosContainer container;
    private final RequestCharges charges = new RequestCharges();
    /**
     * Write counters striped by address: a write bumps its item's stripe, and an element whose snapshot was taken at
     * an older count of its stripe reads its item again. Bounded memory; a collision only costs a needless read.
     */
    private static final int STRIPES = 1 << 12;
    private final AtomicLongArray versions = new AtomicLongArray(STRIPES);
    private final ThreadLocal<String> lastAccessPath = ThreadLocal.withInitial(() -> "");

    /** Parsed items kept for reuse when the core confirms they are current: enough for a working set of vertices. */
    public static final int DEFAULT_CACHED_ITEMS = 100_000;
    /** The parsed items' estimated heap size, at most. */
    public static final long DEFAULT_CACHED_BYTES = 64L << 20;

    private final ItemCache cache;

    public GraphStore(CosmosContainer container) {
        this(container, DEFAULT_CACHED_ITEMS);
    }

    /** {@code cachedItems}: how many parsed items to keep (0: none). */
    public GraphStore(CosmosContainer container, int cachedItems) {
        this(container, cachedItems, null);
    }

    /**
     * {@code core}: the container's core store, for its adjacency entries (null: none, every hop reads edge items).
     */
    public GraphStore(CosmosContainer container, int cachedItems, Supplier<ContainerStore> core) {
        this(container, cachedItems, DEFAULT_CACHED_BYTES, core);
    }

    /** {@code cachedBytes}: the parsed items kept, at most (an estimate of their heap size). */
    public GraphStore(CosmosContainer container, int cachedItems, long cachedBytes, Supplier<ContainerStore> core) {
        this.container = container;
        this.cache = new ItemCache(cachedItems, cachedBytes);
        this.core = core;
    }

    // ---- adjacency entries (the core's GraphAdjacency) --------------------------------------------------------

    private final Supplier<ContainerStore> core;
    private volatile ContainerStore coreStore;

    private ContainerStore coreStore() {
        ContainerStore c = coreStore;
        if (c == null || c.isDeleted()) {
            c = core.get();
            coreStore = c;
            cache.clear(); // stamps of another container instance mean nothing here
            adjacencyCache.clear();
        }
        return c;
    }

    /** Turns the core's adjacency entries on for this container (built for the edges it holds) if they are not yet. */
    public void enableAdjacency() {
        if (core != null) {
            coreStore().enableGraphAdjacency();
        }
    }

    /** The container's adjacency entries, or null when the graph reads edge items instead. */
    public GraphAdjacency adjacency() {
        return core == null ? null : coreStore().graphAdjacency();
    }

    private final AdjacencyCache adjacencyCache = new AdjacencyCache(DEFAULT_CACHED_BYTES);

    /**
     * A vertex's adjacency entries in one direction ({@link GraphAdjacency#OUT} or {@link GraphAdjacency#IN}) and
     * label (null: every label), decoded, from {@link AdjacencyCache} while the core's write stamps say they are
     * current, else by one scan (charged 1 RU plus 0.01 per entry; a cached list is charged alike). Shared: do not
     * change the list.
     */
    public List<Hop> adjacency(GraphAdjacency adjacency, Object pk, String id, byte direction, String label) {
        ContainerStore core = coreStore();
        io.tetradb.core.store.WriteStamps stamps = core.writeStamps();
        PartitionKeyValue pkv = partitionKeyValue(pk);
        long stamp = adjacencyStamp(adjacency, stamps, pkv, id, direction); // before the scan
        List<Hop> hops = adjacencyCache.get(pk, id, direction, label, stamp);
        if (hops == null) {
            List<Hop> read = new ArrayList<>();
            adjacency.scan(pkv, id, direction, label, e -> {
                read.add(new Hop(e.direction(), e.label(), otherPk(e.otherPk()), e.otherId(), e.otherLabel(),
                        e.edgeId(), e.properties()));
                return true;
            });
            hops = read;
            adjacencyCache.put(pk, id, direction, label, stamp, adjacencyStamp(adjacency, stamps, pkv, id, direction),
                    hops);
        }
        charges.add(paid(pkv, atAccountLevel(1 + 0.01 * hops.size())));
        return hops;
    }

    /**
     * The write stamp a vertex's adjacency entries in {@code direction} are current by: the list's own (the core bumps
     * it when a transaction puts or deletes one of its entries — an out-entry is written with its edge in the vertex's
     * partition, an in-entry with its edge in another — and with every write that names nothing); before session 29
     * the partition's for out-entries and the container's for in-entries, so adding any edge ended every cached
     * in-list. Both directions at once (0): the container's stamp.
     */
    private static long adjacencyStamp(GraphAdjacency adjacency, io.tetradb.core.store.WriteStamps stamps,
                                       PartitionKeyValue pkv, String id, byte direction) {
        return direction == GraphAdjacency.OUT || direction == GraphAdjacency.IN
                ? stamps.adjacencyStamp(adjacency.vertexDirection(pkv, id, direction)) : stamps.any();
    }

    /** The composite index {@link Layout#indexingPolicy()} declares for {@link #labelCounts}. */
    public static final List<String> LABEL_COUNT_INDEX = List.of("/" + Layout.IS_EDGE, "/" + Layout.LABEL);

    /**
     * Vertices (or edges) per label from the keys of the {@link #LABEL_COUNT_INDEX} composite index (nothing read or
     * parsed; charged 1 RU plus 0.01 per label), or null when the container has no such index (an existing
     * container keeps its policy), is rebuilding it, a label is too long for its entry, or items expire (a TTL):
     * then ask a query.
     * An item without a string label counts under {@code defaultLabel}.
     */
    public Map<String, Long> labelCounts(boolean vertices, String defaultLabel) {
        if (core == null || coreStore().expiryRule().active()) {
            return null; // with expiry, the index still holds expired items the purger has not removed yet
        }
        Map<JsonNode, Long> counts = coreStore().countByComposite(LABEL_COUNT_INDEX,
                List.of(vertices ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                        : com.fasterxml.jackson.databind.node.BooleanNode.TRUE));
        if (counts == null) {
            return null;
        }
        Map<String, Long> out = new java.util.HashMap<>();
        counts.forEach((label, n) -> out.merge(label.isTextual() ? label.textValue() : defaultLabel, n, Long::sum));
        charges.add(paid(null, atAccountLevel(1 + 0.01 * out.size())));
        return out;
    }

    /**
     * The items whose {@code label} is {@code label}, found from the core's index keys for {@code /label} (nothing
     * parsed) and read through {@link #read} (the exact item cache; a point read on a miss), in index order; null
     * when the container does not index {@code /label} (then query). Items are not filtered: vertices and edges.
     */
    public Iterator<ObjectNode> itemsWithLabel(String label) {
        if (core == null) {
            return null;
        }
        List<io.tetradb.core.store.ItemAddress> addresses = coreStore().addressesByTerm(List.of(Layout.LABEL),
                com.fasterxml.jackson.databind.node.TextNode.valueOf(label));
        if (addresses == null) {
            return null;
        }
        charges.add(paid(null, atAccountLevel(1 + 0.01 * addresses.size()))); // the key scan, as an adjacency scan is charged
        Iterator<io.tetradb.core.store.ItemAddress> it = addresses.iterator();
        return new Iterator<>() {
            private ObjectNode next;

            @Override
            public boolean hasNext() {
                while (next == null && it.hasNext()) {
                    io.tetradb.core.store.ItemAddress a = it.next();
                    next = read(otherPk(a.pk().components().get(0)), a.id());
                }
                return next != null;
            }

            @Override
            public ObjectNode next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ObjectNode out = next;
                next = null;
                return out;
            }
        };
    }

    /**
     * One adjacency entry, decoded. {@code properties}: the edge's properties as the entry carries them (JSON, or TB1
     * when they hold typed values), null when not carried. Hops are kept by {@link AdjacencyCache}, so the carried
     * properties are parsed once per hop ({@link #carriedProperties()}), not once per traversal that reads them.
     */
    public static final class Hop {
        private final byte direction;
        private final String label;
        private final Object otherPk;
        private final String otherId;
        private final String otherLabel;
        private final String edgeId;
        private final byte[] properties;
        /** The parsed properties (shared, never changed), {@link #UNPARSED} until asked for, null when unreadable. */
        private volatile ObjectNode parsed = UNPARSED;

        public Hop(byte direction, String label, Object otherPk, String otherId, String otherLabel, String edgeId,
                   byte[] properties) {
            this.direction = direction;
            this.label = label;
            this.otherPk = otherPk;
            this.otherId = otherId;
            this.otherLabel = otherLabel;
            this.edgeId = edgeId;
            this.properties = properties;
        }

        public byte direction() {
            return direction;
        }

        public String label() {
            return label;
        }

        public Object otherPk() {
            return otherPk;
        }

        public String otherId() {
            return otherId;
        }

        public String otherLabel() {
            return otherLabel;
        }

        public String edgeId() {
            return edgeId;
        }

        public byte[] properties() {
            return properties;
        }

        /**
         * The carried properties as an object, parsed on first use and then shared by every edge made from this hop
         * (callers must not change it): null when the entry carries none or they cannot be read (then the edge reads
         * its item).
         */
        public ObjectNode carriedProperties() {
            ObjectNode p = parsed;
            if (p == UNPARSED) {
                p = properties == null ? null : parseCarried(properties);
                parsed = p; // racing threads parse equal objects; any of them may stay
            }
            return p;
        }
    }

    private static final ObjectNode UNPARSED = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    private static final com.fasterxml.jackson.databind.ObjectMapper CARRIED_JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * An adjacency entry's carried edge properties: JSON, or the core's binary item format (TB1, whose object tags
     * 0x20/0x21 are never a JSON object's first byte) when they hold typed values JSON cannot carry; null if neither.
     */
    static ObjectNode parseCarried(byte[] bytes) {
        if (bytes.length == 0) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        if (bytes[0] != '{') {
            try {
                return io.tetradb.core.item.BinaryItemReader.readObject(bytes, 0);
            } catch (RuntimeException e) {
                return null;
            }
        }
        try {
            return CARRIED_JSON.readTree(bytes) instanceof ObjectNode o ? o : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * A partition key value decoded from the core's key encoding: numbers come back as doubles there, so an
     * integral one is an Integer (or Long), as an item's JSON number reads.
     */
    private static Object otherPk(JsonNode n) {
        if (n.isTextual()) {
            return n.textValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        double d = n.doubleValue();
        if (d == Math.rint(d) && Math.abs(d) < 9.007199254740992E15) {
            long l = (long) d;
            return l == (int) l ? (Object) (int) l : (Object) l;
        }
        return d;
    }

    /**
     * How many adjacency entries a vertex has in a direction (and label): a cached list's size or cached count, else a
     * count of keys (nothing decoded; kept in {@link AdjacencyCache} by the same write stamps as a list); charged as
     * {@link #adjacency}.
     */
    public long countAdjacent(GraphAdjacency adjacency, Object pk, String id, byte direction, String label) {
        ContainerStore core = coreStore();
        PartitionKeyValue pkv = partitionKeyValue(pk);
        long stamp = adjacencyStamp(adjacency, core.writeStamps(), pkv, id, direction); // before the count
        long n = adjacencyCache.count(pk, id, direction, label, stamp);
        if (n < 0) {
            n = adjacency.count(pkv, id, direction, label);
            adjacencyCache.putCount(pk, id, direction, label, stamp,
                    adjacencyStamp(adjacency, core.writeStamps(), pkv, id, direction), n); // exact as a list
        }
        charges.add(paid(pkv, atAccountLevel(1 + 0.01 * n)));
        return n;
    }

    /** The core's value of a partition key, shared as {@link #partitionKey} is (its hash is computed once). */
    public static PartitionKeyValue partitionKeyValue(Object pk) {
        PartitionKeyValue k = PARTITION_KEY_VALUES.get(pk);
        if (k == null) {
            if (PARTITION_KEY_VALUES.size() > 65_536) {
                PARTITION_KEY_VALUES.clear();
            }
            k = PartitionKeyValue.of(PartitionKeyValue.component(pk));
            PARTITION_KEY_VALUES.put(pk, k);
        }
        return k;
    }

    private static final java.util.concurrent.ConcurrentHashMap<Object, PartitionKeyValue> PARTITION_KEY_VALUES =
            new java.util.concurrent.ConcurrentHashMap<>();

    public RequestCharges charges() {
        return charges;
    }

    /**
     * A read the graph charges itself (a cached item, an adjacency or index key scan, a miss) at the account's
     * consistency level: twice under strong or bounded staleness, as the core charges its own reads.
     */
    private double atAccountLevel(double ru) {
        return core == null ? ru : io.tetradb.core.store.RequestCharge.atFactor(ru, coreStore().accountReadChargeFactor());
    }

    /**
     * A charge the graph answers itself, paid to the partition's budget ({@code pk} null: every partition) as the core
     * pays its own reads, so a cache hit is throttled as Cosmos DB's Gremlin API throttles every read; returns it.
     */
    private double paid(PartitionKeyValue pk, double ru) {
        if (core != null) {
            if (pk == null) {
                coreStore().payFaceRead(ru);
            } else {
                coreStore().payFaceRead(pk, ru);
            }
        }
        return ru;
    }

    /** The write count of the stripe holding (pk, id). */
    public long version(Object pk, String id) {
        return versions.get(stripe(pk, id));
    }

    private void bump(Object pk, String id) {
        versions.incrementAndGet(stripe(pk, id));
    }

    private static int stripe(Object pk, String id) {
        int h = 31 * String.valueOf(pk).hashCode() + id.hashCode();
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }

    /** The access path (the core's explain) of the last query page this thread read. */
    public String lastAccessPath() {
        return lastAccessPath.get();
    }

    /**
     * The item at (pk, id), or null. Shared with other readers: do not change it (copy it first). A cached parse is
     * reused when the core confirms, by etag, that the item has not changed ({@link ItemCache}).
     */
    public ObjectNode read(Object pk, String id) {
        ItemCache.Entry cached = cache.get(pk, id);
        // the item's write stamp before the read: the cached item is current while it is unchanged
        long stamp = core == null ? -1 : coreStore().writeStamps().stamp(partitionKeyValue(pk), id);
        if (cached != null && stamp >= 0 && cached.stamp() == stamp) {
            charges.add(paid(partitionKeyValue(pk), atAccountLevel(1))); // what the core charges a point read (or a 304)
            return cached.item();
        }
        CosmosItemRequestOptions options = cached == null ? null
                : new CosmosItemRequestOptions().setIfNoneMatchETag(cached.etag());
        try {
            CosmosItemResponse<ObjectNode> r = container.readItem(id, partitionKey(pk), options, ObjectNode.class);
            charges.add(r.getRequestCharge());
            if (r.getStatusCode() == 304 && cached != null) {
                cache.put(pk, id, cached.item(), stamp);
                return cached.item();
            }
            ObjectNode item = strip(r.getItem());
            cache.put(pk, id, item, stamp);
            return item;
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                cache.remove(pk, id);
                charges.add(atAccountLevel(1));
                return null;
            }
            throw e;
        }
    }

    /**
     * {@link #read} of several items: the cached ones (current by their write stamps) from the cache, the
     * others in one core multi-get (not revalidated by etag: a miss reads the item whole). Per address, the item or
     * null. Without a core store (tests of the document face only), one point read each.
     */
    public List<ObjectNode> readMany(List<Object> pks, List<String> ids) {
        if (core == null) {
            List<ObjectNode> out = new ArrayList<>(ids.size());
            for (int i = 0; i < ids.size(); i++) {
                out.add(read(pks.get(i), ids.get(i)));
            }
            return out;
        }
        return cachedOrMultiGet(pks, ids, null);
    }

    /**
     * For reading a few top-level fields of several items: per address, the whole item when the exact cache holds it
     * current, else the stored item read in one core multi-get for all of them: a binary item as a whole tree decoded
     * when first touched, cached (so only the fields looked at are decoded), or, with the item cache off, only the
     * fields {@code fields} decoded and nothing cached; a JSON-text one parsed whole; null where the item does not
     * exist. What it returns must not be taken as the element's snapshot (it may be partial). Charged as
     * {@link #readMany}.
     */
    public List<ObjectNode> readFields(List<Object> pks, List<String> ids, java.util.Collection<String> fields) {
        if (core == null) {
            return readMany(pks, ids);
        }
        return cachedOrMultiGet(pks, ids, Objects.requireNonNull(fields));
    }

    /** How a caller turns a vertex's item into its values of some keys ({@link #readValues}). */
    @FunctionalInterface
    public interface ValuesOf {
        /** The values of the {@code index}-th address's item (never null). */
        List<Object> of(int index, ObjectNode item);
    }

    /**
     * {@code values(keys)} of several vertices: per address, {@code valuesOf} applied to the item {@link #readFields}
     * gives (null where the item does not exist); for an item the exact cache holds, the values it gave last time
     * for the same keys are kept with the cached item and reused while the item is current (only immutable values:
     * strings, numbers, booleans, ...; the item never changes while cached, so they are exact). Charged as
     * {@link #readMany}.
     */
    public List<List<Object>> readValues(List<Object> pks, List<String> ids, String[] keys, ValuesOf valuesOf) {
        ItemCache.Entry[] entries = core == null ? null : new ItemCache.Entry[ids.size()];
        List<ObjectNode> items = core == null ? readMany(pks, ids)
                : cachedOrMultiGet(pks, ids, Arrays.asList(keys), entries);
        List<List<Object>> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            ObjectNode item = items.get(i);
            ItemCache.Entry e = entries == null ? null : entries[i];
            List<Object> values = item == null ? null : e == null ? null : e.values(keys);
            if (item != null && values == null) {
                values = valuesOf.of(i, item);
                if (e != null) {
                    cache.keepValues(e, keys, values);
                }
            }
            out.add(values);
        }
        return out;
    }

    /** Whether the exact item cache holds the item at (pk, id) current now with its values of {@code keys} (for tests). */
    public boolean keepsValues(Object pk, String id, String... keys) {
        ItemCache.Entry e = cache.get(pk, id);
        return cachesCurrent(pk, id) && e != null && e.values(keys) != null;
    }

    /** Whether the adjacency cache holds (pk, id)'s list in {@code direction} and {@code label} current now (tests). */
    public boolean cachesAdjacency(Object pk, String id, byte direction, String label) {
        GraphAdjacency adjacency = adjacency();
        return adjacency != null && adjacencyCache.get(pk, id, direction, label,
                adjacencyStamp(adjacency, coreStore().writeStamps(), partitionKeyValue(pk), id, direction)) != null;
    }

    /** Whether the exact item cache holds the item at (pk, id) current now (for tests). */
    public boolean cachesCurrent(Object pk, String id) {
        return core != null && cache.holds(pk, id, coreStore().writeStamps().stamp(partitionKeyValue(pk), id));
    }

    /**
     * The items at these addresses: those the exact cache holds current (by their write stamps, read
     * before the read) from it, the rest in one core multi-get. {@code fields} null: the rest are parsed whole and
     * cached (an absent one leaves the cache); else only those top-level fields of a binary item are decoded, and
     * nothing is cached. Per address, the item or null.
     */
    private List<ObjectNode> cachedOrMultiGet(List<Object> pks, List<String> ids, java.util.Collection<String> fields) {
        return cachedOrMultiGet(pks, ids, fields, null);
    }

    /**
     * As above; {@code entries} (may be null) receives, per address, the cache entry the item came from or went into.
     * graph-trav: a hop's vertices come in runs of one logical partition (adjacency entries are in key order), so a
     * partition's key is made and its budget paid once per run, not once per vertex.
     */
    private List<ObjectNode> cachedOrMultiGet(List<Object> pks, List<String> ids, java.util.Collection<String> fields,
                                              ItemCache.Entry[] entries) {
        List<ObjectNode> out = new ArrayList<>(Collections.nCopies(ids.size(), null));
        ContainerStore store = coreStore();
        WriteStamps writeStamps = store.writeStamps();
        double hitCharge = atAccountLevel(1); // what the core charges a point read
        List<Integer> missing = new ArrayList<>();
        List<io.tetradb.core.store.ItemAddress> addresses = new ArrayList<>();
        long[] stamps = new long[ids.size()];
        Object runPk = null;
        PartitionKeyValue runPkv = null;
        int runHits = 0;
        for (int i = 0; i < ids.size(); i++) {
            Object pk = pks.get(i);
            if (runPkv == null || !(pk == runPk || pk.equals(runPk))) {
                if (runHits > 0) {
                    charges.add(paid(runPkv, hitCharge * runHits));
                }
                runPk = pk;
                runPkv = partitionKeyValue(pk);
                runHits = 0;
            }
            stamps[i] = writeStamps.stamp(runPkv, ids.get(i)); // before the read, as in read()
            ItemCache.Entry cached = cache.current(pk, ids.get(i), stamps[i]);
            if (cached != null) {
                runHits++;
                out.set(i, cached.item());
                if (entries != null) {
                    entries[i] = cached;
                }
            } else {
                missing.add(i);
                addresses.add(new io.tetradb.core.store.ItemAddress(runPkv, ids.get(i)));
            }
        }
        if (runHits > 0) {
            charges.add(paid(runPkv, hitCharge * runHits));
        }
        if (addresses.isEmpty()) {
            return out;
        }
        List<io.tetradb.core.store.ItemResult> read = store.readMany(addresses);
        for (int j = 0; j < read.size(); j++) {
            int i = missing.get(j);
            io.tetradb.core.store.ItemResult r = read.get(j);
            if (r == null) {
                charges.add(atAccountLevel(1));
                if (fields == null) {
                    cache.remove(pks.get(i), ids.get(i));
                }
                continue;
            }
            charges.add(r.requestCharge());
            byte[] stored = r.stored();
            if (fields == null) {
                ObjectNode item = strip(store.codec().parse(stored, ObjectNode.class));
                ItemCache.Entry e = cache.put(pks.get(i), ids.get(i), item, stamps[i]);
                if (entries != null) {
                    entries[i] = e;
                }
                out.set(i, item);
            } else if (!io.tetradb.core.item.StoredItems.isBinary(stored)) {
                out.set(i, strip(store.codec().parse(stored, ObjectNode.class)));
            } else if (cache.enabled()) {
                // the whole item as a tree decoded when first touched: the asked fields cost what a partial decode
                // costs, and the next traversal reaching this vertex finds it in the exact cache
                ObjectNode item = strip(io.tetradb.core.item.StoredItems.parseLazily(stored));
                ItemCache.Entry e = cache.put(pks.get(i), ids.get(i), item, stamps[i],
                        ItemCache.estimateStored(stored.length));
                if (entries != null) {
                    entries[i] = e;
                }
                out.set(i, item);
            } else {
                out.set(i, io.tetradb.core.item.StoredItems.partial(stored, fields));
            }
        }
        return out;
    }

    /** Creates the item; false if its (pk, id) is taken. */
    public boolean create(ObjectNode item, Object pk) {
        try {
            CosmosItemResponse<ObjectNode> r = container.createItem(item, partitionKey(pk), noContent());
            charges.add(r.getRequestCharge());
            if (r.getETag() != null) {
                item.put(Layout.ETAG, r.getETag());
            }
            bump(pk, item.get(Layout.ID).asText());
            return true;
        } catch (CosmosException e) {
            if (e.getStatusCode() == 409) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Creates items of one logical partition as transactional batches of at most {@link #MAX_BATCH} operations (each
     * batch atomic, with every item's index entries); the items' etags are not kept. Throws if an item's (pk, id) is
     * taken or a batch fails otherwise; the batches written before the failure stay.
     */
    public void createAll(Object pk, List<ObjectNode> items) {
        for (int from = 0; from < items.size(); from += MAX_BATCH) {
            createBatch(pk, items.subList(from, Math.min(items.size(), from + MAX_BATCH)));
        }
    }

    private void createBatch(Object pk, List<ObjectNode> items) {
        CosmosBatch batch = CosmosBatch.createCosmosBatch(partitionKey(pk));
        for (ObjectNode item : items) {
            batch.createItemOperation(item);
        }
        CosmosBatchResponse r;
        try {
            r = container.executeCosmosBatch(batch);
        } catch (CosmosException e) {
            if (e.getStatusCode() == 400 && items.size() > 1 && e.getMessage().contains("bytes of items")) {
                // over the batch byte limit: halve it
                int half = items.size() / 2;
                createBatch(pk, items.subList(0, half));
                createBatch(pk, items.subList(half, items.size()));
                return;
            }
            throw e;
        }
        charges.add(r.getRequestCharge());
        if (!r.isSuccessStatusCode()) {
            for (CosmosBatchOperationResult op : r.getResults()) {
                if (op.getStatusCode() == 409) {
                    throw new DuplicateItemException(pk, ((ObjectNode) op.getOperation().getItem()).get(Layout.ID).asText());
                }
            }
            throw new IllegalStateException("writing " + items.size() + " items of partition " + pk + " failed: "
                    + r.getStatusCode() + " " + r.getErrorMessage());
        }
        for (ObjectNode item : items) {
            bump(pk, item.get(Layout.ID).asText());
        }
    }

    // ---- batched writes whose fsync is shared (BulkLoader, batched addV/addE) -----------------------------------

    /**
     * A collector of core batches applied but not yet awaited durable ({@link #createAll(Object, List,
     * DeferredCommits)}), or null when the graph has no core store (then every batch is awaited on its own).
     */
    public io.tetradb.core.store.DeferredCommits deferredCommits() {
        return core == null ? null : coreStore().deferredCommits();
    }

    /**
     * As {@link #deferredCommits()}, for a caller that always awaits it (in a {@code finally}) before it returns: the
     * lazy WAL syncer leaves its batches to that wait instead of syncing them again.
     */
    public io.tetradb.core.store.DeferredCommits awaitedCommits() {
        return core == null ? null : coreStore().awaitedCommits();
    }

    /**
     * As {@link #createAll(Object, List)}, each batch one atomic core write with its index and adjacency entries,
     * but returning once the batches are applied: they are durable only after {@code deferred.awaitDurable()}, which
     * the caller must wait for before it reports them written (null {@code deferred}: as {@link #createAll}).
     */
    public void createAll(Object pk, List<ObjectNode> items, io.tetradb.core.store.DeferredCommits deferred) {
        if (deferred == null || core == null) {
            createAll(pk, items);
            return;
        }
        for (int from = 0; from < items.size(); from += MAX_BATCH) {
            createBatch(pk, items.subList(from, Math.min(items.size(), from + MAX_BATCH)), deferred);
        }
    }

    private void createBatch(Object pk, List<ObjectNode> items, io.tetradb.core.store.DeferredCommits deferred) {
        List<io.tetradb.core.store.ItemOperation> ops = new ArrayList<>(items.size());
        for (ObjectNode item : items) {
            ops.add(io.tetradb.core.store.ItemOperation.create(item));
        }
        executeCreates(pk, ops, deferred);
    }

    /**
     * The encoded items' twin of {@link #createAll(Object, List, io.tetradb.core.store.DeferredCommits)}: items
     * already in the core's binary format (the bulk loader's, {@code structure.EncodedElementItems}); the core
     * reads their index terms and adjacency entries from the bytes. Needs the core store (see
     * {@link #writesEncoded()}).
     */
    public void createAllEncoded(Object pk, List<io.tetradb.core.store.EncodedItem> items,
                                 io.tetradb.core.store.DeferredCommits deferred) {
        for (int from = 0; from < items.size(); from += MAX_BATCH) {
            List<io.tetradb.core.store.ItemOperation> ops = new ArrayList<>(Math.min(MAX_BATCH, items.size() - from));
            for (io.tetradb.core.store.EncodedItem item : items.subList(from, Math.min(items.size(), from + MAX_BATCH))) {
                ops.add(io.tetradb.core.store.ItemOperation.create(item));
            }
            executeCreates(pk, ops, deferred);
        }
    }

    // ---- graph-bulk: the core's bulk mode (SST ingestion) ---------------------------------------------------------

    /**
     * Starts the core's bulk mode on this graph's container ({@code io.tetradb.core.bulk.BulkLoad}), or null when
     * the container cannot have it (no core store, a shared engine, expiring items, ...): then write batches.
     */
    public io.tetradb.core.bulk.BulkLoad beginBulkLoad() {
        return core == null ? null : coreStore().beginBulkLoad();
    }

    /**
     * All {@code items} of logical partition {@code pk} as one transaction of {@code bulk}'s current chunk (visible
     * and durable once the chunk is committed: then call {@link #bulkCommitted}); a taken id is a
     * DuplicateItemException and nothing of the partition joins the chunk.
     */
    public void createAllBulk(io.tetradb.core.bulk.BulkLoad bulk, Object pk,
                              List<io.tetradb.core.store.EncodedItem> items) {
        List<io.tetradb.core.store.ItemOperation> ops = new ArrayList<>(items.size());
        for (io.tetradb.core.store.EncodedItem item : items) {
            ops.add(io.tetradb.core.store.ItemOperation.create(item));
        }
        List<io.tetradb.core.store.ItemResult> results;
        try {
            results = bulk.write(partitionKeyValue(pk), ops);
        } catch (io.tetradb.core.StoreException e) {
            throw new CosmosException(e.status(), e.subStatus(), e.getMessage()); // as the document API reports it
        }
        double charge = 0;
        for (io.tetradb.core.store.ItemResult r : results) {
            if (r.status() == 409) {
                throw new DuplicateItemException(pk, r.id());
            }
            charge += r.requestCharge();
        }
        for (io.tetradb.core.store.ItemResult r : results) {
            if (!r.isSuccess() && r.status() != 424) {
                throw new IllegalStateException("writing " + ops.size() + " items of partition " + pk
                        + " failed: " + r.status() + " " + r.error());
            }
        }
        charges.add(charge);
    }

    /** After a bulk chunk's commit: the graph's cached reads of these items are stale. */
    public void bulkCommitted(Object pk, List<String> ids) {
        for (String id : ids) {
            bump(pk, id);
        }
    }

    /** Whether {@link #createAllEncoded} can be used: the graph writes through the core store. */
    public boolean writesEncoded() {
        return core != null;
    }

    /** A writer of items in the core's binary format, with the core's nesting limit (for one thread). */
    public io.tetradb.core.item.BinaryItemStreamWriter newItemWriter() {
        return coreStore().codec().itemStreamWriter();
    }

    /** One core batch of creates (halved when over the batch byte limit); a taken id is a DuplicateItemException. */
    private void executeCreates(Object pk, List<io.tetradb.core.store.ItemOperation> ops,
                                io.tetradb.core.store.DeferredCommits deferred) {
        List<io.tetradb.core.store.ItemResult> results;
        try {
            results = coreStore().executeBatch(partitionKeyValue(pk), ops, deferred);
        } catch (io.tetradb.core.StoreException e) {
            if (e.status() == 400 && ops.size() > 1 && String.valueOf(e.getMessage()).contains("bytes of items")) {
                int half = ops.size() / 2; // over the batch byte limit: halve it
                executeCreates(pk, ops.subList(0, half), deferred);
                executeCreates(pk, ops.subList(half, ops.size()), deferred);
                return;
            }
            throw new CosmosException(e.status(), e.subStatus(), e.getMessage()); // as the document API reports it
        }
        double charge = 0;
        for (io.tetradb.core.store.ItemResult r : results) {
            charge += r.requestCharge();
        }
        charges.add(charge);
        for (io.tetradb.core.store.ItemResult r : results) {
            if (r.status() == 409) {
                throw new DuplicateItemException(pk, r.id());
            }
        }
        for (io.tetradb.core.store.ItemResult r : results) {
            if (!r.isSuccess() && r.status() != 424) {
                throw new IllegalStateException("writing " + ops.size() + " items of partition " + pk
                        + " failed: " + r.status() + " " + r.error());
            }
        }
        for (io.tetradb.core.store.ItemResult r : results) {
            bump(pk, r.id());
        }
    }

    /** An item to create has the (pk, id) of an existing one. */
    public static final class DuplicateItemException extends RuntimeException {
        private final transient Object pk;
        private final String id;

        DuplicateItemException(Object pk, String id) {
            super("an item with id " + id + " already exists in partition " + pk);
            this.pk = pk;
            this.id = id;
        }

        public Object pk() {
            return pk;
        }

        public String id() {
            return id;
        }
    }

    /**
     * Replaces the item if it is still the version its {@code _etag} names (optimistic concurrency, as Cosmos DB
     * clients do); returns false if another writer changed it first. On success the item carries its new etag.
     */
    public boolean replace(ObjectNode item, Object pk) {
        JsonNode etag = item.remove(Layout.ETAG);
        CosmosItemRequestOptions options = noContent();
        if (etag != null) {
            options.setIfMatchETag(etag.asText());
        }
        try {
            CosmosItemResponse<ObjectNode> r = container.replaceItem(item, item.get(Layout.ID).asText(),
                    partitionKey(pk), options);
            charges.add(r.getRequestCharge());
            bump(pk, item.get(Layout.ID).asText());
            if (r.getETag() != null) {
                item.put(Layout.ETAG, r.getETag());
            }
            return true;
        } catch (CosmosException e) {
            if (e.getStatusCode() == 412) {
                return false;
            }
            throw e;
        }
    }

    /** Deletes the item; false if it was not there. */
    public boolean delete(Object pk, String id) {
        try {
            charges.add(container.deleteItem(id, partitionKey(pk), new CosmosItemRequestOptions()).getRequestCharge());
            cache.remove(pk, id);
            bump(pk, id);
            return true;
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Runs a Cosmos SQL query lazily, page by page; {@code pk} (a partition key value, or null for every partition)
     * routes it to one logical partition.
     */
    public Iterator<ObjectNode> query(Sql sql, Object pk) {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setMaxItemCount(PAGE_SIZE);
        if (pk != null) {
            options.setPartitionKey(partitionKey(pk));
        }
        List<SqlParameter> params = new ArrayList<>();
        sql.parameters().forEach((name, value) -> params.add(new SqlParameter(name, value)));
        Iterator<FeedResponse<ObjectNode>> pages = container
                .queryItems(new SqlQuerySpec(sql.text(), params), options, ObjectNode.class)
                .iterableByPage(PAGE_SIZE).iterator();
        return new Iterator<>() {
            private Iterator<ObjectNode> page = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!page.hasNext() && pages.hasNext()) {
                    FeedResponse<ObjectNode> next = nextPage(pages);
                    charges.add(next.getRequestCharge());
                    lastAccessPath.set(next.getAccessPath());
                    page = next.getResults().iterator();
                }
                return page.hasNext();
            }

            @Override
            public ObjectNode next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                // left unstripped: every reader skips the system fields as reserved names, and writes drop them;
                // removing them from every edge of every adjacency query was a visible cost
                return page.next();
            }
        };
    }

    /**
     * The next page; a page the core stopped because this thread was interrupted (Gremlin's evaluation timeout, an
     * abandoned request) ends the traversal as TinkerPop's steps do on an interrupt.
     */
    private static FeedResponse<ObjectNode> nextPage(Iterator<FeedResponse<ObjectNode>> pages) {
        try {
            return pages.next();
        } catch (CosmosException e) {
            if (e.getCause() instanceof io.tetradb.core.cancel.CallStoppedException stopped
                    && stopped.reason() == io.tetradb.core.cancel.StopReason.INTERRUPTED) {
                throw new org.apache.tinkerpop.gremlin.process.traversal.util.TraversalInterruptedException();
            }
            throw e;
        }
    }

    /**
     * The PartitionKey of a value, shared: a PartitionKey hashes its effective partition key once, and a traversal
     * addresses the same few partitions again and again. Bounded (cleared when it grows past 65,536 values).
     */
    public static PartitionKey partitionKey(Object pk) {
        PartitionKey k = PARTITION_KEYS.get(pk);
        if (k == null) {
            if (PARTITION_KEYS.size() > 65_536) {
                PARTITION_KEYS.clear();
            }
            k = new PartitionKey(pk);
            PARTITION_KEYS.put(pk, k);
        }
        return k;
    }

    private static final java.util.concurrent.ConcurrentHashMap<Object, PartitionKey> PARTITION_KEYS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static CosmosItemRequestOptions noContent() {
        return new CosmosItemRequestOptions().setContentResponseOnWriteEnabled(false);
    }

    private static ObjectNode strip(ObjectNode item) {
        if (item != null) {
            item.remove(Layout.SYSTEM);
        }
        return item;
    }
}
