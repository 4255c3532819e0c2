package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.store.GraphStore;
import io.tetradb.graph.store.Layout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The vertices and edges a traversal's {@code addV}/{@code addE} steps created while a batch was open on this thread
 * ({@code TetraBatchedAddStrategy}): instead of one core write each, {@link #flush()} writes them as transactional
 * batches, one per logical partition (up to 100 items each), whose fsyncs are shared, so each element stays one
 * atomic write (in a batch) as before.
 *
 * <p>Same results and errors as one write per element in creation order: when a batch fails, the elements are
 * written one by one in creation order (those a batch wrote already are skipped) until the first that fails, whose
 * own error is thrown (e.g. TinkerPop's {@code vertexWithIdAlreadyExists}), and the elements created after it that a
 * batch had written are deleted again, as they would never have been written.
 */
public final class PendingCreates {
    private static final ThreadLocal<PendingCreates> OPEN = new ThreadLocal<>();

    private record Pending(Object pk, String id, ObjectNode item, Supplier<RuntimeException> duplicate) {
    }

    private final TetraGraph graph;
    private final List<Pending> pending = new ArrayList<>();
    private final Set<List<Object>> addresses = new HashSet<>();

    private PendingCreates(TetraGraph graph) {
        this.graph = graph;
    }

    /** Opens a batch on this thread: creates of {@code graph} are held until {@link #flush()}. */
    public static PendingCreates open(TetraGraph graph) {
        PendingCreates p = new PendingCreates(graph);
        OPEN.set(p);
        return p;
    }

    /** Stops holding creates on this thread (what is held stays, for {@link #flush()}). */
    public void close() {
        if (OPEN.get() == this) {
            OPEN.remove();
        }
    }

    /**
     * Holds a new element's item if a batch is open for its graph on this thread (true), else false: the caller writes
     * it itself. {@code duplicate}: the error when its (pk, id) is taken.
     */
    static boolean offer(TetraGraph graph, Object pk, ObjectNode item, Supplier<RuntimeException> duplicate) {
        PendingCreates p = OPEN.get();
        if (p == null || p.graph != graph) {
            return false;
        }
        String id = item.get(Layout.ID).textValue();
        p.pending.add(new Pending(pk, id, item, duplicate));
        p.addresses.add(List.of(pk, id));
        return true;
    }

    /** Whether the element at (pk, id) is held by this thread's open batch (so not in the store yet). */
    static boolean holds(TetraGraph graph, Object pk, String id) {
        PendingCreates p = OPEN.get();
        return p != null && p.graph == graph && p.addresses.contains(List.of(pk, id));
    }

    /** How many elements are held. */
    public int size() {
        return pending.size();
    }

    /** Writes what is held; see the class comment for failures. */
    public void flush() {
        List<Pending> all = new ArrayList<>(pending);
        pending.clear();
        addresses.clear();
        if (all.isEmpty()) {
            return;
        }
        GraphStore store = graph.store();
        if (all.size() == 1) {
            writeOne(store, all.get(0));
            return;
        }
        Map<Object, List<Integer>> byPartition = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            byPartition.computeIfAbsent(all.get(i).pk(), k -> new ArrayList<>()).add(i);
        }
        boolean[] written = new boolean[all.size()];
        boolean failed = false;
        // always awaited in the finally below: the lazy WAL syncer leaves these batches to that wait
        io.tetradb.core.store.DeferredCommits deferred = store.awaitedCommits();
        try {
            for (Map.Entry<Object, List<Integer>> e : byPartition.entrySet()) {
                List<Integer> indexes = e.getValue();
                for (int from = 0; from < indexes.size() && !failed; from += GraphStore.MAX_BATCH) {
                    List<Integer> chunk = indexes.subList(from, Math.min(indexes.size(), from + GraphStore.MAX_BATCH));
                    List<ObjectNode> items = new ArrayList<>(chunk.size());
                    chunk.forEach(i -> items.add(all.get(i).item()));
                    try {
                        store.createAll(e.getKey(), items, deferred);
                        chunk.forEach(i -> written[i] = true);
                    } catch (RuntimeException ex) {
                        failed = true; // found again below, one element at a time
                    }
                }
                if (failed) {
                    break;
                }
            }
        } finally {
            if (deferred != null) {
                deferred.awaitDurable();
            }
        }
        if (!failed) {
            return;
        }
        for (int i = 0; i < all.size(); i++) {
            if (written[i]) {
                continue;
            }
            try {
                writeOne(store, all.get(i));
            } catch (RuntimeException error) {
                for (int j = i + 1; j < all.size(); j++) {
                    if (written[j]) {
                        store.delete(all.get(j).pk(), all.get(j).id());
                    }
                }
                throw error;
            }
        }
    }

    private static void writeOne(GraphStore store, Pending p) {
        if (!store.create(p.item(), p.pk())) {
            throw p.duplicate().get();
        }
    }
}
