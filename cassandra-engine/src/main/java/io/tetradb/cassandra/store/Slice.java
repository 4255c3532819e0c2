package io.tetradb.cassandra.store;

/**
 * A slice of the engine's key space: for Cassandra a range of Murmur3 tokens {@code (start, end]} (the ring's
 * wrap-around split in two, so every slice is an ordinary interval).
 */
public record Slice(long start, long end) {
    public boolean contains(long token) {
        return token > start && token <= end;
    }
}
