package io.tetradb.core.storage;

/**
 * A pull cursor over one key range of a space, forwards or backwards, for readers that interleave several ranges
 * (k-way merges) or stop and resume (query pages). Always close it: an open cursor holds the engine open.
 */
public interface KeyCursor extends AutoCloseable {

    /** Moves to the next entry in the cursor's direction; false when the range is exhausted. */
    boolean next();

    /** The current entry's key (valid after {@link #next()} returned true). */
    byte[] key();

    /** The current entry's value. */
    byte[] value();

    @Override
    void close();
}
