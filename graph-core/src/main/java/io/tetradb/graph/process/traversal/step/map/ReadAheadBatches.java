package io.tetradb.graph.process.traversal.step.map;

import org.apache.tinkerpop.gremlin.process.traversal.Traverser;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * How the steps that read a hop's vertices ahead ({@link TetraPrefetchStep}, {@link TetraVertexValuesStep}) take
 * their traversers: 16 first (a traversal read with {@code next()} reads little ahead), the size doubling per batch up
 * to 512 (one multi-get per batch). A step clones get a new one.
 */
final class ReadAheadBatches {
    static final int FIRST = 16;
    static final int MAX = 512;

    private int size = FIRST;

    /** The next batch: up to its size of traversers, in order; empty when {@code starts} has none. */
    <S> List<Traverser.Admin<S>> take(Iterator<Traverser.Admin<S>> starts) {
        List<Traverser.Admin<S>> taken = new ArrayList<>(size);
        while (taken.size() < size && starts.hasNext()) {
            taken.add(starts.next());
        }
        if (!taken.isEmpty()) {
            size = Math.min(MAX, size * 2);
        }
        return taken;
    }

    void reset() {
        size = FIRST;
    }
}
