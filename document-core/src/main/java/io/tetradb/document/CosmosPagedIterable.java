package io.tetradb.document;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Query results, iterable item by item or page by page, as in azure-cosmos. Pages are fetched lazily; each page is a
 * stateless request that carries its continuation token.
 */
public final class CosmosPagedIterable<T> implements Iterable<T> {
    /** Fetches the page after {@code continuation} (null: the first) of at most {@code pageSize} results. */
    interface PageSource<T> {
        FeedResponse<T> page(String continuation, int pageSize);
    }

    private final PageSource<T> source;
    private final int defaultPageSize;

    CosmosPagedIterable(PageSource<T> source, int defaultPageSize) {
        this.source = source;
        this.defaultPageSize = defaultPageSize;
    }

    @Override
    public Iterator<T> iterator() {
        Iterator<FeedResponse<T>> pages = iterableByPage().iterator();
        return new Iterator<>() {
            private Iterator<T> current = List.<T>of().iterator();

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && pages.hasNext()) {
                    current = pages.next().getResults().iterator();
                }
                return current.hasNext();
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }
        };
    }

    public Stream<T> stream() {
        return StreamSupport.stream(spliterator(), false);
    }

    public Iterable<FeedResponse<T>> iterableByPage() {
        return iterableByPage(null, defaultPageSize);
    }

    public Iterable<FeedResponse<T>> iterableByPage(int pageSize) {
        return iterableByPage(null, pageSize);
    }

    /** The pages from {@code continuationToken} on (null: from the start). */
    public Iterable<FeedResponse<T>> iterableByPage(String continuationToken, int pageSize) {
        if (pageSize <= 0) {
            throw new IllegalArgumentException("pageSize must be positive");
        }
        return () -> new Iterator<>() {
            private String next = continuationToken;
            private boolean started;
            private boolean drained;

            @Override
            public boolean hasNext() {
                return !started || (next != null && !drained);
            }

            @Override
            public FeedResponse<T> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                started = true;
                FeedResponse<T> page = source.page(next, pageSize);
                next = page.getContinuationToken();
                drained = page.drained;
                return page;
            }
        };
    }

    /** Every result, for tests and small queries. */
    List<T> toList() {
        List<T> out = new ArrayList<>();
        forEach(out::add);
        return out;
    }
}
