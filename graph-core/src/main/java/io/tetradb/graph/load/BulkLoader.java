package io.tetradb.graph.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.GraphStore;
import io.tetradb.core.store.EncodedItem;
import io.tetradb.graph.structure.ElementItems;
import io.tetradb.graph.structure.EncodedElementItems;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.io.GraphReader;
import org.apache.tinkerpop.gremlin.structure.util.Attachable;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Loads a whole graph into an empty (or disjoint) part of a {@link TetraGraph} much faster than {@code addVertex}
 * and {@code addEdge} one by one: items are built in memory and written as transactional batches of up to 100 items
 * per logical partition, each batch one atomic core write with every item's index entries. The items are exactly
 * those {@code addVertex}/{@code addEdge} write ({@link ElementItems}).
 *
 * <pre>
 * BulkLoader.into(graph).partitionKey(v -&gt; v.value("country")).read(GryoReader.build().create(), in);
 * BulkLoader.into(graph).load(tinkerGraph);
 * </pre>
 *
 * Ids: a source element's id becomes its id inside the partition by its string form ({@code 42} → {@code "42"};
 * a {@code [pk, id]} id of another TetraGraph keeps its {@code id}). The partition key of a vertex comes from the
 * {@link #partitionKey(Function) partition key function}; by default the vertex's own property named like the graph's
 * partition key, else the graph's default partition. Edges go to their source's partition and are written once
 * every vertex is, since an edge item names its target's partition and label.
 *
 * <p>Bulk mode ({@link #ingest(boolean)}, the default where the core allows it): the elements of each logical
 * partition are one core transaction per chunk of {@link #chunkElements(int)} elements, and each chunk is written as
 * sorted SST files ingested into the store (the core's {@code io.tetradb.core.bulk.BulkLoad}) rather than through
 * the write-ahead log; the container's other writers wait until the load ends. A failed load keeps the chunks
 * committed before the failure, never part of one.
 *
 * <p>Not atomic as a whole: when a batch fails (e.g. an id that exists already) the load stops with that error;
 * the batches written before it, and those other writer threads had in flight, stay. Vertex property ids are
 * generated (as {@code addVertex} does).
 */
public final class BulkLoader {
    private final TetraGraph graph;
    private Function<? super Vertex, ?> partitionKeyOf;
    private int writers = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    private boolean encodedItems = ENCODED;
    private boolean ingest = INGEST;
    private int chunkElements = CHUNK_ELEMENTS;

    private BulkLoader(TetraGraph graph) {
        this.graph = graph;
        this.partitionKeyOf = v -> {
            Iterator<? extends VertexProperty<?>> p = v.properties(graph.partitionKey());
            return p.hasNext() ? p.next().value() : graph.defaultPartition();
        };
    }

    public static BulkLoader into(TetraGraph graph) {
        return new BulkLoader(graph);
    }

    /** How a source vertex's partition key value is chosen (e.g. {@code v -> v.value("country")}). */
    public BulkLoader partitionKey(Function<? super Vertex, ?> partitionKeyOf) {
        this.partitionKeyOf = Objects.requireNonNull(partitionKeyOf);
        return this;
    }

    /**
     * How many threads write batches (default: the number of processors, at most 4). Batches of different logical
     * partitions commit in parallel (and share their fsyncs); the caller's thread decodes and builds items.
     */
    public BulkLoader writers(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("writers must be at least 1");
        }
        this.writers = threads;
        return this;
    }

    /**
     * Whether items reach the core as TB1 bytes built without a tree (the default where the store writes TB1) or as
     * trees, as before (kept to compare the two; {@code -Dtetradb.graph.encodedLoad=false} sets the default).
     */
    public BulkLoader encodedItems(boolean encoded) {
        this.encodedItems = encoded;
        return this;
    }

    /**
     * Whether the load uses the core's bulk mode where the container allows it (the default; {@code
     * -Dtetradb.graph.bulkIngest=false} sets the default off): items, index and adjacency entries, change records
     * built by the core's normal transaction but written as sorted SST files ingested chunk by chunk, instead of
     * batches of 100 through the write-ahead log and memtables. The container's other writers wait meanwhile.
     * Needs encoded items; off, or where the core refuses bulk mode (see {@code ContainerStore.beginBulkLoad}),
     * batches are written as before.
     */
    public BulkLoader ingest(boolean on) {
        this.ingest = on;
        return this;
    }

    /**
     * Elements per ingested chunk in bulk mode (default 100,000, {@code -Dtetradb.graph.bulkChunkElements}): each
     * chunk is whole or absent after a crash, and held in memory (≈ 1–2 KB per element) until it is written.
     */
    public BulkLoader chunkElements(int elements) {
        if (elements < 1) {
            throw new IllegalArgumentException("chunkElements must be at least 1");
        }
        this.chunkElements = elements;
        return this;
    }

    /** {@code -Dtetradb.bulk.trace=true}: each bulk chunk's phases on stderr (read, encode wait, transactions, commit). */
    private static final boolean TRACE = Boolean.getBoolean("tetradb.bulk.trace");
    static final boolean INGEST = !"false".equalsIgnoreCase(System.getProperty("tetradb.graph.bulkIngest"));
    static final int CHUNK_ELEMENTS = Integer.getInteger("tetradb.graph.bulkChunkElements", 100_000);

    /** What a load wrote. */
    public record Loaded(long vertices, long edges) {
        public long elements() {
            return vertices + edges;
        }
    }

    /** Copies every vertex and edge of {@code source} (any TinkerPop graph). */
    public Loaded load(Graph source) {
        try (Run run = new Run()) {
            source.vertices().forEachRemaining(run::vertex);
            source.vertices().forEachRemaining(v -> v.edges(Direction.OUT).forEachRemaining(run::edge));
            return run.finish();
        }
    }

    /**
     * Reads a graph from a {@link GraphReader} stream (Gryo, GraphSON, GraphBinary: whatever the reader decodes)
     * vertex by vertex, with each vertex's out-edges.
     */
    public Loaded read(GraphReader reader, InputStream in) throws IOException {
        try (Run run = new Run()) {
            List<Edge> edges = new ArrayList<>();
            Iterator<Vertex> vertices = reader.readVertices(in, Attachable::get, Attachable::get, Direction.OUT);
            while (vertices.hasNext()) {
                Vertex v = vertices.next();
                run.vertex(v);
                v.edges(Direction.OUT).forEachRemaining(edges::add);
            }
            for (Edge e : edges) {
                run.edge(e);
            }
            edges.clear(); // the decoded source is let go of as its elements are encoded, not when the load ends
            return run.finish();
        }
    }

    /**
     * Whether loads hand the core encoded items ({@link EncodedElementItems}) rather than trees; {@code
     * -Dtetradb.graph.encodedLoad=false} keeps the trees (for comparisons).
     */
    static final boolean ENCODED = !"false".equalsIgnoreCase(System.getProperty("tetradb.graph.encodedLoad"));

    /** A source element to be written: built on a writer thread, as a tree or as encoded bytes. */
    interface Element {
        /** The element's id inside its partition (graph-load3: known before encoding, not read back from the item). */
        String id();

        ObjectNode tree();

        EncodedItem encode(EncodedElementItems encoder);
    }

    /** The address and label of a loaded vertex: what its edges need. */
    private record Written(Object pk, String id, String label) {
    }

    /**
     * One load. The caller's thread decodes the source and groups its elements per logical partition (checking ids
     * and ends); each full chunk of 100 goes to a writer thread, which builds the items and writes them as one
     * atomic core batch whose fsync it does not wait for: the chunks' durability is awaited together (every 1024
     * chunks and at the end, before the load returns), so the writers share fsyncs instead of queueing on them. At
     * most two chunks per writer in flight, so memory stays bounded.
     */
    private final class Run implements AutoCloseable {
        private final GraphStore store = graph.store();
        private final ExecutorService pool = Executors.newFixedThreadPool(writers, r -> {
            Thread t = new Thread(r, "tetra-bulk-writer");
            t.setDaemon(true);
            return t;
        });
        private final Semaphore inFlight = new Semaphore(2 * writers);
        private final List<Future<?>> written = new ArrayList<>();
        /** Batched mode: each partition's last chunk submitted, which its next chunk follows. */
        private final Map<Object, CompletableFuture<Void>> lastChunkOf = new HashMap<>();
        /** The chunks applied but not yet awaited durable. */
        private final java.util.Queue<io.tetradb.core.store.DeferredCommits> applied =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final Map<Object, Written> vertices = new HashMap<>();
        private final Map<Object, List<Element>> pending = new LinkedHashMap<>();
        /** Items go to the core as TB1 bytes built here (no tree) where values are typed values (a TB1 store). */
        private final boolean encoded = encodedItems && EncodedElementItems.available() && store.writesEncoded();
        /** Each writer thread's encoder (it keeps a buffer). */
        private final ThreadLocal<EncodedElementItems> encoders =
                ThreadLocal.withInitial(() -> new EncodedElementItems(store.newItemWriter()));
        private long vertexCount;
        private long edgeCount;
        /** graph-bulk: the core's bulk mode, or null (batches through the WAL, as before). */
        private final io.tetradb.core.bulk.BulkLoad bulk = encoded && ingest ? store.beginBulkLoad() : null;
        /** Elements pending in bulk mode (all partitions). */
        private long pendingElements;
        /** Trace: when this chunk's source reading began, and chunks written. */
        private long readFrom = System.nanoTime();
        private int chunks;
        /** Bulk mode: elements encoded ahead of their transaction. */
        private final EncodeAhead ahead = new EncodeAhead(pool, () -> encoders.get());

        void vertex(Vertex v) {
            Object pk = partitionKeyOf.apply(v);
            if (pk == null) {
                throw new IllegalArgumentException("vertex " + v.id() + " has no partition key: give BulkLoader a "
                        + "partition key function, or the vertices a '" + graph.partitionKey() + "' property");
            }
            String id = idOf(v.id());
            if (vertices.put(v.id(), new Written(pk, id, v.label())) != null) {
                throw new IllegalArgumentException("the source has two vertices with id " + v.id());
            }
            add(pk, new Element() {
                @Override
                public String id() {
                    return id;
                }

                @Override
                public ObjectNode tree() {
                    return vertexItem(v, pk, id);
                }

                @Override
                public EncodedItem encode(EncodedElementItems e) {
                    return e.vertex(graph, pk, id, v.label(), nonKeyProperties(v, pk));
                }
            });
            vertexCount++;
        }

        /**
         * The vertex's properties but the partition key's, whose value (when the vertex has one) must be the one the
         * function gave; read without TinkerPop's stream iterators ({@link SourceProperties}).
         */
        private List<VertexProperty<?>> nonKeyProperties(Vertex v, Object pk) {
            List<VertexProperty<?>> all = new ArrayList<>();
            SourceProperties.ofVertex(v, all);
            String pkName = graph.partitionKey();
            int kept = 0;
            for (int i = 0; i < all.size(); i++) {
                VertexProperty<?> p = all.get(i);
                if (!p.key().equals(pkName)) {
                    all.set(kept++, p);
                } else if (!Objects.equals(p.value(), pk)) {
                    throw new IllegalArgumentException("vertex " + v.id() + " has '" + p.key() + "' = " + p.value()
                            + " but the partition key function gave " + pk);
                }
            }
            return all.subList(0, kept);
        }

        /** Runs on a writer thread: the source vertex is only read. */
        private ObjectNode vertexItem(Vertex v, Object pk, String id) {
            ObjectNode item = ElementItems.vertex(graph, pk, id, v.label());
            for (Iterator<VertexProperty<Object>> it = v.properties(); it.hasNext(); ) {
                VertexProperty<Object> p = it.next();
                if (p.key().equals(graph.partitionKey())) {
                    if (!Objects.equals(p.value(), pk)) {
                        throw new IllegalArgumentException("vertex " + v.id() + " has '" + p.key() + "' = " + p.value()
                                + " but the partition key function gave " + pk);
                    }
                    continue;
                }
                ElementItems.addVertexProperty(graph, item, p.key(), p.value(), metaKeyValues(p));
            }
            return item;
        }

        void edge(Edge e) {
            Written out = written(e.outVertex().id());
            Written in = written(e.inVertex().id());
            String id = idOf(e.id());
            add(out.pk(), new Element() {
                @Override
                public String id() {
                    return id;
                }

                @Override
                public ObjectNode tree() {
                    return edgeItem(e, id, out, in);
                }

                @Override
                public EncodedItem encode(EncodedElementItems enc) {
                    return enc.edge(graph, id, e.label(), out.pk(), out.id(), out.label(), in.pk(), in.id(),
                            in.label(), SourceProperties.ofEdge(e));
                }
            });
            edgeCount++;
        }

        /** Runs on a writer thread: the source edge is only read. */
        private ObjectNode edgeItem(Edge e, String id, Written out, Written in) {
            ObjectNode item = ElementItems.edge(graph, id, e.label(), out.pk(), out.id(), out.label(),
                    in.pk(), in.id(), in.label());
            for (Iterator<Property<Object>> it = e.properties(); it.hasNext(); ) {
                Property<Object> p = it.next();
                ElementItems.edgeProperty(graph, item, p.key(), p.value());
            }
            return item;
        }

        private Written written(Object sourceId) {
            Written w = vertices.get(sourceId);
            if (w == null) {
                throw new IllegalArgumentException("an edge names vertex " + sourceId + ", which the source does not hold");
            }
            return w;
        }

        private void add(Object pk, Element item) {
            if (bulk != null) {
                item = ahead.queue(item); // encoded on the writer threads while this thread decodes on
            }
            List<Element> items = pending.computeIfAbsent(pk, k -> new ArrayList<>(GraphStore.MAX_BATCH));
            items.add(item);
            if (bulk != null) { // a partition's elements stay together: one transaction per partition and chunk
                if (++pendingElements >= chunkElements) {
                    writeChunk();
                }
                return;
            }
            if (items.size() == GraphStore.MAX_BATCH) {
                pending.remove(pk);
                write(pk, items);
            }
        }

        private void write(Object pk, List<Element> chunk) {
            inFlight.acquireUninterruptibly();
            Runnable work = () -> {
                io.tetradb.core.store.DeferredCommits deferred = store.deferredCommits();
                if (encoded) {
                    EncodedElementItems enc = encoders.get();
                    List<EncodedItem> items = new ArrayList<>(chunk.size());
                    for (Element e : chunk) {
                        items.add(e.encode(enc));
                    }
                    store.createAllEncoded(pk, items, deferred);
                } else {
                    List<ObjectNode> items = new ArrayList<>(chunk.size());
                    for (Element e : chunk) {
                        items.add(e.tree());
                    }
                    store.createAll(pk, items, deferred);
                }
                if (deferred != null) {
                    applied.add(deferred);
                }
            };
            // a partition's chunks commit in source order (so its lsns, etags and change feed follow the source
            // whatever the writers' timing); chunks of other partitions run beside them
            CompletableFuture<Void> previous = lastChunkOf.get(pk);
            CompletableFuture<Void> chunkDone = previous == null ? CompletableFuture.runAsync(work, pool)
                    : previous.thenRunAsync(work, pool);
            chunkDone.whenComplete((ok, failed) -> inFlight.release());
            lastChunkOf.put(pk, chunkDone);
            written.add(chunkDone);
            if (written.size() > 1024) {
                awaitDone();
            }
        }

        /** Waits for the chunks submitted so far to be written and durable; rethrows the first failure. */
        private void awaitDone() {
            for (Future<?> f : written) {
                try {
                    f.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while loading", e);
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
            written.clear();
            lastChunkOf.clear();
            for (io.tetradb.core.store.DeferredCommits d; (d = applied.poll()) != null; ) {
                d.awaitDurable(); // the first waits for the sync covering all of them; the rest are already durable
            }
        }

        /**
         * Bulk mode: each pending partition's elements as one transaction of the core's chunk (on the writer
         * threads), then the chunk ingested: visible and durable, or (a failure) nothing of it.
         */
        private void writeChunk() {
            long t0 = System.nanoTime();
            long readStart = readFrom;
            ahead.await();
            long t1 = System.nanoTime();
            List<Future<?>> parts = new ArrayList<>(pending.size());
            Map<Object, List<String>> ids = new ConcurrentHashMap<>();
            // largest partitions first, so no large one is left to run alone at the end (graph-load)
            List<Map.Entry<Object, List<Element>>> bySize = new ArrayList<>(pending.entrySet());
            bySize.sort((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size()));
            for (Map.Entry<Object, List<Element>> e : bySize) {
                Object pk = e.getKey();
                List<Element> chunk = e.getValue();
                parts.add(pool.submit(() -> {
                    EncodedElementItems enc = encoders.get();
                    List<EncodedItem> items = new ArrayList<>(chunk.size());
                    List<String> written = new ArrayList<>(chunk.size());
                    for (Element el : chunk) {
                        items.add(el.encode(enc));
                        written.add(el.id());
                    }
                    store.createAllBulk(bulk, pk, items);
                    ids.put(pk, written);
                    chunk.clear(); // its encoded items are in the core's chunk now: let them die young
                }));
            }
            pending.clear();
            pendingElements = 0;
            for (Future<?> f : parts) {
                await(f);
            }
            long t2 = System.nanoTime();
            bulk.commit();
            ids.forEach(store::bulkCommitted);
            chunks++;
            if (TRACE) { // graph-load3: where a load's wall time goes, phase by phase
                long t3 = System.nanoTime();
                System.err.printf(java.util.Locale.ROOT, "bulk load chunk %d: source read %.1f ms, encoding ahead "
                        + "awaited %.1f, transactions %.1f, commit %.1f%n", chunks, (t0 - readStart) / 1e6,
                        (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6);
            }
            readFrom = System.nanoTime();
        }

        private void await(Future<?> f) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while loading", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }

        /** Writes what is pending and waits for every chunk to be durable. */
        Loaded finish() {
            if (bulk != null) {
                writeChunk(); // durable when the load returns
                return new Loaded(vertexCount, edgeCount);
            }
            pending.forEach(this::write);
            pending.clear();
            awaitDone();
            return new Loaded(vertexCount, edgeCount);
        }

        @Override
        public void close() {
            pool.shutdownNow();
            if (bulk != null) {
                try {
                    pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES); // no write joins a dropped chunk
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                bulk.close(); // a chunk not committed (a failed load) is dropped: nothing of it was written
            }
        }
    }

    private static Object[] metaKeyValues(VertexProperty<?> p) {
        List<Object> kv = new ArrayList<>();
        p.properties().forEachRemaining(m -> {
            kv.add(m.key());
            kv.add(m.value());
        });
        return kv.toArray();
    }

    /** A source id's id inside the partition: its string form, or the id part of a {@code [pk, id]}. */
    static String idOf(Object sourceId) {
        if (sourceId instanceof List<?> l && l.size() == 2) {
            return String.valueOf(l.get(1));
        }
        return String.valueOf(sourceId);
    }
}
