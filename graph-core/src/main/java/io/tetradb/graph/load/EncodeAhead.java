package io.tetradb.graph.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.EncodedItem;
import io.tetradb.graph.structure.EncodedElementItems;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * A bulk load's elements encoded ahead (graph-load, issue 18): in bulk mode a chunk's transactions start only once
 * the chunk is decoded, so without this the writer threads wait while the caller decodes the source. Elements are
 * queued as they are decoded and encoded in batches on the writer threads meanwhile; each then lets go of its
 * source element (so the decoded graph dies young). An element whose encoding failed throws that failure when its
 * transaction asks for it, where it would have been thrown without encoding ahead. Used by one caller thread.
 */
final class EncodeAhead {
    private static final int BATCH = 512;

    private final ExecutorService pool;
    private final Supplier<EncodedElementItems> encoder;
    private List<Ahead> batch = new ArrayList<>(BATCH);
    private final List<Future<?>> running = new ArrayList<>();

    EncodeAhead(ExecutorService pool, Supplier<EncodedElementItems> encoder) {
        this.pool = pool;
        this.encoder = encoder;
    }

    /** Queues {@code element} for encoding; returns what stands for it in the chunk. */
    BulkLoader.Element queue(BulkLoader.Element element) {
        Ahead a = new Ahead(element);
        batch.add(a);
        if (batch.size() == BATCH) {
            submit();
        }
        return a;
    }

    /** Waits until every element queued so far is encoded (or has failed). */
    void await() {
        if (!batch.isEmpty()) {
            submit();
        }
        for (Future<?> f : running) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while loading", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
        running.clear();
    }

    private void submit() {
        List<Ahead> mine = batch;
        batch = new ArrayList<>(BATCH);
        running.add(pool.submit(() -> {
            EncodedElementItems enc = encoder.get();
            for (Ahead a : mine) {
                a.encodeNow(enc);
            }
        }));
    }

    /** One element: its encoded item once encoded, or the failure; its source until then. */
    private static final class Ahead implements BulkLoader.Element {
        private final String id;
        private BulkLoader.Element source;
        private EncodedItem item;
        private RuntimeException failure;

        Ahead(BulkLoader.Element source) {
            this.id = source.id();
            this.source = source;
        }

        @Override
        public String id() {
            return id;
        }

        void encodeNow(EncodedElementItems enc) {
            try {
                item = source.encode(enc);
            } catch (RuntimeException e) {
                failure = e;
            }
            source = null;
        }

        @Override
        public EncodedItem encode(EncodedElementItems enc) {
            if (source != null) {
                encodeNow(enc);
            }
            if (failure != null) {
                throw failure;
            }
            return item;
        }

        @Override
        public ObjectNode tree() {
            throw new UnsupportedOperationException("encoded ahead: bulk mode writes encoded items only");
        }
    }
}
