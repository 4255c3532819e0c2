package io.tetradb.table;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Query results fetched page by page as they are iterated (the shape of the SDK's {@code PagedIterable}):
 * iterate or {@link #stream()} the entities, or walk {@link #iterableByPage()} with continuation tokens.
 */
public final class TablePagedIterable implements Iterable<TableEntity> {
    /** One page and the token of the next (null on the last page). */
    public record Page(List<TableEntity> values, String continuationToken) {
        public List<TableEntity> getValue() {
            return values;
        }

        public String getContinuationToken() {
            return continuationToken;
        }
    }

    private final Function<String, Page> fetch;

    TablePagedIterable(Function<String, Page> fetch) {
        this.fetch = fetch;
    }

    /** The pages from the first one. */
    public Iterable<Page> iterableByPage() {
        return iterableByPage(null);
    }

    /** The pages from the one {@code continuationToken} names (null: the first). */
    public Iterable<Page> iterableByPage(String continuationToken) {
        return () -> new Iterator<>() {
            private String token = continuationToken;
            private boolean done;

            @Override
            public boolean hasNext() {
                return !done;
            }

            @Override
            public Page next() {
                if (done) {
                    throw new NoSuchElementException();
                }
                Page p = fetch.apply(token);
                token = p.continuationToken();
                done = token == null;
                return p;
            }
        };
    }

    @Override
    public Iterator<TableEntity> iterator() {
        Iterator<Page> pages = iterableByPage().iterator();
        return new Iterator<>() {
            private Iterator<TableEntity> current = java.util.Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && pages.hasNext()) {
                    current = pages.next().values().iterator();
                }
                return current.hasNext();
            }

            @Override
            public TableEntity next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }
        };
    }

    public Stream<TableEntity> stream() {
        return StreamSupport.stream(spliterator(), false);
    }
}
